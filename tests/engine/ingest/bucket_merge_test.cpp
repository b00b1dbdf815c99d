// An analysis past one machine (ingest/buckets.h): parts cut into K buckets by key, each bucket
// merged across parts into a summary, the summaries and the parts' figures merged into the
// report — byte for byte one pass's report (container model included) and one pass's error, on
// the examples and seeded random inputs, for several K; merges of merges in any grouping; and
// each bad input (a bucket missing, from another run or key, cut short, of another version) a
// kBadPartial naming what is wrong. Authored cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "partial_state_test_helpers.h"
#include "partplay/ingest/analysis.h"
#include "partplay/ingest/buckets.h"
#include "partplay/report/report_builder.h"
#include "sanitizer_scale.h"

namespace partplay {
namespace {

using namespace partial_state_test;  // NOLINT: the shared helpers

// One part's files: [0] its figures, [1 + b] bucket b.
using PartFiles = std::vector<std::string>;

StatusOr<PartFiles> CutPart(const AnalysisOptions& options, std::string_view text,
                            uint32_t buckets) {
  PARTPLAY_ASSIGN_OR_RETURN(auto part, Analyzer::CreatePart(options));
  Status s;
  for (size_t at = 0; at < text.size() && s.ok(); at += 4096) s = part->Feed(text.substr(at, 4096));
  if (s.ok()) s = part->Finish();
  (void)s;  // a failed part carries its error in its files
  PartFiles files(1 + buckets);
  PARTPLAY_RETURN_IF_ERROR(part->SerializeBuckets(buckets, [&](int file, std::string bytes) {
    files[static_cast<size_t>(file + 1)] = std::move(bytes);
    return Status::Ok();
  }));
  return files;
}

std::vector<PartFiles> CutParts(const AnalysisOptions& options, std::string_view text,
                                std::vector<size_t> cuts, uint32_t buckets) {
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(text.size());
  std::vector<PartFiles> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    auto files = CutPart(options, text.substr(cuts[k], cuts[k + 1] - cuts[k]), buckets);
    EXPECT_TRUE(files.ok()) << files.status().ToString();
    parts.push_back(files.ok() ? std::move(files).value() : PartFiles{});
  }
  return parts;
}

StatusOr<std::unique_ptr<Analyzer>> MergeFiles(const std::vector<std::string>& files) {
  std::vector<std::unique_ptr<Analyzer>> parsed;
  for (const std::string& bytes : files) {
    PARTPLAY_ASSIGN_OR_RETURN(auto part, Analyzer::ParsePartial(bytes));
    parsed.push_back(std::move(part));
  }
  return Analyzer::Merge(std::move(parsed));
}

// File `file` (0: figures, 1 + b: bucket b) of every part.
std::vector<std::string> Column(const std::vector<PartFiles>& parts, size_t file) {
  std::vector<std::string> out;
  for (const PartFiles& p : parts) out.push_back(p[file]);
  return out;
}

StatusOr<std::string> BucketSummary(const std::vector<PartFiles>& parts, uint32_t bucket) {
  PARTPLAY_ASSIGN_OR_RETURN(auto merged, MergeFiles(Column(parts, 1 + bucket)));
  return merged->SerializeBucketSummary();
}

// The report from the figures and the summaries (given in reverse bucket order: any order).
StatusOr<std::string> Report(const AnalysisOptions& options, const std::vector<PartFiles>& parts,
                             std::vector<NamedBytes> summaries) {
  PARTPLAY_ASSIGN_OR_RETURN(auto figures, MergeFiles(Column(parts, 0)));
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 40000;
  if (options.key_paths.size() > 1) request.container->version = PartitionKeyHashVersion::kMultiHash;
  PARTPLAY_ASSIGN_OR_RETURN(
      SummaryMerge merged,
      MergeBucketSummaries(*figures, std::move(summaries),
                           {.max_partitions = request.max_partitions, .candidate_values = true},
                           true));
  PARTPLAY_ASSIGN_OR_RETURN(
      BuiltReport built,
      BuildFullReportFrom(std::move(merged.report), merged.all.get(), merged.options, request));
  return built.json;
}

// The report of `listed` partitions without the container model, which the summary step makes
// in two passes over the summaries, holding no partition (every_partition = false).
StatusOr<std::string> ShortReport(const AnalysisOptions& options,
                                  const std::vector<PartFiles>& parts,
                                  std::vector<NamedBytes> summaries, int64_t listed) {
  PARTPLAY_ASSIGN_OR_RETURN(auto figures, MergeFiles(Column(parts, 0)));
  ReportRequest request;
  request.max_partitions = listed;
  PARTPLAY_ASSIGN_OR_RETURN(
      SummaryMerge merged,
      MergeBucketSummaries(*figures, std::move(summaries),
                           {.max_partitions = listed, .candidate_values = false}, false));
  if (merged.all != nullptr || !merged.report.partition_bytes.empty()) {
    return Status(ErrorCode::kInternal, "the two-pass summary held the partitions");
  }
  PARTPLAY_ASSIGN_OR_RETURN(
      BuiltReport built,
      BuildFullReportFrom(std::move(merged.report), nullptr, merged.options, request));
  return built.json;
}

StatusOr<std::string> OnePassShort(const AnalysisOptions& options, std::string_view text,
                                   int64_t listed) {
  PARTPLAY_ASSIGN_OR_RETURN(auto analyzer, Analyzer::Create(options));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Feed(text));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Finish());
  ReportRequest request;
  request.max_partitions = listed;
  PARTPLAY_ASSIGN_OR_RETURN(BuiltReport built, BuildFullReport(*analyzer, options, request));
  return built.json;
}

