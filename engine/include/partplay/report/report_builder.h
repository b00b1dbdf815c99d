// The full report of a finished analysis as JSON (docs/report.md): the logical partitions, and,
// when container options are given, the container model (cosmos/container.h), the key advisor
// (cosmos/key_advisor.h) and the EPK of every listed partition. The CLI and the wasm module both call this,
// so the page shows exactly what `partplay analyze --format json` prints.
//
//   ReportRequest request;
//   request.max_partitions = 2000;
//   request.container = ContainerOptions{.ru_per_second = 18000};
//   StatusOr<BuiltReport> built = BuildFullReport(*analyzer, options, request);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partplay/ingest/analysis.h"
#include "partplay/cosmos/container.h"
#include "partplay/core/status.h"

namespace partplay {

struct ReportRequest {
  int64_t max_partitions = -1;  // partitions listed (largest first); -1 = all
  std::optional<ContainerOptions> container;
};

struct BuiltReport {
  std::string json;                     // one object and a newline
  std::vector<double> partition_bytes;  // every partition's bytes, largest first
  AnalysisReport analysis;              // with the listed partitions only
  std::optional<ContainerReport> container;
};

// `options` are the ones the analyzer was created with (the report names the synthetic key and
// weight path). Errors: ModelContainer's (kBadOption for container options out of range).
StatusOr<BuiltReport> BuildFullReport(const Analyzer& analyzer, const AnalysisOptions& options,
                                      const ReportRequest& request);

// The container model for people: the layouts, splits, hot partitions, findings and route.
std::string ContainerToTable(const ContainerOptions& options, const ContainerReport& report);

}  // namespace partplay
