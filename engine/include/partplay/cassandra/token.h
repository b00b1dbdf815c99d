// Cassandra's Murmur3Partitioner: the token of a partition key is the first 64 bits (h1) of
// MurmurHash3 x64 128 with seed 0 over the key's serialized bytes, as Cassandra's own port
// computes it — each byte of the final partial block is sign-extended (a Java `byte` quirk), so
// keys whose tail holds bytes >= 0x80 differ from the reference algorithm — and a result of
// Long.MIN_VALUE (the ring's minimum, which no key may hold) becomes Long.MAX_VALUE.
//
// A single-column key is serialized as its value's bytes; a composite key as, per component, a
// 2-byte big-endian length, the bytes and one 0x00 byte.
//
//   int64_t t = Murmur3Token(PartitionKeyBytes({EncodeInt32(1)}));
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace partplay::cql {

// h1 of Cassandra's MurmurHash.hash3_x64_128(key, 0, length, seed), as a signed 64-bit number.
int64_t CassandraMurmur3H1(std::string_view bytes, uint64_t seed = 0);

// Murmur3Partitioner.getToken: h1, with Long.MIN_VALUE mapped to Long.MAX_VALUE.
int64_t Murmur3Token(std::string_view partition_key_bytes);
int64_t TokenFromH1(int64_t h1);

// The serialized partition key of the given components (one component: the bytes themselves).
std::string PartitionKeyBytes(const std::vector<std::string>& components);
std::string PartitionKeyBytes(const std::vector<std::string_view>& components);
// The same, written over `out` (its buffer reused: a load serializes a key a row).
void PartitionKeyBytesInto(const std::vector<std::string>& components, std::string& out);

// The components of a serialized composite key (the inverse of PartitionKeyBytes for two or more
// components); empty if malformed.
std::vector<std::string_view> SplitCompositeKey(std::string_view bytes);

constexpr int64_t kMinToken = std::numeric_limits<int64_t>::min();
constexpr int64_t kMaxToken = std::numeric_limits<int64_t>::max();

}  // namespace partplay::cql
