// The partial format (partial_data.h): little-endian, every string and list length-prefixed,
// sections in a fixed order, an XXH3-64 of all preceding bytes at the end.
//
//   "partplay-partial" u32 version
//   options | status | extent and counters | 5 finding lists | partitions | id pairs | sample
//   u64 checksum
//
// Version 2: in the partitions section each key's length and counts are LEB128 varints, and an
// item's place (a /id partition's first item, an id pair's) is AppendRecord's deltas from the
// place before; the id pairs are their hashes (u64 each), then their places and ids as one string.
// The options' id-check byte is 0 (off), 1 (on) or 2 (on, in a part made with PartIds::kHashed:
// no place is recorded, neither a /id partition's nor an id pair's, whose string is empty).
//
// The reader is a parser of untrusted bytes: each count is bounded by the bytes left (no
// allocation larger than the file), every value is range-checked against the others (totals,
// indices, offsets), keys are well-formed canonical bytes, and the checksum is verified last.
// Each value has the one form the writer gives it (varints in their shortest form, weight sums
// without zero parts), so what reads serializes again to the same bytes.
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ingest/partial_data.h"
#include "partplay/core/utf8.h"

namespace partplay::internal {
namespace {

constexpr char kMagic[16] = {'p', 'a', 'r', 't', 'p', 'l', 'a', 'y',
                             '-', 'p', 'a', 'r', 't', 'i', 'a', 'l'};
bool ReadLongVarint(std::string_view b, size_t& p, uint64_t& v, const char*& error);
// A varint (LEB128) at p, in its shortest form (the only one a writer writes, so a part read
// back serializes to the same bytes); most are one or two bytes (the rest: ReadLongVarint).
inline bool ReadVarint(std::string_view b, size_t& p, uint64_t& v, const char*& error) {
  if (b.size() >= 2 && p <= b.size() - 2) {
    auto b0 = static_cast<uint8_t>(b[p]);
    if (b0 < 0x80) {
      v = b0;
      p += 1;
      return true;
    }
    auto b1 = static_cast<uint8_t>(b[p + 1]);
    if (b1 < 0x80 && b1 != 0) {
      v = (b0 & 0x7fu) | static_cast<uint64_t>(b1) << 7;
      p += 2;
      return true;
    }
  }
  return ReadLongVarint(b, p, v, error);
}
size_t EncodeVarint(uint64_t v, uint8_t out[10]);

constexpr uint32_t kVersion = 2;  // 2: counts as varints, item places as deltas (AppendRecord)
constexpr size_t kMaxMessageBytes = 64 * 1024;
constexpr size_t kMaxWeightParts = 64;  // an expansion of doubles has at most ~40 components
constexpr size_t kMaxPathBytes = 1u << 20;

// Writes the format into one string, or (counting) only adds up its length, so the bytes can
// be written into one allocation of the right size (a doubling string leaves freed blocks
// behind, which a wasm heap never gives back: a 290 MB partial took a worker's heap from 0.5 to
// 1.5 GB), or hands it to a sink in pieces of at most kPiece bytes (no copy of the whole).
class Writer {
 public:
  enum class Mode { kCount, kString, kSink };
  static constexpr size_t kPiece = 1u << 20;

  explicit Writer(Mode mode = Mode::kString, const PartialSink* sink = nullptr)
      : mode_(mode), sink_(sink) {
    if (mode_ == Mode::kSink) {
      out_.resize(kPiece);
      XXH3_64bits_reset(&state_);
    }
  }
  void U8(uint8_t v) { Raw(&v, 1); }
  void U32(uint32_t v) { Raw(&v, 4); }
  void U64(uint64_t v) { Raw(&v, 8); }
  void I64(int64_t v) { Raw(&v, 8); }
  void F64(double v) { Raw(&v, 8); }
  void Str(std::string_view s) {
    U64(s.size());
    Raw(s.data(), s.size());
  }
  void Loc(const SourceLocation& w) {
    I64(w.byte_offset);
    I64(w.line);
    I64(w.column);
    I64(w.item_index);
  }
  void Findings(const std::vector<ItemFinding>& list) {
    U32(static_cast<uint32_t>(list.size()));
    for (const ItemFinding& f : list) {
      I64(f.item_index);
      U64(f.bytes);
      Loc(f.where);
      Str(f.type);
    }
  }
  void Bytes(const void* p, size_t n) { Raw(p, n); }
  void Varint(uint64_t v) {
    uint8_t b[10];
    Raw(b, EncodeVarint(v, b));
  }
  void VarStr(std::string_view s) {
    Varint(s.size());
    Raw(s.data(), s.size());
  }
  size_t size() const { return counted_; }
  // Sizes the output at once (the counted length): writes are then copies, no appends.
  void Reserve(size_t n) { out_.resize(n); }
  // The checksum of everything written so far (0 while counting: only its length matters).
  uint64_t Checksum() {
    switch (mode_) {
      case Mode::kCount:
        return 0;
      case Mode::kString:
        return XXH3_64bits(out_.data(), counted_);
      case Mode::kSink:
        Flush();
        return XXH3_64bits_digest(&state_);
    }
    return 0;
  }
  std::string& out() {
    out_.resize(counted_);
    return out_;
  }
  // Hands what is buffered to the sink (kSink).
  void Flush() {
    if (used_ == 0) return;
    XXH3_64bits_update(&state_, out_.data(), used_);
    (*sink_)(std::string_view(out_.data(), used_));
    used_ = 0;
  }

