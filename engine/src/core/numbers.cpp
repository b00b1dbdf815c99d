#include "partplay/core/numbers.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace partplay {

bool ParseInt64(std::string_view text, int64_t& out) {
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);  // from_chars takes '-' only
    if (!text.empty() && text[0] == '-') return false;
  }
  if (text.empty() || text[0] == '+') return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out, 10);
  return ec == std::errc() && ptr == end;
}

bool ParseHexUint64(std::string_view text, uint64_t& out) {
  if (text.empty() || text[0] == '+' || text[0] == '-') return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out, 16);
  return ec == std::errc() && ptr == end;
}

bool ParseFiniteDouble(std::string_view text, double& out) {
  if (text.empty() || text.size() > 400) return false;
  // Only a decimal number: strtod alone would also take "inf", "nan", "0x1p3" and leading space.
  size_t i = 0;
  if (text[i] == '+' || text[i] == '-') ++i;
  size_t digits = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  if (i != text.size()) return false;
  std::string copy(text);  // strtod needs the terminating NUL
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);  // an overflow is HUGE_VAL, refused below
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return false;
  out = v;
  return true;
}

}  // namespace partplay
