#include "partplay/core/json_diagnostics.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace partplay {
namespace {

// A recursive-descent checker over bytes; stops at the first problem.
class Checker {
 public:
  explicit Checker(std::string_view text) : s_(text) {}

  JsonDiagnosis Run() {
    SkipWs();
    if (pos_ >= s_.size()) {
      Fail(ErrorCode::kEmptyInput, "no JSON value");
    } else {
      Value(0);
    }
    if (!d_.found) d_.value_end = pos_;
    return d_;
  }

 private:
  bool Fail(ErrorCode code, std::string message) {
    if (!d_.found) {
      d_.found = true;
      d_.offset = pos_;
      d_.code = code;
      d_.message = std::move(message);
    }
    return false;
  }
  // True, with the failure recorded, when the input ends here (inside `inside`). It answered
  // false either way, so the checker read on past the end (found by fuzzing, under ASan).
  bool AtEnd(const char* inside) {
    if (pos_ < s_.size()) return false;
    Fail(ErrorCode::kTruncatedInput, fmt::format("the input ends inside {}", inside));
    return true;
  }
  // The input has ended inside `inside`: the failure, for a `return`.
  bool Truncated(const char* inside) {
    AtEnd(inside);
    return false;
  }
  std::string Describe(size_t at) const {
    unsigned char c = static_cast<unsigned char>(s_[at]);
    if (c >= 0x20 && c < 0x7f) return fmt::format("'{}'", static_cast<char>(c));
    return fmt::format("byte 0x{:02X}", c);
  }
  void SkipWs() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool Value(int depth) {
    if (AtEnd("a value")) return false;
    char c = s_[pos_];
    switch (c) {
      case '{': return Object(depth + 1);
      case '[': return Array(depth + 1);
      case '"': return String();
      case 't': return Literal("true");
      case 'f': return Literal("false");
      case 'n': return Literal("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return Number();
        return Fail(ErrorCode::kMalformedJson,
                    fmt::format("expected a value but found {}", Describe(pos_)));
    }
  }
  bool Deep(int depth) {
    if (depth <= kMaxJsonDepth) return true;
    return Fail(ErrorCode::kTooDeep,
                fmt::format("objects and arrays nest deeper than {} levels", kMaxJsonDepth));
  }
  bool Object(int depth) {
    if (!Deep(depth)) return false;
    ++pos_;  // '{'
    SkipWs();
    if (AtEnd("an object")) return false;
    if (s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      if (AtEnd("an object")) return false;
      if (s_[pos_] != '"') {
        return Fail(ErrorCode::kMalformedJson,
                    fmt::format("expected a property name in double quotes but found {}",
                                Describe(pos_)));
      }
      if (!String()) return false;
      SkipWs();
      if (AtEnd("an object")) return false;
      if (s_[pos_] != ':') {
        return Fail(ErrorCode::kMalformedJson,
                    fmt::format("expected ':' after a property name but found {}",
                                Describe(pos_)));
      }
      ++pos_;
      SkipWs();
      if (!Value(depth)) return false;
      SkipWs();
      if (AtEnd("an object")) return false;
      if (s_[pos_] == ',') {
        ++pos_;
        SkipWs();
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Fail(ErrorCode::kMalformedJson,
                  fmt::format("expected ',' or '}}' in an object but found {}", Describe(pos_)));
    }
  }
  bool Array(int depth) {
    if (!Deep(depth)) return false;
    ++pos_;  // '['
    SkipWs();
    if (AtEnd("an array")) return false;
    if (s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipWs();
      if (!Value(depth)) return false;
      SkipWs();
      if (AtEnd("an array")) return false;
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Fail(ErrorCode::kMalformedJson,
                  fmt::format("expected ',' or ']' in an array but found {}", Describe(pos_)));
    }
  }
  bool Literal(std::string_view word) {
    for (size_t i = 0; i < word.size(); ++i) {
      if (pos_ + i >= s_.size()) {
        pos_ += i;
        return Truncated("a literal");
      }
      if (s_[pos_ + i] != word[i]) {
        pos_ += i;
        return Fail(ErrorCode::kMalformedJson,
                    fmt::format("invalid literal: expected '{}'", word));
      }
    }
    pos_ += word.size();
    return true;
  }
  bool Digits() {
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    if (pos_ == start) {
      if (AtEnd("a number")) return false;
      return Fail(ErrorCode::kMalformedJson,
                  fmt::format("expected a digit in a number but found {}", Describe(pos_)));
    }
    return true;
  }
  bool Number() {
    if (s_[pos_] == '-') ++pos_;
    if (AtEnd("a number")) return false;
    if (s_[pos_] == '0') {
      ++pos_;
      if (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        return Fail(ErrorCode::kMalformedJson, "a number cannot have a leading zero");
      }
    } else if (!Digits()) {
      return false;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!Digits()) return false;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!Digits()) return false;
    }
    return true;
  }
  int Hex4() {
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      if (pos_ >= s_.size()) return -2;
      char c = s_[pos_];
      int d = (c >= '0' && c <= '9') ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
      ++pos_;
    }
    return v;
  }
  bool Escape() {
    ++pos_;  // backslash
    if (AtEnd("a string")) return false;
    char c = s_[pos_];
    if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' ||
        c == 't') {
      ++pos_;
      return true;
    }
    if (c != 'u') {
      return Fail(ErrorCode::kMalformedJson,
                  fmt::format("invalid escape sequence '\\{}' in a string",
                              (c >= 0x20 && c < 0x7f) ? std::string(1, c) : "?"));
    }
    size_t escape_at = pos_ - 1;
    ++pos_;
    int v = Hex4();
    if (v == -2) return Truncated("a string");
    if (v == -1) return Fail(ErrorCode::kMalformedJson, "\\u must be followed by 4 hex digits");
    if (v >= 0xDC00 && v <= 0xDFFF) {
      pos_ = escape_at;
      return Fail(ErrorCode::kMalformedJson, "a low surrogate \\u escape without a high one");
    }
    if (v >= 0xD800 && v <= 0xDBFF) {
      if (pos_ + 1 < s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
        pos_ += 2;
        int low = Hex4();
        if (low == -2) return Truncated("a string");
        if (low >= 0xDC00 && low <= 0xDFFF) return true;
      }
      if (AtEnd("a string")) return false;
      pos_ = escape_at;
      return Fail(ErrorCode::kMalformedJson,
                  "a high surrogate \\u escape must be followed by a low surrogate escape");
    }
    return true;
  }
  bool Utf8() {
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    int n;
    uint32_t min;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
      min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      min = 0x10000;
    } else {
      return Fail(ErrorCode::kInvalidUtf8, fmt::format("invalid UTF-8 byte 0x{:02X}", c));
    }
    uint32_t cp = c & (0x3F >> n);
    for (int i = 1; i <= n; ++i) {
      if (pos_ + i >= s_.size()) {
        pos_ += i;
        return Truncated("a string");
      }
      unsigned char cc = static_cast<unsigned char>(s_[pos_ + i]);
      if ((cc & 0xC0) != 0x80) {
        return Fail(ErrorCode::kInvalidUtf8,
                    fmt::format("invalid UTF-8 sequence starting with byte 0x{:02X}", c));
      }
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return Fail(ErrorCode::kInvalidUtf8,
                  fmt::format("invalid UTF-8 sequence starting with byte 0x{:02X}", c));
    }
    pos_ += n + 1;
    return true;
  }
  bool String() {
    ++pos_;  // opening quote
    while (true) {
      if (AtEnd("a string")) return false;
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c == '\\') {
        if (!Escape()) return false;
      } else if (c < 0x20) {
        return Fail(ErrorCode::kMalformedJson,
                    fmt::format("control character 0x{:02X} must be escaped in a string", c));
      } else if (c < 0x80) {
        ++pos_;
      } else if (!Utf8()) {
        return false;
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  JsonDiagnosis d_;
};

}  // namespace