 private:
  void Raw(const void* p, size_t n) {
    // The format is little-endian; every target of this engine (x86-64, arm64, wasm32) is.
    if (mode_ == Mode::kString) {
      if (out_.size() - counted_ < n) out_.resize(std::max(out_.size() * 2, counted_ + n));
      std::memcpy(out_.data() + counted_, p, n);
    } else if (mode_ == Mode::kSink) {
      const char* from = static_cast<const char*>(p);
      for (size_t left = n; left > 0;) {
        size_t k = std::min(left, kPiece - used_);
        std::memcpy(out_.data() + used_, from, k);
        used_ += k;
        from += k;
        left -= k;
        if (used_ == kPiece) Flush();
      }
    }
    counted_ += n;
  }
  Mode mode_;
  const PartialSink* sink_;
  size_t counted_ = 0;  // bytes written (or counted)
  size_t used_ = 0;     // kSink: bytes buffered in out_
  std::string out_;
  XXH3_state_t state_;  // kSink: the checksum so far
};

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}

  bool failed() const { return !error_.ok(); }
  const Status& error() const { return error_; }
  size_t pos() const { return p_; }
  size_t left() const { return b_.size() - p_; }

  // Records the first problem, located at `at` (default: where reading stands).
  bool Fail(std::string what, size_t at = SIZE_MAX) {
    if (!failed()) error_ = BadPartialAt(what, at == SIZE_MAX ? p_ : at);
    return false;
  }
  static Status BadPartialAt(std::string_view what, size_t at) {
    SourceLocation where;
    where.byte_offset = static_cast<int64_t>(at);
    return Status(ErrorCode::kBadPartial, fmt::format("partial state: {} (at byte {})", what, at),
                  where);
  }
  bool Raw(void* out, size_t n, const char* what) {
    if (failed()) return false;
    if (left() < n) return Fail(fmt::format("truncated: the file ends inside {}", what));
    std::memcpy(out, b_.data() + p_, n);
    p_ += n;
    return true;
  }
  bool U8(uint8_t& v, const char* what) { return Raw(&v, 1, what); }
  bool U32(uint32_t& v, const char* what) { return Raw(&v, 4, what); }
  bool U64(uint64_t& v, const char* what) { return Raw(&v, 8, what); }
  bool I64(int64_t& v, const char* what) { return Raw(&v, 8, what); }
  bool F64(double& v, const char* what) { return Raw(&v, 8, what); }
  bool Bool(bool& v, const char* what) {
    size_t at = p_;
    uint8_t b = 0;
    if (!U8(b, what)) return false;
    if (b > 1) return Fail(fmt::format("{} is {}, not 0 or 1", what, b), at);
    v = b == 1;
    return true;
  }
  // A count of elements each at least `min_bytes` long, so never more than the bytes left hold.
  bool Count(uint64_t& n, size_t min_bytes, uint64_t max, const char* what) {
    size_t at = p_;
    if (!U64(n, what)) return false;
    if (n > max) return Fail(fmt::format("{} is {}, over its limit {}", what, n, max), at);
    if (n > left() / min_bytes) {
      return Fail(fmt::format("{} is {}, more than the file's remaining bytes hold", what, n), at);
    }
    return true;
  }
  bool Str(std::string& s, size_t max, const char* what) {
    std::string_view view;
    if (!StrView(view, max, what)) return false;
    s.assign(view);
    return true;
  }
  // A length-prefixed string of at most `max` bytes, in place (valid as long as the bytes).
  bool StrView(std::string_view& s, size_t max, const char* what) {
    size_t at = p_;
    uint64_t n = 0;
    return U64(n, what) && Take(s, n, max, at, what);
  }
  bool Varint(uint64_t& v, const char* what) {
    if (failed()) return false;
    size_t at = p_;
    const char* error = nullptr;
    if (ReadVarint(b_, p_, v, error)) return true;
    return Fail(fmt::format("{} ({})", error, what), at);
  }
  // A string whose length is a varint, of at most `max` bytes, in place.
  bool VarStrView(std::string_view& s, size_t max, const char* what) {
    size_t at = p_;
    uint64_t n = 0;
    return Varint(n, what) && Take(s, n, max, at, what);
  }
  // The next n bytes of a string whose length was read at `at`, if within `max` and the file.
  bool Take(std::string_view& s, uint64_t n, size_t max, size_t at, const char* what) {
    if (n > max)
      return Fail(fmt::format("{} is {} bytes long, over its limit {}", what, n, max), at);
    if (n > left()) return Fail(fmt::format("truncated: the file ends inside {}", what), at);
    s = b_.substr(p_, n);
    p_ += n;
    return true;
  }
  bool Loc(SourceLocation& w, const char* what) {
    size_t at = p_;
    if (!I64(w.byte_offset, what) || !I64(w.line, what) || !I64(w.column, what) ||
        !I64(w.item_index, what)) {
      return false;
    }
    if (w.byte_offset < -1 || w.line < 0 || w.column < 0 || w.item_index < -1) {
      return Fail(fmt::format("{} has a negative position", what), at);
    }
    return true;
  }
  // An item's place: index below `items`, offset below `input_bytes`, line and column from 1.
  bool Record(ItemRecord& r, const ItemRecord& last, uint64_t items, uint64_t input_bytes,
              const char* what) {
    if (failed()) return false;
    size_t at = p_;
    const char* error = nullptr;
    if (ReadRecord(b_, p_, r, last, items, input_bytes, error)) return true;
    if (error == kOutsideThePart) return Fail(fmt::format("{} {}", what, error), at);
    return Fail(fmt::format("{} ({})", error, what), at);
  }

