#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "item_stream.h"
#include "partition_table.h"
#include "partplay/analysis.h"
#include "partplay/json_diagnostics.h"
#include "partplay/key_path.h"
#include "partplay/statistics.h"

namespace partplay {

namespace od = simdjson::ondemand;
using internal::ItemContext;

namespace {

// A key component as found in one item; string views point into the parser's buffer and live
// until the next item.
struct FoundComponent {
  KeyKind kind = KeyKind::kUndefined;
  double number = 0;
  std::string_view text;
  const char* invalid = nullptr;  // "object", "array", "number_out_of_range"
};

struct PathStats {
  CandidatePath out;
  int64_t last_item = -1;
  std::unordered_set<uint64_t> distinct;
};

constexpr size_t kMaxKeyPaths = 3;

}  // namespace

class Analyzer::Impl : public internal::ItemSink {
 public:
  explicit Impl(const AnalysisOptions& options) : options_(options), stream_(this) {}

  Status Init() {
    if (options_.key_paths.empty() || options_.key_paths.size() > kMaxKeyPaths) {
      return Status(ErrorCode::kBadOption,
                    fmt::format("give 1 to {} partition key paths (got {})", kMaxKeyPaths,
                                options_.key_paths.size()));
    }
    for (const auto& text : options_.key_paths) {
      PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(text));
      paths_.push_back(std::move(path));
    }
    if (options_.discover_items < -1) {
      return Status(ErrorCode::kBadOption, "discover_items must be -1 (all), 0 (none) or more");
    }
    return Status::Ok();
  }

  Status OnItem(od::document_reference doc, const ItemContext& item) override {
    od::object root;
    auto error = doc.get_object().get(root);
    if (error) {
      if (error != simdjson::INCORRECT_TYPE) return SimdjsonStatus(error);
      od::json_type type;
      if (doc.type().get(type)) return Status(ErrorCode::kMalformedJson, "not a JSON value");
      return Status(ErrorCode::kNotAnObject,
                    fmt::format("item {} is {}, not an object", item.index, TypeName(type)));
    }
    for (auto& f : found_) f = FoundComponent{};
    discovering_ = options_.discover_items < 0 || item.index < options_.discover_items;
    if (discovering_) {
      ++sampled_items_;
      current_item_ = item.index;
      pointer_.clear();
    }
    uint32_t all_paths = (1u << paths_.size()) - 1;
    PARTPLAY_RETURN_IF_ERROR(WalkObject(root, 1, all_paths));
    uint64_t bytes = item.text.size();
    ++items_;
    bytes_ += bytes;
    if (bytes > kCosmosMaxItemBytes) {
      ++oversized_;
      if (oversized_examples_.size() < kMaxFindingExamples) {
        oversized_examples_.push_back(Finding(item, bytes, ""));
      }
    }
    for (size_t i = 0; i < paths_.size(); ++i) {
      if (found_[i].invalid) {
        ++invalid_items_;
        invalid_bytes_ += bytes;
        if (invalid_examples_.size() < kMaxFindingExamples) {
          invalid_examples_.push_back(Finding(item, bytes, found_[i].invalid));
        }
        return Status::Ok();
      }
    }
    canonical_.clear();
    bool undefined = false;
    for (size_t i = 0; i < paths_.size(); ++i) {
      const FoundComponent& f = found_[i];
      AppendCanonical(f.kind, f.number, f.text, canonical_);
      if (f.kind == KeyKind::kUndefined) undefined = true;
    }
    if (undefined) ++undefined_items_;
    // A one-item pipeline: start loading this item's partition slot now and update it after the
    // next item is parsed, so the cache miss (100+ ns) overlaps that work instead of stalling.
    uint64_t hash = HashCanonical(canonical_);
    partitions_.Prefetch(hash);
    FlushPendingAdd();
    std::swap(pending_canonical_, canonical_);
    pending_ = {true, hash, bytes, item.index};
    return Status::Ok();
  }

  // Applies the item held back by the pipeline in OnItem; Finish calls it last.
  void FlushPendingAdd() {
    if (!pending_.held) return;
    partitions_.Add(pending_canonical_, pending_.hash, pending_.bytes, pending_.item_index);
    pending_.held = false;
  }

  AnalysisReport BuildReport(const ReportOptions& options) const;

