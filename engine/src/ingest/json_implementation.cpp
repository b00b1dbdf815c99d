#include "ingest/json_implementation.h"

#include <memory>
#include <new>
#include <utility>

#include "ingest/json_stage1.h"

namespace partplay {
namespace {

#if SIMDJSON_IMPLEMENTATION_FALLBACK
using simdjson::error_code;
using Base = simdjson::internal::dom_parser_implementation;
using FallbackParser = simdjson::fallback::dom_parser_implementation;

const simdjson::implementation* Fallback() {
  return simdjson::get_available_implementations()["fallback"];
}

// The fallback parser with json_stage1::Scan as its stage 1.
class Stage1Parser final : public ForwardingParser {
 public:
  explicit Stage1Parser(std::unique_ptr<Base> inner) : ForwardingParser(std::move(inner)) {}

  error_code stage1(const uint8_t* buf, size_t len, simdjson::stage1_mode mode) noexcept override {
    auto& fallback = static_cast<FallbackParser&>(inner());
    fallback.buf = buf;  // what the fallback's stage 1 sets for its stage 2
    fallback.len = len;
    json_stage1::Output out{structural_indexes.get(), n_structural_indexes, next_structural_index};
    error_code e = json_stage1::Scan(buf, len, mode, out);
    n_structural_indexes = out.n_structural_indexes;
    next_structural_index = out.next_structural_index;
    ToInner();
    return e;
  }
};

class Stage1Implementation final : public simdjson::implementation {
 public:
  Stage1Implementation()
      : implementation("fallback_simd128", "fallback kernel, stage 1 by 128-bit SIMD", 0) {}

  error_code create_dom_parser_implementation(size_t capacity, size_t max_depth,
                                              std::unique_ptr<Base>& dst) const noexcept override {
    std::unique_ptr<Base> inner;
    if (error_code e = Fallback()->create_dom_parser_implementation(capacity, max_depth, inner)) {
      return e;
    }
    dst.reset(new (std::nothrow) Stage1Parser(std::move(inner)));
    return dst ? simdjson::SUCCESS : simdjson::MEMALLOC;
  }

  error_code minify(const uint8_t* buf, size_t len, uint8_t* dst, size_t& dst_len) const noexcept override {
    return Fallback()->minify(buf, len, dst, dst_len);
  }

  bool validate_utf8(const char* buf, size_t len) const noexcept override {
    return Fallback()->validate_utf8(buf, len);
  }
};

const Stage1Implementation kImplementation;
#endif  // SIMDJSON_IMPLEMENTATION_FALLBACK

}  // namespace

ForwardingParser::ForwardingParser(std::unique_ptr<Base> inner) : inner_(std::move(inner)) {
  FromInner();
}
ForwardingParser::~ForwardingParser() { (void)structural_indexes.release(); }

simdjson::error_code ForwardingParser::parse(const uint8_t* buf, size_t len,
                                             simdjson::dom::document& doc) noexcept {
  if (error_code e = stage1(buf, len, simdjson::stage1_mode::regular)) return e;
  return stage2(doc);
}
simdjson::error_code ForwardingParser::stage1(const uint8_t* buf, size_t len,
                                              simdjson::stage1_mode mode) noexcept {
  ToInner();
  error_code e = inner_->stage1(buf, len, mode);
  FromInner();
  return e;
}
simdjson::error_code ForwardingParser::stage2(simdjson::dom::document& doc) noexcept {
  ToInner();
  error_code e = inner_->stage2(doc);
  FromInner();
  return e;
}
simdjson::error_code ForwardingParser::stage2_next(simdjson::dom::document& doc) noexcept {
  ToInner();
  error_code e = inner_->stage2_next(doc);
  FromInner();
  return e;
}
uint8_t* ForwardingParser::parse_string(const uint8_t* src, uint8_t* dst,
                                        bool allow_replacement) const noexcept {
  return inner_->parse_string(src, dst, allow_replacement);
}
uint8_t* ForwardingParser::parse_wobbly_string(const uint8_t* src, uint8_t* dst) const noexcept {
  return inner_->parse_wobbly_string(src, dst);
}
simdjson::error_code ForwardingParser::set_capacity(size_t capacity) noexcept {
  (void)structural_indexes.release();  // the inner parser frees and replaces it
  error_code e = inner_->set_capacity(capacity);
  FromInner();
  return e;
}
simdjson::error_code ForwardingParser::set_max_depth(size_t max_depth) noexcept {
  error_code e = inner_->set_max_depth(max_depth);
  FromInner();
  return e;
}
void ForwardingParser::ToInner() {
  inner_->n_structural_indexes = n_structural_indexes;
  inner_->next_structural_index = next_structural_index;
}
void ForwardingParser::FromInner() {
  if (structural_indexes.get() != inner_->structural_indexes.get()) {
    (void)structural_indexes.release();
    structural_indexes.reset(inner_->structural_indexes.get());
  }
  n_structural_indexes = inner_->n_structural_indexes;
  next_structural_index = inner_->next_structural_index;
  _capacity = inner_->capacity();
  _max_depth = inner_->max_depth();
}

const simdjson::implementation* SimdStage1Implementation() {
#if SIMDJSON_IMPLEMENTATION_FALLBACK
  return Fallback() ? &kImplementation : nullptr;
#else
  return nullptr;
#endif
}

void UseSimdJsonStage1() {
#if defined(__wasm_simd128__) && SIMDJSON_IMPLEMENTATION_FALLBACK
  static const bool installed = [] {
    simdjson::get_active_implementation() = &kImplementation;
    return true;
  }();
  (void)installed;
#endif
}

}  // namespace partplay
