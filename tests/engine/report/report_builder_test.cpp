#include "partplay/report/report_builder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../core/lent_threads.h"
#include "partplay/core/limits.h"
#include "partplay/core/tasks.h"
#include "partplay/ingest/analysis.h"
#include "random_analysis.h"

namespace partplay {
namespace {

// The built report's JSON for `input` keyed by /k, with a container of 400 RU/s.
std::string BuiltJson(std::string_view input) {
  AnalysisOptions options;
  std::unique_ptr<Analyzer> analyzer = AnalyzeKeyedByK(input, options);
  if (!analyzer) return "";
  Analyzer& a = *analyzer;
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 400;
  auto built = BuildFullReport(a, options, request);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  return built.ok() ? built->json : "";
}

TEST(ReportBuilder, GrowthToSplitIsTheSmallestGrowthPastOnePhysicalPartition) {
  const std::string input = "{\"id\": \"1\", \"k\": \"a\"}\n{\"id\": \"2\", \"k\": \"b\"}\n";
  const std::string json = BuiltJson(input);
  const double bytes = static_cast<double>(input.size() - 2);  // the two items, newlines aside
  const double expected = std::floor(kCosmosPhysicalPartitionBytes / bytes) + 1;
  ASSERT_GT(expected * bytes, kCosmosPhysicalPartitionBytes);
  ASSERT_LE((expected - 1) * bytes, kCosmosPhysicalPartitionBytes);
  EXPECT_NE(json.find(fmt::format("\"growth_to_split\":{}", static_cast<int64_t>(expected))),
            std::string::npos)
      << json;
}

// Every field of a container report as text, to compare two reports.
std::string Describe(const ContainerReport& c) {
  std::string s;
  auto placed = [&](const PlacedPartition& p) {
    s += fmt::format("  {} {} {} {} {} {}\n", p.key.ToJson(), p.epk, p.items, p.bytes, p.demand_ru,
                     p.hot);
  };
  auto layout = [&](const LayoutView& v) {
    s += fmt::format("layout {} {} {} {} {} {}\n", v.ru_per_second, v.storage_bytes,
                     v.partitions_for_throughput, v.partitions_for_storage, v.demand_ru,
                     v.throttled_fraction);
    for (const PhysicalPartition& r : v.ranges) {
      s += fmt::format(" range {} [{}, {}) {} {} {} {} {} {} {} {}\n", r.range.id,
                       r.range.min_inclusive, r.range.max_exclusive, r.logical_partitions, r.items,
                       r.bytes, r.ru_share, r.demand_ru, r.throttled_fraction, r.others_partitions,
                       r.others_bytes);
      for (const PlacedPartition& p : r.top) placed(p);
    }
  };
  layout(c.before);
  if (c.grown) layout(c.after);
  for (const Split& x : c.splits) {
    s += fmt::format("split {} {} {} {} {} {} {} {}\n", x.parent, x.left, x.right, x.reason,
                     x.moved_to_left, x.moved_to_right, x.bytes_left, x.bytes_right);
  }
  s += fmt::format("moved {}\n", c.moved_count);
  for (const MovedPartition& m : c.moved)
    s += m.key.ToJson() + fmt::format(" {} {}\n", m.from, m.to);
  s += fmt::format("cannot help {}\nhot\n", c.split_cannot_help);
  for (const PlacedPartition& p : c.hot) placed(p);
  for (const Finding& f : c.findings) {
    s += fmt::format("finding {} {} {} {}\n", f.code, f.severity, f.message, f.count);
    for (const PartitionKey& k : f.keys) s += " " + k.ToJson();
    for (const ItemFinding& i : f.items) s += fmt::format(" {}", i.item_index);
    s += "\n";
  }
  if (c.route) {
    s += fmt::format("route {} {} {}", c.route->kind, c.route->epk_min, c.route->epk_max);
    for (int id : c.route->range_ids) s += fmt::format(" {}", id);
  }
  for (const std::string& e : c.partition_epks) s += " " + e;
  return s;
}

// The container model read from the analyzer's compact table (binary EPKs, the listed
// partitions chosen by selection) equals the model over the full list of decoded partitions, on
// seeded random data with many size ties, for every hash version, growth and spread.
TEST(ReportBuilder, ContainerFromTheTableEqualsTheModelOverEveryPartition) {
  for (uint64_t seed : {1, 2, 3, 4}) {
    std::mt19937_64 rng(seed);
    std::string input;
    for (int i = 0; i < 4000; ++i) {
      std::string key;
      switch (rng() % 4) {
        case 0:
          key = std::to_string(rng() % 300);
          break;
        case 1:
          key = "\"u" + std::to_string(rng() % 900) + "\"";
          break;
        case 2:  // now and then over the 2,048-byte key limit (a key_too_large finding)
          key = "\"" + std::string(rng() % 60 == 0 ? 2049 + rng() % 3 : rng() % 20, 'x') + "\"";
          break;
        default:
          key = rng() % 2 ? "true" : "null";
          break;
      }
      input += fmt::format("{{\"id\":\"{}\",\"k\":{},\"j\":\"{}\",\"w\":{}}}\n", i, key, rng() % 3,
                           rng() % 7);
    }
    for (int variant = 0; variant < 4; ++variant) {
      AnalysisOptions options;
      options.key_paths = {"/k"};
      ContainerOptions container;
      container.ru_per_second = 1000 + 15000.0 * variant;
      if (variant == 1) container.version = PartitionKeyHashVersion::kV1;
      if (variant == 2) {
        options.key_paths = {"/k", "/j"};
        container.version = PartitionKeyHashVersion::kMultiHash;
        container.route = PartitionKey{{KeyComponent::String("u1")}};
      }
      if (variant >= 2) {
        container.growth = 1e6;  // storage and throughput splits, moved partitions
        container.grown_ru_per_second = 90000;
      }
      container.workload.point_reads_per_second = 5000;
      container.workload.writes_per_second = 100;
      container.workload.spread = variant == 3   ? RequestSpread::kField
                                  : variant == 1 ? RequestSpread::kZipf
                                                 : RequestSpread::kUniformItems;
      if (variant == 3) options.weight_path = "/w";
      auto created = Analyzer::Create(options);
      ASSERT_TRUE(created.ok());
      Analyzer& analyzer = *created.value();
      ASSERT_TRUE(analyzer.Feed(input).ok());
      ASSERT_TRUE(analyzer.Finish().ok());
      AnalysisReport every = analyzer.BuildReport({.max_partitions = -1});
      auto reference = ModelContainer(every, container);
      ASSERT_TRUE(reference.ok()) << reference.status().ToString();
      for (int64_t listed : {int64_t{-1}, int64_t{0}, int64_t{25}}) {
        ReportRequest request;
        request.max_partitions = listed;
        request.container = container;
        auto built = BuildFullReport(analyzer, options, request);
        ASSERT_TRUE(built.ok()) << built.status().ToString();
        // The listed partitions carry their EPKs (moved out of partition_epks), checked below.
        ContainerReport expected = reference.value();
        const size_t n = listed < 0 ? expected.partition_epks.size() : static_cast<size_t>(listed);
        expected.partition_epks.resize(std::min(n, expected.partition_epks.size()));
        ContainerReport got = *built->container;
        ASSERT_EQ(got.partition_epks.size(), expected.partition_epks.size());
        got.partition_epks = expected.partition_epks = {};
        EXPECT_EQ(Describe(got), Describe(expected))
            << "seed " << seed << " variant " << variant << " listed " << listed;
        ASSERT_EQ(built->analysis.partitions.size(), n);
        for (size_t i = 0; i < built->analysis.partitions.size(); ++i) {
          EXPECT_EQ(built->analysis.partitions[i].key, every.partitions[i].key);
          EXPECT_EQ(built->analysis.partitions[i].epk, reference->partition_epks[i]);
        }
      }
    }
  }
}

// A streamed listing (the head's partitions, the others written after it, then the tail) is the
// same text as the report listing every partition, with and without a container.
TEST(ReportBuilder, StreamedPartitionsEqualTheFullListing) {
  AnalysisOptions options;
  std::unique_ptr<Analyzer> created = AnalyzeRandomItems(9, 3000, 700, 8, options);
  ASSERT_TRUE(created);
  Analyzer& analyzer = *created;
  for (bool container : {false, true}) {
    ReportRequest full;
    if (container) full.container = ContainerOptions{};
    auto whole = BuildFullReport(analyzer, options, full);
    ASSERT_TRUE(whole.ok());
    for (int64_t head : {0, 1, 40, 5000}) {
      ReportRequest request = full;
      request.max_partitions = head;
      request.stream_partitions = true;
      auto built = BuildFullReport(analyzer, options, request);
      ASSERT_TRUE(built.ok());
      // With the model's EPKs handed over (as the CLI does) and without them (hashed again).
      const EpkColumn* kept = container ? &built->container->all_epks : nullptr;
      if (container) EXPECT_EQ(kept->size(), whole->analysis.partitions.size());
      for (const EpkColumn* epks : {kept, static_cast<const EpkColumn*>(nullptr)}) {
        std::string text = built->json;
        PartitionsJson listing(analyzer, request, epks);
        EXPECT_EQ(listing.size(), whole->analysis.partitions.size());
        // In stretches of every length, as the CLI's threads take them.
        for (size_t at = static_cast<size_t>(head), step = 1; at < listing.size(); at += step++) {
          ASSERT_TRUE(listing.Append(at, at + step, text).ok());
        }
        text += built->json_tail;
        EXPECT_EQ(text, whole->json) << "container " << container << " head " << head
                                     << " epks kept " << (epks != nullptr);
      }
    }
  }
}

// Once the full size order is kept (AllPartitions, or the report's keep_size_order), the report
// reads its sizes and largest partitions off it: the same report as by its own sort and
// selection, ties of size included.
TEST(ReportBuilder, TheKeptOrderGivesTheSameReport) {
  for (uint64_t seed : {3u, 4u}) {
    AnalysisOptions options;
    std::unique_ptr<Analyzer> created = AnalyzeRandomItems(seed, 4000, 900, 3, options);
    ASSERT_TRUE(created);
    Analyzer& analyzer = *created;
    auto describe = [](const AnalysisReport& r) {
      std::string s = fmt::format("{} {} {} {} {} {}\n", r.partition_count, r.top1_partitions,
                                  r.top1_bytes, r.gini, r.mean_partition_bytes, r.has_largest);
      for (double b : r.partition_bytes) s += fmt::format("{} ", b);
      for (const LogicalPartition& p : r.partitions) {
        s += fmt::format("\n{} {} {} {}", p.key.ToJson(), p.items, p.bytes, p.weight);
      }
      return s + "\n" + r.largest.key.ToJson();
    };
    std::vector<std::string> selected;
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{17}, int64_t{-1}}) {
      selected.push_back(describe(analyzer.BuildReport({.max_partitions = k})));
    }
    // The same items in another analyzer whose report sorts and keeps the order itself.
    AnalysisOptions again;
    std::unique_ptr<Analyzer> sorting = AnalyzeRandomItems(seed, 4000, 900, 3, again);
    ASSERT_TRUE(sorting);
    size_t at = 0;
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{17}, int64_t{-1}}) {
      EXPECT_EQ(describe(sorting->BuildReport({.max_partitions = k, .keep_size_order = true})),
                selected[at++])
          << "seed " << seed << " max_partitions " << k << " (keep_size_order)";
    }
    std::unique_ptr<PartitionList> all = analyzer.AllPartitions();  // now kept
    at = 0;
    for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{17}, int64_t{-1}}) {
      EXPECT_EQ(describe(analyzer.BuildReport({.max_partitions = k})), selected[at++])
          << "seed " << seed << " max_partitions " << k;
    }
  }
}

