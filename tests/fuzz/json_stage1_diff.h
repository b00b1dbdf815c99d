// One input through simdjson's fallback stage 1 and through json_stage1::Scan: the error, the
// counts and every structural index entry the fallback writes (the padding entries after the
// count included) must be equal. Shared by json_stage1_fuzz.cpp and the engine test.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ingest/json_stage1.h"
#include "simdjson.h"

namespace partplay::stage1_diff {

// Empty when both agree; otherwise what differs. `pad` fills the SIMDJSON_PADDING bytes after
// the input (the fallback reads one of them in some UTF-8 cases).
inline std::string Compare(const uint8_t* data, size_t len, simdjson::stage1_mode mode, uint8_t pad) {
  const simdjson::implementation* fallback = simdjson::get_available_implementations()["fallback"];
  if (!fallback) return {};
  std::vector<uint8_t> buf(len + simdjson::SIMDJSON_PADDING, pad);
  if (len) std::memcpy(buf.data(), data, len);
  size_t entries = ((len + 63) / 64) * 64 + 2 + 7;
  const uint32_t kSentinel = 0xA5A5A5A5u;

  std::unique_ptr<simdjson::internal::dom_parser_implementation> parser;
  if (fallback->create_dom_parser_implementation(len + 1, 16, parser)) return "no fallback parser";
  std::fill_n(parser->structural_indexes.get(), entries, kSentinel);
  parser->n_structural_indexes = 12345;
  parser->next_structural_index = 678;
  simdjson::error_code want = parser->stage1(buf.data(), len, mode);

  std::vector<uint32_t> indexes(entries, kSentinel);
  json_stage1::Output out{indexes.data(), 12345, 678};
  simdjson::error_code got = json_stage1::Scan(buf.data(), len, mode, out);

  std::string diff;
  if (got != want) {
    diff += std::string("error ") + simdjson::error_message(got) + " != fallback's " +
            simdjson::error_message(want) + "; ";
  }
  if (out.n_structural_indexes != parser->n_structural_indexes) {
    diff += "n_structural_indexes " + std::to_string(out.n_structural_indexes) + " != " +
            std::to_string(parser->n_structural_indexes) + "; ";
  }
  if (out.next_structural_index != parser->next_structural_index) diff += "next_structural_index; ";
  // Every entry the fallback writes; past them Scan may leave entries of its 8-at-a-time writes
  // (simdjson's own kernels do too), which nothing reads.
  size_t written = entries;
  while (written > 0 && parser->structural_indexes[written - 1] == kSentinel) written--;
  for (size_t i = 0; i < written; ++i) {
    if (indexes[i] != parser->structural_indexes[i]) {
      diff += "structural_indexes[" + std::to_string(i) + "] " + std::to_string(indexes[i]) +
              " != " + std::to_string(parser->structural_indexes[i]) + "; ";
      break;
    }
  }
  return diff;
}

}  // namespace partplay::stage1_diff
