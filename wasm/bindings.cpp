// Embind bindings: conversions only, no logic. The engine's results become plain JS values;
// statuses become {ok, error: {code, name, message, location}} (wasm/partplay-api.mjs turns
// those into thrown PartplayError). Input bytes are written by JS straight into the engine's
// buffer (writableChunk returns its heap address), so they are copied once.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>

#include "partplay/ingest/analysis.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/sizing/data_sizing.h"
#include "partplay/report/options_json.h"
#include "partplay/sizing/sizing_request.h"
#include "partplay/sizing/table_sizing.h"
#include "partplay/sizing/table_sizing_writers.h"
#include "partplay/report/report_builder.h"
#include "partplay/core/version.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::Status;


using partplay::wasm::StatusValue;

// The report crosses as the CLI's own JSON text (docs/report.md), which the JS wrapper parses:
// one string is far cheaper than building tens of thousands of objects through Embind, and the
// page sees exactly what `partplay analyze --format json` prints. Every partition's size comes as
// a Float64Array copied off the heap (a heap growth would detach a view).
val ReportValue(const partplay::BuiltReport& r) {
  val o = StatusValue(Status::Ok());
  o.set("json", r.json);
  val view(emscripten::typed_memory_view(r.partition_bytes.size(), r.partition_bytes.data()));
  o.set("partition_bytes", view.call<val>("slice"));
  return o;
}

// One analysis: configure, then writableChunk/commitChunk repeatedly, then finish and report.
class Analysis {
 public:
  // `options_json`: the analysis options as JSON (options_json.h).
  val configure(std::string options_json) {
    auto options = partplay::ParseAnalysisOptionsJson(options_json);
    if (!options.ok()) return StatusValue(options.status());
    auto created = partplay::Analyzer::Create(options.value());
    if (!created.ok()) return StatusValue(created.status());
    options_ = std::move(options).value();
    analyzer_ = std::move(created).value();
    return StatusValue(Status::Ok());
  }
  uintptr_t writableChunk(size_t n) {
    return analyzer_ ? reinterpret_cast<uintptr_t>(analyzer_->WritableChunk(n)) : 0;
  }
  val commitChunk(size_t n) { return StatusValue(Ready() ? analyzer_->CommitChunk(n) : NotReady()); }
  val finish() { return StatusValue(Ready() ? analyzer_->Finish() : NotReady()); }
  double bytesConsumed() const { return analyzer_ ? double(analyzer_->bytes_consumed()) : 0; }
  double itemsSeen() const { return analyzer_ ? double(analyzer_->items_seen()) : 0; }
  // {ok, json, partition_bytes} or {ok: false, error}. `container_json`: container options as
  // JSON (options_json.h), or "" for none.
  val report(double max_partitions, std::string container_json) const {
    if (!analyzer_) return StatusValue(NotReady());
    partplay::ReportRequest request;
    request.max_partitions = static_cast<int64_t>(max_partitions);
    if (!container_json.empty()) {
      auto container = partplay::ParseContainerOptionsJson(container_json);
      if (!container.ok()) return StatusValue(container.status());
      request.container = std::move(container).value();
    }
    auto built = partplay::BuildFullReport(*analyzer_, options_, request);
    if (!built.ok()) return StatusValue(built.status());
    return ReportValue(built.value());
  }

  // {ok, json} (docs/sizing.md "From data") or {ok: false, error}: the finished analysis's
  // logical partitions sized as Cassandra partitions; values_per_row < 0 = the engine's default.
  val dataSizing(double values_per_row, double max_examples) const {
    if (!analyzer_) return StatusValue(NotReady());
    partplay::AnalysisReport r = analyzer_->BuildReport({.max_partitions = -1});
    partplay::DataSizingOptions o;
    o.values_per_row = values_per_row < 0 ? partplay::MeanValuesPerItem(r) : values_per_row;
    o.max_examples = static_cast<size_t>(max_examples);
    auto sized = partplay::SizeFromData(partplay::MeasuredPartitionsOf(r), o);
    if (!sized.ok()) return StatusValue(sized.status());
    val out = StatusValue(Status::Ok());
    out.set("json", partplay::DataSizingToJson(sized.value()));
    return out;
  }

 private:
  bool Ready() const { return analyzer_ != nullptr; }
  static Status NotReady() {
    return Status(partplay::ErrorCode::kInvalidState, "configure the analysis first");
  }
  std::unique_ptr<partplay::Analyzer> analyzer_;
  partplay::AnalysisOptions options_;
};

val ErrorCodes() {
  val a = val::array();
#define PARTPLAY_X(name, number, short_name, description) \
  {                                                       \
    val o = val::object();                                \
    o.set("code", number);                                \
    o.set("name", std::string(short_name));               \
    o.set("description", std::string(description));       \
    a.call<void>("push", o);                              \
  }
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  return a;
}

std::string Version() { return partplay::kVersion; }

// {ok: true, epk} or {ok: false, error}. `key_json`: a JSON array of key values ({} for
// undefined) or one value alone; `version`: "1", "2" or "multihash".
val EffectivePartitionKey(std::string key_json, std::string version) {
  auto parsed_version = partplay::ParsePartitionKeyHashVersion(version);
  if (!parsed_version.ok()) return StatusValue(parsed_version.status());
  auto key = partplay::ParsePartitionKeyJson(key_json);
  if (!key.ok()) return StatusValue(key.status());
  auto epk = partplay::EffectivePartitionKey(key.value(), parsed_version.value());
  if (!epk.ok()) return StatusValue(epk.status());
  val o = StatusValue(Status::Ok());
  o.set("epk", epk.value());
  return o;
}

// {ok, json} (docs/sizing.md) or {ok: false, error}: `partplay size --request-json` in the page.
val SizeTable(std::string request_json) {
  auto json = partplay::SizeTableJson(request_json);
  if (!json.ok()) return StatusValue(json.status());
  val out = StatusValue(Status::Ok());
  out.set("json", json.value());
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(partplay) {
  emscripten::class_<Analysis>("Analysis")
      .constructor<>()
      .function("configure", &Analysis::configure)
      .function("writableChunk", &Analysis::writableChunk)
      .function("commitChunk", &Analysis::commitChunk)
      .function("finish", &Analysis::finish)
      .function("bytesConsumed", &Analysis::bytesConsumed)
      .function("itemsSeen", &Analysis::itemsSeen)
      .function("report", &Analysis::report)
      .function("dataSizing", &Analysis::dataSizing);
  emscripten::function("errorCodes", &ErrorCodes);
  emscripten::function("version", &Version);
  emscripten::function("effectivePartitionKey", &EffectivePartitionKey);
  emscripten::function("sizeTable", &SizeTable);
}
