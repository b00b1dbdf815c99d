// Exact error locations for bad JSON. The fast path (simdjson) says *that* a document is bad;
// this strict, byte-at-a-time RFC 8259 checker says *where* and *why*, in words a user reads:
// "expected ':' after an object key", "invalid UTF-8 byte 0xC3", "the input ends inside a string".
// It runs only after the fast path failed, on the one document that failed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "partplay/core/status.h"

namespace partplay {

// The nesting limit shared with the simdjson parser: deeper input is rejected with kTooDeep.
inline constexpr int kMaxJsonDepth = 1024;

struct JsonDiagnosis {
  bool found = false;     // false: the value is valid JSON
  size_t offset = 0;      // of the offending byte, from the start of `text`
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  size_t value_end = 0;   // when !found: the offset just past the value
};

// Checks the JSON value that starts at the first non-whitespace byte of `text`. `at_end` says
// whether `text` is the end of the input (otherwise running out of bytes is not an error but
// reported as kTruncatedInput all the same, the caller deciding what it means).
JsonDiagnosis DiagnoseJsonValue(std::string_view text);

// Whether `token` is exactly one JSON number (RFC 8259 grammar).
bool IsJsonNumber(std::string_view token);

// Counts lines and columns: the 1-based line and byte column of `offset` within `text`, given
// the line and column at which `text` starts.
void AdvanceLineColumn(std::string_view text, size_t offset, int64_t& line, int64_t& column);
// How many '\n' bytes `text` holds (AdvanceLineColumn's count, eight bytes at a time).
size_t CountNewlines(std::string_view text);

}  // namespace partplay
