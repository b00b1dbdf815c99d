// The bucket summary reader (ingest/bucket_summary.h), which reads the *.sum files a user hands
// to `partplay merge --summaries`. The first input byte is a mode: even, the last 8 bytes are
// replaced by the right checksum (so mutations reach the value checks behind it); odd, the bytes
// are read as they are. A summary that reads lists its partitions in the report's order, each
// key well-formed and in the summary's bucket, their items within the input's; one that does not
// is a kBadPartial located inside the file.
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_common.h"
#include "ingest/bucket_summary.h"
#include "partplay/ingest/buckets.h"
#include "partplay/ingest/partition_key.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  if (size < 1) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] & 1) == 0 && bytes.size() >= 8) {
    uint64_t sum = XXH3_64bits(bytes.data(), bytes.size() - 8);
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  }
  StatusOr<internal::BucketSummary> read = internal::ReadBucketSummary(bytes);
  if (!read.ok()) {
    fuzz::Check(read.status().code() == ErrorCode::kBadPartial, "a bad summary is bad_partial",
                read.status().ToString());
    fuzz::Check(read.status().where().byte_offset >= 0 &&
                    read.status().where().byte_offset <= static_cast<int64_t>(bytes.size()),
                "a bad summary is located in the file", read.status().ToString());
    return 0;
  }
  const internal::BucketSummary& s = read.value();
  const bool weighted = !s.head.options.weight_path.empty();
  uint64_t at = s.partitions_at, items = 0;
  internal::SummaryPartition last;
  for (uint64_t i = 0; i < s.partitions; ++i) {
    internal::SummaryPartition p;
    fuzz::Check(at < bytes.size(), "a record lies in the file");
    at = internal::ReadSummaryPartition(bytes, at, weighted, p);
    fuzz::Check(at <= bytes.size() - 8, "a record ends before the checksum");
    fuzz::Check(BucketOf(p.canonical, s.head.buckets) == s.head.bucket, "a key of its bucket");
    fuzz::Check(p.items >= 1 && p.largest_item_bytes <= p.bytes, "counts in range");
    items += p.items;
    if (i > 0) {
      fuzz::Check(last.bytes > p.bytes || (last.bytes == p.bytes && last.items > p.items) ||
                      (last.bytes == p.bytes && last.items == p.items &&
                       CompareCanonicalKeys(last.canonical, p.canonical) < 0),
                  "the report's order");
    }
    last = p;
  }
  fuzz::Check(items <= s.head.items, "the partitions' items are the input's");
  fuzz::Check(at == bytes.size() - 8, "the records end at the checksum");
  return 0;
}
