// Internal: MurmurHash3 (Austin Appleby's public-domain reference, smhasher's src/MurmurHash3.cpp),
// the two variants the Cosmos DB effective partition key uses: x86 32-bit (V1 keys) and x64 128-bit
// (V2 and MultiHash keys). Blocks are read little-endian whatever the host, so the result is the
// reference's on a little-endian machine and the same under WebAssembly.
//
//   uint32_t h = MurmurHash3X86_32("hello");          // 0x248BFA47
//   MurmurHash128 g = MurmurHash3X64_128("hello");    // h1 0xCBD8A7B341BD9B02
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace partplay::internal {

// The seed has no default in the pointer forms, so ("text", seed) always means the view forms.
uint32_t MurmurHash3X86_32(const void* data, size_t length, uint32_t seed);
inline uint32_t MurmurHash3X86_32(std::string_view bytes, uint32_t seed = 0) {
  return MurmurHash3X86_32(static_cast<const void*>(bytes.data()), bytes.size(), seed);
}

// The two 64-bit halves. The reference writes h1 then h2, each little-endian, as its 16 output
// bytes; Bytes() returns them in that order.
struct MurmurHash128 {
  uint64_t h1 = 0;
  uint64_t h2 = 0;
  void Bytes(uint8_t out[16]) const;
};

// How the last (length % 16) bytes are read: as the reference reads them (unsigned), or
// sign-extended as Cassandra's Java MurmurHash.hash3_x64_128 reads them (Murmur3Partitioner).
enum class TailBytes { kUnsigned, kSignExtended };

MurmurHash128 MurmurHash3X64_128(const void* data, size_t length, uint64_t seed,
                                 TailBytes tail_bytes = TailBytes::kUnsigned);
inline MurmurHash128 MurmurHash3X64_128(std::string_view bytes, uint64_t seed = 0,
                                        TailBytes tail_bytes = TailBytes::kUnsigned) {
  return MurmurHash3X64_128(static_cast<const void*>(bytes.data()), bytes.size(), seed,
                            tail_bytes);
}

}  // namespace partplay::internal
