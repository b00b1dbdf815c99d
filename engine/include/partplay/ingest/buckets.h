// An analysis past one machine (docs/partial-format.md): each part of the input is written as
// its figures and K buckets of its logical partitions, cut by a hash of the partition key that
// every part shares (Analyzer::SerializeBuckets); one bucket of every part merges into that
// bucket's summary on its own (Analyzer::Merge of the bucket files, then
// Analyzer::SerializeBucketSummary), and the K summaries with every part's figures make the
// report one pass gives (MergeBucketSummaries). A bucket merge holds that bucket's partitions
// only; the summary step holds every partition's key and counts once, in the report's order.
//
//   partplay analyze --key /userId --partial-out parts/0007 --buckets 16 shard.0007
//   partplay merge --bucket 3 --summary-out sums/bucket-003.sum parts/*     (for each bucket)
//   partplay merge --summaries sums parts/*                                 (the report)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

// A part is cut into 1 to kMaxBuckets buckets.
inline constexpr uint32_t kMaxBuckets = 4096;
// The seed of the bucket hash (the bytes "partplay" read as a little-endian number).
inline constexpr uint64_t kBucketSeed = 0x79616c7074726170ull;

// The bucket of the logical partition whose key has these canonical bytes (partition_key.h):
// XXH3-64 of the bytes seeded with kBucketSeed, times `buckets`, the high 64 bits of the
// 128-bit product. The same in every part, on every machine and in the browser.
uint32_t BucketOf(std::string_view canonical, uint32_t buckets);

// A bucket summary's bytes (the CLI maps its files: their pages are the file's, not the
// process's) and its name, for its errors; `owner` keeps the bytes alive.
struct NamedBytes {
  std::string name;
  std::string_view bytes;
  std::shared_ptr<const void> owner;
  static NamedBytes Own(std::string name, std::string bytes) {
    auto kept = std::make_shared<const std::string>(std::move(bytes));
    return {std::move(name), *kept, kept};
  }
};

// What the summary step makes: the report of the analysis (the listed partitions as `options`
// ask, every figure of every partition) and, when asked for (every_partition), every partition
// in the report's order, read off the summaries' bytes (valid while this lives).
struct SummaryMerge {
  AnalysisOptions options;
  AnalysisReport report;
  std::unique_ptr<PartitionList> all;
};

// `figures`: Analyzer::Merge of every part's figures file, in input order (its options and
// counts are the report's). `summaries`: one per
// bucket, in any order. Errors (kBadPartial, naming the file): a summary that is not one, is cut
// short or corrupt, of another format version, of other analysis options or another bucket
// count than the figures, merged from other parts than the figures' (another run, a part
// missing), a bucket given twice or missing.
// `every_partition`: also the list of every partition (8 bytes each, beside the summaries'
// bytes), for the container model and a listing of them all; without it the figures come from
// two passes over the summaries in the report's order, holding none of them (the report's
// partition_bytes is then empty).
StatusOr<SummaryMerge> MergeBucketSummaries(const Analyzer& figures,
                                            std::vector<NamedBytes> summaries,
                                            const ReportOptions& options,
                                            bool every_partition);

}  // namespace partplay
