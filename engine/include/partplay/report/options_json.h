// Analysis and container options from JSON: the one way the page (through the wasm module) and the
// CLI's --options-json describe a run, so both read options with the same code. Field names are
// the snake_case ones of docs/report.md ("Options"); unknown fields are errors (a typo must not
// silently fall back to a default).
//
//   StatusOr<AnalysisOptions> a = ParseAnalysisOptionsJson(R"({"key_paths":["/date"],
//       "synthetic":{"kind":"hash_suffix","suffix_path":"/vin","buckets":400}})");
//   StatusOr<ContainerOptions> c = ParseContainerOptionsJson(R"({"ru_per_second":18000})");
#pragma once

#include <string>
#include <string_view>

#include "partplay/core/status.h"
#include "partplay/cosmos/container.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"

namespace partplay {

// {key_paths, discover_items, weight_path, check_ids, synthetic: {kind: "concat" |
// "random_suffix" | "hash_suffix" | "none", paths, separator, buckets, seed, suffix_path}}.
// Errors: kBadOption naming the field, kMalformedJson for bad JSON.
StatusOr<AnalysisOptions> ParseAnalysisOptionsJson(std::string_view json);

// {hash_version: "1" | "2" | "multihash", large_partition_keys, ru_per_second, autoscale, growth,
// grown_ru_per_second, created_ru_per_second (0 = created at ru_per_second), serverless (with no
// ru_per_second: an error names it), quota_increase_reason, top_per_range, route: null | key JSON
// (see ParsePartitionKeyJson), workload: {point_reads_per_second, writes_per_second,
// queries_per_second, spread: "uniform" | "field" | "zipf", zipf_exponent, read_factor,
// write_factor, query_ru}}.
StatusOr<ContainerOptions> ParseContainerOptionsJson(std::string_view json);

// A workload as the container options' `workload` object above (the report and the vocabulary
// of defaults write it alike).
std::string WorkloadToJson(const Workload& w);

// What a finished analysis is asked to report: {max_partitions: -1 (all) | count listed,
// container: null | container options as above}, both optional.
StatusOr<ReportRequest> ParseReportRequestJson(std::string_view json);

// The names used in JSON for the enums.
const char* HashVersionName(PartitionKeyHashVersion version);  // "1", "2", "multihash"
const char* RequestSpreadName(RequestSpread spread);          // "uniform", "field", "zipf"
const char* SyntheticKindName(SyntheticKeyOptions::Kind kind);  // "none", "concat", ...

}  // namespace partplay
