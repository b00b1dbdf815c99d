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
#include <memory>
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
  // write `json`, then PartitionsJson's partitions from max_partitions on, then `json_tail`
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

// The same from an analysis report with its partitions listed as `request` asks, and every
// partition in the report's order (`all`, which the container model reads; null without one):
// the report of a merge of bucket summaries (ingest/buckets.h).
StatusOr<BuiltReport> BuildFullReportFrom(AnalysisReport report, const PartitionList* all,
                                          const AnalysisOptions& options,
                                          const ReportRequest& request);

// Every partition of a finished analysis (largest first) as JSON array elements (a comma before
// each but the very first partition), with their EPK when the request models a container, any
// stretch at a time. `epks`: the model's EPKs of every partition (ContainerReport::all_epks of a
// streamed report), so that no key is hashed twice; without them each EPK is computed. Append
// may run on several threads at once (the CLI formats a large listing on every core and writes
// the stretches in order); the analyzer, the request and `epks` must outlive the listing.
class PartitionsJson {
 public:
  PartitionsJson(const Analyzer& analyzer, const ReportRequest& request, const EpkColumn* epks);
  // Over a list of every partition in the report's order, which must outlive the listing.
  PartitionsJson(const PartitionList& all, const ReportRequest& request, const EpkColumn* epks);
  size_t size() const { return all_->size(); }
  // Appends partitions [begin, end) to `out`.
  Status Append(size_t begin, size_t end, std::string& out) const;

 private:
  std::unique_ptr<PartitionList> owned_;
  const PartitionList* all_;
  const ReportRequest& request_;
  const EpkColumn* epks_;
};

// The container model for people: the layouts, splits, hot partitions, findings and route.
std::string ContainerToTable(const ContainerOptions& options, const ContainerReport& report);

// The report's container.ru_needed object (docs/report.md), also each key comparison row's.
std::string RuNeededToJson(const RuNeeded& ru_needed);

}  // namespace partplay
