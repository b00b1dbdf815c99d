// The summary step (buckets.h MergeBucketSummaries): the figures of every part merged (counts,
// findings, the discovery sample) and the K bucket summaries checked against them, their
// partitions merged from K report orders into the whole report's, read off their bytes.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <queue>

#include "ingest/bucket_summary.h"
#include "ingest/partial_data.h"
#include "partplay/core/statistics.h"
#include "partplay/ingest/buckets.h"
#include "partplay/ingest/partition_key.h"

namespace partplay {
namespace {

LogicalPartition Exported(const internal::SummaryPartition& p) {
  LogicalPartition out;
  out.key = PartitionKey::FromCanonicalBytes(p.canonical);
  out.items = p.items;
  out.bytes = p.bytes;
  out.largest_item_bytes = p.largest_item_bytes;
  out.largest_item_index = p.largest_item_index;
  out.weight = p.weight;
  return out;
}

// Every partition of the buckets in the report's order: (summary << 48) | record offset each.
class SummaryList : public PartitionList {
 public:
  SummaryList(std::vector<NamedBytes> files, std::vector<uint64_t> order, bool weighted)
      : files_(std::move(files)), order_(std::move(order)), weighted_(weighted) {}
  size_t size() const override { return order_.size(); }
  uint64_t items(size_t i) const override { return Read(i).items; }
  uint64_t bytes(size_t i) const override { return Read(i).bytes; }
  double weight(size_t i) const override { return Read(i).weight; }
  std::string_view canonical(size_t i) const override { return Read(i).canonical; }
  LogicalPartition partition(size_t i) const override {
    LogicalPartition p;
    partition_into(i, p);
    return p;
  }
  void partition_into(size_t i, LogicalPartition& out) const override { out = Exported(Read(i)); }

