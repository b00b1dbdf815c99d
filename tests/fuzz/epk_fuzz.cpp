// Cosmos DB effective partition keys, as the page's effectivePartitionKey and the CLI's VALUE
// arguments take them: the input as a key's JSON (an array of components or one value), hashed
// with V1, V2 and MultiHash; the key written back as JSON must read as the same key with the same
// EPKs (unless it holds -0), and its canonical bytes must decode to it. The input also goes through
// the one-literal reader and the hash-version reader.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "partplay/cosmos/effective_partition_key.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)ParsePartitionKeyHashVersion(input);
  (void)ParseKeyComponentLiteral(input);
  StatusOr<PartitionKey> key = ParsePartitionKeyJson(input);
  if (!key.ok()) return 0;
  constexpr PartitionKeyHashVersion kVersions[] = {PartitionKeyHashVersion::kV1,
                                                   PartitionKeyHashVersion::kV2,
                                                   PartitionKeyHashVersion::kMultiHash};
  std::string json = key.value().ToJson();
  StatusOr<PartitionKey> reread = ParsePartitionKeyJson(json);
  fuzz::Check(reread.ok() && reread.value() == key.value(), "a key written as JSON reads back",
              json);
  // JSON has no -0 once written (like JSON.stringify), and -0 hashes apart from 0 (README
  // "Limits and approximations"): only a key without -0 must keep its EPKs.
  bool negative_zero = false;
  for (const KeyComponent& c : key.value().components) {
    negative_zero |= c.kind == KeyKind::kNumber && c.number == 0 && std::signbit(c.number);
  }
  for (PartitionKeyHashVersion version : kVersions) {
    if (negative_zero) break;
    StatusOr<std::string> epk = EffectivePartitionKey(key.value(), version);
    StatusOr<std::string> epk_again = EffectivePartitionKey(reread.value(), version);
    fuzz::Check(epk.ok() == epk_again.ok(), "the EPK of a key read back");
    if (epk.ok()) {
      fuzz::Check(epk.value() == epk_again.value(), "the EPK of a key read back", json);
    }
  }
  PartitionKey decoded = PartitionKey::FromCanonicalBytes(key.value().CanonicalBytes());
  fuzz::Check(decoded == key.value(), "canonical bytes decode to the key", json);
  return 0;
}
