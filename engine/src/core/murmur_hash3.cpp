#include "core/murmur_hash3.h"

namespace partplay::internal {
namespace {

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
inline uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint32_t Load32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
inline uint64_t Load64(const uint8_t* p) { return uint64_t{Load32(p)} | uint64_t{Load32(p + 4)} << 32; }

inline uint32_t Fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

inline uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xFF51AFD7ED558CCDull;
  k ^= k >> 33;
  k *= 0xC4CEB9FE1A85EC53ull;
  k ^= k >> 33;
  return k;
}

}  // namespace

uint32_t MurmurHash3X86_32(const void* data, size_t length, uint32_t seed) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  const size_t blocks = length / 4;
  constexpr uint32_t c1 = 0xCC9E2D51u;
  constexpr uint32_t c2 = 0x1B873593u;
  uint32_t h1 = seed;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k1 = Load32(bytes + 4 * i);
    k1 *= c1;
    k1 = Rotl32(k1, 15);
    k1 *= c2;
    h1 ^= k1;
    h1 = Rotl32(h1, 13);
    h1 = h1 * 5 + 0xE6546B64u;
  }
  const uint8_t* tail = bytes + 4 * blocks;
  uint32_t k1 = 0;
  switch (length & 3) {
    case 3: k1 ^= uint32_t{tail[2]} << 16; [[fallthrough]];
    case 2: k1 ^= uint32_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      k1 ^= tail[0];
      k1 *= c1;
      k1 = Rotl32(k1, 15);
      k1 *= c2;
      h1 ^= k1;
  }
  h1 ^= static_cast<uint32_t>(length);
  return Fmix32(h1);
}

void MurmurHash128::Bytes(uint8_t out[16]) const {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(h1 >> (8 * i));
    out[8 + i] = static_cast<uint8_t>(h2 >> (8 * i));
  }
}

MurmurHash128 MurmurHash3X64_128(const void* data, size_t length, uint64_t seed,
                                 TailBytes tail_bytes) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  // A tail byte as the reference reads it (unsigned) or as Cassandra's Java port does (a signed
  // byte widened to 64 bits: 0x80..0xFF become 0xFFFFFFFFFFFFFF80..).
  const bool sign_extend = tail_bytes == TailBytes::kSignExtended;
  auto t = [&](uint8_t b) -> uint64_t {
    return sign_extend ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(b)))
                       : uint64_t{b};
  };
  const size_t blocks = length / 16;
  constexpr uint64_t c1 = 0x87C37B91114253D5ull;
  constexpr uint64_t c2 = 0x4CF5AD432745937Full;
  uint64_t h1 = seed;
  uint64_t h2 = seed;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = Load64(bytes + 16 * i);
    uint64_t k2 = Load64(bytes + 16 * i + 8);
    k1 *= c1;
    k1 = Rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = Rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52DCE729u;
    k2 *= c2;
    k2 = Rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = Rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495AB5u;
  }
  const uint8_t* tail = bytes + 16 * blocks;
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  switch (length & 15) {
    case 15: k2 ^= t(tail[14]) << 48; [[fallthrough]];
    case 14: k2 ^= t(tail[13]) << 40; [[fallthrough]];
    case 13: k2 ^= t(tail[12]) << 32; [[fallthrough]];
    case 12: k2 ^= t(tail[11]) << 24; [[fallthrough]];
    case 11: k2 ^= t(tail[10]) << 16; [[fallthrough]];
    case 10: k2 ^= t(tail[9]) << 8; [[fallthrough]];
    case 9:
      k2 ^= t(tail[8]);
      k2 *= c2;
      k2 = Rotl64(k2, 33);
      k2 *= c1;
      h2 ^= k2;
      [[fallthrough]];
    case 8: k1 ^= t(tail[7]) << 56; [[fallthrough]];
    case 7: k1 ^= t(tail[6]) << 48; [[fallthrough]];
    case 6: k1 ^= t(tail[5]) << 40; [[fallthrough]];
    case 5: k1 ^= t(tail[4]) << 32; [[fallthrough]];
    case 4: k1 ^= t(tail[3]) << 24; [[fallthrough]];
    case 3: k1 ^= t(tail[2]) << 16; [[fallthrough]];
    case 2: k1 ^= t(tail[1]) << 8; [[fallthrough]];
    case 1:
      k1 ^= t(tail[0]);
      k1 *= c1;
      k1 = Rotl64(k1, 31);
      k1 *= c2;
      h1 ^= k1;
  }
  h1 ^= static_cast<uint64_t>(length);
  h2 ^= static_cast<uint64_t>(length);
  h1 += h2;
  h2 += h1;
  h1 = Fmix64(h1);
  h2 = Fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

}  // namespace partplay::internal
