// The partial format's shared parts (partial_codec.cpp has the format itself): its magic and
// version, the bounds its reader checks, and LEB128 varints in their shortest form, which the
// writer (partial_writer.cpp), the reader (partial_reader.cpp) and the item records
// (partial_codec.cpp) all use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "partplay/ingest/buckets.h"

namespace partplay::internal {

inline constexpr char kPartialMagic[16] = {'p', 'a', 'r', 't', 'p', 'l', 'a', 'y',
                                           '-', 'p', 'a', 'r', 't', 'i', 'a', 'l'};
// 2: counts as varints, item places as deltas (AppendRecord). 3: a shard section after the
// version (ShardKind, part id, bucket, bucket count).
inline constexpr uint32_t kPartialVersion = 3;
inline constexpr size_t kMaxMessageBytes = 64 * 1024;
inline constexpr size_t kMaxWeightParts = 64;  // an expansion of doubles has at most ~40 components
inline constexpr size_t kMaxPathBytes = 1u << 20;

// A varint of any length at p (ReadVarint's slow path); false with `error` set when it is cut
// short, past 64 bits or not in its shortest form.
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
// LEB128: 7 bits a byte, the high bit set on all but the last; answers the byte count.
size_t EncodeVarint(uint64_t v, uint8_t out[10]);
void AppendVarint(std::string& out, uint64_t v);

}  // namespace partplay::internal
