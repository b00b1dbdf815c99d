// simdjson's stage 1 (the structural index) as its scalar "fallback" kernel computes it, with the
// plain 64-byte blocks classified by 128-bit SIMD (wasm SIMD128, or SSE2 natively for the tests).
// simdjson 3.9.4 has no wasm SIMD kernel; json_implementation.h plugs this one in.
//
// The output is the fallback's bit for bit: the same structural indexes (and the three entries
// after them stage 2 reads), the same count, the same error in every stage1_mode. The fallback
// differs from simdjson's SIMD kernels on malformed input (a quote inside an atom, UTF-8 checked
// only in strings, the last error winning), so a block is taken by SIMD only when it is shown to
// hold none of that; any other block is scanned by a copy of the fallback's own loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simdjson.h"

namespace partplay::json_stage1 {

// Where Scan writes: `indexes` holds at least len rounded up to 64, plus 9, entries.
struct Output {
  uint32_t* indexes = nullptr;
  uint32_t n_structural_indexes = 0;
  uint32_t next_structural_index = 0;
};

// Stage 1 of buf[0, len) (len < 4 GiB; buf readable up to len + SIMDJSON_PADDING), as
// simdjson::fallback::dom_parser_implementation::stage1 does it. Leaves `out`'s counts as the
// fallback leaves its parser's (next_structural_index untouched when it returns EMPTY early).
simdjson::error_code Scan(const uint8_t* buf, size_t len, simdjson::stage1_mode mode, Output& out);

// Whether Scan has a SIMD block path in this build (false: it is the fallback's loop alone).
bool HasSimd();

}  // namespace partplay::json_stage1
