#include "ingest/json_scan.h"

#include <cstring>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace partplay::internal {
namespace {

bool IsWhitespace(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
// What may follow a number or an atom inside a valid document (stricter than simdjson, which
// also lets ':' and '"' through and then fails on the structure).
bool EndsScalar(uint8_t c) { return IsWhitespace(c) || c == ',' || c == '}' || c == ']'; }
bool IsDigit(uint8_t c) { return static_cast<uint8_t>(c - '0') < 10; }

int HexValue(uint8_t c) {
  if (IsDigit(c)) return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Four hex digits at p, or -1.
int32_t Hex4(const uint8_t* p) {
  int32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    int h = HexValue(p[i]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

// Whether the escapes in (open, close) are all ones simdjson's parse_string accepts without
// replacement (\" \\ \/ \b \f \n \r \t, \uXXXX outside the surrogates, a high surrogate
// followed by an escaped low one), and no unescaped quote comes before `close`. A lone low
// surrogate is refused here (simdjson refuses it too), which only sends the document to the DOM.
bool EscapesValid(const uint8_t* buf, size_t open, size_t close) {
  size_t p = open + 1;
  while (p < close) {
    uint8_t c = buf[p];
    if (c == '"') return false;
    if (c != '\\') {
      ++p;
      continue;
    }
    if (p + 1 >= close) return false;
    uint8_t e = buf[p + 1];
    if (e == 'u') {
      if (p + 6 > close) return false;
      int32_t cp = Hex4(buf + p + 2);
      if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return false;
      if (cp >= 0xD800 && cp < 0xDC00) {
        if (p + 12 > close || buf[p + 6] != '\\' || buf[p + 7] != 'u') return false;
        int32_t low = Hex4(buf + p + 8);
        if (low < 0xDC00 || low > 0xDFFF) return false;
        p += 12;
      } else {
        p += 6;
      }
      continue;
    }
    switch (e) {
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        p += 2;
        continue;
      default:
        return false;
    }
  }
  return p == close;
}

// The string opening at `open`, the next structural at `after`: stage 1 put only whitespace
// between its closing quote and that structural. Sets `close` and whether it has escapes;
// false when its escapes are not ones the scanner settles.
inline bool ScanString(const uint8_t* buf, size_t open, size_t after, BackslashCursor& bs,
                       size_t& close, bool& escaped) {
  size_t q = after;
  if (buf[q - 1] != '"' || q - 1 == open) {  // usually the quote is right before it
    while (q > open + 1 && IsWhitespace(buf[q - 1])) --q;
    if (q <= open + 1 || buf[q - 1] != '"') return false;
  }
  close = q - 1;
  escaped = bs.Any(open + 1, close);
  return !escaped || EscapesValid(buf, open, close);
}

// A JSON number at p whose value stays finite and exact enough for any parser (at most 18
// integer digits, 40 fraction digits, a 2-digit exponent), followed by what may end it. With
// `want_value`: only an integer of at most 15 digits (exact as a double), its value in `value`.
bool ScanNumber(const uint8_t* p, bool want_value, double& value) {
  bool negative = *p == '-';
  if (negative) ++p;
  const uint8_t* digits = p;
  if (*p == '0') {
    ++p;
  } else if (IsDigit(*p)) {
    while (IsDigit(*p)) ++p;
  } else {
    return false;
  }
  size_t int_digits = static_cast<size_t>(p - digits);
  if (int_digits > 18) return false;
  bool integer = true;
  if (*p == '.') {
    integer = false;
    const uint8_t* f = ++p;
    while (IsDigit(*p)) ++p;
    if (p == f || p - f > 40) return false;
  }
  if (*p == 'e' || *p == 'E') {
    integer = false;
    ++p;
    if (*p == '+' || *p == '-') ++p;
    const uint8_t* x = p;
    while (IsDigit(*p)) ++p;
    if (p == x || p - x > 2) return false;
  }
  if (!EndsScalar(*p)) return false;
  if (!want_value) return true;
  if (!integer || int_digits > 15) return false;
  uint64_t magnitude = 0;
  for (const uint8_t* d = digits; d < digits + int_digits; ++d) magnitude = magnitude * 10 + (*d - '0');
  value = negative ? -static_cast<double>(magnitude) : static_cast<double>(magnitude);
  return true;
}

}  // namespace

size_t BackslashCursor::Find(size_t from) const {
  if (from >= len_) return len_;
#ifdef __wasm_simd128__
  // 16 bytes a step (Emscripten's memchr reads a word at a time).
  const v128_t bs = wasm_i8x16_splat('\\');
  size_t i = from;
  for (; i + 16 <= len_; i += 16) {
    uint32_t m = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(buf_ + i), bs));
    if (m) return i + static_cast<size_t>(__builtin_ctz(m));
  }
  for (; i < len_; ++i) {
    if (buf_[i] == '\\') return i;
  }
  return len_;
#else
  const void* hit = std::memchr(buf_ + from, '\\', len_ - from);
  return hit ? static_cast<size_t>(static_cast<const uint8_t*>(hit) - buf_) : len_;
#endif
}

bool ScanDocument(const uint8_t* buf, const uint32_t* indexes, uint32_t count, uint32_t start,
                  const ScanPaths& paths, BackslashCursor& backslashes, ScanValue* values,
                  uint32_t& next) {
  const size_t path_count = paths.segments.size();
  for (size_t i = 0; i < path_count; ++i) values[i] = ScanValue{};
  uint32_t pending = path_count >= 32 ? ~0u : (1u << path_count) - 1;  // paths not yet found
  uint32_t match[kMaxScanDepth + 1];  // per open object: the paths whose prefix leads here
  uint64_t in_array = 0;              // bit d: the container at depth d is an array
  uint32_t k = start;

  // Settles the paths in `here` that are still pending with what a visit found.
  auto settle = [&](uint32_t here, ScanKind kind, double number, std::string_view text) {
    if (!(here & pending)) return;
    here &= pending;
    pending &= ~here;
    for (uint32_t m = here; m; m &= m - 1) {
      ScanValue& v = values[__builtin_ctz(m)];
      v.kind = kind;
      v.number = number;
      v.text = text;
    }
  };

  if (k >= count || buf[indexes[k]] != '{') return false;
  ++k;
  int depth = 1;
  match[1] = pending;
  if (k >= count) return false;
  if (buf[indexes[k]] == '}') {
    ++k;
    next = k;
    return true;
  }

  // The loop reads one value per turn: after a key in an object, or an element in an array.
  bool expect_key = true;
  while (true) {
    uint32_t here = 0, deeper = 0;  // the paths this value ends, and those going on inside it
    if (expect_key) {
      // A key, its colon, and which tracked paths go on through it.
      if (k + 2 >= count) return false;
      size_t open = indexes[k];
      if (buf[open] != '"') return false;
      size_t close;
      bool escaped;
      if (!ScanString(buf, open, indexes[k + 1], backslashes, close, escaped)) return false;
      if (buf[indexes[k + 1]] != ':') return false;
      k += 2;
      uint32_t m = match[depth] & pending;
      if (m) {
        if (escaped) return false;  // an escaped key on a tracked object: the DOM unescapes it
        const char* key = reinterpret_cast<const char*>(buf + open + 1);
        size_t key_len = close - open - 1;
        for (; m; m &= m - 1) {
          int i = __builtin_ctz(m);
          const std::vector<std::string>& segs = paths.segments[i];
          const std::string& seg = segs[depth - 1];
          if (seg.size() != key_len || std::memcmp(seg.data(), key, key_len) != 0) continue;
          if (static_cast<size_t>(depth) == segs.size()) {
            here |= 1u << i;
          } else {
            deeper |= 1u << i;
          }
        }
      }
    }

    // The value.
    if (k >= count) return false;
    size_t at = indexes[k];
    uint8_t c = buf[at];
    switch (c) {
      case '{':
      case '[': {
        bool array = c == '[';
        settle(here, array ? ScanKind::kArray : ScanKind::kObject, 0, {});
        if (k + 1 >= count) return false;
        if (buf[indexes[k + 1]] == (array ? ']' : '}')) {  // empty
          k += 2;
          break;
        }
        if (depth >= kMaxScanDepth) return false;
        ++k;
        ++depth;
        match[depth] = array ? 0 : deeper & pending;  // no path goes through an array
        in_array = array ? in_array | (uint64_t{1} << depth) : in_array & ~(uint64_t{1} << depth);
        expect_key = !array;
        continue;
      }
      case '"': {
        if (k + 1 >= count) return false;
        size_t close;
        bool escaped;
        if (!ScanString(buf, at, indexes[k + 1], backslashes, close, escaped)) return false;
        if (here & pending) {
          if (escaped) return false;  // the DOM unescapes a tracked string
          settle(here, ScanKind::kString, 0,
                 std::string_view(reinterpret_cast<const char*>(buf + at + 1), close - at - 1));
        }
        ++k;
        break;
      }
      case 't':
        if (std::memcmp(buf + at, "true", 4) != 0 || !EndsScalar(buf[at + 4])) return false;
        settle(here, ScanKind::kTrue, 0, {});
        ++k;
        break;
      case 'f':
        if (std::memcmp(buf + at, "false", 5) != 0 || !EndsScalar(buf[at + 5])) return false;
        settle(here, ScanKind::kFalse, 0, {});
        ++k;
        break;
      case 'n':
        if (std::memcmp(buf + at, "null", 4) != 0 || !EndsScalar(buf[at + 4])) return false;
        settle(here, ScanKind::kNull, 0, {});
        ++k;
        break;
      default: {
        if (c != '-' && !IsDigit(c)) return false;
        double number = 0;
        bool tracked = (here & pending) != 0;
        if (!ScanNumber(buf + at, tracked, number)) return false;
        if (tracked) settle(here, ScanKind::kNumber, number, {});
        ++k;
        break;
      }
    }

    // After a value: a comma goes on in the same container; a closing bracket ends it, and
    // possibly the ones around it.
    while (true) {
      if (k >= count) return false;
      uint8_t s = buf[indexes[k++]];
      bool array = (in_array >> depth) & 1;
      if (s == ',') {
        expect_key = !array;
        break;
      }
      if (s != (array ? ']' : '}')) return false;
      if (--depth == 0) {
        next = k;
        return true;
      }
    }
  }
}

}  // namespace partplay::internal
