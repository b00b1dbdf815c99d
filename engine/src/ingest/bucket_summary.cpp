// The bucket summary format (bucket_summary.h) and the summary step (buckets.h
// MergeBucketSummaries): every part's figures merged, each bucket's partitions taken in the
// report's order from its summary, the buckets' orders merged into the whole report's.
#include "ingest/bucket_summary.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <queue>

#include "ingest/partial_data.h"
#include "ingest/partial_format.h"
#include "partplay/core/statistics.h"
#include "partplay/ingest/buckets.h"
#include "partplay/ingest/partition_key.h"

namespace partplay::internal {
namespace {

void Put(std::string& out, const void* p, size_t n) { out.append(static_cast<const char*>(p), n); }
void U8(std::string& out, uint8_t v) { Put(out, &v, 1); }
void U32(std::string& out, uint32_t v) { Put(out, &v, 4); }
void U64(std::string& out, uint64_t v) { Put(out, &v, 8); }
void I64(std::string& out, int64_t v) { Put(out, &v, 8); }
void Str(std::string& out, std::string_view s) {
  U64(out, s.size());
  Put(out, s.data(), s.size());
}

void WriteOptions(std::string& out, const AnalysisOptions& o) {
  U64(out, o.key_paths.size());
  for (const auto& p : o.key_paths) Str(out, p);
  I64(out, o.discover_items);
  Str(out, o.weight_path);
  U8(out, o.check_ids ? 1 : 0);
  U8(out, static_cast<uint8_t>(o.synthetic.kind));
  U64(out, o.synthetic.paths.size());
  for (const auto& p : o.synthetic.paths) Str(out, p);
  Str(out, o.synthetic.separator);
  U32(out, o.synthetic.buckets);
  U64(out, o.synthetic.seed);
  Str(out, o.synthetic.suffix_path);
}

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  const Status& error() const { return error_; }
  size_t pos() const { return p_; }
  size_t left() const { return b_.size() - p_; }
  bool Fail(std::string_view what, size_t at = SIZE_MAX) {
    if (!error_.ok()) return false;
    at = at == SIZE_MAX ? p_ : at;
    SourceLocation where;
    where.byte_offset = static_cast<int64_t>(at);
    error_ = Status(ErrorCode::kBadPartial,
                    fmt::format("bucket summary: {} (at byte {})", what, at), where);
    return false;
  }
  bool Raw(void* out, size_t n, std::string_view what) {
    if (left() < n) return Fail(fmt::format("truncated: the file ends inside {}", what));
    std::memcpy(out, b_.data() + p_, n);
    p_ += n;
    return true;
  }
  bool U8(uint8_t& v, std::string_view what) { return Raw(&v, 1, what); }
  bool U32(uint32_t& v, std::string_view what) { return Raw(&v, 4, what); }
  bool U64(uint64_t& v, std::string_view what) { return Raw(&v, 8, what); }
  bool I64(int64_t& v, std::string_view what) { return Raw(&v, 8, what); }
  bool F64(double& v, std::string_view what) { return Raw(&v, 8, what); }
  // A count of things of at least `each` bytes, at most `max`.
  bool Count(uint64_t& n, size_t each, uint64_t max, std::string_view what) {
    size_t at = p_;
    if (!U64(n, what)) return false;
    if (n > max || n > left() / each) {
      return Fail(fmt::format("{} is {}, more than it may be or the file holds", what, n), at);
    }
    return true;
  }
  bool Str(std::string& s, size_t max, std::string_view what) {
    uint64_t n = 0;
    size_t at = p_;
    if (!U64(n, what)) return false;
    if (n > max || n > left()) return Fail(fmt::format("{} of {} bytes", what, n), at);
    s.assign(b_.data() + p_, n);
    p_ += n;
    return true;
  }
  bool View(std::string_view& v, uint64_t n, std::string_view what) {
    if (n > left()) return Fail(fmt::format("truncated: the file ends inside {}", what));
    v = b_.substr(p_, n);
    p_ += n;
    return true;
  }
  bool Varint(uint64_t& v, std::string_view what) {
    const char* error = nullptr;
    size_t at = p_;
    if (!ReadVarint(b_, p_, v, error)) return Fail(fmt::format("{} ({})", error, what), at);
    return true;
  }

