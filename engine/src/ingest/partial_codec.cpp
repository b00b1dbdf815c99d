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
//
// partial_writer.cpp writes the format, partial_reader.cpp reads it; this file holds the varints
// and the item records (AppendRecord's deltas) both use, and the id pairs' record list.
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ingest/partial_data.h"
#include "ingest/partial_format.h"
#include "partplay/core/utf8.h"

namespace partplay::internal {

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

namespace {
uint64_t ZigZag(uint64_t delta) {  // a signed delta (two's complement) with its sign last
  return (delta << 1) ^ (0 - (delta >> 63));
}
uint64_t UnZigZag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }
}  // namespace

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

}  // namespace partplay::internal
