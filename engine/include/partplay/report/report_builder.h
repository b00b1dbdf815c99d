// The full report of a finished analysis as JSON (docs/report.md): the logical partitions, and,
// when container options are given, the container model (cosmos/container.h), the key advisor
// (cosmos/key_advisor.h) and the EPK of every listed partition. The CLI and the wasm module both
// call this, so the page shows exactly what `partplay analyze --format json` prints.
//
//   ReportRequest request;
//   request.max_partitions = 2000;
//   request.container = ContainerOptions{.ru_per_second = 18000};
//   StatusOr<BuiltReport> built = BuildFullReport(*analyzer, options, request);
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/cosmos/container.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

struct ReportRequest {
  int64_t max_partitions = -1;  // partitions listed (largest first); -1 = all
  std::optional<ContainerOptions> container;
  // The JSON lists every partition, the first max_partitions in `json` and the others streamed:
  // write `json`, then WriteMorePartitionsJson(…, from = max_partitions, …), then `json_tail`
  // (the CLI's --format json, so a million partitions never sit in one string).
  bool stream_partitions = false;
};

struct BuiltReport {
  std::string json;                     // one object and a newline (stream: its head)
  std::string json_tail;                // stream_partitions: the rest, from the array's "]"
  std::vector<double> partition_bytes;  // every partition's bytes, largest first
  AnalysisReport analysis;              // with the listed partitions only
  std::optional<ContainerReport> container;
};

// `options` are the ones the analyzer was created with (the report names the synthetic key and
// weight path). Errors: ModelContainer's (kBadOption for container options out of range).
StatusOr<BuiltReport> BuildFullReport(const Analyzer& analyzer, const AnalysisOptions& options,
                                      const ReportRequest& request);

// Writes the partitions after the first `from` (largest first) as array elements (a comma before
// each but the very first partition),
// with their EPK when the request models a container, in pieces of about 1 MiB. `epks`: the
// model's EPKs of every partition (ContainerReport::all_epks of a streamed report), so that no
// key is hashed twice; without them each EPK is computed.
Status WriteMorePartitionsJson(const Analyzer& analyzer, const ReportRequest& request, size_t from,
                               const std::function<void(std::string_view)>& write,
                               const EpkColumn* epks = nullptr);

// The container model for people: the layouts, splits, hot partitions, findings and route.
std::string ContainerToTable(const ContainerOptions& options, const ContainerReport& report);

}  // namespace partplay
