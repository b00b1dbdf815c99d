// Embind bindings of the ingest domain: an Analysis fed in chunks, then its report. Conversions
// only; every call answers in the shape of status_value.h. Input bytes are written by JS straight
// into the engine's buffer (writableChunk answers its heap address), so they are copied once.
//
//   const a = new Module.Analysis();
//   a.configure('{"key_paths": ["/userId"]}');          // {ok} | {ok: false, error}
//   const {pointer} = a.writableChunk(n);  HEAPU8.set(bytes, pointer);  a.commitChunk(n);
//   a.finish();  JSON.parse(a.report('{"max_partitions": -1}').json);  // docs/report.md
//
// Parts and their merge (analysis.h "Sharded analysis"): an Analysis configured by
// configurePart analyses one slice; finishPartial answers its partial state as a Uint8Array
// copied off the heap (a failed part's too: its error travels). A fresh Analysis merges parts in
// input order (addPart moves a part held in this module, addPartial reads serialized bytes),
// then reports like one pass (addPartial reads the bytes JS wrote into partialBuffer). SplitSearch (ingest/split_points.h) asks for windows of an input
// and answers where it may be cut; planParts and retryParts answer the page's parts policy
// (ingest/parts_plan.h). ParseLimitProbe times the parser alone (the benchmark).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "partplay/ingest/analysis.h"
#include "partplay/ingest/parse_limit.h"
#include "partplay/ingest/parts_plan.h"
#include "partplay/ingest/split_points.h"
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
  // An analysis of one part of the input; `first`: the part that starts it (merged in this
  // module, never serialized); `id_records`: PartIds::kRecorded, else kHashed.
  val configurePart(std::string options_json, bool first, bool id_records) {
    auto options = partplay::ParseAnalysisOptionsJson(options_json);
    if (!options.ok()) return StatusValue(options.status());
    auto created = partplay::Analyzer::CreatePart(
        options.value(), first,
        id_records ? partplay::PartIds::kRecorded : partplay::PartIds::kHashed);
    if (!created.ok()) return StatusValue(created.status());
    options_ = std::move(options).value();
    analyzer_ = std::move(created).value();
    return StatusValue(Status::Ok());
  }
  // Ends a part's input (a failure is kept in the part) and answers {ok, partial: Uint8Array}.
  val finishPartial() {
    if (!analyzer_) return StatusValue(NotReady());
    (void)analyzer_->Finish();  // its error, if any, is serialized with the part
    // Copied out piece by piece into one array of the known length: the heap never holds the
    // whole (hundreds of MB for millions of partitions).
    auto size = analyzer_->PartialSize();
    if (!size.ok()) return StatusValue(size.status());
    val partial = val::global("Uint8Array").new_(static_cast<double>(size.value()));
    double at = 0;
    Status written = analyzer_->SerializePartialTo([&](std::string_view piece) {
      val view(emscripten::typed_memory_view(piece.size(),
                                             reinterpret_cast<const uint8_t*>(piece.data())));
      partial.call<void>("set", view, at);
      at += static_cast<double>(piece.size());
    });
    if (!written.ok()) return StatusValue(written);
    val o = StatusValue(Status::Ok());
    o.set("partial", partial);
    return o;
  }
  // Adds the part `other` (its analyzer moves here) to the parts this analysis will merge.
  val addPart(Analysis& other) {
    if (analyzer_) return StatusValue(Merging());
    if (!other.analyzer_) return StatusValue(NotReady());
    merge_parts_.push_back(std::move(other.analyzer_));
    return StatusValue(Status::Ok());
  }
  // Room for a serialized partial state of `n` bytes, written by JS straight into the heap
  // (one copy: a std::string argument would cost two of a state that can be hundreds of MB).
  val partialBuffer(size_t n) {
    if (analyzer_) return StatusValue(Merging());
    partial_.clear();
    partial_.shrink_to_fit();
    partial_.resize(n);
    return PointerAnswer(reinterpret_cast<const uint8_t*>(partial_.data()), n);
  }
  // Adds the partial state written into partialBuffer to the parts this analysis will merge.
  val addPartial() {
    if (analyzer_) return StatusValue(Merging());
    // Its partitions go straight into the merge's table (the bytes stay with the part until then).
    auto part = partplay::Analyzer::ParsePartialForMerge(std::move(partial_));
    std::string().swap(partial_);
    if (!part.ok()) return StatusValue(part.status());
    merge_parts_.push_back(std::move(part).value());
    return StatusValue(Status::Ok());
  }
  // Merges the parts added, in order; this analysis then reports like one pass.
  val merge() {
    if (analyzer_) return StatusValue(Merging());
    auto merged = partplay::Analyzer::Merge(std::move(merge_parts_));
    merge_parts_.clear();
    if (!merged.ok()) return StatusValue(merged.status());
    analyzer_ = std::move(merged).value();
    options_ = analyzer_->options();
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
  // {"bytes_consumed", "items_seen", "items_validated", "items_scanned"} so far
  // (analysis.h says which reader took the items).
  val progress() const {
    if (!analyzer_) return StatusValue(NotReady());
    return JsonAnswer(fmt::format(
        "{{\"bytes_consumed\":{},\"items_seen\":{},\"items_validated\":{},\"items_scanned\":{}}}",
        analyzer_->bytes_consumed(), analyzer_->items_seen(), analyzer_->items_validated(),
        analyzer_->items_scanned()));
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
  static Status Merging() {
    return Status(partplay::ErrorCode::kInvalidState,
                  "parts are merged into a fresh analysis, before anything else");
  }
  std::unique_ptr<partplay::Analyzer> analyzer_;
  partplay::AnalysisOptions options_;
  std::vector<std::unique_ptr<partplay::Analyzer>> merge_parts_;
  std::string partial_;  // a serialized partial state on its way in (partialBuffer)
};

// Where an input may be cut into parts: asks for windows of it until done (split_points.h).
// Sizes cross as doubles (exact below 2^53).
class SplitSearch {
 public:
  SplitSearch(double input_size, int parts, double min_part_bytes)
      : search_(static_cast<uint64_t>(input_size), parts < 1 ? 1 : static_cast<size_t>(parts),
                static_cast<uint64_t>(min_part_bytes), partplay::kFirstPartWeightInPage) {}
  // {ok, json: {done, offset, length}}: the window to read next.
  val window() const {
    return JsonAnswer(fmt::format("{{\"done\":{},\"offset\":{},\"length\":{}}}", search_.done(),
                                  search_.window_offset(), search_.window_length()));
  }
  // The window's bytes (Uint8Array; fewer only at the end of the input).
  val offer(std::string bytes) {
    search_.Offer(bytes);
    return StatusValue(Status::Ok());
  }
  // {ok, json: [cut, ...]}: increasing offsets; empty for one part.
  val cuts() const {
    std::string json = "[";
    for (uint64_t cut : search_.cuts()) json += (json.size() > 1 ? "," : "") + std::to_string(cut);
    return JsonAnswer(json + "]");
  }

 private:
  partplay::SplitSearch search_;
};

// The page's parts plan (ingest/parts_plan.h PlanParts, host kPage) for an input of
// `input_bytes` analysed with `options_json` (report/options_json.h; a random-suffix key is one
// pass): {ok, parts, min_part_bytes, first_part_weight, retire_heap_bytes, threads, read_ahead,
// why}, or the options' error.
val PlanPageParts(double input_bytes, bool seekable, int workers_asked, int cores,
                  std::string options_json) {
  auto options = partplay::ParseAnalysisOptionsJson(options_json);
  if (!options.ok()) return StatusValue(options.status());
  partplay::PartsPlan plan = partplay::PlanParts(
      {.host = partplay::PartsHost::kPage,
       .input_bytes = static_cast<uint64_t>(input_bytes),
       .seekable = seekable,
       .random_suffix = options.value().synthetic.kind ==
                        partplay::SyntheticKeyOptions::Kind::kRandomSuffix,
       .workers_asked = workers_asked,
       .cores = cores});
  val o = StatusValue(Status::Ok());
  o.set("parts", plan.parts);
  o.set("min_part_bytes", static_cast<double>(plan.min_part_bytes));
  o.set("first_part_weight", plan.first_part_weight);
  o.set("retire_heap_bytes", static_cast<double>(plan.retire_heap_bytes));
  o.set("threads", plan.threads);
  o.set("read_ahead", plan.read_ahead);
  o.set("why", std::string(plan.why));
  return o;
}

// What to do after parts failed with error `code` (ingest/parts_plan.h RetryParts): {ok, retry:
// 'stop' | 'id_records' | 'one_pass'}.
val RetryPageParts(int code, bool id_records) {
  val o = StatusValue(Status::Ok());
  o.set("retry", std::string(partplay::PartsRetryName(
                     partplay::RetryParts(static_cast<partplay::ErrorCode>(code), id_records))));
  return o;
}

// The parser alone over one input (ingest/parse_limit.h), for the benchmark's ceiling.
class ParseLimitProbe {
 public:
  val buffer(size_t n) { return PointerAnswer(probe_.Buffer(n), n); }
  val parse() {
    auto documents = probe_.Parse();
    if (!documents.ok()) return StatusValue(documents.status());
    val o = StatusValue(Status::Ok());
    o.set("documents", static_cast<double>(documents.value()));
    return o;
  }

 private:
  partplay::ParseLimitProbe probe_;
};

}  // namespace

