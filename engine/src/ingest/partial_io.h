// Internal: the reading and writing the partial format (partial_codec.cpp) and the bucket
// summary format (bucket_summary.h) share: a Writer (into one string, counting only, or to a sink
// in pieces, the XXH3-64 checksum kept as the bytes go), a Reader of untrusted bytes whose first
// problem is a located bad_partial, and the sections both formats hold: the analysis options and
// a list of findings.
#pragma once

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/partial_data.h"
#include "ingest/partial_format.h"
#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay::internal {

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
  // `kind` opens every message: "partial state", "bucket summary".
  explicit Reader(std::string_view b, const char* kind = "partial state") : b_(b), kind_(kind) {}

  bool failed() const { return !error_.ok(); }
  const Status& error() const { return error_; }
  size_t pos() const { return p_; }
  size_t left() const { return b_.size() - p_; }

  // Records the first problem, located at `at` (default: where reading stands).
  bool Fail(std::string what, size_t at = SIZE_MAX) {
    if (!failed()) error_ = BadPartialAt(what, at == SIZE_MAX ? p_ : at, kind_);
    return false;
  }
  static Status BadPartialAt(std::string_view what, size_t at,
                             const char* kind = "partial state") {
    SourceLocation where;
    where.byte_offset = static_cast<int64_t>(at);
    return Status(ErrorCode::kBadPartial, fmt::format("{}: {} (at byte {})", kind, what, at),
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
  // The last 8 bytes: the XXH3-64 of every byte before them, and nothing after.
  bool Checksum() {
    const size_t end = p_;
    uint64_t checksum = 0;
    if (!U64(checksum, "the checksum")) return false;
    if (left() != 0) return Fail("bytes after the checksum");
    if (checksum != XXH3_64bits(b_.data(), end)) {
      return Fail("the checksum does not match (the file is corrupt)", end);
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
  const char* kind_;
  size_t p_ = 0;
  Status error_;
};

// The options section: key paths, --discover, the weight path, the id check (0 off; 1 on,
// `id_records`; 2 on, hashes only) and the synthetic key.
void WriteOptions(Writer& w, const AnalysisOptions& o, bool id_records);
bool ReadOptions(Reader& in, AnalysisOptions& o, bool& id_records);
// A list of at most kMaxFindingExamples findings, in item order, each inside `items`.
bool ReadFindings(Reader& in, std::vector<ItemFinding>& list, uint64_t items, const char* what);

}  // namespace partplay::internal