JsonDiagnosis DiagnoseJsonValue(std::string_view text) { return Checker(text).Run(); }

bool IsJsonNumber(std::string_view token) {
  JsonDiagnosis d = DiagnoseJsonValue(token);
  if (d.found || d.value_end != token.size()) return false;
  size_t i = 0;
  return i < token.size() && (token[0] == '-' || (token[0] >= '0' && token[0] <= '9'));
}

// '\n' bytes in `text`, sixteen at a time with SIMD (a lane subtracts each match, -1), then
// eight at a time: a lane's top bit is set exactly where the byte is '\n' (no borrow crosses
// lanes); lane counts are summed every 255 blocks.
size_t CountNewlines(std::string_view text) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kLow7 = 0x7F7F7F7F7F7F7F7Full;
  const char* p = text.data();
  size_t n = text.size(), total = 0;
#if defined(__wasm_simd128__) || defined(__SSE2__)
  while (n >= 16) {
#if defined(__wasm_simd128__)
    v128_t acc = wasm_i8x16_splat(0);
    const v128_t newline = wasm_i8x16_splat('\n');
#else
    __m128i acc = _mm_setzero_si128();
    const __m128i newline = _mm_set1_epi8('\n');
#endif
    size_t blocks = std::min<size_t>(n / 16, 255);
    for (size_t b = 0; b < blocks; ++b, p += 16) {
#if defined(__wasm_simd128__)
      acc = wasm_i8x16_sub(acc, wasm_i8x16_eq(wasm_v128_load(p), newline));
#else
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, newline));
#endif
    }
    n -= blocks * 16;
    uint8_t lanes[16];
    std::memcpy(lanes, &acc, 16);
    for (uint8_t c : lanes) total += c;
  }
#endif
  while (n >= 8) {
    uint64_t lanes = 0;  // per byte: newlines seen in this block (at most 255)
    size_t words = std::min<size_t>(n / 8, 255);
    for (size_t w = 0; w < words; ++w, p += 8) {
      uint64_t x;
      std::memcpy(&x, p, 8);
      x ^= kOnes * '\n';  // a newline is now a zero byte
      uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);
      lanes += zero >> 7;
    }
    n -= words * 8;
    lanes = (lanes & 0x00FF00FF00FF00FFull) + ((lanes >> 8) & 0x00FF00FF00FF00FFull);
    total += static_cast<size_t>((lanes * 0x0001000100010001ull) >> 48);
  }
  for (; n > 0; --n, ++p) total += *p == '\n';
  return total;
}

void AdvanceLineColumn(std::string_view text, size_t offset, int64_t& line, int64_t& column) {
  std::string_view part = text.substr(0, std::min(offset, text.size()));
  size_t last = part.rfind('\n');
  if (last == std::string_view::npos) {
    column += static_cast<int64_t>(part.size());
    return;
  }
  line += static_cast<int64_t>(CountNewlines(part));
  column = static_cast<int64_t>(part.size() - last);
}

}  // namespace partplay
