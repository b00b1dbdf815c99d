// Writes an AnalysisReport as the documented JSON contract (docs/report.md) or as a table for
// people. The CLI prints these; the wasm module hands the page the same JSON text
// (wasm/ingest_bindings.cpp), which the JS wrapper parses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/ingest/analysis.h"

namespace partplay {

// One JSON object, compact, with a trailing newline. `partition_bytes` is not included.
// `extra_fields`: more members (`"name":value,...`, no braces) appended before the closing brace.
// `tail`: when given, the text returned stops after the listed partitions (with no closing "]")
// and *tail receives the rest (from that "]"), so a caller can stream more partitions between
// them, each as "," + AppendPartitionJson.
std::string ReportToJson(const AnalysisReport& report, std::string_view extra_fields = {},
                         std::string* tail = nullptr);
// One element of the report's `partitions` array.
void AppendPartitionJson(const LogicalPartition& partition, std::string& out);
namespace internal {
// AppendPartitionJson's two ways, for their test: the general one, and the one for a key of one
// string of printable ASCII with no '"' or '\\' (e.g. a uuid), built in one buffer and appended
// once; false (nothing written) for any other partition.
void AppendPartitionJsonGeneral(const LogicalPartition& partition, std::string& out);
bool AppendPlainPartitionJson(const LogicalPartition& partition, std::string& out);
}  // namespace internal
// A summary and the partitions as aligned text columns, the largest `max_rows` partitions.
std::string ReportToTable(const AnalysisReport& report, size_t max_rows = 50);
// Located items as a JSON array of {item_index, bytes, byte_offset, line, column} objects, each
// with ItemFinding::type under the name `type_field` too (none when it is empty).
std::string ItemFindingsToJson(const std::vector<ItemFinding>& list, std::string_view type_field);
// A Status as the CLI's JSON error object: {"error": {"code", "name", "message", ...}}.
std::string StatusToJson(const Status& status);

}  // namespace partplay
