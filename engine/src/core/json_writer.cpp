#include "partplay/core/json_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

namespace partplay {

void AppendJsonString(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (unsigned char c : text) {
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
        } else {
          out.push_back(static_cast<char>(c));
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