StatusOr<std::vector<NamedBytes>> Summaries(const std::vector<PartFiles>& parts, uint32_t buckets) {
  std::vector<NamedBytes> out;
  for (uint32_t b = buckets; b-- > 0;) {
    PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, BucketSummary(parts, b));
    out.push_back(NamedBytes::Own("bucket-" + std::to_string(b) + ".sum", std::move(bytes)));
  }
  return out;
}

StatusOr<std::string> Bucketed(const AnalysisOptions& options, std::string_view text,
                               const std::vector<size_t>& cuts, uint32_t buckets) {
  std::vector<PartFiles> parts = CutParts(options, text, cuts, buckets);
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<NamedBytes> summaries, Summaries(parts, buckets));
  return Report(options, parts, std::move(summaries));
}

TEST(BucketMergeTest, ExamplesInBucketsEqualOnePass) {
  std::mt19937_64 rng(3);
  for (const char* name : {"orders.ndjson", "vehicles.ndjson"}) {
    std::string text = ReadFile(std::string(PP_EXAMPLES_DIR) + "/" + name);
    ASSERT_FALSE(text.empty()) << name;
    for (const auto& options : {Options({"/id"}), Options({"/customerId"}, 100, "/total"),
                                Options({"/status", "/channel"}, 7), Options({"/vehicleId"}, -1)}) {
      auto one = OnePass(options, text);
      ASSERT_TRUE(one.ok()) << one.status().ToString();
      for (uint32_t k : {1u, 4u, 16u}) {
        std::vector<size_t> cuts = LineCuts(text, 3, rng);
        ExpectSame(one, Bucketed(options, text, cuts, k),
                   std::string(name) + " " + options.key_paths[0] + " K " + std::to_string(k));
      }
    }
  }
}

TEST(BucketMergeTest, SeededRandomInputsInBucketsEqualOnePass) {
  for (uint64_t seed = 1; seed <= scale::Count<uint64_t>(8, 2); ++seed) {
    std::string text = RandomInput(seed, 400);
    std::mt19937_64 rng(seed * 131);
    AnalysisOptions concat = Options({"/user"}, 3);
    concat.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
    concat.synthetic.paths = {"/user", "/n/a"};
    AnalysisOptions no_ids = Options({"/user"}, 25, "/w");
    no_ids.check_ids = false;
    for (const auto& options : {Options({"/user"}, 10000, "/w"), Options({"/id"}, 37, "/w"),
                                Options({"/n/a", "/user"}, 1), concat, no_ids}) {
      auto one = OnePass(options, text);
      ASSERT_TRUE(one.ok()) << one.status().ToString();
      for (size_t n : {1, 5}) {
        for (uint32_t k : {1u, 3u, 8u}) {
          std::vector<size_t> cuts = LineCuts(text, n, rng);
          std::string what = "seed " + std::to_string(seed) + " " + options.key_paths[0] +
                             " cuts " + std::to_string(cuts.size()) + " K " + std::to_string(k);
          ExpectSame(one, Bucketed(options, text, cuts, k), what);
          if (k != 3) continue;
          // The short report, made without holding the partitions: 0, 5 and all listed.
          std::vector<PartFiles> parts = CutParts(options, text, cuts, k);
          for (int64_t listed : {0, 5, -1}) {
            auto summaries = Summaries(parts, k);
            ASSERT_TRUE(summaries.ok());
            ExpectSame(OnePassShort(options, text, listed),
                       ShortReport(options, parts, std::move(summaries).value(), listed),
                       what + " listed " + std::to_string(listed));
          }
        }
      }
    }
  }
}

