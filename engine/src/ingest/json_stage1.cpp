#include "ingest/json_stage1.h"

#include <cstring>
#include <string_view>

#include "partplay/core/utf8.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define PP_STAGE1_SIMD 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define PP_STAGE1_SIMD 1
#else
#define PP_STAGE1_SIMD 0
#endif

namespace partplay::json_stage1 {
namespace {

using simdjson::error_code;
using simdjson::stage1_mode;

// Where the scan is between two bytes: the fallback's loop state.
enum class State : uint8_t { kOut, kAtom, kString };

bool IsWhitespaceOrOperator(uint8_t c) {
  switch (c) {
    case '{': case '}': case '[': case ']': case ',': case ':':
    case ' ': case '\r': case '\n': case '\t':
      return true;
    default:
      return false;
  }
}

#if PP_STAGE1_SIMD
// The 16-byte vector operations the block classifier needs.
#if defined(__wasm_simd128__)
using V = v128_t;
inline V Load(const uint8_t* p) { return wasm_v128_load(p); }
inline V Splat(uint8_t c) { return wasm_i8x16_splat(static_cast<int8_t>(c)); }
inline V Eq(V a, V b) { return wasm_i8x16_eq(a, b); }
inline V Or(V a, V b) { return wasm_v128_or(a, b); }
inline V MinU(V a, V b) { return wasm_u8x16_min(a, b); }
inline uint64_t Bits(V a) { return static_cast<uint16_t>(wasm_i8x16_bitmask(a)); }
#else
using V = __m128i;
inline V Load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline V Splat(uint8_t c) { return _mm_set1_epi8(static_cast<char>(c)); }
inline V Eq(V a, V b) { return _mm_cmpeq_epi8(a, b); }
inline V Or(V a, V b) { return _mm_or_si128(a, b); }
inline V MinU(V a, V b) { return _mm_min_epu8(a, b); }
inline uint64_t Bits(V a) { return static_cast<uint16_t>(_mm_movemask_epi8(a)); }
#endif

// One bit per byte of a 64-byte block, by class.
struct Masks {
  uint64_t quote = 0, backslash = 0, whitespace = 0, op = 0, control = 0, high = 0;
};

Masks Classify(const uint8_t* p) {
  Masks m;
  const V quote = Splat('"'), backslash = Splat('\\'), space = Splat(' '), tab = Splat('\t'),
          lf = Splat('\n'), cr = Splat('\r'), comma = Splat(','), colon = Splat(':'),
          lower = Splat(0x20), open = Splat('{'), close = Splat('}'), below_space = Splat(0x1f);
  for (int i = 0; i < 4; ++i) {
    V v = Load(p + 16 * i);
    // '[' and ']' are '{' and '}' without bit 5.
    V folded = Or(v, lower);
    V ws = Or(Or(Eq(v, space), Eq(v, tab)), Or(Eq(v, lf), Eq(v, cr)));
    V op = Or(Or(Eq(folded, open), Eq(folded, close)), Or(Eq(v, comma), Eq(v, colon)));
    int shift = 16 * i;
    m.quote |= Bits(Eq(v, quote)) << shift;
    m.backslash |= Bits(Eq(v, backslash)) << shift;
    m.whitespace |= Bits(ws) << shift;
    m.op |= Bits(op) << shift;
    m.control |= Bits(Eq(MinU(v, below_space), v)) << shift;
    m.high |= Bits(v) << shift;
  }
  return m;
}

// Bit i set when an odd number of bits at or below i are set.
inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// The bytes escaped by a backslash run of odd length (no escape carried in).
inline uint64_t Escaped(uint64_t backslash) {
  if (!backslash) return 0;
  const uint64_t odd_bits = 0xAAAAAAAAAAAAAAAAULL;
  uint64_t maybe_escaped = backslash << 1;
  uint64_t even_series_codes_and_odd_bits = (maybe_escaped | odd_bits) - backslash;
  uint64_t escape_and_terminal_code = even_series_codes_and_odd_bits ^ odd_bits;
  return escape_and_terminal_code ^ backslash;
}
#endif  // PP_STAGE1_SIMD

class Scanner {
 public:
  Scanner(const uint8_t* buf, size_t len, stage1_mode mode, Output& out)
      : buf_(buf), len_(static_cast<uint32_t>(len)), mode_(mode), out_(out), next_(out.indexes) {}

  error_code Run() {
#if PP_STAGE1_SIMD
    while (idx_ < len_ && len_ - idx_ >= 64) {
      if (!Block(buf_ + idx_, 64)) ScalarUntil(idx_ + 64);
    }
    if (idx_ < len_) {
      // The last partial block, padded with spaces (which add nothing) in a copy.
      alignas(16) uint8_t tail[64];
      uint32_t rest = len_ - idx_;
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, buf_ + idx_, rest);
      if (!Block(tail, rest)) ScalarUntil(len_);
    }
#endif
    ScalarUntil(len_);
    if (state_ == State::kString) unclosed_string_ = true;
    return Finish();
  }