 private:
  internal::SummaryPartition Read(size_t i) const {
    internal::SummaryPartition p;
    const uint64_t packed = order_[i];
    internal::ReadSummaryPartition(files_[packed >> 48].bytes, packed & ((uint64_t{1} << 48) - 1),
                                   weighted_, p);
    return p;
  }
  std::vector<NamedBytes> files_;
  std::vector<uint64_t> order_;
  bool weighted_;
};

Status Named(const std::string& name, const Status& s) {
  return Status(s.code(), fmt::format("{}: {}", name, s.message()), s.where());
}
Status Bad(const std::string& name, std::string what) {
  return Status(ErrorCode::kBadPartial, fmt::format("{}: {}", name, what));
}

}  // namespace

StatusOr<SummaryMerge> MergeBucketSummaries(const Analyzer& figures,
                                            std::vector<NamedBytes> summaries,
                                            const ReportOptions& report_options,
                                            bool every_partition) {
  if (figures.shard_kind() != "figures") {
    return Status(ErrorCode::kBadPartial,
                  "the parts given are not figures files (analyze --partial-out DIR --buckets K "
                  "writes them)");
  }
  const uint32_t buckets = figures.shard_buckets();
  const std::vector<uint64_t> ids = figures.shard_part_ids();
  SummaryMerge out;
  out.options = figures.options();
  std::vector<internal::BucketSummary> read(summaries.size());
  std::vector<int64_t> given(buckets, -1);
  for (size_t j = 0; j < summaries.size(); ++j) {
    const std::string& name = summaries[j].name;
    StatusOr<internal::BucketSummary> s = internal::ReadBucketSummary(summaries[j].bytes);
    if (!s.ok()) return Named(name, s.status());
    const internal::BucketSummaryHead& h = s->head;
    if (!internal::SameOptions(h.options, out.options)) {
      return Bad(name, fmt::format("bucket {}'s parts were analysed with other options than the "
                                   "figures' (key paths, --discover, --weight, the id check and "
                                   "the synthetic key must be the same)",
                                   h.bucket));
    }
    if (h.buckets != buckets) {
      return Bad(name, fmt::format("a summary of bucket {} of {}; the figures' parts were cut "
                                   "into {} buckets",
                                   h.bucket, h.buckets, buckets));
    }
    if (given[h.bucket] >= 0) {
      return Bad(name, fmt::format("bucket {} is given twice (also {})", h.bucket,
                                   summaries[static_cast<size_t>(given[h.bucket])].name));
    }
    given[h.bucket] = static_cast<int64_t>(j);
    if (h.part_ids.size() != ids.size()) {
      return Bad(name, fmt::format("bucket {} was merged from {} parts; the figures are of {} "
                                   "(a part's bucket file left out, or one too many)",
                                   h.bucket, h.part_ids.size(), ids.size()));
    }
    for (size_t k = 0; k < ids.size(); ++k) {
      if (h.part_ids[k] != ids[k]) {
        return Bad(name, fmt::format("bucket {}'s part {} is not the figures' part {} (a bucket "
                                     "file of another run or another input, or the parts in "
                                     "another order)",
                                     h.bucket, k + 1, k + 1));
      }
    }
    read[j] = std::move(s).value();
  }
  for (uint32_t b = 0; b < buckets; ++b) {
    if (given[b] < 0) {
      const auto missing = std::count(given.begin(), given.end(), int64_t{-1});
      return Status(ErrorCode::kBadPartial,
                    fmt::format("no summary of bucket {} (of {}) among the {} given ({} missing)",
                                b, buckets, summaries.size(), missing));
    }
  }

  AnalysisReport& r = out.report;
  r = figures.BuildReport(
      {.max_partitions = 0, .candidate_values = report_options.candidate_values});
  for (size_t j = 0; j < read.size(); ++j) {
    if (read[j].head.items != r.items) {
      return Bad(summaries[j].name, fmt::format("bucket {} counts {} items; the figures' parts "
                                                "hold {}",
                                                read[j].head.bucket, read[j].head.items, r.items));
    }
  }

  // Duplicate ids: the parts' own (in the figures) and those each bucket's merge found.
  std::vector<ItemFinding> duplicates = std::move(r.duplicate_id_examples);
  for (internal::BucketSummary& s : read) {
    r.duplicate_id_items += s.head.duplicate_id;
    for (ItemFinding& f : s.head.duplicate_examples) duplicates.push_back(std::move(f));
    s.head = {};
  }
  std::stable_sort(
      duplicates.begin(), duplicates.end(),
      [](const ItemFinding& x, const ItemFinding& y) { return x.item_index < y.item_index; });
  if (duplicates.size() > kMaxFindingExamples) duplicates.resize(kMaxFindingExamples);
  r.duplicate_id_examples = std::move(duplicates);

  // The partitions in the report's order: the K orders merged, `visit` called with each (its
  // summary and record offset) until it answers false.
  const bool weighted = !out.options.weight_path.empty();
  auto in_order = [&](const std::function<bool(size_t, uint64_t, const internal::SummaryPartition&)>&
                          visit) {
    struct Head {
      size_t file;
      uint64_t at, next, left;
      internal::SummaryPartition p;
    };
    auto after = [](const Head& x, const Head& y) {  // x comes after y in the report
      if (x.p.bytes != y.p.bytes) return x.p.bytes < y.p.bytes;
      if (x.p.items != y.p.items) return x.p.items < y.p.items;
      return CompareCanonicalKeys(x.p.canonical, y.p.canonical) > 0;
    };
    std::priority_queue<Head, std::vector<Head>, decltype(after)> heads(after);
    auto push = [&](size_t file, uint64_t at, uint64_t left) {
      if (left == 0) return;
      Head h{file, at, 0, left, {}};
      h.next = internal::ReadSummaryPartition(summaries[file].bytes, at, weighted, h.p);
      heads.push(h);
    };
    for (size_t j = 0; j < read.size(); ++j) push(j, read[j].partitions_at, read[j].partitions);
    while (!heads.empty()) {
      Head h = heads.top();
      heads.pop();
      if (!visit(h.file, h.at, h.p)) return;
      push(h.file, h.next, h.left - 1);
    }
  };
  size_t n = 0;
  for (const internal::BucketSummary& s : read) n += s.partitions;
  const size_t listed = report_options.max_partitions < 0
                            ? n
                            : std::min(n, static_cast<size_t>(report_options.max_partitions));
  StreamedSpread spread;
  auto note_largest = [&r](const internal::SummaryPartition& p) {  // the first in the order
    if (r.has_largest) return;
    r.has_largest = true;
    r.largest = Exported(p);
  };
  if (every_partition) {
    // One pass keeps the order (8 bytes a partition) and the sizes; the list reads the rest.
    std::vector<uint64_t> order;
    order.reserve(n);
    r.partition_bytes.reserve(n);
    in_order([&](size_t file, uint64_t at, const internal::SummaryPartition& p) {
      note_largest(p);
      order.push_back(static_cast<uint64_t>(file) << 48 | at);
      r.partition_bytes.push_back(static_cast<double>(p.bytes));
      if (r.partitions.size() < listed) r.partitions.push_back(Exported(p));
      spread.Add(static_cast<double>(p.bytes));
      return true;
    });
    for (double x : r.partition_bytes) spread.AddAgain(x);
    out.all = std::make_unique<SummaryList>(std::move(summaries), std::move(order), weighted);
  } else {
    // Two passes, nothing held: the count and total, then the listed partitions and the rest
    // of the spread (it needs the count first).
    in_order([&](size_t, uint64_t, const internal::SummaryPartition& p) {
      note_largest(p);
      spread.Add(static_cast<double>(p.bytes));
      return true;
    });
    in_order([&](size_t, uint64_t, const internal::SummaryPartition& p) {
      spread.AddAgain(static_cast<double>(p.bytes));
      if (r.partitions.size() < listed) r.partitions.push_back(Exported(p));
      return true;
    });
  }
  r.partition_count = n;
  r.partitions_omitted = n - listed;
  PartitionSpread figures_of = spread.Result();
  r.mean_partition_bytes = figures_of.mean;
  r.top1_partitions = figures_of.top1_count;
  r.top1_bytes = figures_of.top1_total;
  r.top1_share = figures_of.top1_share;
  r.gini = figures_of.gini;
  return out;
}

}  // namespace partplay
