// Embind bindings of the ingest domain: an Analysis fed in chunks, then its report. Conversions
// only; every call answers in the shape of status_value.h. Input bytes are written by JS straight
// into the engine's buffer (writableChunk answers its heap address), so they are copied once.
//
//   const a = new Module.Analysis();
//   a.configure('{"key_paths": ["/userId"]}');          // {ok} | {ok: false, error}
//   const {pointer} = a.writableChunk(n);  HEAPU8.set(bytes, pointer);  a.commitChunk(n);
//   a.finish();  JSON.parse(a.report('{"max_partitions": -1}').json);  // docs/report.md
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
  // `request_json`: {max_partitions, container} (report/options_json.h ParseReportRequestJson).
  val report(std::string request_json) const {
    if (!analyzer_) return StatusValue(NotReady());
    auto request = partplay::ParseReportRequestJson(request_json);
    if (!request.ok()) return StatusValue(request.status());
    auto built = partplay::BuildFullReport(*analyzer_, options_, request.value());
    if (!built.ok()) return StatusValue(built.status());
    val o = JsonAnswer(built.value().json);
    const auto& sizes = built.value().partition_bytes;
    val view(emscripten::typed_memory_view(sizes.size(), sizes.data()));
    o.set("partition_bytes", view.call<val>("slice"));
    return o;
  }
  // docs/sizing.md "From data": the finished analysis's logical partitions sized as Cassandra
  // partitions. `request_json`: {values_per_row, max_examples} (sizing/data_sizing.h).
  val dataSizing(std::string request_json) const {
    if (!analyzer_) return StatusValue(NotReady());
    auto request = partplay::ParseDataSizingRequestJson(request_json);
    if (!request.ok()) return StatusValue(request.status());
    auto sized = partplay::SizeAnalyzedData(*analyzer_, request.value());
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
