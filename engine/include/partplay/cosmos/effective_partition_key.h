// The Cosmos DB effective partition key (EPK): the upper-case hex string that places a logical
// partition in the hash space physical partitions divide into contiguous ranges. This is a
// bit-exact port of the JavaScript SDK, npm @azure/cosmos 4.10.1, dist/commonjs/utils/hashing/
// (hashing/hash.js `hashPartitionKey` with hashing/v1.js, hashing/v2.js, hashing/multiHash.js,
// hashing/murmurHash.js, hashing/encoding/): V1 (classic containers) hashes only the first
// component, a string cut to its first 100 UTF-16 code units, with MurmurHash3 x86 32-bit and
// writes the hash and that component in Cosmos DB's binary encoding; V2 hashes all components,
// type-marked and concatenated, with MurmurHash3 x64 128-bit, bytes reversed and the first masked
// with 0x3F (32 hex characters); MultiHash (hierarchical keys) concatenates the V2 hash of each
// component alone (32 hex characters per level). Where the SDK has quirks they are reproduced, not
// fixed (see effective_partition_key.cpp); tests/wasm/epk.test.mjs checks random keys against the
// SDK.
//
// The number hashed is the component's double as stored: KeyComponent::Number() and the
// analyzer turn -0 into 0 (one logical partition), while a component holding -0.0 (as
// ParsePartitionKeyJson makes of the JSON -0, like JSON.parse) hashes as the SDK hashes -0.
//
//   PartitionKey key;
//   key.components.push_back(KeyComponent::String("redmond"));
//   StatusOr<std::string> epk = EffectivePartitionKey(key, PartitionKeyHashVersion::kV2);
//   // epk.value() == "22E342F38A486A088463DFF7838A5963"
#pragma once

#include <string>
#include <string_view>

#include "partplay/ingest/partition_key.h"
#include "partplay/core/status.h"

namespace partplay {

enum class PartitionKeyHashVersion {
  kV1,         // partition key definition version 1 (kind Hash)
  kV2,         // partition key definition version 2 (kind Hash): large partition keys
  kMultiHash,  // kind MultiHash: hierarchical partition keys
};

// The EPK as the SDK's hashPartitionKey returns it. Errors: kInvalidUtf8 when a string
// component is not valid UTF-8 (a JS string always encodes). An empty key gives what the SDK
// gives for []: V1 hashes undefined, V2 the hash of no bytes, MultiHash "".
StatusOr<std::string> EffectivePartitionKey(const PartitionKey& key,
                                            PartitionKeyHashVersion version);

// The same EPK written into `out` (its contents replaced), as that upper-case hex or as the
// bytes the hex spells (which order exactly as the hex does); for callers that hash every
// partition: no allocation per key once `out` has grown.
enum class EpkForm { kHex, kBytes };
Status EffectivePartitionKeyInto(const PartitionKey& key, PartitionKeyHashVersion version,
                                 EpkForm form, std::string& out);

// The 16 bytes of the version 2 EPK (EpkForm::kBytes) of the key whose canonical bytes
// (partition_key.h) are `canonical`, read straight from them: what EffectivePartitionKeyInto
// gives for PartitionKey::FromCanonicalBytes(canonical) and kV2, errors included, without
// decoding the key (a container model hashes every partition). `scratch` is reused.
Status EffectivePartitionKeyV2FromCanonical(std::string_view canonical, std::string& scratch,
                                            char out[16]);

// "1" / "v1", "2" / "v2", "multihash" (any case). Error: kBadOption.
StatusOr<PartitionKeyHashVersion> ParsePartitionKeyHashVersion(std::string_view text);

// A key from JSON text: an array with one value per component ("text", 5, true, false, null, and
// {} for undefined, as PartitionKey::ToJson writes it), or one such value alone for a
// one-component key. Numbers read as JSON.parse reads them (nearest double, -0 kept).
// Errors: the JSON diagnostics' codes (kMalformedJson, kInvalidUtf8, ...) for bad JSON,
// kBadOption for valid JSON that is no key value (nested arrays, non-empty objects, numbers
// beyond the double range).
StatusOr<PartitionKey> ParsePartitionKeyJson(std::string_view json);

// One component from a JSON literal, or the word `undefined` (the CLI's VALUE arguments).
StatusOr<KeyComponent> ParseKeyComponentLiteral(std::string_view literal);

}  // namespace partplay