TEST(BucketMergeTest, ErrorsAreOnePassErrors) {
  std::string text = RandomInput(4, 200);
  std::mt19937_64 rng(9);
  std::vector<size_t> cuts = LineCuts(text, 3, rng);
  // Broken JSON in the third part, and an input that ends inside an item.
  std::string broken = text;
  broken.insert(cuts[2] + 3, "\x01");
  for (const std::string& input : {broken, text.substr(0, text.size() - 4)}) {
    auto one = OnePass(Options({"/user"}), input);
    ASSERT_FALSE(one.ok());
    ExpectSame(one, Bucketed(Options({"/user"}), input, cuts, 4), "a bad input in buckets");
  }
}

TEST(BucketMergeTest, BucketsHoldTheirKeysAndEveryPartition) {
  std::string text = RandomInput(2, 300);
  std::mt19937_64 rng(2);
  auto parts = CutParts(Options({"/user"}), text, LineCuts(text, 2, rng), 5);
  size_t partitions = 0;
  for (uint32_t b = 0; b < 5; ++b) {
    auto merged = MergeFiles(Column(parts, 1 + b));
    ASSERT_TRUE(merged.ok()) << merged.status().ToString();
    std::unique_ptr<PartitionList> all = merged.value()->AllPartitions();
    for (size_t i = 0; i < all->size(); ++i) EXPECT_EQ(BucketOf(all->canonical(i), 5), b);
    partitions += all->size();
    EXPECT_EQ(merged.value()->shard_kind(), "bucket");
    EXPECT_EQ(merged.value()->shard_bucket(), b);
  }
  auto one = Analyzer::Create(Options({"/user"}));
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(one.value()->Feed(text).ok() && one.value()->Finish().ok());
  EXPECT_EQ(partitions, one.value()->BuildReport({}).partition_count);
  // The bucket hash is fixed (docs/partial-format.md): XXH3-64 seeded with "partplay".
  EXPECT_EQ(BucketOf(std::string_view("\x02" "abc", 4), 1), 0u);
  EXPECT_LT(BucketOf(std::string_view("\x02" "abc", 4), 4096), 4096u);
}

// A merge kept as a part merges again: (a+b)+c = a+(b+c) = a+b+c = one pass.
TEST(BucketMergeTest, MergesOfMergesAreAssociative) {
  auto whole = [](const AnalysisOptions& options, std::string_view text) {
    auto part = Analyzer::CreatePart(options);
    EXPECT_TRUE(part.ok());
    (void)part.value()->Feed(text);
    (void)part.value()->Finish();
    auto bytes = part.value()->SerializePartial();
    EXPECT_TRUE(bytes.ok());
    return bytes.ok() ? bytes.value() : std::string();
  };
  auto merge = [](std::vector<std::string> files, bool keep) -> StatusOr<std::unique_ptr<Analyzer>> {
    std::vector<std::unique_ptr<Analyzer>> parsed;
    for (const std::string& f : files) {
      PARTPLAY_ASSIGN_OR_RETURN(auto p, Analyzer::ParsePartial(f));
      parsed.push_back(std::move(p));
    }
    return keep ? Analyzer::MergeToPart(std::move(parsed)) : Analyzer::Merge(std::move(parsed));
  };
  auto kept = [&](std::vector<std::string> files) {
    auto m = merge(std::move(files), true);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    auto bytes = m.ok() ? m.value()->SerializePartial() : StatusOr<std::string>(m.status());
    EXPECT_TRUE(bytes.ok());
    return bytes.ok() ? bytes.value() : std::string();
  };
  auto report = [&](std::vector<std::string> files, const AnalysisOptions& options) {
    auto m = merge(std::move(files), false);
    return m.ok() ? StatusOr<std::string>(ReportJson(*m.value(), options))
                  : StatusOr<std::string>(m.status());
  };
  for (uint64_t seed = 1; seed <= scale::Count<uint64_t>(6, 2); ++seed) {
    std::string text = RandomInput(seed, 300);
    std::mt19937_64 rng(seed);
    std::vector<size_t> cuts = LineCuts(text, 3, rng);
    cuts.insert(cuts.begin(), 0);
    cuts.push_back(text.size());
    for (const auto& options : {Options({"/user"}, 50, "/w"), Options({"/id"}, 10000),
                                Options({"/tag"}, -1)}) {
      std::vector<std::string> p;
      for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        p.push_back(whole(options, std::string_view(text).substr(cuts[k], cuts[k + 1] - cuts[k])));
      }
      auto one = OnePass(options, text);
      std::string what = "seed " + std::to_string(seed) + " " + options.key_paths[0];
      ExpectSame(one, report({kept({p[0], p[1]}), p[2], p[3]}, options), what + " (a+b)+c+d");
      ExpectSame(one, report({p[0], kept({p[1], p[2]}), p[3]}, options), what + " a+(b+c)+d");
      ExpectSame(one, report({p[0], kept({p[1], kept({p[2], p[3]})})}, options),
                 what + " a+(b+(c+d))");
      ExpectSame(one, report({kept({p[0], p[1]}), kept({p[2], p[3]})}, options),
                 what + " (a+b)+(c+d)");
    }
  }
}

