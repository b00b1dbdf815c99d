#include "partplay/cql/token.h"

namespace partplay::cql {
namespace {

inline uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xFF51AFD7ED558CCDull;
  k ^= k >> 33;
  k *= 0xC4CEB9FE1A85EC53ull;
  k ^= k >> 33;
  return k;
}

// Full blocks are read as little-endian longs (getblock), exactly like the reference.
inline uint64_t Block(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

// A tail byte as Java's `(long) key.get(i)`: sign-extended to 64 bits.
inline uint64_t SignExtended(uint8_t b) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(b)));
}

template <typename Components>
std::string Composite(const Components& components) {
  if (components.size() == 1) return std::string(components[0]);
  std::string out;
  for (const auto& c : components) {
    out.push_back(static_cast<char>((c.size() >> 8) & 0xFF));
    out.push_back(static_cast<char>(c.size() & 0xFF));
    out.append(c.data(), c.size());
    out.push_back('\0');
  }
  return out;
}

}  // namespace

int64_t CassandraMurmur3H1(std::string_view bytes, uint64_t seed) {
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t length = bytes.size();
  const size_t blocks = length / 16;
  constexpr uint64_t c1 = 0x87C37B91114253D5ull;
  constexpr uint64_t c2 = 0x4CF5AD432745937Full;
  uint64_t h1 = seed;
  uint64_t h2 = seed;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = Block(data + 16 * i);
    uint64_t k2 = Block(data + 16 * i + 8);
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
  const uint8_t* tail = data + 16 * blocks;
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  switch (length & 15) {
    case 15: k2 ^= SignExtended(tail[14]) << 48; [[fallthrough]];
    case 14: k2 ^= SignExtended(tail[13]) << 40; [[fallthrough]];
    case 13: k2 ^= SignExtended(tail[12]) << 32; [[fallthrough]];
    case 12: k2 ^= SignExtended(tail[11]) << 24; [[fallthrough]];
    case 11: k2 ^= SignExtended(tail[10]) << 16; [[fallthrough]];
    case 10: k2 ^= SignExtended(tail[9]) << 8; [[fallthrough]];
    case 9:
      k2 ^= SignExtended(tail[8]);
      k2 *= c2;
      k2 = Rotl64(k2, 33);
      k2 *= c1;
      h2 ^= k2;
      [[fallthrough]];
    case 8: k1 ^= SignExtended(tail[7]) << 56; [[fallthrough]];
    case 7: k1 ^= SignExtended(tail[6]) << 48; [[fallthrough]];
    case 6: k1 ^= SignExtended(tail[5]) << 40; [[fallthrough]];
    case 5: k1 ^= SignExtended(tail[4]) << 32; [[fallthrough]];
    case 4: k1 ^= SignExtended(tail[3]) << 24; [[fallthrough]];
    case 3: k1 ^= SignExtended(tail[2]) << 16; [[fallthrough]];
    case 2: k1 ^= SignExtended(tail[1]) << 8; [[fallthrough]];
    case 1:
      k1 ^= SignExtended(tail[0]);
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
  return static_cast<int64_t>(h1);
}

int64_t TokenFromH1(int64_t h1) { return h1 == kMinToken ? kMaxToken : h1; }

int64_t Murmur3Token(std::string_view key) { return TokenFromH1(CassandraMurmur3H1(key)); }

std::string PartitionKeyBytes(const std::vector<std::string>& components) {
  return Composite(components);
}

std::string PartitionKeyBytes(const std::vector<std::string_view>& components) {
  return Composite(components);
}

std::vector<std::string_view> SplitCompositeKey(std::string_view bytes) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < bytes.size()) {
    if (at + 2 > bytes.size()) return {};
    size_t n = (static_cast<size_t>(static_cast<uint8_t>(bytes[at])) << 8) |
               static_cast<uint8_t>(bytes[at + 1]);
    at += 2;
    if (at + n + 1 > bytes.size()) return {};
    out.push_back(bytes.substr(at, n));
    at += n + 1;  // the end-of-component byte
  }
  return out;
}

}  // namespace partplay::cql
