#include "partplay/core/json_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "partplay/core/utf8.h"

namespace partplay {

void AppendJsonString(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (size_t i = 0; i < text.size(); ++i) {
    // A run of printable ASCII other than '"' and '\\' is copied as it stands, in one append.
    size_t run = i;
    while (run < text.size()) {
      unsigned char r = static_cast<unsigned char>(text[run]);
      if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\') break;
      ++run;
    }
    if (run > i) {
      out.append(text.data() + i, run - i);
      i = run - 1;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(text[i]);
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
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 15]);
        } else if (c < 0x80) {
          out.push_back(static_cast<char>(c));
        } else if (size_t n = Utf8CharLength(text, i); n > 0) {
          out.append(text.substr(i, n));
          i += n - 1;
        } else {
          // A byte that is not UTF-8 (only an echo of bad input can hold one) is shown as the
          // text \xNN: the output stays valid JSON.
          out += "\\\\x";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 15]);
        }
    }
  }
  out.push_back('"');
}

void AppendJsonNumber(double value, std::string& out) {
  if (!std::isfinite(value)) {  // JSON has no NaN or Infinity; never produced from valid input
    out += "null";
    return;
  }
  // Integral doubles up to 2^53 print as integers, like JavaScript's Number#toString.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    fmt::format_to(std::back_inserter(out), "{}", static_cast<int64_t>(value));
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}", value);  // shortest round-trip
}

void JsonMembers::Int(std::string_view k, int64_t v) {
  Key(k);
  fmt::format_to(std::back_inserter(s), "{}", v);
}
void JsonMembers::UInt(std::string_view k, uint64_t v) {
  Key(k);
  fmt::format_to(std::back_inserter(s), "{}", v);
}

}  // namespace partplay