// --- bad inputs --------------------------------------------------------------------------------

class BucketBadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    text_ = RandomInput(7, 300);
    std::mt19937_64 rng(7);
    cuts_ = LineCuts(text_, 2, rng);
    parts_ = CutParts(Options({"/user"}), text_, cuts_, 4);
    auto summaries = Summaries(parts_, 4);
    ASSERT_TRUE(summaries.ok()) << summaries.status().ToString();
    summaries_ = std::move(summaries).value();
  }
  void ExpectRefused(const StatusOr<std::string>& got, const std::string& says) {
    ASSERT_FALSE(got.ok()) << says;
    EXPECT_EQ(got.status().code(), ErrorCode::kBadPartial) << got.status().ToString();
    EXPECT_NE(got.status().message().find(says), std::string::npos) << got.status().ToString();
  }
  std::string text_;
  std::vector<size_t> cuts_;
  std::vector<PartFiles> parts_;
  std::vector<NamedBytes> summaries_;
};

TEST_F(BucketBadInputTest, AMissingBucketIsNamed) {
  auto three = summaries_;
  three.erase(three.begin() + 1);  // bucket 2 (they run 3, 2, 1, 0)
  ExpectRefused(Report(Options({"/user"}), parts_, three),
                "no summary of bucket 2 (of 4) among the 3 given (1 missing)");
  auto twice = summaries_;
  twice[1] = twice[0];
  twice[1].name = "copy.sum";
  ExpectRefused(Report(Options({"/user"}), parts_, twice),
                "copy.sum: bucket 3 is given twice (also bucket-3.sum)");
}

TEST_F(BucketBadInputTest, APartLeftOutOfABucketIsFound) {
  std::vector<PartFiles> two(parts_.begin(), parts_.begin() + 2);
  auto partial = BucketSummary(two, 0);
  ASSERT_TRUE(partial.ok());
  auto given = summaries_;
  given[3] = NamedBytes::Own("bucket-0.sum", partial.value());
  ExpectRefused(Report(Options({"/user"}), parts_, given),
                "bucket-0.sum: bucket 0 was merged from 2 parts; the figures are of 3");
}

TEST_F(BucketBadInputTest, ABucketOfAnotherRunIsFound) {
  // The second part written from other bytes (a key changed): another part id.
  std::string other = text_.substr(cuts_[0], cuts_[1] - cuts_[0]);
  size_t key = other.find("\"u");
  ASSERT_NE(key, std::string::npos);
  other[key + 1] = 'v';
  auto again = CutPart(Options({"/user"}), other, 4);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  std::vector<PartFiles> mixed = parts_;
  mixed[1] = again.value();
  auto foreign = BucketSummary(mixed, 2);
  ASSERT_TRUE(foreign.ok()) << foreign.status().ToString();
  auto given = summaries_;
  given[1] = NamedBytes::Own("bucket-2.sum", foreign.value());
  ExpectRefused(Report(Options({"/user"}), parts_, given),
                "bucket-2.sum: bucket 2's part 2 is not the figures' part 2");
  // The same part written twice is the same part (a retried task): nothing to refuse.
  std::vector<PartFiles> retried = CutParts(Options({"/user"}), text_, cuts_, 4);
  EXPECT_EQ(retried[1], parts_[1]);
}