  internal::ItemStream& stream() { return stream_; }
  uint64_t items() const { return items_; }

 private:
  static const char* TypeName(od::json_type type) {
    switch (type) {
      case od::json_type::array: return "an array";
      case od::json_type::object: return "an object";
      case od::json_type::number: return "a number";
      case od::json_type::string: return "a string";
      case od::json_type::boolean: return "a boolean";
      case od::json_type::null: return "null";
    }
    return "a value";
  }

  static Status SimdjsonStatus(simdjson::error_code error) {
    ErrorCode code = error == simdjson::UTF8_ERROR    ? ErrorCode::kInvalidUtf8
                     : error == simdjson::DEPTH_ERROR ? ErrorCode::kTooDeep
                                                      : ErrorCode::kMalformedJson;
    return Status(code, simdjson::error_message(error));
  }

  ItemFinding Finding(const ItemContext& item, uint64_t bytes, const char* type) {
    ItemFinding f;
    f.item_index = item.index;
    f.bytes = bytes;
    f.where = stream_.Locate(item.byte_offset, item.index);
    f.type = type;
    return f;
  }

  // Records a scalar seen at the current pointer for candidate-path discovery.
  void Discover(KeyKind kind, double number, std::string_view text) {
    auto it = discovered_.find(pointer_);
    if (it == discovered_.end()) {
      if (discovered_.size() >= kMaxCandidatePaths) return;
      it = discovered_.emplace(pointer_, PathStats{}).first;
      it->second.out.path = pointer_;
    }
    PathStats& s = it->second;
    if (s.last_item == current_item_) return;  // a duplicate property: count the item once
    s.last_item = current_item_;
    ++s.out.items;
    switch (kind) {
      case KeyKind::kString: ++s.out.strings; break;
      case KeyKind::kNumber: ++s.out.numbers; break;
      case KeyKind::kNull: ++s.out.nulls; break;
      default: ++s.out.booleans; break;
    }
    if (s.out.distinct_capped) return;
    scratch_.clear();
    AppendCanonical(kind, number, text, scratch_);
    s.distinct.insert(HashCanonical(scratch_));
    if (s.distinct.size() >= kMaxDistinctPerPath) {
      s.out.distinct_capped = true;
      s.out.distinct = s.distinct.size();
      s.distinct = {};
    }
  }

