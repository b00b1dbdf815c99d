// Internal: the bucket summary format (docs/partial-format.md "The bucket summary"), what a merge
// of one bucket of every part leaves for the summary step: little-endian, lengths prefixed, an
// XXH3-64 of all preceding bytes last.
//
//   "partplay-summary" u32 version
//   options | u32 bucket, u32 buckets | u64 parts, u64 part id each
//   u64 items (the whole input's) | u64 duplicate ids, their examples
//   u64 partitions, each: varint key length, key, varints items, bytes, largest item bytes,
//     largest item index + 1 (0: none), and with a weight path an f64 weight;
//     in the report's order (bytes, then items, largest first; then key order), each key's
//     BucketOf the bucket
//   u64 checksum
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay::internal {

inline constexpr char kSummaryMagic[16] = {'p', 'a', 'r', 't', 'p', 'l', 'a', 'y',
                                           '-', 's', 'u', 'm', 'm', 'a', 'r', 'y'};
inline constexpr uint32_t kSummaryVersion = 1;

struct BucketSummaryHead {
  AnalysisOptions options;
  uint32_t bucket = 0, buckets = 0;
  std::vector<uint64_t> part_ids;
  uint64_t items = 0;
  uint64_t duplicate_id = 0;
  std::vector<ItemFinding> duplicate_examples;
};

// A summary read and checked whole; its partitions stay in the bytes, one record after another
// from `partitions_at`, in the report's order.
struct BucketSummary {
  BucketSummaryHead head;
  uint64_t partitions = 0;
  uint64_t partitions_at = 0;
};

// One partition's record (read from checked bytes).
struct SummaryPartition {
  std::string_view canonical;
  uint64_t items = 0, bytes = 0, largest_item_bytes = 0;
  int64_t largest_item_index = -1;
  double weight = 0;
};

std::string WriteBucketSummary(const BucketSummaryHead& head, const PartitionList& all);
// Every count, key, order and the checksum checked; kBadPartial located at the offending byte.
StatusOr<BucketSummary> ReadBucketSummary(std::string_view bytes);
// The record at `offset` (checked by ReadBucketSummary); answers the next record's offset.
uint64_t ReadSummaryPartition(std::string_view bytes, uint64_t offset, bool weighted,
                              SummaryPartition& out);

}  // namespace partplay::internal
