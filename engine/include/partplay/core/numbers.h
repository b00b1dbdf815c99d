// Checked number parsing, the only way the engine reads a number from text: the whole text must
// be the number and fit its type, or the call says no. Nothing here throws (the engine is built
// without exceptions, where std::stoi and friends abort) or reads past the text.
//
//   int64_t n;  ParseInt64("-42", n);          // true, n == -42
//   ParseInt64("99999999999999999999", n);     // false: out of range
//   double d;   ParseFiniteDouble("1e3", d);   // true, d == 1000
#pragma once

#include <cstdint>
#include <string_view>

namespace partplay {

// [+-]?[0-9]+ within int64_t.
bool ParseInt64(std::string_view text, int64_t& out);
// [0-9a-fA-F]+ within uint64_t (no 0x prefix).
bool ParseHexUint64(std::string_view text, uint64_t& out);
// strtod's decimal grammar, the whole text, finite (no inf, nan or hex floats), at most 400
// characters. (Emscripten's libc++ has no floating-point std::from_chars.)
bool ParseFiniteDouble(std::string_view text, double& out);

}  // namespace partplay
