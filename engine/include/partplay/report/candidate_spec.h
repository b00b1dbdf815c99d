// A candidate key written as one string: the grammar of the CLI's `compare --candidate SPEC` and
// of the embeddable element's `compare` attribute, read here once for both (the wasm binding
// parseCandidateSpec gives the page the same parser).
//
//   /tenantId                a path
//   /tenantId,/userId        a hierarchical key (MultiHash), up to 3 paths
//   concat:/tenantId,/date   a synthetic key joining the values with '-' (2 to 5 parts; a part
//                            may take a piece: concat:/tenantId,month(/orderDate), left(/sku, 3),
//                            ingest/synthetic_key.h)
//   random:/tenantId:N       the value and a random suffix 1..N
//   hash:/tenantId:/id:N     the value and 1 + hash(value at /id) mod N
//
//   StatusOr<AnalysisOptions> key = ParseCandidateSpec("hash:/date:/vin:400");
//   CandidateKeyToJson(key.value());  // {"key_paths":["/date"],"synthetic":{"kind":"hash_suffix",...}}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

// The key SPEC names, with discover_items 0 (a compared key samples no candidate paths). Paths
// may have spaces around them. Errors: kBadOption naming the spec and the grammar.
StatusOr<AnalysisOptions> ParseCandidateSpec(std::string_view spec);

// What a spec may be, as one phrase ("takes /PATH, /A,/B, concat:PART,PART, ..."): the usage
// message of the CLI's --candidate.
std::string_view CandidateSpecGrammar();

// "/a,/b" as its paths (spaces around each allowed), or nothing unless every one is a JSON
// pointer: the paths of a hierarchical key, and of the CLI's compare --query.
std::optional<std::vector<std::string>> ParsePathList(std::string_view text);

// {key_paths, synthetic?: {kind, paths?, separator, buckets?, seed?, suffix_path?}}: the key as
// ParseAnalysisOptionsJson reads it.
std::string CandidateKeyToJson(const AnalysisOptions& key);

}  // namespace partplay
