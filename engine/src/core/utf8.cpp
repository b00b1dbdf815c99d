#include "partplay/core/utf8.h"

#include <algorithm>

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

uint32_t CodePointAt(std::string_view s, size_t i, size_t& len) {
  len = std::max<size_t>(1, Utf8CharLength(s, i));
  auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[i + k])); };
  if (len == 1) return b(0);
  if (len == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (len == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace partplay
