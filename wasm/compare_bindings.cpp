// Embind bindings of the key comparison (report/comparison_run.h): candidate keys fed the same
// bytes, then compared under container options and queries, again without re-reading; when the
// queries or the write spread ask for it, the same bytes a second time. The element's module
// (PARTPLAY_ELEMENT_MODULE) binds the comparison alone (report/key_comparison.h): no query parser
// and no second read, so its queries are path lists. Conversions only; every call answers in the
// shape of status_value.h.
//
//   const c = new Module.Comparison();
//   c.configure('{"keys": [{"key_paths": ["/tenantId"]}, {"key_paths": ["/id"]}]}');
//   const {pointer} = c.writableChunk(n);  HEAPU8.set(bytes, pointer);  c.commitChunk(n);
//   c.finish();  JSON.parse(c.compare('{"container": {"ru_per_second": 4000}}').json);
//   if (c.secondReadPending()) { ... c.commitSecondChunk(n) ...; JSON.parse(c.finishSecond().json); }
//   JSON.parse(Module.parseCandidateSpec('hash:/date:/vin:400').json);  // the --candidate grammar
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/report/candidate_spec.h"
#include "partplay/report/key_comparison.h"
#ifndef PARTPLAY_ELEMENT_MODULE
#include "partplay/report/comparison_run.h"
#endif
#include "partplay/report/vocabulary.h"
#include "status_value.h"

namespace {

using emscripten::val;
using partplay::Status;
using partplay::wasm::JsonAnswer;
using partplay::wasm::PointerAnswer;
using partplay::wasm::StatusValue;

class Comparison {
 public:
  // `request_json`: {keys, container, queries, parameters, weight_path, second_read, time_path,
  // write_window_seconds, write_spread} (ParseComparisonRequestJson).
  val configure(std::string request_json) {
    auto request = partplay::ParseComparisonRequestJson(request_json);
    if (!request.ok()) return StatusValue(request.status());
#ifdef PARTPLAY_ELEMENT_MODULE
    if (Status s = partplay::RefuseQueryText(request.value()); !s.ok()) return StatusValue(s);
    auto created = partplay::KeyComparison::Create(request.value().keys);
#else
    auto created = partplay::ComparisonRun::Create(std::move(request).value());
#endif
    if (!created.ok()) return StatusValue(created.status());
    comparison_ = std::move(created).value();
    return StatusValue(Status::Ok());
  }
  // The bytes land in a staging buffer; commitChunk hands them to every key's analyzer, and
  // commitSecondChunk to the second read.
  val writableChunk(size_t n) {
    if (!comparison_) return StatusValue(NotReady());
    staging_.resize(n);
    return PointerAnswer(staging_.data(), n);
  }
  val commitChunk(size_t n) {
    if (!comparison_) return StatusValue(NotReady());
    auto bytes = Staged(n);
    if (!bytes.ok()) return StatusValue(bytes.status());
    return StatusValue(comparison_->Feed(bytes.value()));
  }
  val finish() {
    if (!comparison_) return StatusValue(NotReady());
    staging_ = {};
    return StatusValue(comparison_->Finish());
  }
  val progress() const {
    if (!comparison_) return StatusValue(NotReady());
    return JsonAnswer(fmt::format("{{\"bytes_consumed\":{},\"items_seen\":{}}}",
                                  comparison_->bytes_consumed(), comparison_->items_seen()));
  }
  // `model_json`: {container, queries, parameters} (ParseComparisonModelJson); the comparison's
  // JSON (docs/report.md "Key comparison"), without the second read's figures while one waits.
  val compare(std::string model_json) {
    if (!comparison_) return StatusValue(NotReady());
    auto model = partplay::ParseComparisonModelJson(model_json);
    if (!model.ok()) return StatusValue(model.status());
#ifdef PARTPLAY_ELEMENT_MODULE
    if (Status s = partplay::RefuseQueryText(model.value()); !s.ok()) return StatusValue(s);
    auto report = comparison_->Compare(model.value().container, model.value().queries);
    if (!report.ok()) return StatusValue(report.status());
    return JsonAnswer(partplay::ComparisonToJson(report.value()));
#else
    if (Status s = comparison_->CompareModel(std::move(model).value()); !s.ok()) {
      return StatusValue(s);
    }
    return JsonAnswer(partplay::ComparisonToJson(comparison_->report()));
#endif
  }
#ifndef PARTPLAY_ELEMENT_MODULE
  // Whether the last compare waits for the same bytes again (queries, write spread); before any,
  // whether one under the request's queries would.
  bool secondReadPending() const { return comparison_ && comparison_->second_read_needed(); }
  val commitSecondChunk(size_t n) {
    if (!comparison_) return StatusValue(NotReady());
    auto bytes = Staged(n);
    if (!bytes.ok()) return StatusValue(bytes.status());
    return StatusValue(comparison_->FeedSecond(bytes.value()));
  }
  // Ends the second read: the comparison's JSON with the traffic figures, ranked again.
  val finishSecond() {
    if (!comparison_) return StatusValue(NotReady());
    staging_ = {};
    if (Status s = comparison_->FinishSecond(); !s.ok()) return StatusValue(s);
    return JsonAnswer(partplay::ComparisonToJson(comparison_->report()));
  }
  val secondProgress() const {
    if (!comparison_) return StatusValue(NotReady());
    return JsonAnswer(fmt::format("{{\"items_seen\":{}}}", comparison_->second_items_seen()));
  }
#endif