  // Validates a number token simdjson could not convert (too large for a double or an integer):
  // valid JSON grammar is accepted, anything else is malformed.
  static bool ValidNumberToken(od::value& value) {
    std::string_view raw = value.raw_json_token();
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' ||
                            raw.back() == '\t')) {
      raw.remove_suffix(1);
    }
    return IsJsonNumber(raw);
  }

  // `matching`: bit i set when key path i's segments match the pointer down to this object.
  Status WalkObject(od::object object, int depth, uint32_t matching) {
    for (auto field_result : object) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return SimdjsonStatus(e);
      std::string_view key = field.escaped_key();
      if (key.find('\\') != std::string_view::npos) {
        if (auto e = field.unescaped_key(false).get(key)) return SimdjsonStatus(e);
      }
      uint32_t deeper = 0, here = 0;
      for (uint32_t m = matching; m; m &= m - 1) {
        int i = __builtin_ctz(m);
        const auto& segments = paths_[i].segments();
        if (segments[depth - 1] != key) continue;
        if (static_cast<size_t>(depth) == segments.size()) {
          here |= 1u << i;
        } else {
          deeper |= 1u << i;
        }
      }
      size_t pointer_len = pointer_.size();
      if (discovering_) KeyPath::AppendSegment(key, pointer_);
      PARTPLAY_RETURN_IF_ERROR(WalkValue(field.value(), depth, deeper, here));
      if (discovering_) pointer_.resize(pointer_len);
    }
    return Status::Ok();
  }

  Status WalkArray(od::array array, int depth) {
    for (auto element : array) {
      od::value value;
      if (auto e = std::move(element).get(value)) return SimdjsonStatus(e);
      bool was = discovering_;
      discovering_ = false;  // key paths never index into arrays
      Status s = WalkValue(value, depth, 0, 0);
      discovering_ = was;
      PARTPLAY_RETURN_IF_ERROR(s);
    }
    return Status::Ok();
  }

  // A value at nesting `depth` (its parent's depth). `deeper`: key paths continuing inside it;
  // `here`: key paths ending at it.
  Status WalkValue(od::value value, int depth, uint32_t deeper, uint32_t here) {
    od::json_type type;
    if (auto e = value.type().get(type)) return SimdjsonStatus(e);
    switch (type) {
      case od::json_type::object: {
        if (depth + 1 > kMaxJsonDepth) return Status(ErrorCode::kTooDeep, "nesting too deep");
        SetInvalid(here, "object");
        od::object object;
        if (auto e = value.get_object().get(object)) return SimdjsonStatus(e);
        return WalkObject(object, depth + 1, deeper);
      }
      case od::json_type::array: {
        if (depth + 1 > kMaxJsonDepth) return Status(ErrorCode::kTooDeep, "nesting too deep");
        SetInvalid(here, "array");
        od::array array;
        if (auto e = value.get_array().get(array)) return SimdjsonStatus(e);
        return WalkArray(array, depth + 1);
      }
      case od::json_type::string: {
        if (!here && !discovering_) {
          // Only validation is needed: stage 1 has checked UTF-8 and control characters, so a
          // string without a backslash is valid as it stands and need not be unescaped. The
          // value is still consumed, so the iterator checks what follows it.
          std::string_view raw = value.raw_json_token();
          od::raw_json_string consumed;
          if (auto e = value.get_raw_json_string().get(consumed)) return SimdjsonStatus(e);
          if (raw.find('\\') == std::string_view::npos) return Status::Ok();
          JsonDiagnosis d = DiagnoseJsonValue(raw);
          if (d.found) return Status(ErrorCode::kMalformedJson, d.message);
          return Status::Ok();
        }
        std::string_view text;
        if (auto e = value.get_string().get(text)) return SimdjsonStatus(e);
        Set(here, KeyKind::kString, 0, text);
        if (discovering_) Discover(KeyKind::kString, 0, text);
        return Status::Ok();
      }
      case od::json_type::number: {
        double d = 0;
        if (here || discovering_) {
          if (value.get_double().get(d)) {
            if (!ValidNumberToken(value)) return Status(ErrorCode::kMalformedJson, "bad number");
            SetInvalid(here, "number_out_of_range");
            return Status::Ok();
          }
          Set(here, KeyKind::kNumber, d, {});  // -0 becomes 0 in the canonical encoding
          if (discovering_) Discover(KeyKind::kNumber, d, {});
          return Status::Ok();
        }
        od::number n;
        if (value.get_number().get(n) && !ValidNumberToken(value)) {
          return Status(ErrorCode::kMalformedJson, "bad number");
        }
        return Status::Ok();
      }
      case od::json_type::boolean: {
        bool b;
        if (auto e = value.get_bool().get(b)) return SimdjsonStatus(e);
        KeyKind kind = b ? KeyKind::kTrue : KeyKind::kFalse;
        Set(here, kind, 0, {});
        if (discovering_) Discover(kind, 0, {});
        return Status::Ok();
      }
      case od::json_type::null: {
        bool is_null;
        if (auto e = value.is_null().get(is_null)) return SimdjsonStatus(e);
        if (!is_null) return Status(ErrorCode::kMalformedJson, "bad literal");
        Set(here, KeyKind::kNull, 0, {});
        if (discovering_) Discover(KeyKind::kNull, 0, {});
        return Status::Ok();
      }
    }
    return Status(ErrorCode::kMalformedJson, "unknown value type");
  }

  void Set(uint32_t here, KeyKind kind, double number, std::string_view text) {
    for (uint32_t m = here; m; m &= m - 1) {
      FoundComponent& f = found_[__builtin_ctz(m)];
      if (f.kind != KeyKind::kUndefined || f.invalid) continue;  // the first occurrence wins
      f.kind = kind;
      f.number = number;
      f.text = text;
    }
  }
  void SetInvalid(uint32_t here, const char* why) {
    for (uint32_t m = here; m; m &= m - 1) {
      FoundComponent& f = found_[__builtin_ctz(m)];
      if (f.kind == KeyKind::kUndefined && !f.invalid) f.invalid = why;
    }
  }

  AnalysisOptions options_;
  std::vector<KeyPath> paths_;
  internal::ItemStream stream_;
  FoundComponent found_[kMaxKeyPaths];
  std::string canonical_;
  std::string pending_canonical_;
  struct {
    bool held = false;
    uint64_t hash = 0;
    uint64_t bytes = 0;
    int64_t item_index = 0;
  } pending_;
  std::string scratch_;
  internal::PartitionTable partitions_;

  uint64_t items_ = 0;
  uint64_t bytes_ = 0;
  uint64_t undefined_items_ = 0;
  uint64_t invalid_items_ = 0;
  uint64_t invalid_bytes_ = 0;
  std::vector<ItemFinding> invalid_examples_;
  uint64_t oversized_ = 0;
  std::vector<ItemFinding> oversized_examples_;

  bool discovering_ = false;
  int64_t current_item_ = -1;
  uint64_t sampled_items_ = 0;
  std::string pointer_;
  std::unordered_map<std::string, PathStats> discovered_;
};

