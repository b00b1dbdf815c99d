#include "partplay/core/json_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <iterator>

#include "core/hex.h"
#include "partplay/core/utf8.h"

namespace partplay {

namespace {

// Whether any of the 8 bytes in x needs more than a copy: below 0x20, '"', '\\', or not ASCII
// (the UTF-8 check). Exact for "any", so a clean word is copied as it stands.
inline bool NeedsCare(uint64_t x) {
  constexpr uint64_t kOnes = 0x0101010101010101u, kHigh = 0x8080808080808080u;
  const uint64_t quote = x ^ (kOnes * '"'), backslash = x ^ (kOnes * '\\');
  const uint64_t below_space = (x - kOnes * 0x20) & ~x;
  const uint64_t zero_quote = (quote - kOnes) & ~quote;
  const uint64_t zero_backslash = (backslash - kOnes) & ~backslash;
  return ((below_space | zero_quote | zero_backslash | x) & kHigh) != 0;
}

inline bool Plain(unsigned char r) { return r >= 0x20 && r < 0x80 && r != '"' && r != '\\'; }

}  // namespace

void AppendJsonString(std::string_view text, std::string& out) {
  const char* d = text.data();
  const size_t n = text.size();
  out.push_back('"');
  size_t i = 0;
  while (i < n) {
    // A run of printable ASCII other than '"' and '\\' is copied as it stands, in one append.
    size_t run = i;
    for (uint64_t word; run + 8 <= n; run += 8) {
      std::memcpy(&word, d + run, 8);
      if (NeedsCare(word)) break;
    }
    while (run < n && Plain(static_cast<unsigned char>(d[run]))) ++run;
    if (run > i) {
      out.append(d + i, run - i);
      i = run;
      if (i == n) break;
    }
    unsigned char c = static_cast<unsigned char>(d[i]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          internal::AppendHexByte(c, out, internal::HexCase::kLower);
        } else if (size_t len = Utf8CharLength(text, i); len > 0) {
          out.append(d + i, len);
          i += len - 1;
        } else {
          // A byte that is not UTF-8 (only an echo of bad input can hold one) is shown as the
          // text \xNN: the output stays valid JSON.
          out += "\\\\x";
          internal::AppendHexByte(c, out, internal::HexCase::kLower);
        }
    }
    ++i;
  }
  out.push_back('"');
}

char* FormatJsonUIntBackwards(uint64_t v, char* end) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char* p = end;
  while (v >= 100) {
    p -= 2;
    std::memcpy(p, kPairs + 2 * (v % 100), 2);
    v /= 100;
  }
  if (v >= 10) {
    p -= 2;
    std::memcpy(p, kPairs + 2 * v, 2);
  } else {
    *--p = static_cast<char>('0' + v);
  }
  return p;
}

void AppendJsonUInt(uint64_t v, std::string& out) {
  char buf[20];
  const char* p = FormatJsonUIntBackwards(v, buf + sizeof buf);
  out.append(p, static_cast<size_t>(buf + sizeof buf - p));
}

void AppendJsonInt(int64_t v, std::string& out) {
  if (v < 0) {
    out.push_back('-');
    AppendJsonUInt(uint64_t{0} - static_cast<uint64_t>(v), out);
  } else {
    AppendJsonUInt(static_cast<uint64_t>(v), out);
  }
}

void AppendJsonNumber(double value, std::string& out) {
  if (!std::isfinite(value)) {  // JSON has no NaN or Infinity; never produced from valid input
    out += "null";
    return;
  }
  // Integral doubles up to 2^53 print as integers, like JavaScript's Number#toString.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    AppendJsonInt(static_cast<int64_t>(value), out);
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}", value);  // shortest round-trip
}

void JsonMembers::Int(std::string_view k, int64_t v) {
  Key(k);
  AppendJsonInt(v, s);
}
void JsonMembers::UInt(std::string_view k, uint64_t v) {
  Key(k);
  AppendJsonUInt(v, s);
}

}  // namespace partplay
