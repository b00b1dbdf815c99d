// Embind bindings of the Cosmos DB domain: the effective partition key. (The container model is
// the Analysis's report with container options, in ingest_bindings.cpp.) Conversions only; every
// call answers in the shape of status_value.h.
//
//   JSON.parse(Module.effectivePartitionKey('["a", 1]', '2').json);   // "0A1B..." (upper-case hex)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "partplay/core/json_writer.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::wasm::JsonAnswer;
using partplay::wasm::StatusValue;

// `key_json`: a JSON array of key values ({} for undefined) or one value alone; `version`: "1",
// "2" or "multihash". The EPK crosses as a JSON string.
val EffectivePartitionKey(std::string key_json, std::string version) {
  auto parsed_version = partplay::ParsePartitionKeyHashVersion(version);
  if (!parsed_version.ok()) return StatusValue(parsed_version.status());
  auto key = partplay::ParsePartitionKeyJson(key_json);
  if (!key.ok()) return StatusValue(key.status());
  auto epk = partplay::EffectivePartitionKey(key.value(), parsed_version.value());
  if (!epk.ok()) return StatusValue(epk.status());
  std::string json;
  partplay::AppendJsonString(epk.value(), json);
  return JsonAnswer(json);
}

}  // namespace

EMSCRIPTEN_BINDINGS(partplay_cosmos) {
  emscripten::function("effectivePartitionKey", &EffectivePartitionKey);
}