// The container model's passes over every partition go in stretches on the threads a host
// lends (core/tasks.h): with 3 threads the report, the model and the streamed listing are the
// same bytes as without, keys over the 2,048-byte limit spread over every stretch included.
TEST(ReportBuilder, LentThreadsChangeNothing) {
  constexpr int kItems = 200000;  // three stretches of at least 65,536 partitions
  std::mt19937_64 rng(77);
  std::string input;
  for (int i = 0; i < kItems; ++i) {
    std::string k = fmt::format("k{}", rng() % 20000000);
    if (i % 9973 == 0) k += std::string(2100, 'L');  // too large a key value
    input += fmt::format("{{\"id\":\"{}\",\"k\":\"{}\",\"p\":\"{}\"}}\n", i, k,
                         std::string(rng() % 40, 'x'));
  }
  AnalysisOptions options;
  std::unique_ptr<Analyzer> created = AnalyzeKeyedByK(input, options);
  ASSERT_TRUE(created);
  Analyzer& analyzer = *created;
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 40000;
  request.container->growth = 3;
  request.max_partitions = 100;
  request.stream_partitions = true;
  auto report = [&]() {
    auto built = BuildFullReport(analyzer, options, request);
    EXPECT_TRUE(built.ok()) << built.status().ToString();
    if (!built.ok()) return std::string();
    std::string text = built->json;
    PartitionsJson listing(analyzer, request, &built->container->all_epks);
    EXPECT_TRUE(listing.Append(100, listing.size(), text).ok());
    return text + built->json_tail + "\n" + Describe(*built->container);
  };
  SetTaskRunner({}, 1);
  const std::string alone = report();
  ASSERT_NE(alone.find("key_too_large"), std::string::npos);
  std::string lent;
  {
    LentThreads threads(3);
    lent = report();
    EXPECT_GT(threads.tasks.load(), 3);  // the model's passes did run on the lent threads
  }
  EXPECT_TRUE(lent == alone);
  EXPECT_EQ(lent.size(), alone.size());
}

}  // namespace
}  // namespace partplay
