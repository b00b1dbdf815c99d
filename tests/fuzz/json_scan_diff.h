// One document through simdjson's stage 1 and the scanner (ingest/json_scan.h), against
// simdjson's DOM: a document the scanner settles must be one the DOM accepts, with the same
// values at the tracked paths (the first occurrence, depth first, as the analyzer reads them).
// Shared by json_scan_fuzz.cpp and the engine test.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ingest/json_scan.h"
#include "simdjson.h"

namespace partplay::scan_diff {

using internal::ScanKind;
using internal::ScanValue;

// The tracked paths: top-level, nested, the empty name and a name with a space.
inline const internal::ScanPaths& Paths() {
  static const internal::ScanPaths paths{{{"a"}, {"b", "c"}, {"id"}, {"x y"}, {""}, {"b"}}};
  return paths;
}

struct Scanned {
  bool stage1_ok = false;
  bool accepted = false;
  uint32_t next = 0, count = 0;
  size_t end = 0;  // just past the settled document's last byte
  std::vector<ScanValue> values;
  std::vector<uint8_t> buf;  // the padded input the values point into
};

// Stage 1 of `impl` over the input, then the scanner from the first structural.
inline Scanned Scan(const uint8_t* data, size_t len, const simdjson::implementation* impl) {
  Scanned out;
  out.buf.assign(len + simdjson::SIMDJSON_PADDING, ' ');
  if (len) std::memcpy(out.buf.data(), data, len);
  std::unique_ptr<simdjson::internal::dom_parser_implementation> parser;
  if (impl->create_dom_parser_implementation(len + 64, 1024, parser)) return out;
  if (parser->stage1(out.buf.data(), len, simdjson::stage1_mode::regular)) return out;
  out.stage1_ok = true;
  out.values.resize(Paths().segments.size());
  out.count = parser->n_structural_indexes;
  internal::BackslashCursor backslashes;
  backslashes.Reset(out.buf.data(), len);
  const uint32_t* indexes = parser->structural_indexes.get();
  out.accepted = internal::ScanDocument(out.buf.data(), indexes, out.count, 0, Paths(),
                                        backslashes, out.values.data(), out.next);
  if (out.accepted && out.next > 0) out.end = indexes[out.next - 1] + 1;
  return out;
}

// What the DOM holds at each path; `exotic` when a tracked number is not an int64 (the scanner
// must leave those to the DOM).
inline void Find(simdjson::dom::object object, size_t depth, uint32_t matching,
                 std::vector<ScanValue>& found, std::vector<bool>& done,
                 std::deque<std::string>& keep, bool& exotic) {
  for (auto field : object) {
    uint32_t here = 0, deeper = 0;
    for (uint32_t m = matching; m; m &= m - 1) {
      int i = __builtin_ctz(m);
      const auto& segs = Paths().segments[i];
      if (segs[depth - 1] != field.key) continue;
      (depth == segs.size() ? here : deeper) |= 1u << i;
    }
    ScanValue v;
    simdjson::dom::element e = field.value;
    switch (e.type()) {
      case simdjson::dom::element_type::OBJECT: v.kind = ScanKind::kObject; break;
      case simdjson::dom::element_type::ARRAY: v.kind = ScanKind::kArray; break;
      case simdjson::dom::element_type::STRING:
        v.kind = ScanKind::kString;
        keep.emplace_back(e.get_string().value_unsafe());
        v.text = keep.back();
        break;
      case simdjson::dom::element_type::INT64:
        v.kind = ScanKind::kNumber;
        v.number = static_cast<double>(e.get_int64().value_unsafe());
        break;
      case simdjson::dom::element_type::UINT64:
      case simdjson::dom::element_type::DOUBLE:
        v.kind = ScanKind::kNumber;
        for (uint32_t m = here; m; m &= m - 1) exotic = exotic || !done[__builtin_ctz(m)];
        break;
      case simdjson::dom::element_type::BOOL:
        v.kind = e.get_bool().value_unsafe() ? ScanKind::kTrue : ScanKind::kFalse;
        break;
      case simdjson::dom::element_type::NULL_VALUE: v.kind = ScanKind::kNull; break;
    }
    for (uint32_t m = here; m; m &= m - 1) {
      int i = __builtin_ctz(m);
      if (done[i]) continue;
      done[i] = true;
      found[i] = v;
    }
    if (deeper && e.type() == simdjson::dom::element_type::OBJECT) {
      Find(e.get_object().value_unsafe(), depth + 1, deeper, found, done, keep, exotic);
    }
  }
}

// Empty when the scanner's answer is one the DOM agrees with (an unsure answer always is);
// otherwise what differs.
inline std::string Compare(const Scanned& s) {
  if (!s.accepted) return {};
  simdjson::dom::parser dom;
  simdjson::dom::element root;
  // The settled document alone (a stream may hold more after it).
  std::string doc(reinterpret_cast<const char*>(s.buf.data()), s.end);
  if (auto e = dom.parse(doc).get(root)) {
    return "the scanner settled what the DOM refuses (" + std::string(simdjson::error_message(e)) +
           "): " + doc;
  }
  if (!root.is_object()) return "the scanner settled a non-object: " + doc;
  std::vector<ScanValue> found(Paths().segments.size());
  std::vector<bool> done(found.size());
  std::deque<std::string> keep;  // grows without moving its strings: the views stay valid
  bool exotic = false;
  Find(root.get_object().value_unsafe(), 1, (1u << found.size()) - 1, found, done, keep, exotic);
  if (exotic) return "the scanner settled a tracked number that is not an int64: " + doc;
  for (size_t i = 0; i < found.size(); ++i) {
    const ScanValue& a = s.values[i];
    const ScanValue& b = found[i];
    if (a.kind != b.kind || a.text != b.text || a.number != b.number) {
      return "path " + std::to_string(i) + " differs (kind " +
             std::to_string(static_cast<int>(a.kind)) + " vs " +
             std::to_string(static_cast<int>(b.kind)) + ", \"" + std::string(a.text) + "\" vs \"" +
             std::string(b.text) + "\"): " + doc;
    }
  }
  return {};
}

}  // namespace partplay::scan_diff
