// simdjson's fallback kernel with its stage 1 replaced by json_stage1.h (SIMD blocks), plugged in
// through simdjson's public implementation interface, for the wasm build (simdjson 3.9.4 has no
// wasm SIMD kernel). Stage 2 and string parsing stay the fallback kernel's own.
#pragma once

#include <memory>

#include "simdjson.h"

namespace partplay {

// A DOM parser implementation that forwards every call to an inner one it owns, for a subclass
// to put something in front of one stage (the SIMD stage 1 below; the scanner in front of stage
// 2, validated_path.cpp). The public fields document_stream and On Demand read
// (structural_indexes, n_structural_indexes, next_structural_index, capacity, max_depth) are
// kept equal to the inner parser's: the two share one index array, owned by the inner parser.
class ForwardingParser : public simdjson::internal::dom_parser_implementation {
 public:
  using Base = simdjson::internal::dom_parser_implementation;
  using error_code = simdjson::error_code;

  explicit ForwardingParser(std::unique_ptr<Base> inner);
  ~ForwardingParser() override;

  // Stage 1, then stage 2, each through this class's own (overridable) stage.
  error_code parse(const uint8_t* buf, size_t len, simdjson::dom::document& doc) noexcept override;
  error_code stage1(const uint8_t* buf, size_t len, simdjson::stage1_mode mode) noexcept override;
  error_code stage2(simdjson::dom::document& doc) noexcept override;
  error_code stage2_next(simdjson::dom::document& doc) noexcept override;
  uint8_t* parse_string(const uint8_t* src, uint8_t* dst, bool allow_replacement) const noexcept override;
  uint8_t* parse_wobbly_string(const uint8_t* src, uint8_t* dst) const noexcept override;
  error_code set_capacity(size_t capacity) noexcept override;
  error_code set_max_depth(size_t max_depth) noexcept override;

 protected:
  Base& inner() { return *inner_; }
  // Copies this parser's index counters to the inner one (before it runs a stage), and the
  // inner parser's fields back (after).
  void ToInner();
  void FromInner();

 private:
  std::unique_ptr<Base> inner_;
};

// Makes the implementation below simdjson's active one, once, where stage 1 has wasm SIMD128;
// elsewhere (native builds: simdjson's own x86/ARM kernels are faster) it does nothing. Parsers
// take the active implementation when they first allocate, so call it before creating one.
void UseSimdJsonStage1();

// The fallback kernel with the SIMD stage 1 (its parsers own a fallback parser for stage 2), or
// nullptr when this simdjson build has no fallback kernel. For tests on any build.
const simdjson::implementation* SimdStage1Implementation();

}  // namespace partplay
