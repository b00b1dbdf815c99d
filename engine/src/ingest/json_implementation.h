// simdjson's fallback kernel with its stage 1 replaced by json_stage1.h (SIMD blocks), plugged in
// through simdjson's public implementation interface, for the wasm build (simdjson 3.9.4 has no
// wasm SIMD kernel). Stage 2 and string parsing stay the fallback kernel's own.
#pragma once

#include "simdjson.h"

namespace partplay {

// Makes the implementation below simdjson's active one, once, where stage 1 has wasm SIMD128;
// elsewhere (native builds: simdjson's own x86/ARM kernels are faster) it does nothing. Parsers
// take the active implementation when they first allocate, so call it before creating one.
void UseSimdJsonStage1();

// The fallback kernel with the SIMD stage 1 (its parsers own a fallback parser for stage 2), or
// nullptr when this simdjson build has no fallback kernel. For tests on any build.
const simdjson::implementation* SimdStage1Implementation();

}  // namespace partplay