AnalysisReport Analyzer::Impl::BuildReport(const ReportOptions& options) const {
  AnalysisReport r;
  switch (stream_.format()) {
    case internal::InputFormat::kArray: r.format = "array"; break;
    default: r.format = stream_.items() == 1 ? "object" : "ndjson"; break;
  }
  for (const auto& p : paths_) r.key_paths.push_back(p.text());
  r.items = items_;
  r.bytes = bytes_;
  r.input_bytes = stream_.input_bytes();
  r.undefined_key_items = undefined_items_;
  r.invalid_key_items = invalid_items_;
  r.invalid_key_bytes = invalid_bytes_;
  r.invalid_key_examples = invalid_examples_;
  r.oversized_items = oversized_;
  r.oversized_examples = oversized_examples_;

  std::vector<uint32_t> order = partitions_.SortedBySize();
  r.partition_count = order.size();
  r.partition_bytes.reserve(order.size());
  for (uint32_t i : order) r.partition_bytes.push_back(static_cast<double>(partitions_.at(i).bytes));
  size_t listed = options.max_partitions < 0
                      ? order.size()
                      : std::min(order.size(), static_cast<size_t>(options.max_partitions));
  for (size_t k = 0; k < listed; ++k) r.partitions.push_back(partitions_.Export(order[k]));
  r.partitions_omitted = order.size() - listed;
  if (!order.empty()) {
    r.has_largest = true;
    r.largest = partitions_.Export(order[0]);
  }
  PartitionSpread spread = ComputeSpread(r.partition_bytes);
  r.mean_partition_bytes = spread.mean;
  r.top1_partitions = spread.top1_count;
  r.top1_bytes = spread.top1_total;
  r.top1_share = spread.top1_share;
  r.gini = spread.gini;

  r.sampled_items = sampled_items_;
  for (const auto& [path, stats] : discovered_) {
    CandidatePath c = stats.out;
    if (!c.distinct_capped) c.distinct = stats.distinct.size();
    r.candidate_paths.push_back(std::move(c));
  }
  std::sort(r.candidate_paths.begin(), r.candidate_paths.end(),
            [](const CandidatePath& a, const CandidatePath& b) {
              if (a.items != b.items) return a.items > b.items;
              return a.path < b.path;
            });
  return r;
}

Analyzer::Analyzer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Analyzer::~Analyzer() = default;

StatusOr<std::unique_ptr<Analyzer>> Analyzer::Create(const AnalysisOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

uint8_t* Analyzer::WritableChunk(size_t n) { return impl_->stream().WritableChunk(n); }
Status Analyzer::CommitChunk(size_t n) { return impl_->stream().CommitChunk(n); }

Status Analyzer::Feed(std::string_view bytes) {
  uint8_t* at = WritableChunk(bytes.size());
  if (at == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input chunk");
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return CommitChunk(bytes.size());
}

Status Analyzer::Finish() {
  PARTPLAY_RETURN_IF_ERROR(impl_->stream().Finish());
  impl_->FlushPendingAdd();
  return Status::Ok();
}
uint64_t Analyzer::bytes_consumed() const { return impl_->stream().bytes_consumed(); }
uint64_t Analyzer::items_seen() const { return impl_->items(); }
AnalysisReport Analyzer::BuildReport(const ReportOptions& options) const {
  return impl_->BuildReport(options);
}

}  // namespace partplay