 private:
#if PP_STAGE1_SIMD
  // Scans the n bytes at p (a copy of buf_ + idx_ for the last block) if the fallback's loop
  // would give what simdjson's block algorithm gives on them; false (nothing done) otherwise.
  bool Block(const uint8_t* p, uint32_t n) {
    Masks m = Classify(p);
    uint64_t valid = n == 64 ? ~0ULL : (1ULL << n) - 1;
    uint64_t last = 1ULL << (n - 1);
    // A backslash last could escape past the block: the fallback's loop takes it.
    if (m.backslash & last) return false;
    uint64_t escaped = Escaped(m.backslash);
    uint64_t quotes = m.quote & ~escaped;
    // inside: the opening quote and the content of a string, not its closing quote.
    uint64_t inside = PrefixXor(quotes) ^ (state_ == State::kString ? ~0ULL : 0);
    uint64_t content = inside & ~escaped;
    // Backslashes outside strings, unescaped control characters in them and bytes >= 0x80
    // outside their plain content: the fallback's loop decides (atoms, errors).
    if ((m.backslash & ~inside) & valid) return false;
    if ((m.control & content & ~quotes) & valid) return false;
    if (m.high) {
      if ((m.high & ~content) & valid) return false;
      // Invalid or cut UTF-8 is an error or depends on the next block: the loop decides.
      if (!IsValidUtf8(std::string_view(reinterpret_cast<const char*>(p), n))) return false;
    }
    uint64_t atom = ~inside & ~m.whitespace & ~m.op & ~m.quote & valid;
    uint64_t after_atom = (atom << 1) | (state_ == State::kAtom ? 1 : 0);
    uint64_t opening = quotes & inside;
    // A quote right after an atom's byte belongs to the atom in the fallback.
    if (opening & after_atom & valid) return false;
    uint64_t structurals = ((m.op & ~inside) | opening | (atom & ~after_atom)) & valid;
    Write(structurals, idx_);
    state_ = (inside & last) ? State::kString : (atom & last) ? State::kAtom : State::kOut;
    idx_ += n;
    return true;
  }

  // simdjson's flatten: 8 entries at a time, written past the count (at most 7 entries beyond
  // the last structural, within the array's len + 9 entries, and overwritten by later ones or by
  // Finish's three), which spares a branch per structural.
  void Write(uint64_t bits, uint32_t base) {
    if (!bits) return;
    uint32_t count = static_cast<uint32_t>(__builtin_popcountll(bits));
    uint32_t* out = next_;
    next_ += count;
    // The top bit keeps ctz defined once bits runs out (those entries are past the count).
    auto take = [&] {
      uint32_t at = base + static_cast<uint32_t>(__builtin_ctzll(bits | (1ULL << 63)));
      bits &= bits - 1;
      return at;
    };
    for (int i = 0; i < 8; ++i) out[i] = take();
    if (count <= 8) return;
    for (int i = 8; i < 16; ++i) out[i] = take();
    for (uint32_t i = 16; i < count; ++i) out[i] = take();
  }
#endif

  // The fallback's loop from idx_ in state_, a token at a time, until idx_ >= stop.
  void ScalarUntil(uint32_t stop) {
    if (state_ == State::kString) {
      unclosed_string_ |= StringRest();
      idx_++;
    } else if (state_ == State::kAtom) {
      while (idx_ < len_ && !IsWhitespaceOrOperator(buf_[idx_])) idx_++;
    }
    state_ = State::kOut;
    for (; idx_ < stop && idx_ < len_; idx_++) {
      switch (buf_[idx_]) {
        case '"':
          Add();
          idx_++;  // the opening quote
          unclosed_string_ |= StringRest();
          break;
        case '{': case '}': case '[': case ']': case ',': case ':':
          Add();
          break;
        case ' ': case '\r': case '\n': case '\t':
          break;
        default:
          Add();
          while (idx_ + 1 < len_ && !IsWhitespaceOrOperator(buf_[idx_ + 1])) idx_++;
          break;
      }
    }
  }

  void Add() { *next_++ = idx_; }

  static bool IsContinuation(uint8_t c) { return (c & 0xc0) == 0x80; }

  // The fallback's validate_string after its opening quote: true if unclosed.
  bool StringRest() {
    while (idx_ < len_ && buf_[idx_] != '"') {
      if (buf_[idx_] == '\\') {
        idx_ += 2;
      } else if (buf_[idx_] & 0x80) {
        ValidateUtf8Character();
      } else {
        if (buf_[idx_] < 0x20) error_ = simdjson::UNESCAPED_CHARS;
        idx_++;
      }
    }
    return idx_ >= len_;
  }