 private:
  std::string_view b_;
  size_t p_ = 0;
  Status error_;
};

// Well-formed canonical key bytes (partition_key.h) of `components` components (0: any number).
bool WellFormedCanonical(std::string_view c, size_t components) {
  size_t i = 0, count = 0;
  KeyKind kind;
  double number;
  std::string_view text;
  while (i < c.size()) {
    if (!ReadCanonicalComponent(c, i, kind, number, text)) return false;
    ++count;
    if (kind == KeyKind::kNumber && !std::isfinite(number)) return false;
    if (kind == KeyKind::kString && !IsValidUtf8(text)) return false;
  }
  return components == 0 ? count >= 1 : count == components;
}

// A location a part reports (an error's, a finding's) is at most 2^53 in each field, as the
// merge's totals are: rebasing it onto the parts before then cannot overflow.
bool Rebasable(const SourceLocation& w) {
  constexpr int64_t kMax = int64_t{1} << 53;
  return w.byte_offset <= kMax && w.item_index <= kMax && w.line <= kMax && w.column <= kMax;
}

bool ReadFindings(Reader& in, std::vector<ItemFinding>& list, uint64_t items, const char* what) {
  uint32_t n = 0;
  size_t at = in.pos();
  if (!in.U32(n, what)) return false;
  if (n > kMaxFindingExamples || n > items) {
    return in.Fail(fmt::format("{} lists {} examples (at most {})", what, n, kMaxFindingExamples),
                   at);
  }
  list.resize(n);
  int64_t previous = -1;
  for (ItemFinding& f : list) {
    size_t start = in.pos();
    if (!in.I64(f.item_index, what) || !in.U64(f.bytes, what) || !in.Loc(f.where, what) ||
        !in.Str(f.type, kMaxMessageBytes, what)) {
      return false;
    }
    if (f.item_index <= previous || static_cast<uint64_t>(f.item_index) >= items) {
      return in.Fail(fmt::format("{}: item index {} out of order or range", what, f.item_index),
                     start);
    }
    if (!Rebasable(f.where)) {
      return in.Fail(fmt::format("{}: a location past 2^53", what), start);
    }
    previous = f.item_index;
  }
  return true;
}

// `id_records`: whether the part recorded its ids' places (the id-check byte is not 2).
bool ReadOptions(Reader& in, AnalysisOptions& o, bool& id_records) {
  uint64_t n = 0;
  if (!in.Count(n, 8, 3, "the key path count")) return false;
  if (n == 0) return in.Fail("no key path");
  o.key_paths.resize(n);
  for (auto& p : o.key_paths) {
    if (!in.Str(p, kMaxPathBytes, "a key path")) return false;
  }
  size_t at = in.pos();
  if (!in.I64(o.discover_items, "--discover")) return false;
  if (o.discover_items < -1) return in.Fail("--discover is below -1", at);
  if (!in.Str(o.weight_path, kMaxPathBytes, "the weight path")) return false;
  uint8_t id_check = 0;
  at = in.pos();
  if (!in.U8(id_check, "the id check")) return false;
  if (id_check > 2) return in.Fail(fmt::format("the id check is {}, not 0, 1 or 2", id_check), at);
  o.check_ids = id_check != 0;
  id_records = id_check != 2;
  uint8_t kind = 0;
  at = in.pos();
  if (!in.U8(kind, "the synthetic key kind")) return false;
  if (kind > 3) return in.Fail(fmt::format("unknown synthetic key kind {}", kind), at);
  o.synthetic.kind = static_cast<SyntheticKeyOptions::Kind>(kind);
  if (!in.Count(n, 8, 5, "the synthetic path count")) return false;
  o.synthetic.paths.resize(n);
  for (auto& p : o.synthetic.paths) {
    if (!in.Str(p, kMaxPathBytes, "a synthetic key path")) return false;
  }
  return in.Str(o.synthetic.separator, 16, "the separator") &&
         in.U32(o.synthetic.buckets, "the suffix count") && in.U64(o.synthetic.seed, "the seed") &&
         in.Str(o.synthetic.suffix_path, kMaxPathBytes, "the suffix path");
}

