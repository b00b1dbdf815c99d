// Embind bindings: conversions only, no logic. The engine's types become plain JS values;
// statuses become {ok, error: {code, name, message, location}} (wasm/partplay-api.mjs turns
// those into thrown PartplayError). Input bytes are written by JS straight into the engine's
// buffer (writableChunk returns its heap address), so they are copied once.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>

#include "partplay/analysis.h"
#include "partplay/version.h"

namespace {

using emscripten::val;
using partplay::Status;

val Num(uint64_t v) { return val(static_cast<double>(v)); }
val Num(int64_t v) { return val(static_cast<double>(v)); }

val Location(const partplay::SourceLocation& w) {
  val o = val::object();
  o.set("byte_offset", Num(w.byte_offset));
  o.set("line", Num(w.line));
  o.set("column", Num(w.column));
  o.set("item_index", Num(w.item_index));
  return o;
}

val StatusValue(const Status& s) {
  val o = val::object();
  o.set("ok", s.ok());
  if (!s.ok()) {
    val e = val::object();
    e.set("code", static_cast<int>(s.code()));
    e.set("name", std::string(partplay::ErrorCodeName(s.code())));
    e.set("message", s.message());
    e.set("location", s.where().known() ? Location(s.where()) : val::null());
    o.set("error", e);
  }
  return o;
}

val KeyComponentValue(const partplay::KeyComponent& c) {
  switch (c.kind) {
    case partplay::KeyKind::kUndefined: return val::object();
    case partplay::KeyKind::kNull: return val::null();
    case partplay::KeyKind::kFalse: return val(false);
    case partplay::KeyKind::kTrue: return val(true);
    case partplay::KeyKind::kNumber: return val(c.number);
    case partplay::KeyKind::kString: return val(c.text);
  }
  return val::undefined();
}

val KeyValue(const partplay::PartitionKey& key) {
  val a = val::array();
  for (const auto& c : key.components) a.call<void>("push", KeyComponentValue(c));
  return a;
}

val PartitionValue(const partplay::LogicalPartition& p, bool detail) {
  val o = val::object();
  o.set("key", KeyValue(p.key));
  o.set("items", Num(p.items));
  o.set("bytes", Num(p.bytes));
  if (detail) {
    o.set("largest_item_bytes", Num(p.largest_item_bytes));
    o.set("largest_item_index", Num(p.largest_item_index));
  }
  return o;
}

val FindingsValue(const std::vector<partplay::ItemFinding>& list, bool with_type) {
  val a = val::array();
  for (const auto& f : list) {
    val o = val::object();
    o.set("item_index", Num(f.item_index));
    o.set("bytes", Num(f.bytes));
    o.set("byte_offset", Num(f.where.byte_offset));
    o.set("line", Num(f.where.line));
    o.set("column", Num(f.where.column));
    if (with_type) o.set("type", f.type);
    a.call<void>("push", o);
  }
  return a;
}

val ReportValue(const partplay::AnalysisReport& r) {
  val o = val::object();
  o.set("schema", std::string("partplay.analysis/1"));
  o.set("format", r.format);
  val paths = val::array();
  for (const auto& p : r.key_paths) paths.call<void>("push", p);
  o.set("key_paths", paths);
  o.set("items", Num(r.items));
  o.set("bytes", Num(r.bytes));
  o.set("input_bytes", Num(r.input_bytes));
  o.set("partition_count", Num(r.partition_count));
  o.set("largest_partition", r.has_largest ? PartitionValue(r.largest, false) : val::null());
  o.set("mean_partition_bytes", r.mean_partition_bytes);
  val top1 = val::object();
  top1.set("partitions", Num(r.top1_partitions));
  top1.set("bytes", Num(r.top1_bytes));
  top1.set("share", r.top1_share);
  o.set("top1_percent", top1);
  o.set("gini", r.gini);
  o.set("undefined_key_items", Num(r.undefined_key_items));
  val invalid = val::object();
  invalid.set("items", Num(r.invalid_key_items));
  invalid.set("bytes", Num(r.invalid_key_bytes));
  invalid.set("examples", FindingsValue(r.invalid_key_examples, true));
  o.set("invalid_key", invalid);
  val oversized = val::object();
  oversized.set("limit_bytes", Num(partplay::kCosmosMaxItemBytes));
  oversized.set("count", Num(r.oversized_items));
  oversized.set("examples", FindingsValue(r.oversized_examples, false));
  o.set("oversized_items", oversized);
  val partitions = val::array();
  for (const auto& p : r.partitions) partitions.call<void>("push", PartitionValue(p, true));
  o.set("partitions", partitions);
  o.set("partitions_omitted", Num(r.partitions_omitted));
  // Every partition's size as a Float64Array copied off the heap (a heap growth would detach a
  // view).
  val view(emscripten::typed_memory_view(r.partition_bytes.size(), r.partition_bytes.data()));
  o.set("partition_bytes", view.call<val>("slice"));
  val candidates = val::object();
  candidates.set("sampled_items", Num(r.sampled_items));
  val list = val::array();
  for (const auto& c : r.candidate_paths) {
    val p = val::object();
    p.set("path", c.path);
    p.set("items", Num(c.items));
    p.set("distinct", Num(c.distinct));
    p.set("distinct_capped", c.distinct_capped);
    val types = val::object();
    types.set("string", Num(c.strings));
    types.set("number", Num(c.numbers));
    types.set("boolean", Num(c.booleans));
    types.set("null", Num(c.nulls));
    p.set("types", types);
    list.call<void>("push", p);
  }
  candidates.set("paths", list);
  o.set("candidate_paths", candidates);
  return o;
}

// One analysis: configure, then writableChunk/commitChunk repeatedly, then finish and report.
class Analysis {
 public:
  val configure(val options) {
    partplay::AnalysisOptions o;
    if (options.hasOwnProperty("key_paths")) {
      o.key_paths = emscripten::vecFromJSArray<std::string>(options["key_paths"]);
    }
    if (options.hasOwnProperty("discover_items")) {
      o.discover_items = static_cast<int64_t>(options["discover_items"].as<double>());
    }
    auto created = partplay::Analyzer::Create(o);
    if (!created.ok()) return StatusValue(created.status());
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
  val report(double max_partitions) const {
    if (!analyzer_) return val::null();
    partplay::ReportOptions o;
    o.max_partitions = static_cast<int64_t>(max_partitions);
    return ReportValue(analyzer_->BuildReport(o));
  }

 private:
  bool Ready() const { return analyzer_ != nullptr; }
  static Status NotReady() {
    return Status(partplay::ErrorCode::kInvalidState, "configure the analysis first");
  }
  std::unique_ptr<partplay::Analyzer> analyzer_;
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
      .function("report", &Analysis::report);
  emscripten::function("errorCodes", &ErrorCodes);
  emscripten::function("version", &Version);
}
