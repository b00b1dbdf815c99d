// Embind bindings of the key comparison (report/key_comparison.h): candidate keys fed the same
// bytes, then compared under container options and queries, again without re-reading. Conversions
// only; every call answers in the shape of status_value.h.
//
//   const c = new Module.Comparison();
//   c.configure('{"keys": [{"key_paths": ["/tenantId"]}, {"key_paths": ["/id"]}]}');
//   const {pointer} = c.writableChunk(n);  HEAPU8.set(bytes, pointer);  c.commitChunk(n);
//   c.finish();  JSON.parse(c.compare('{"container": {"ru_per_second": 4000}}').json);
//   JSON.parse(Module.parseCandidateSpec('hash:/date:/vin:400').json);  // the --candidate grammar
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "partplay/report/candidate_spec.h"
#include "partplay/report/key_comparison.h"
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
  // `request_json`: {keys, container, queries, weight_path} (ParseComparisonRequestJson); the
  // container and queries given here are the defaults of compare().
  val configure(std::string request_json) {
    auto request = partplay::ParseComparisonRequestJson(request_json);
    if (!request.ok()) return StatusValue(request.status());
    auto created = partplay::KeyComparison::Create(request.value().keys);
    if (!created.ok()) return StatusValue(created.status());
    comparison_ = std::move(created).value();
    return StatusValue(Status::Ok());
  }
  // The bytes land in a staging buffer; commitChunk hands them to every key's analyzer.
  val writableChunk(size_t n) {
    if (!comparison_) return StatusValue(NotReady());
    staging_.resize(n);
    return PointerAnswer(staging_.data(), n);
  }
  val commitChunk(size_t n) {
    if (!comparison_) return StatusValue(NotReady());
    if (n > staging_.size()) {
      return StatusValue(Status(partplay::ErrorCode::kInvalidState,
                                "commitChunk: more bytes than writableChunk offered"));
    }
    return StatusValue(
        comparison_->Feed(std::string_view(reinterpret_cast<const char*>(staging_.data()), n)));
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
  // `model_json`: {container, queries} (ParseComparisonModelJson); the comparison's JSON
  // (docs/report.md "Key comparison").
  val compare(std::string model_json) const {
    if (!comparison_) return StatusValue(NotReady());
    auto model = partplay::ParseComparisonModelJson(model_json);
    if (!model.ok()) return StatusValue(model.status());
    auto report = comparison_->Compare(model.value().container, model.value().queries);
    if (!report.ok()) return StatusValue(report.status());
    return JsonAnswer(partplay::ComparisonToJson(report.value()));
  }

 private:
  static Status NotReady() {
    return Status(partplay::ErrorCode::kInvalidState, "configure the comparison first");
  }
  std::unique_ptr<partplay::KeyComparison> comparison_;
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
      .function("compare", &Comparison::compare);
}