bool KnownErrorCode(uint32_t code) {
#define PARTPLAY_X(name, number, short_name, description) \
  if (code == number && code != 0) return true;
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  return false;
}

}  // namespace

namespace {
// LEB128: 7 bits a byte, the high bit set on all but the last; answers the byte count.
size_t EncodeVarint(uint64_t v, uint8_t out[10]) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7) out[n++] = static_cast<uint8_t>(v | 0x80);
  out[n++] = static_cast<uint8_t>(v);
  return n;
}
void AppendVarint(std::string& out, uint64_t v) {
  uint8_t b[10];
  out.append(reinterpret_cast<const char*>(b), EncodeVarint(v, b));
}
uint64_t ZigZag(uint64_t delta) {  // a signed delta (two's complement) with its sign last
  return (delta << 1) ^ (0 - (delta >> 63));
}
uint64_t UnZigZag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }

bool ReadLongVarint(std::string_view b, size_t& p, uint64_t& v, const char*& error) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == b.size()) {
      error = "truncated: the file ends inside a number";
      return false;
    }
    auto byte = static_cast<uint8_t>(b[p++]);
    if (shift == 63 && byte > 1) break;  // past 64 bits
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      if (byte != 0 || shift == 0) return true;
      error = "a number not in its shortest form (a last byte of 0)";
      return false;
    }
  }
  error = "a number past 64 bits";
  return false;
}
}  // namespace

void AppendRecord(std::string& out, const ItemRecord& r, const ItemRecord& last) {
  // Deltas in unsigned arithmetic (wrapping, never overflowing), zigzagged.
  AppendVarint(out, ZigZag(static_cast<uint64_t>(r.index) - static_cast<uint64_t>(last.index)));
  AppendVarint(out, ZigZag(r.byte_offset - last.byte_offset));
  AppendVarint(out, r.bytes);
  AppendVarint(out, ZigZag(static_cast<uint64_t>(r.line) - static_cast<uint64_t>(last.line)));
  AppendVarint(out, static_cast<uint64_t>(r.column));
}

bool ReadRecord(std::string_view b, size_t& p, ItemRecord& r, const ItemRecord& last,
                uint64_t items, uint64_t input_bytes, const char*& error) {
  uint64_t index = 0, offset = 0, bytes = 0, line = 0, column = 0;
  if (!ReadVarint(b, p, index, error) || !ReadVarint(b, p, offset, error) ||
      !ReadVarint(b, p, bytes, error) || !ReadVarint(b, p, line, error) ||
      !ReadVarint(b, p, column, error)) {
    return false;
  }
  // Applied in wrapping arithmetic, then the result is checked: a wrap lands out of range.
  index = static_cast<uint64_t>(last.index) + UnZigZag(index);
  offset = last.byte_offset + UnZigZag(offset);
  line = static_cast<uint64_t>(last.line) + UnZigZag(line);
  if (index >= items || offset >= input_bytes || bytes > input_bytes - offset || line < 1 ||
      line > input_bytes + 1 || column < 1 || column > input_bytes + 1) {
    error = kOutsideThePart;
    return false;
  }
  r = {static_cast<int64_t>(index), bytes, offset, static_cast<int64_t>(line),
       static_cast<int64_t>(column)};
  return true;
}

void SkipRecord(std::string_view b, size_t& p) {
  for (int fields = 0; fields < 5 && p < b.size(); ++p) {
    if (!(static_cast<uint8_t>(b[p]) & 0x80)) ++fields;
  }
}

void IdPairRecords::Add(uint64_t hash, const ItemRecord& first, std::string_view id) {
  hash_.push_back(hash);
  sorted_ = false;
  AppendRecord(records_, first, last_);
  AppendVarint(records_, id.size());
  records_.append(id);
  last_ = first;
}

bool IdPairRecords::Cursor::Next(ItemRecord& r, std::string_view& id) {
  uint64_t length = 0;
  if (!ReadRecord(b_, p_, r, last_, items_, input_bytes_, error_)) {
    if (error_ == kOutsideThePart) error_ = "an id pair's first item lies outside the part";
    return false;
  }
  if (!ReadVarint(b_, p_, length, error_)) return false;
  if (length > b_.size() - p_) {
    error_ = "truncated: the id pairs end inside an id";
    return false;
  }
  id = b_.substr(p_, length);
  p_ += length;
  last_ = r;
  return true;
}