 private:
  static Status NotReady() {
    return Status(partplay::ErrorCode::kInvalidState, "configure the comparison first");
  }
  partplay::StatusOr<std::string_view> Staged(size_t n) const {
    if (n > staging_.size()) {
      return Status(partplay::ErrorCode::kInvalidState,
                    "commitChunk: more bytes than writableChunk offered");
    }
    return std::string_view(reinterpret_cast<const char*>(staging_.data()), n);
  }
#ifdef PARTPLAY_ELEMENT_MODULE
  std::unique_ptr<partplay::KeyComparison> comparison_;
#else
  std::unique_ptr<partplay::ComparisonRun> comparison_;
#endif
  std::vector<uint8_t> staging_;
};

// report/candidate_spec.h: one key written as the CLI's --candidate SPEC, as analysis options
// JSON ({key_paths, synthetic?}).
val ParseCandidateSpec(std::string spec) {
  auto key = partplay::ParseCandidateSpec(spec);
  if (!key.ok()) return StatusValue(key.status());
  return JsonAnswer(partplay::CandidateKeyToJson(key.value()));
}

// report/vocabulary.h: the enums and defaults the Cosmos DB controls offer. Only the modules
// with the report domain have it (not partplay-cql or partplay-sizing, which need none).
val Vocabulary() { return JsonAnswer(partplay::VocabularyToJson()); }

}  // namespace

EMSCRIPTEN_BINDINGS(partplay_compare) {
  emscripten::function("parseCandidateSpec", &ParseCandidateSpec);
  emscripten::function("vocabulary", &Vocabulary);
  emscripten::class_<Comparison>("Comparison")
      .constructor<>()
      .function("configure", &Comparison::configure)
      .function("writableChunk", &Comparison::writableChunk)
      .function("commitChunk", &Comparison::commitChunk)
      .function("finish", &Comparison::finish)
      .function("progress", &Comparison::progress)
      .function("compare", &Comparison::compare)
#ifndef PARTPLAY_ELEMENT_MODULE
      .function("secondReadPending", &Comparison::secondReadPending)
      .function("commitSecondChunk", &Comparison::commitSecondChunk)
      .function("finishSecond", &Comparison::finishSecond)
      .function("secondProgress", &Comparison::secondProgress)
#endif
      ;
}
