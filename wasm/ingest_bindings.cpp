// Embind bindings of the ingest domain: an Analysis fed in chunks, then its report. Conversions
// only; every call answers in the shape of status_value.h. Input bytes are written by JS straight
// into the engine's buffer (writableChunk answers its heap address), so they are copied once.
//
//   const a = new Module.Analysis();
//   a.configure('{"key_paths": ["/userId"]}');          // {ok} | {ok: false, error}
//   const {pointer} = a.writableChunk(n);  HEAPU8.set(bytes, pointer);  a.commitChunk(n);
//   a.finish();  JSON.parse(a.report(-1, '').json);    // docs/report.md
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>

#include "partplay/ingest/analysis.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_builder.h"
#include "partplay/sizing/data_sizing.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::Status;
using partplay::wasm::JsonAnswer;
using partplay::wasm::PointerAnswer;
using partplay::wasm::StatusValue;

// One analysis: configure, then writableChunk/commitChunk repeatedly, then finish and report.
class Analysis {
 public:
  // `options_json`: the analysis options as JSON (report/options_json.h).
  val configure(std::string options_json) {
    auto options = partplay::ParseAnalysisOptionsJson(options_json);
    if (!options.ok()) return StatusValue(options.status());
    auto created = partplay::Analyzer::Create(options.value());
    if (!created.ok()) return StatusValue(created.status());
    options_ = std::move(options).value();
    analyzer_ = std::move(created).value();
    return StatusValue(Status::Ok());
  }
  val writableChunk(size_t n) {
    if (!analyzer_) return StatusValue(NotReady());
    return PointerAnswer(analyzer_->WritableChunk(n), n);
  }
  val commitChunk(size_t n) {
    return StatusValue(Ready() ? analyzer_->CommitChunk(n) : NotReady());
  }
  val finish() { return StatusValue(Ready() ? analyzer_->Finish() : NotReady()); }
  // {"bytes_consumed", "items_seen"} so far.
  val progress() const {
    if (!analyzer_) return StatusValue(NotReady());
    return JsonAnswer(fmt::format("{{\"bytes_consumed\":{},\"items_seen\":{}}}",
                                  analyzer_->bytes_consumed(), analyzer_->items_seen()));
  }
  // The report as the CLI's own JSON text (docs/report.md): one string is far cheaper than
  // building tens of thousands of objects through Embind. Every partition's size comes beside it
  // as a Float64Array copied off the heap (a heap growth would detach a view).
  // `container_json`: container options as JSON (report/options_json.h), or "" for none.
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
    val o = JsonAnswer(built.value().json);
    const auto& sizes = built.value().partition_bytes;
    val view(emscripten::typed_memory_view(sizes.size(), sizes.data()));
    o.set("partition_bytes", view.call<val>("slice"));
    return o;
  }
  // docs/sizing.md "From data": the finished analysis's logical partitions sized as Cassandra
  // partitions; values_per_row < 0 = the engine's default.
  val dataSizing(double values_per_row, double max_examples) const {
    if (!analyzer_) return StatusValue(NotReady());
    partplay::AnalysisReport r = analyzer_->BuildReport({.max_partitions = -1});
    partplay::DataSizingOptions o;
    o.values_per_row = values_per_row < 0 ? partplay::MeanValuesPerItem(r) : values_per_row;
    o.max_examples = static_cast<size_t>(max_examples);
    auto sized = partplay::SizeFromData(partplay::MeasuredPartitionsOf(r), o);
    if (!sized.ok()) return StatusValue(sized.status());
    return JsonAnswer(partplay::DataSizingToJson(sized.value()));
  }

 private:
  bool Ready() const { return analyzer_ != nullptr; }
  static Status NotReady() {
    return Status(partplay::ErrorCode::kInvalidState, "configure the analysis first");
  }
  std::unique_ptr<partplay::Analyzer> analyzer_;
  partplay::AnalysisOptions options_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(partplay_ingest) {
  emscripten::class_<Analysis>("Analysis")
      .constructor<>()
      .function("configure", &Analysis::configure)
      .function("writableChunk", &Analysis::writableChunk)
      .function("commitChunk", &Analysis::commitChunk)
      .function("finish", &Analysis::finish)
      .function("progress", &Analysis::progress)
      .function("report", &Analysis::report)
      .function("dataSizing", &Analysis::dataSizing);
}