  // The fallback's validate_utf8_character, reads past len_ included (into the padding).
  void ValidateUtf8Character() {
    const uint8_t* b = buf_;
    uint32_t i = idx_;
    bool streaming = simdjson::is_streaming(mode_);
    if ((b[i] & 0x40) == 0) {  // a stray continuation byte
      error_ = simdjson::UTF8_ERROR;
      idx_++;
      return;
    }
    if ((b[i] & 0x20) == 0) {  // 2 bytes
      if (i + 1 > len_ || !IsContinuation(b[i + 1])) {
        if (i + 1 > len_ && streaming) { idx_ = len_; return; }
        error_ = simdjson::UTF8_ERROR;
        idx_++;
        return;
      }
      if (b[i] <= 0xc1) error_ = simdjson::UTF8_ERROR;
      idx_ += 2;
      return;
    }
    if ((b[i] & 0x10) == 0) {  // 3 bytes
      if (i + 2 > len_ || !IsContinuation(b[i + 1]) || !IsContinuation(b[i + 2])) {
        if (i + 2 > len_ && streaming) { idx_ = len_; return; }
        error_ = simdjson::UTF8_ERROR;
        idx_++;
        return;
      }
      if (b[i] == 0xe0 && b[i + 1] <= 0x9f) error_ = simdjson::UTF8_ERROR;
      if (b[i] == 0xed && b[i + 1] >= 0xa0) error_ = simdjson::UTF8_ERROR;
      idx_ += 3;
      return;
    }
    // 4 bytes (the fallback tests i + 2 for streaming here, not i + 3)
    if (i + 3 > len_ || !IsContinuation(b[i + 1]) || !IsContinuation(b[i + 2]) ||
        !IsContinuation(b[i + 3])) {
      if (i + 2 > len_ && streaming) { idx_ = len_; return; }
      error_ = simdjson::UTF8_ERROR;
      idx_++;
      return;
    }
    if (b[i] == 0xf0 && b[i + 1] <= 0x8f) error_ = simdjson::UTF8_ERROR;
    if (b[i] == 0xf4 && b[i + 1] >= 0x90) error_ = simdjson::UTF8_ERROR;
    if (b[i] >= 0xf5) error_ = simdjson::UTF8_ERROR;
    idx_ += 4;
  }

  // simdjson's find_next_document_index (generic/stage1/find_next_document_index.h).
  uint32_t FindNextDocumentIndex() const {
    const uint32_t* s = out_.indexes;
    uint32_t n = out_.n_structural_indexes;
    if (n == 0) return 0;
    int arr_cnt = 0, obj_cnt = 0;
    for (uint32_t i = n - 1; i > 0; i--) {
      switch (buf_[s[i]]) {
        case ':': case ',': continue;
        case '}': obj_cnt--; continue;
        case ']': arr_cnt--; continue;
        case '{': obj_cnt++; break;
        case '[': arr_cnt++; break;
      }
      switch (buf_[s[i - 1]]) {
        case '{': case '[': case ':': case ',': continue;
      }
      if (!arr_cnt && !obj_cnt) return n;
      return i;
    }
    switch (buf_[s[0]]) {
      case '}': obj_cnt--; break;
      case ']': arr_cnt--; break;
      case '{': obj_cnt++; break;
      case '[': arr_cnt++; break;
    }
    if (!arr_cnt && !obj_cnt) return n;
    return 0;
  }

  // The end of the fallback's scan(): padding entries, streaming truncation, the error.
  error_code Finish() {
    next_[0] = len_;
    next_[1] = len_;
    next_[2] = 0;
    uint32_t* s = out_.indexes;
    out_.n_structural_indexes = static_cast<uint32_t>(next_ - s);
    if (out_.n_structural_indexes == 0) return simdjson::EMPTY;
    out_.next_structural_index = 0;
    if (mode_ == stage1_mode::streaming_partial) {
      if (unclosed_string_) {
        out_.n_structural_indexes--;
        if (out_.n_structural_indexes == 0) return simdjson::CAPACITY;
      }
      uint32_t next_document = FindNextDocumentIndex();
      if (next_document == 0 && out_.n_structural_indexes > 0) {
        if (s[0] == 0) return simdjson::CAPACITY;
        out_.n_structural_indexes = 0;
        return simdjson::EMPTY;
      }
      out_.n_structural_indexes = next_document;
    } else if (mode_ == stage1_mode::streaming_final) {
      if (unclosed_string_) out_.n_structural_indexes--;
      out_.n_structural_indexes = FindNextDocumentIndex();
      s[out_.n_structural_indexes + 1] = s[out_.n_structural_indexes];
      s[out_.n_structural_indexes] = len_;
      if (out_.n_structural_indexes == 0) return simdjson::EMPTY;
    } else if (unclosed_string_) {
      error_ = simdjson::UNCLOSED_STRING;
    }
    return error_;
  }

  const uint8_t* buf_;
  uint32_t len_;
  stage1_mode mode_;
  Output& out_;
  uint32_t* next_;
  uint32_t idx_ = 0;
  State state_ = State::kOut;
  bool unclosed_string_ = false;
  error_code error_ = simdjson::SUCCESS;
};

}  // namespace

error_code Scan(const uint8_t* buf, size_t len, stage1_mode mode, Output& out) {
  return Scanner(buf, len, mode, out).Run();
}

bool HasSimd() { return PP_STAGE1_SIMD != 0; }

}  // namespace partplay::json_stage1