 private:
  std::string_view b_;
  size_t p_ = 0;
  Status error_;
};

bool ReadOptions(Reader& in, AnalysisOptions& o) {
  uint64_t n = 0;
  if (!in.Count(n, 8, 16, "the key path count")) return false;
  o.key_paths.resize(n);
  for (auto& p : o.key_paths) {
    if (!in.Str(p, kMaxPathBytes, "a key path")) return false;
  }
  uint8_t check = 0, kind = 0;
  if (!in.I64(o.discover_items, "--discover") ||
      !in.Str(o.weight_path, kMaxPathBytes, "the weight path") || !in.U8(check, "the id check") ||
      !in.U8(kind, "the synthetic key kind")) {
    return false;
  }
  if (check > 1 || kind > 3) return in.Fail("the id check or the synthetic key kind is unknown");
  o.check_ids = check == 1;
  o.synthetic.kind = static_cast<SyntheticKeyOptions::Kind>(kind);
  if (!in.Count(n, 8, 16, "the synthetic path count")) return false;
  o.synthetic.paths.resize(n);
  for (auto& p : o.synthetic.paths) {
    if (!in.Str(p, kMaxPathBytes, "a synthetic path")) return false;
  }
  return in.Str(o.synthetic.separator, kMaxPathBytes, "the separator") &&
         in.U32(o.synthetic.buckets, "the synthetic buckets") &&
         in.U64(o.synthetic.seed, "the seed") &&
         in.Str(o.synthetic.suffix_path, kMaxPathBytes, "the suffix path");
}

}  // namespace

std::string WriteBucketSummary(const BucketSummaryHead& head, const PartitionList& all) {
  std::string out;
  Put(out, kSummaryMagic, sizeof kSummaryMagic);
  U32(out, kSummaryVersion);
  WriteOptions(out, head.options);
  U32(out, head.bucket);
  U32(out, head.buckets);
  U64(out, head.part_ids.size());
  for (uint64_t id : head.part_ids) U64(out, id);
  U64(out, head.items);
  U64(out, head.duplicate_id);
  U32(out, static_cast<uint32_t>(head.duplicate_examples.size()));
  for (const ItemFinding& f : head.duplicate_examples) {
    I64(out, f.item_index);
    U64(out, f.bytes);
    I64(out, f.where.byte_offset);
    I64(out, f.where.line);
    I64(out, f.where.column);
    I64(out, f.where.item_index);
    Str(out, f.type);
  }
  const bool weighted = !head.options.weight_path.empty();
  U64(out, all.size());
  LogicalPartition p;
  for (size_t i = 0; i < all.size(); ++i) {
    all.read_ahead(i);
    all.partition_into(i, p);
    std::string_view key = all.canonical(i);
    AppendVarint(out, key.size());
    out.append(key);
    AppendVarint(out, p.items);
    AppendVarint(out, p.bytes);
    AppendVarint(out, p.largest_item_bytes);
    AppendVarint(out, static_cast<uint64_t>(p.largest_item_index + 1));
    if (weighted) Put(out, &p.weight, 8);
  }
  U64(out, XXH3_64bits(out.data(), out.size()));
  return out;
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
  Reader in(bytes);
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
  if (!ReadOptions(in, h.options)) return in.error();
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
  uint32_t examples = 0;
  at = in.pos();
  if (!in.U32(examples, "the duplicate-id examples")) return in.error();
  if (examples > kMaxFindingExamples || examples > h.duplicate_id) {
    in.Fail(fmt::format("{} duplicate-id examples", examples), at);
    return in.error();
  }
  h.duplicate_examples.resize(examples);
  int64_t previous = -1;
  for (ItemFinding& f : h.duplicate_examples) {
    at = in.pos();
    if (!in.I64(f.item_index, "an example") || !in.U64(f.bytes, "an example") ||
        !in.I64(f.where.byte_offset, "an example") || !in.I64(f.where.line, "an example") ||
        !in.I64(f.where.column, "an example") || !in.I64(f.where.item_index, "an example") ||
        !in.Str(f.type, kMaxMessageBytes, "an example")) {
      return in.error();
    }
    if (f.item_index <= previous || static_cast<uint64_t>(f.item_index) >= h.items) {
      in.Fail(fmt::format("a duplicate-id example's item index {} is out of order or range",
                          f.item_index),
              at);
      return in.error();
    }
    previous = f.item_index;
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
    uint64_t length = 0, index = 0;
    SummaryPartition p;
    if (!in.Varint(length, "a key's length")) return in.error();
    if (!in.View(p.canonical, length, "a key") || !in.Varint(p.items, "a partition's items") ||
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
  size_t end = in.pos();
  uint64_t checksum = 0;
  if (!in.U64(checksum, "the checksum")) return in.error();
  if (in.left() != 0) {
    in.Fail("bytes after the checksum");
    return in.error();
  }
  if (checksum != XXH3_64bits(bytes.data(), end)) {
    in.Fail("the checksum does not match (the file is corrupt)", end);
    return in.error();
  }
  return s;
}

}  // namespace partplay::internal
