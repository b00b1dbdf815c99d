// The bucket summary format (bucket_summary.h): its writer and its reader, on the partial
// format's Writer and Reader and their options and findings sections (partial_io.h).
#include "ingest/bucket_summary.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ingest/partial_data.h"
#include "ingest/partial_format.h"
#include "ingest/partial_io.h"
#include "partplay/ingest/buckets.h"
#include "partplay/ingest/partition_key.h"

namespace partplay::internal {

std::string WriteBucketSummary(const BucketSummaryHead& head, const PartitionList& all) {
  Writer w;
  w.Bytes(kSummaryMagic, sizeof kSummaryMagic);
  w.U32(kSummaryVersion);
  WriteOptions(w, head.options, /*id_records=*/true);
  w.U32(head.bucket);
  w.U32(head.buckets);
  w.U64(head.part_ids.size());
  for (uint64_t id : head.part_ids) w.U64(id);
  w.U64(head.items);
  w.U64(head.duplicate_id);
  w.Findings(head.duplicate_examples);
  const bool weighted = !head.options.weight_path.empty();
  w.U64(all.size());
  LogicalPartition p;
  for (size_t i = 0; i < all.size(); ++i) {
    all.read_ahead(i);
    all.partition_into(i, p);
    w.VarStr(all.canonical(i));
    w.Varint(p.items);
    w.Varint(p.bytes);
    w.Varint(p.largest_item_bytes);
    w.Varint(static_cast<uint64_t>(p.largest_item_index + 1));
    if (weighted) w.F64(p.weight);
  }
  w.U64(w.Checksum());
  return std::move(w.out());
}

uint64_t ReadSummaryPartition(std::string_view b, uint64_t offset, bool weighted,
                              SummaryPartition& out) {
  size_t at = offset;
  const char* error = nullptr;
  uint64_t length = 0, index = 0;
  ReadVarint(b, at, length, error);  // checked by ReadBucketSummary
  out.canonical = b.substr(at, length);
  at += length;
  ReadVarint(b, at, out.items, error);
  ReadVarint(b, at, out.bytes, error);
  ReadVarint(b, at, out.largest_item_bytes, error);
  ReadVarint(b, at, index, error);
  out.largest_item_index = static_cast<int64_t>(index) - 1;
  out.weight = 0;
  if (weighted) {
    std::memcpy(&out.weight, b.data() + at, 8);
    at += 8;
  }
  return at;
}

StatusOr<BucketSummary> ReadBucketSummary(std::string_view bytes) {
  Reader in(bytes, "bucket summary");
  BucketSummary s;
  BucketSummaryHead& h = s.head;
  char magic[sizeof kSummaryMagic];
  if (!in.Raw(magic, sizeof magic, "the header") ||
      std::memcmp(magic, kSummaryMagic, sizeof magic) != 0) {
    return Status(ErrorCode::kBadPartial,
                  "not a bucket summary (written by partplay merge --bucket B --summary-out)",
                  SourceLocation{0, 0, 0, -1});
  }
  uint32_t version = 0;
  if (!in.U32(version, "the version")) return in.error();
  if (version != kSummaryVersion) {
    in.Fail(fmt::format("format version {}; this partplay reads version {}", version,
                        kSummaryVersion),
            sizeof kSummaryMagic);
    return in.error();
  }
  bool id_records = true;
  if (!ReadOptions(in, h.options, id_records)) return in.error();
  if (!id_records) {
    in.Fail("the id check is 2 (hashes only): a summary's parts keep their ids' places");
    return in.error();
  }
  size_t at = in.pos();
  uint64_t parts = 0;
  if (!in.U32(h.bucket, "the bucket") || !in.U32(h.buckets, "the bucket count")) return in.error();
  if (h.buckets < 1 || h.buckets > kMaxBuckets || h.bucket >= h.buckets) {
    in.Fail(fmt::format("bucket {} of {}", h.bucket, h.buckets), at);
    return in.error();
  }
  if (!in.Count(parts, 8, UINT32_MAX, "the part count")) return in.error();
  h.part_ids.resize(parts);
  for (uint64_t& id : h.part_ids) {
    if (!in.U64(id, "a part id")) return in.error();
  }
  at = in.pos();
  if (!in.U64(h.items, "the item count") || !in.U64(h.duplicate_id, "the duplicate ids")) {
    return in.error();
  }
  constexpr uint64_t kMaxTotal = uint64_t{1} << 53;
  if (h.items > kMaxTotal || h.duplicate_id > h.items) {
    in.Fail("the item counts are out of range", at);
    return in.error();
  }
  at = in.pos();
  if (!ReadFindings(in, h.duplicate_examples, h.items, "the duplicate-id examples")) {
    return in.error();
  }
  if (h.duplicate_examples.size() > h.duplicate_id) {
    in.Fail(fmt::format("{} duplicate-id examples of {} duplicate ids",
                        h.duplicate_examples.size(), h.duplicate_id),
            at);
    return in.error();
  }
  const bool weighted = !h.options.weight_path.empty();
  const size_t components = h.options.synthetic.kind == SyntheticKeyOptions::Kind::kNone
                                ? h.options.key_paths.size()
                                : 1;
  uint64_t partitions = 0;
  if (!in.Count(partitions, 6, h.items, "the partition count")) return in.error();
  s.partitions = partitions;
  s.partitions_at = in.pos();
  uint64_t sum_items = 0;
  SummaryPartition last;
  for (uint64_t i = 0; i < partitions; ++i) {
    at = in.pos();
    uint64_t index = 0;
    SummaryPartition p;
    if (!in.VarStrView(p.canonical, SIZE_MAX, "a partition key") ||
        !in.Varint(p.items, "a partition's items") ||
        !in.Varint(p.bytes, "a partition's bytes") ||
        !in.Varint(p.largest_item_bytes, "a partition's largest item") ||
        !in.Varint(index, "a partition's largest item") ||
        (weighted && !in.F64(p.weight, "a partition's weight"))) {
      return in.error();
    }
    p.largest_item_index = static_cast<int64_t>(index) - 1;
    if (!WellFormedCanonical(p.canonical, components)) {
      in.Fail(fmt::format("partition {}'s key is not a well-formed key", i), at);
      return in.error();
    }
    if (BucketOf(p.canonical, h.buckets) != h.bucket) {
      in.Fail(fmt::format("partition {}'s key belongs to bucket {}, not {}", i,
                          BucketOf(p.canonical, h.buckets), h.bucket),
              at);
      return in.error();
    }
    if (p.items < 1 || p.items > h.items - sum_items || p.largest_item_bytes > p.bytes ||
        index > h.items || (weighted && !std::isfinite(p.weight))) {
      in.Fail(fmt::format("partition {}'s counts are out of range", i), at);
      return in.error();
    }
    sum_items += p.items;
    // The report's order, strictly: bytes, then items, largest first, then key order.
    if (i > 0) {
      bool before = last.bytes != p.bytes   ? last.bytes > p.bytes
                    : last.items != p.items ? last.items > p.items
                                            : CompareCanonicalKeys(last.canonical, p.canonical) < 0;
      if (!before) {
        in.Fail(fmt::format("partition {} is out of the report's order (or repeats a key)", i),
                at);
        return in.error();
      }
    }
    last = p;
  }
  if (!in.Checksum()) return in.error();
  return s;
}

}  // namespace partplay::internal