namespace {

void WritePartial(Writer& w, const PartialData& d) {
  w.Bytes(kMagic, sizeof kMagic);
  w.U32(kVersion);
  const AnalysisOptions& o = d.options;
  w.U64(o.key_paths.size());
  for (const auto& p : o.key_paths) w.Str(p);
  w.I64(o.discover_items);
  w.Str(o.weight_path);
  w.U8(!o.check_ids ? 0 : d.id_records ? 1 : 2);
  w.U8(static_cast<uint8_t>(o.synthetic.kind));
  w.U64(o.synthetic.paths.size());
  for (const auto& p : o.synthetic.paths) w.Str(p);
  w.Str(o.synthetic.separator);
  w.U32(o.synthetic.buckets);
  w.U64(o.synthetic.seed);
  w.Str(o.synthetic.suffix_path);

  w.U8(d.status.ok() ? 1 : 0);
  if (!d.status.ok()) {
    w.U32(static_cast<uint32_t>(d.status.code()));
    w.Str(std::string_view(d.status.message()).substr(0, kMaxMessageBytes));
    w.Loc(d.status.where());
  }
  w.U8(static_cast<uint8_t>(d.format));
  w.U64(d.input_bytes);
  w.I64(d.end_line);
  w.I64(d.end_column);
  for (uint64_t v : {d.items, d.bytes, d.undefined_items, d.invalid_items, d.invalid_bytes,
                     d.oversized, d.missing_id, d.duplicate_id, d.imprecise, d.weight_missing}) {
    w.U64(v);
  }
  w.Findings(d.invalid_examples);
  w.Findings(d.oversized_examples);
  w.Findings(d.missing_id_examples);
  w.Findings(d.duplicate_id_examples);
  w.Findings(d.imprecise_examples);

  bool weighted = !o.weight_path.empty();
  bool records = PartitionsHavePlaces(d);
  if (d.unloaded) {  // the section as it was read (it was checked)
    w.U64(d.unloaded_partitions);
    w.Bytes(d.source.data() + d.partitions_begin, d.partitions_end - d.partitions_begin);
  }
  std::string place;  // a partition's first item (records), relative to the one before
  ItemRecord last = kNoRecord;
  if (!d.unloaded) w.U64(d.table.size());
  for (uint32_t i = 0; !d.unloaded && i < d.table.size(); ++i) {
    PartitionTable::Entry e = d.table.EntryAt(i);
    w.VarStr(e.canonical);
    w.Varint(e.items);
    w.Varint(e.bytes);
    w.Varint(e.largest_item_bytes);
    w.Varint(static_cast<uint64_t>(e.largest_item_index));
    if (weighted) {
      std::vector<double> parts;
      if (i < d.weights.size()) {
        const WeightSum& s = d.weights[i];
        if (s.spilled()) {
          auto spill = d.weight_spill.find(i);
          if (spill != d.weight_spill.end()) parts = spill->second;
        } else {
          parts = {s.lo, s.hi};
        }
        // No zero parts (an expansion cancelled to zero keeps one): the reader refuses them.
        parts.erase(std::remove(parts.begin(), parts.end(), 0.0), parts.end());
      }
      w.U8(static_cast<uint8_t>(parts.size()));
      for (double c : parts) w.F64(c);
    }
    if (records) {
      const ItemRecord& r = i < d.first_items.size() ? d.first_items[i] : kNoRecord;
      place.clear();
      AppendRecord(place, r, last);
      w.Bytes(place.data(), place.size());
      last = r;
    }
  }
  w.U64(d.id_pairs.size());
  if (d.id_pairs.size() > 0) {
    w.Bytes(d.id_pairs.hashes().data(), d.id_pairs.size() * sizeof(uint64_t));
  }
  w.Str(d.id_pairs.records());
  w.U64(d.sample_paths.size());
  for (const auto& p : d.sample_paths) w.Str(p);
  w.U64(d.sample_items.size());
  for (const SampleItem& s : d.sample_items) {
    w.U64(s.bytes);
    w.U8(s.has_id ? 1 : 0);
    w.U64(s.id_hash);
    w.U32(s.obs_count);
    for (uint32_t i = s.first_obs; i < s.first_obs + s.obs_count; ++i) {
      w.U32(d.sample_obs[i].path);
      w.Str(d.sample_obs[i].canonical);
    }
  }
  w.U64(w.Checksum());
}

}  // namespace

std::string SerializePartialData(const PartialData& d) {
  Writer w;
  w.Reserve(PartialDataSize(d));
  WritePartial(w, d);
  return std::move(w.out());
}

size_t PartialDataSize(const PartialData& d) {
  Writer count(Writer::Mode::kCount);
  WritePartial(count, d);
  return count.size();
}

void SerializePartialData(const PartialData& d, const PartialSink& sink) {
  Writer w(Writer::Mode::kSink, &sink);
  WritePartial(w, d);
  w.Flush();
}

