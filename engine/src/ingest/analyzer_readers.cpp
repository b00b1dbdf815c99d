// Reading an item's tracked paths (the key paths, /id, the weight and the synthetic key's
// sources) into the analyzer's found components, three ways with the same first-occurrence rules:
// the on-demand walk (OnItem, which also validates), the DOM of an item the parser validated
// whole (OnValidatedItem) and the scanner's values (OnScannedItem). The walk and the DOM also feed
// the sampled items' scalars to candidate-path discovery.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ingest/analyzer_impl.h"
#include "partplay/core/json_diagnostics.h"

namespace partplay {

namespace {

// 2^53: the first integer a double shares with a neighbour.
constexpr double kTwoTo53 = 9007199254740992.0;

// True for an integer literal (no fraction, no exponent) a double cannot hold exactly: beyond
// +-2^53 (JavaScript's Number.MAX_SAFE_INTEGER + 1).
bool ImpreciseInteger(std::string_view raw, double d) {
  for (char c : raw) {
    if (c == '.' || c == 'e' || c == 'E') return false;
  }
  return std::fabs(d) >= kTwoTo53;
}

}  // namespace

Status Analyzer::Impl::OnItem(od::document_reference doc, const ItemContext& item) {
  od::object root;
  auto error = doc.get_object().get(root);
  if (error) {
    if (error != simdjson::INCORRECT_TYPE) return SimdjsonStatus(error);
    od::json_type type;
    if (doc.type().get(type)) return Status(ErrorCode::kMalformedJson, "not a JSON value");
    return Status(ErrorCode::kNotAnObject,
                  fmt::format("item {} is {}, not an object", item.index, TypeName(type)));
  }
  std::fill_n(found_, paths_.size(), FoundComponent{});  // the slots in use only
  discovering_ = Samples(item.index);
  uint64_t bytes = item.text.size();
  first_obs_ = sample_obs_.size();
  if (discovering_) {
    if (!logs_sample()) discovery_->BeginItem(item.index, bytes);
    pointer_.clear();
  }
  uint32_t all_paths = (1u << paths_.size()) - 1;
  PARTPLAY_RETURN_IF_ERROR(WalkObject(root, 1, all_paths));
  return Account(item);
}

Status Analyzer::Impl::OnValidatedItem(simdjson::dom::element root, const ItemContext& item,
                                       bool& taken) {
  taken = false;
  std::fill_n(found_, paths_.size(), FoundComponent{});  // the slots in use only
  discovering_ = false;
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Status::Ok();
  uint32_t all_paths = (1u << paths_.size()) - 1;
  // Decided before the sample records anything, so an item left to the walk is sampled once.
  if (!FindTracked(object, 1, all_paths)) return Status::Ok();
  if (Samples(item.index)) {
    std::fill_n(found_, paths_.size(), FoundComponent{});
    discovering_ = true;
    first_obs_ = sample_obs_.size();
    if (!logs_sample()) discovery_->BeginItem(item.index, item.text.size());
    pointer_.clear();
    SampleObject(object, 1, all_paths);
  }
  taken = true;
  return Account(item);
}

Status Analyzer::Impl::OnScannedItem(const internal::ScanValue* values, const ItemContext& item,
                                     bool& taken) {
  taken = false;
  if (Samples(item.index)) return Status::Ok();  // the sample needs every value (WantsEveryValue)
  std::fill_n(found_, paths_.size(), FoundComponent{});  // the slots in use only
  discovering_ = false;
  for (size_t i = 0; i < paths_.size(); ++i) {
    const internal::ScanValue& v = values[i];
    uint32_t slot = 1u << i;
    switch (v.kind) {
      case internal::ScanKind::kMissing: break;
      case internal::ScanKind::kString: Set(slot, KeyKind::kString, 0, v.text); break;
      case internal::ScanKind::kNumber: Set(slot, KeyKind::kNumber, v.number, {}); break;  // exact
      case internal::ScanKind::kTrue: Set(slot, KeyKind::kTrue, 0, {}); break;
      case internal::ScanKind::kFalse: Set(slot, KeyKind::kFalse, 0, {}); break;
      case internal::ScanKind::kNull: Set(slot, KeyKind::kNull, 0, {}); break;
      case internal::ScanKind::kObject: SetInvalid(slot, "object"); break;
      case internal::ScanKind::kArray: SetInvalid(slot, "array"); break;
    }
  }
  taken = true;
  return Account(item);
}

const char* Analyzer::Impl::TypeName(od::json_type type) {
  switch (type) {
    case od::json_type::array:
      return "an array";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "a value";
}

Status Analyzer::Impl::SimdjsonStatus(simdjson::error_code error) {
  ErrorCode code = error == simdjson::UTF8_ERROR    ? ErrorCode::kInvalidUtf8
                   : error == simdjson::DEPTH_ERROR ? ErrorCode::kTooDeep
                                                    : ErrorCode::kMalformedJson;
  return Status(code, simdjson::error_message(error));
}

void Analyzer::Impl::Discover(KeyKind kind, double number, std::string_view text) {
  scratch_.clear();
  AppendCanonical(kind, number, text, scratch_);
  if (logs_sample()) {  // only logged: the merge replays the log
    auto [at, added] =
        sample_path_index_.try_emplace(pointer_, static_cast<uint32_t>(sample_paths_.size()));
    if (added) sample_paths_.push_back(pointer_);
    sample_obs_.push_back({at->second, scratch_});
    return;
  }
  discovery_->Observe(pointer_, scratch_);
}

bool Analyzer::Impl::ValidNumberToken(od::value& value) {
  std::string_view raw = value.raw_json_token();
  while (!raw.empty() &&
         (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t')) {
    raw.remove_suffix(1);
  }
  return IsJsonNumber(raw);
}

void Analyzer::Impl::MatchField(std::string_view key, int depth, uint32_t matching,
                                uint32_t& deeper, uint32_t& here) const {
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
}

Status Analyzer::Impl::WalkObject(od::object object, int depth, uint32_t matching) {
  for (auto field_result : object) {
    od::field field;
    if (auto e = std::move(field_result).get(field)) return SimdjsonStatus(e);
    std::string_view key = field.escaped_key();
    if (key.find('\\') != std::string_view::npos) {
      if (auto e = field.unescaped_key(false).get(key)) return SimdjsonStatus(e);
    }
    uint32_t deeper = 0, here = 0;
    MatchField(key, depth, matching, deeper, here);
    size_t pointer_len = pointer_.size();
    if (discovering_) KeyPath::AppendSegment(key, pointer_);
    PARTPLAY_RETURN_IF_ERROR(WalkValue(field.value(), depth, deeper, here));
    if (discovering_) pointer_.resize(pointer_len);
  }
  return Status::Ok();
}

Status Analyzer::Impl::WalkArray(od::array array, int depth) {
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

Status Analyzer::Impl::WalkValue(od::value value, int depth, uint32_t deeper, uint32_t here) {
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
        // -0 becomes 0 in the canonical encoding. Only the components this value sets (a first
        // occurrence) can be imprecise: a repeated property's literal is not their key.
        uint32_t set = Set(here, KeyKind::kNumber, d, {});
        if (set && ImpreciseInteger(value.raw_json_token(), d)) MarkImprecise(set, value);
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

bool Analyzer::Impl::FindTracked(simdjson::dom::object object, int depth, uint32_t matching) {
  for (simdjson::dom::key_value_pair field : object) {
    uint32_t deeper = 0, here = 0;
    MatchField(field.key, depth, matching, deeper, here);
    if (!deeper && !here) continue;
    simdjson::dom::element value = field.value;
    switch (value.type()) {
      case simdjson::dom::element_type::OBJECT:
        SetInvalid(here, "object");
        if (deeper && !FindTracked(value.get_object().value_unsafe(), depth + 1, deeper)) {
          return false;
        }
        break;
      case simdjson::dom::element_type::ARRAY:
        SetInvalid(here, "array");
        break;
      case simdjson::dom::element_type::STRING:
        Set(here, KeyKind::kString, 0, value.get_string().value_unsafe());
        break;
      case simdjson::dom::element_type::INT64: {
        int64_t i = value.get_int64().value_unsafe();
        SetInteger(here, static_cast<double>(i), i < 0, i < 0 ? 0 - static_cast<uint64_t>(i)
                                                              : static_cast<uint64_t>(i));
        break;
      }
      case simdjson::dom::element_type::UINT64: {
        uint64_t u = value.get_uint64().value_unsafe();
        SetInteger(here, static_cast<double>(u), false, u);
        break;
      }
      case simdjson::dom::element_type::DOUBLE: {
        double d = value.get_double().value_unsafe();
        if (std::fabs(d) >= kTwoTo53) return false;  // "1e20" or a huge integer?
        Set(here, KeyKind::kNumber, d, {});
        break;
      }
      case simdjson::dom::element_type::BOOL: {
        bool b = value.get_bool().value_unsafe();
        Set(here, b ? KeyKind::kTrue : KeyKind::kFalse, 0, {});
        break;
      }
      case simdjson::dom::element_type::NULL_VALUE:
        Set(here, KeyKind::kNull, 0, {});
        break;
    }
    if (AllFound(matching)) return true;  // the first occurrence won: later fields change nothing
  }
  return true;
}

void Analyzer::Impl::SampleObject(simdjson::dom::object object, int depth, uint32_t matching) {
  for (simdjson::dom::key_value_pair field : object) {
    uint32_t deeper = 0, here = 0;
    MatchField(field.key, depth, matching, deeper, here);
    size_t pointer_len = pointer_.size();
    KeyPath::AppendSegment(field.key, pointer_);
    SampleValue(field.value, depth, deeper, here);
    pointer_.resize(pointer_len);
  }
}

void Analyzer::Impl::SampleValue(simdjson::dom::element value, int depth, uint32_t deeper,
                                 uint32_t here) {
  switch (value.type()) {
    case simdjson::dom::element_type::OBJECT:
      SetInvalid(here, "object");
      SampleObject(value.get_object().value_unsafe(), depth + 1, deeper);
      return;
    case simdjson::dom::element_type::ARRAY:
      SetInvalid(here, "array");  // neither key paths nor the sample index into arrays
      return;
    case simdjson::dom::element_type::STRING: {
      std::string_view text = value.get_string().value_unsafe();
      Set(here, KeyKind::kString, 0, text);
      Discover(KeyKind::kString, 0, text);
      return;
    }
    case simdjson::dom::element_type::INT64: {
      int64_t i = value.get_int64().value_unsafe();
      SetInteger(here, static_cast<double>(i), i < 0,
                 i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i));
      Discover(KeyKind::kNumber, static_cast<double>(i), {});
      return;
    }
    case simdjson::dom::element_type::UINT64: {
      uint64_t u = value.get_uint64().value_unsafe();
      SetInteger(here, static_cast<double>(u), false, u);
      Discover(KeyKind::kNumber, static_cast<double>(u), {});
      return;
    }
    case simdjson::dom::element_type::DOUBLE: {
      double d = value.get_double().value_unsafe();
      Set(here, KeyKind::kNumber, d, {});
      Discover(KeyKind::kNumber, d, {});
      return;
    }
    case simdjson::dom::element_type::BOOL: {
      KeyKind kind = value.get_bool().value_unsafe() ? KeyKind::kTrue : KeyKind::kFalse;
      Set(here, kind, 0, {});
      Discover(kind, 0, {});
      return;
    }
    case simdjson::dom::element_type::NULL_VALUE:
      Set(here, KeyKind::kNull, 0, {});
      Discover(KeyKind::kNull, 0, {});
      return;
  }
}

void Analyzer::Impl::SetInteger(uint32_t here, double d, bool negative, uint64_t magnitude) {
  uint32_t set = Set(here, KeyKind::kNumber, d, {});
  if (!set || std::fabs(d) < kTwoTo53) return;
  for (uint32_t m = set; m; m &= m - 1) {
    int slot = __builtin_ctz(m);
    const FoundComponent& f = found_[slot];
    if (f.kind != KeyKind::kNumber || !f.raw.empty()) continue;
    // The first slot this literal marks holds its text: each slot is marked once, so its
    // buffer stays put for the item.
    char* text = integer_text_[slot];
    char* out = text;
    if (negative) *out++ = '-';
    out = fmt::format_to(out, "{}", magnitude);
    MarkRaw(set, std::string_view(text, static_cast<size_t>(out - text)));
    return;
  }
}

}  // namespace partplay