TEST_F(BucketBadInputTest, AnotherKeyOrBucketCountIsRefused) {
  std::vector<PartFiles> by_tag = CutParts(Options({"/tag"}), text_, cuts_, 4);
  std::vector<PartFiles> mixed = parts_;
  mixed[2] = by_tag[2];
  auto m = MergeFiles(Column(mixed, 1));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("part 3 was analysed with other options"),
            std::string::npos);
  auto tag_summaries = Summaries(by_tag, 4);
  ASSERT_TRUE(tag_summaries.ok());
  auto given = summaries_;
  given[0] = tag_summaries.value()[0];
  ExpectRefused(Report(Options({"/user"}), parts_, given),
                "bucket-3.sum: bucket 3's parts were analysed with other options");
  std::vector<PartFiles> five = CutParts(Options({"/user"}), text_, cuts_, 5);
  mixed = parts_;
  mixed[1] = five[1];
  m = MergeFiles(Column(mixed, 1));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("part 2 is bucket 0 of 5 and part 1 is bucket 0 of 4"),
            std::string::npos)
      << m.status().ToString();
  // Figures and buckets do not mix, nor a whole part with either.
  mixed = parts_;
  mixed[1][1] = parts_[1][0];
  m = MergeFiles(Column(mixed, 1));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("part 2 is the figures of a part cut into 4 buckets"),
            std::string::npos)
      << m.status().ToString();
}

TEST_F(BucketBadInputTest, CutShortCorruptOrOfAnotherVersion) {
  const std::string summary(summaries_[0].bytes);
  auto with = [&](std::string bytes) {
    auto given = summaries_;
    given[0] = NamedBytes::Own(given[0].name, std::move(bytes));
    return Report(Options({"/user"}), parts_, given);
  };
  ExpectRefused(with(summary.substr(0, summary.size() - 9)),
                "bucket-3.sum: bucket summary: truncated: the file ends inside");
  ExpectRefused(with(summary.substr(0, 30)), "bucket-3.sum: bucket summary: the key path count");
  std::string flipped = summary;
  flipped[flipped.size() - 20] ^= 0x40;
  auto got = with(flipped);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), ErrorCode::kBadPartial);
  std::string version = summary;
  version[16] = 9;
  ExpectRefused(with(version), "format version 9; this partplay reads version 1");
  ExpectRefused(with("not a summary at all"), "not a bucket summary");
  ExpectRefused(with(parts_[0][1]), "not a bucket summary");
  // A bucket file cut short, or of another partial version.
  std::string bucket = parts_[1][2];
  auto cut = Analyzer::ParsePartial(std::string_view(bucket).substr(0, bucket.size() / 2));
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), ErrorCode::kBadPartial);
  bucket[16] = 2;
  auto old = Analyzer::ParsePartial(bucket);
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.status().message().find("format version 2; this partplay reads version 3"),
            std::string::npos);
}

TEST_F(BucketBadInputTest, OnlyRecordedPartsAreCut) {
  auto hashed = Analyzer::CreatePart(Options({"/user"}), false, PartIds::kHashed);
  ASSERT_TRUE(hashed.ok());
  ASSERT_TRUE(hashed.value()->Feed(text_).ok() && hashed.value()->Finish().ok());
  auto nothing = [](int, std::string) { return Status::Ok(); };
  EXPECT_EQ(hashed.value()->SerializeBuckets(4, nothing).code(), ErrorCode::kInvalidState);
  auto part = Analyzer::CreatePart(Options({"/user"}));
  ASSERT_TRUE(part.ok());
  ASSERT_TRUE(part.value()->Feed(text_).ok() && part.value()->Finish().ok());
  EXPECT_EQ(part.value()->SerializeBuckets(0, nothing).code(), ErrorCode::kBadOption);
  EXPECT_EQ(part.value()->SerializeBuckets(kMaxBuckets + 1, nothing).code(),
            ErrorCode::kBadOption);
  auto one = Analyzer::Create(Options({"/user"}));
  ASSERT_TRUE(one.ok());
  EXPECT_FALSE(one.value()->SerializeBucketSummary().ok());
}

}  // namespace
}  // namespace partplay