namespace {

// ParsePartialData; `unload`: the partitions are checked but not put in a table.
StatusOr<std::unique_ptr<PartialData>> ParseInto(std::string_view bytes,
                                                 std::unique_ptr<PartialData> d, bool unload) {
  Reader in(bytes);
  char magic[sizeof kMagic];
  if (!in.Raw(magic, sizeof magic, "the header") || std::memcmp(magic, kMagic, sizeof magic) != 0) {
    return Status(ErrorCode::kBadPartial,
                  "not a partial state (written by partplay analyze --partial-out)",
                  SourceLocation{0, 0, 0, -1});
  }
  uint32_t version = 0;
  if (!in.U32(version, "the version")) return in.error();
  if (version != kVersion) {
    in.Fail(fmt::format("format version {}; this partplay reads version {}", version, kVersion),
            sizeof kMagic);
    return in.error();
  }
  AnalysisOptions& o = d->options;
  if (!ReadOptions(in, o, d->id_records)) return in.error();

  bool ok = false;
  if (!in.Bool(ok, "the status")) return in.error();
  if (!ok) {
    uint32_t code = 0;
    size_t at = in.pos();
    std::string message;
    SourceLocation where;
    if (!in.U32(code, "the error code")) return in.error();
    if (!KnownErrorCode(code)) {
      in.Fail(fmt::format("unknown error code {}", code), at);
      return in.error();
    }
    if (!in.Str(message, kMaxMessageBytes, "the error message") ||
        !in.Loc(where, "the error's location")) {
      return in.error();
    }
    if (!Rebasable(where)) {
      in.Fail("the error's location is past 2^53", at);
      return in.error();
    }
    d->status = Status(static_cast<ErrorCode>(code), std::move(message), where);
  }
  uint8_t format = 0;
  size_t at = in.pos();
  if (!in.U8(format, "the input format")) return in.error();
  if (format > 2) {
    in.Fail(fmt::format("unknown input format {}", format), at);
    return in.error();
  }
  d->format = static_cast<InputFormat>(format);
  at = in.pos();
  if (!in.U64(d->input_bytes, "the input size") || !in.I64(d->end_line, "the end line") ||
      !in.I64(d->end_column, "the end column")) {
    return in.error();
  }
  if (d->end_line < 1 || d->end_column < 1 ||
      static_cast<uint64_t>(d->end_line) > d->input_bytes + 1 ||
      static_cast<uint64_t>(d->end_column) > d->input_bytes + 1) {
    in.Fail("the end position lies outside the part", at);
    return in.error();
  }
  at = in.pos();
  for (uint64_t* v :
       {&d->items, &d->bytes, &d->undefined_items, &d->invalid_items, &d->invalid_bytes,
        &d->oversized, &d->missing_id, &d->duplicate_id, &d->imprecise, &d->weight_missing}) {
    if (!in.U64(*v, "the counters")) return in.error();
  }
  if (d->bytes > d->input_bytes || d->items > d->input_bytes || d->invalid_items > d->items ||
      d->invalid_bytes > d->bytes || d->undefined_items > d->items || d->oversized > d->items ||
      d->missing_id > d->items || d->duplicate_id > d->items || d->imprecise > d->items ||
      d->weight_missing > d->items) {
    in.Fail("the counters do not add up (a count beyond the items or bytes)", at);
    return in.error();
  }
  if (!ReadFindings(in, d->invalid_examples, d->items, "the invalid-key examples") ||
      !ReadFindings(in, d->oversized_examples, d->items, "the oversized-item examples") ||
      !ReadFindings(in, d->missing_id_examples, d->items, "the missing-id examples") ||
      !ReadFindings(in, d->duplicate_id_examples, d->items, "the duplicate-id examples") ||
      !ReadFindings(in, d->imprecise_examples, d->items, "the imprecise-number examples")) {
    return in.error();
  }

  bool weighted = !o.weight_path.empty();
  bool records = PartitionsHavePlaces(*d);
  size_t components = o.synthetic.kind == SyntheticKeyOptions::Kind::kNone ? o.key_paths.size() : 1;
  uint64_t partitions = 0;
  // At least a key's length, a kind byte and four counts each.
  if (!in.Count(partitions, 6, UINT32_MAX - 1, "the partition count")) return in.error();
  if (partitions > d->items) {
    in.Fail("more partitions than items");
    return in.error();
  }
  uint64_t sum_items = 0, sum_bytes = 0;
  ItemRecord last_record = kNoRecord;
  d->partitions_begin = in.pos();
  if (!unload) d->table.Reserve(partitions);
  // Partitions go into the table in batches, what each batch's adds will read loaded first
  // (PartitionTable::TouchForAdds), so the cache misses of a large table overlap. A key seen
  // before in this part gets its number again, not the next one: one probe finds a repeat.
  // The first problem in byte order is reported, as if each partition were added when read.
  struct Pending {
    std::string_view canonical;
    uint64_t hash, items, bytes, largest;
    int64_t largest_index;
    size_t start;
    uint32_t number;  // what the table must give it
  };
  constexpr size_t kBatch = 16;
  Pending pending[kBatch];
  uint64_t hashes[kBatch];
  size_t pending_count = 0;
  Status repeat;  // what flush found
  auto repeated = [&](const Pending& p) {
    repeat = RepeatedPartitionKey(p.number, p.start);
    return false;
  };
  auto flush = [&]() {
    for (size_t k = 0; k < pending_count; ++k) hashes[k] = pending[k].hash;
    d->table.TouchForAdds(hashes, pending_count);
    size_t count = pending_count;
    pending_count = 0;
    for (size_t k = 0; k < count; ++k) {
      const Pending& p = pending[k];
      if (d->table.AddAggregate(p.canonical, p.hash, p.items, p.bytes, p.largest,
                                p.largest_index) != p.number) {
        return repeated(p);
      }
    }
    return true;
  };
  // A problem in the partition being read (`current`, once its key is read): a repeat before
  // it, or its own key repeating, comes first.
  auto fail_at = [&](const Pending* current) {
    if (!flush()) return repeat;
    if (current && d->table.Contains(current->canonical, current->hash)) {
      repeated(*current);
      return repeat;
    }
    return in.error();
  };
  for (uint64_t i = 0; i < partitions; ++i) {
    Pending& p = pending[pending_count];
    p.start = in.pos();
    p.number = static_cast<uint32_t>(i);
    uint64_t largest_index = 0;
    if (!in.VarStrView(p.canonical, d->input_bytes + 8 * components + 1, "a partition key") ||
        !in.Varint(p.items, "a partition") || !in.Varint(p.bytes, "a partition") ||
        !in.Varint(p.largest, "a partition") || !in.Varint(largest_index, "a partition")) {
      return fail_at(nullptr);
    }
    p.largest_index = largest_index >= d->items ? -1 : static_cast<int64_t>(largest_index);
    if (!WellFormedCanonical(p.canonical, components)) {
      in.Fail(fmt::format("partition {}'s key is not a well-formed key of {} component(s)", i,
                          components),
              p.start);
      return fail_at(nullptr);
    }
    p.hash = unload ? 0 : HashCanonical(p.canonical);  // unloaded: the merge hashes it
    // Every partition holds an item, and an item has bytes ("{}" at least): a largest item of
    // 0 bytes is no partition a part writes (the table would drop its index).
    if (p.items == 0 || p.items > d->items || p.bytes > d->bytes || p.largest == 0 ||
        p.largest > p.bytes || p.largest > kMaxBufferedItemBytes || p.largest_index < 0 ||
        static_cast<uint64_t>(p.largest_index) >= d->items) {
      in.Fail(fmt::format("partition {}'s counts are out of range", i), p.start);
      return fail_at(&p);
    }
    sum_items += p.items;
    sum_bytes += p.bytes;
    const uint32_t n = p.number;  // the number it gets unless it repeats (then an error)
    if (weighted) {
      uint8_t count = 0;
      at = in.pos();
      if (!in.U8(count, "a weight sum")) return fail_at(&p);
      if (count > kMaxWeightParts) {
        in.Fail(fmt::format("a weight sum of {} parts (at most {})", count, kMaxWeightParts), at);
        return fail_at(&p);
      }
      std::vector<double> parts(count);
      for (double& c : parts) {
        at = in.pos();
        if (!in.F64(c, "a weight sum")) return fail_at(&p);
        if (std::isnan(c) || (!std::isfinite(c) && count != 1)) {
          in.Fail("a weight sum holds a non-finite part", at);
          return fail_at(&p);
        }
        if (c == 0) {  // a writer leaves zeros out (of -0 too)
          in.Fail("a weight sum holds a zero part", at);
          return fail_at(&p);
        }
      }
      d->weights.resize(n + 1);
      if (count <= 2 && (count < 2 || std::fabs(parts[0]) <= std::fabs(parts[1]))) {
        d->weights[n].lo = count == 2 ? parts[0] : 0;
        d->weights[n].hi = count >= 1 ? parts[count - 1] : 0;
      } else {
        d->weights[n] = {0, std::nan("")};
        d->weight_spill[n] = std::move(parts);
      }
    }
    if (records) {
      ItemRecord r;
      if (!in.Record(r, last_record, d->items, d->input_bytes, "a partition's first item")) {
        return fail_at(&p);
      }
      d->first_items.push_back(r);
      last_record = r;
    }
    if (unload) continue;  // a merge adds it (and finds a repeat)
    if (++pending_count == kBatch && !flush()) return repeat;
  }
  if (!flush()) return repeat;
  if (unload) {
    d->unloaded = true;
    d->partitions_end = in.pos();
    d->unloaded_partitions = static_cast<uint32_t>(partitions);
  }
  if (d->status.ok() &&
      (sum_items != d->items - d->invalid_items || sum_bytes != d->bytes - d->invalid_bytes)) {
    in.Fail("the partitions' items or bytes do not add up to the part's");
    return in.error();
  }
  uint64_t pairs = 0;
  // At least 8 bytes of hash and (recorded) 6 of record each.
  if (!in.Count(pairs, d->id_records ? 14 : 8, d->items, "the id pair count")) return in.error();
  std::vector<uint64_t> pair_hashes(pairs);
  if (pairs > 0 && !in.Raw(pair_hashes.data(), pairs * sizeof(uint64_t), "the id pairs")) {
    return in.error();
  }
  size_t records_at = in.pos() + 8;
  std::string_view encoded;
  if (!in.StrView(encoded, in.left(), "the id pairs' records")) return in.error();
  if (!d->id_records && !encoded.empty()) {
    in.Fail("a part made without id records holds id pair records", records_at);
    return in.error();
  }
  IdPairRecords::Cursor cursor(encoded, d->items, d->input_bytes);
  for (uint64_t i = 0; d->id_records && i < pairs; ++i) {
    ItemRecord first;
    std::string_view id;
    size_t at = records_at + cursor.pos();
    if (!cursor.Next(first, id)) {
      in.Fail(cursor.error(), at);
      return in.error();
    }
  }
  if (!cursor.done()) {
    in.Fail("the id pairs' records hold more than their count", records_at + cursor.pos());
    return in.error();
  }
  if (unload) {  // `bytes` are d->source's
    d->id_pairs.View(std::move(pair_hashes), encoded);
  } else {
    d->id_pairs.Assign(std::move(pair_hashes), std::string(encoded));
  }
  uint64_t paths = 0;
  if (!in.Count(paths, 8, UINT32_MAX, "the sampled path count")) return in.error();
  d->sample_paths.resize(paths);
  for (auto& p : d->sample_paths) {
    if (!in.Str(p, kMaxPathBytes, "a sampled path")) return in.error();
  }
  uint64_t sampled = 0;
  uint64_t sample_max =
      o.discover_items < 0 ? d->items : std::min<uint64_t>(d->items, o.discover_items);
  if (!in.Count(sampled, 21, sample_max, "the sampled item count")) return in.error();
  d->sample_items.resize(sampled);
  uint64_t sampled_bytes = 0;  // the sampled items are some of the part's: their bytes too
  for (SampleItem& s : d->sample_items) {
    size_t at = in.pos();
    if (!in.U64(s.bytes, "a sampled item") || !in.Bool(s.has_id, "a sampled item") ||
        !in.U64(s.id_hash, "a sampled item") || !in.U32(s.obs_count, "a sampled item")) {
      return in.error();
    }
    if (s.bytes > d->bytes - sampled_bytes) {
      in.Fail("the sampled items' bytes add up to more than the part's", at);
      return in.error();
    }
    sampled_bytes += s.bytes;
    if (s.obs_count > in.left() / 12) {
      in.Fail("a sampled item has more values than the file's remaining bytes hold");
      return in.error();
    }
    s.first_obs = static_cast<uint32_t>(d->sample_obs.size());
    if (d->sample_obs.size() + s.obs_count > UINT32_MAX) {
      in.Fail("too many sampled values");
      return in.error();
    }
    for (uint32_t i = 0; i < s.obs_count; ++i) {
      SampleObservation obs;
      at = in.pos();
      if (!in.U32(obs.path, "a sampled value") ||
          !in.Str(obs.canonical, d->input_bytes + 13, "a sampled value")) {
        return in.error();
      }
      if (obs.path >= paths || !WellFormedCanonical(obs.canonical, 1)) {
        in.Fail("a sampled value is not well formed", at);
        return in.error();
      }
      d->sample_obs.push_back(std::move(obs));
    }
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
  return d;
}

// Reads the little-endian value at `at` (within checked bytes).

}  // namespace

StatusOr<std::unique_ptr<PartialData>> ParsePartialData(std::string_view bytes) {
  return ParseInto(bytes, std::make_unique<PartialData>(), false);
}

StatusOr<std::unique_ptr<PartialData>> ParsePartialData(std::string bytes) {
  auto d = std::make_unique<PartialData>();
  d->source = std::move(bytes);
  std::string_view view = d->source;
  return ParseInto(view, std::move(d), true);
}

void ForEachUnloadedPartition(const PartialData& d,
                              const std::function<void(const UnloadedPartition&)>& visit) {
  if (!d.unloaded) return;
  const bool weighted = !d.options.weight_path.empty();
  const bool records = PartitionsHavePlaces(d);
  size_t at = d.partitions_begin;
  for (uint32_t i = 0; i < d.unloaded_partitions && at < d.partitions_end; ++i) {
    UnloadedPartition p;
    p.number = i;
    p.start = at;
    // Read (and checked) at parse time: the varints are well-formed.
    const char* error = nullptr;
    uint64_t length = 0, largest_index = 0;
    ReadVarint(d.source, at, length, error);
    p.canonical = std::string_view(d.source).substr(at, length);
    at += length;
    ReadVarint(d.source, at, p.items, error);
    ReadVarint(d.source, at, p.bytes, error);
    ReadVarint(d.source, at, p.largest_item_bytes, error);
    ReadVarint(d.source, at, largest_index, error);
    p.largest_item_index = static_cast<int64_t>(largest_index);
    if (weighted) at += 1 + 8 * static_cast<uint8_t>(d.source[at]);  // read at parse time
    if (records) SkipRecord(d.source, at);                            // read at parse time
    visit(p);
  }
}

Status RepeatedPartitionKey(uint32_t number, size_t start) {
  return Reader::BadPartialAt(fmt::format("partition {}'s key appears twice", number), start);
}

Status LoadPartitionTable(PartialData& d) {
  if (!d.unloaded) return Status::Ok();
  d.table.Reserve(d.unloaded_partitions);
  Status status;
  ForEachUnloadedPartition(d, [&](const UnloadedPartition& p) {
    if (!status.ok()) return;
    uint32_t n = d.table.AddAggregate(p.canonical, HashCanonical(p.canonical), p.items, p.bytes,
                                      p.largest_item_bytes, p.largest_item_index);
    if (n != p.number) status = RepeatedPartitionKey(p.number, p.start);
  });
  if (!status.ok()) return status;
  d.unloaded = false;
  d.id_pairs.Own();
  d.source = std::string();
  return Status::Ok();
}

}  // namespace partplay::internal
