#include "partplay/core/utf8.h"

#include <cstdint>
#include <cstring>

#include "core/hex.h"

namespace partplay {

size_t Utf8CharLength(std::string_view s, size_t i) {
  if (i >= s.size()) return 0;
  uint8_t c = static_cast<uint8_t>(s[i]);
  if (c < 0x80) return 1;
  size_t n = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t cp = c & (0x7Fu >> n);
  for (size_t k = 1; k < n; ++k) {
    uint8_t cc = static_cast<uint8_t>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (cc & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
      cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return n;
}

size_t SkipAsciiWords(std::string_view s, size_t i) {
  for (uint64_t word; s.size() - i >= 8; i += 8) {
    std::memcpy(&word, s.data() + i, 8);
    if (word & 0x8080808080808080ull) break;  // a byte with its high bit set
  }
  return i;
}

bool IsValidUtf8(std::string_view s) {
  for (size_t i = SkipAsciiWords(s, 0); i < s.size(); i = SkipAsciiWords(s, i)) {
    size_t n = Utf8CharLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string PrintableText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t n = Utf8CharLength(s, i);
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      out += "\\x";
      internal::AppendHexByte(c, out, internal::HexCase::kUpper);
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace partplay