// PARTPLAY_ELEMENT_MODULE (partplay-cosmos, the element's module; CMakeLists.txt): only what the
// element asks. It reads text and URLs in one pass, never a file in parts (web/worker/client.js
// splits only a File), and sizes nothing from data: no parts, no data sizing, no parse-limit probe.
EMSCRIPTEN_BINDINGS(partplay_ingest) {
#if !PARTPLAY_ELEMENT_MODULE
  emscripten::class_<ParseLimitProbe>("ParseLimitProbe")
      .constructor<>()
      .function("buffer", &ParseLimitProbe::buffer)
      .function("parse", &ParseLimitProbe::parse);
#endif
  emscripten::class_<Analysis>("Analysis")
      .constructor<>()
      .function("configure", &Analysis::configure)
      .function("writableChunk", &Analysis::writableChunk)
      .function("commitChunk", &Analysis::commitChunk)
      .function("finish", &Analysis::finish)
      .function("progress", &Analysis::progress)
#if !PARTPLAY_ELEMENT_MODULE
      .function("dataSizing", &Analysis::dataSizing)
      .function("configurePart", &Analysis::configurePart)
      .function("finishPartial", &Analysis::finishPartial)
      .function("addPart", &Analysis::addPart)
      .function("partialBuffer", &Analysis::partialBuffer)
      .function("addPartial", &Analysis::addPartial)
      .function("merge", &Analysis::merge)
#endif
      .function("report", &Analysis::report);
#if !PARTPLAY_ELEMENT_MODULE
  emscripten::function("planParts", &PlanPageParts);
  emscripten::function("retryParts", &RetryPageParts);
  emscripten::class_<SplitSearch>("SplitSearch")
      .constructor<double, int, double>()
      .function("window", &SplitSearch::window)
      .function("offer", &SplitSearch::offer)
      .function("cuts", &SplitSearch::cuts);
#endif
}
