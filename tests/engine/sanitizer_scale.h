// Sanitizer scale: under AddressSanitizer (the sanitizer suite of `make test`) the exhaustive
// loops of the slowest tests take a sample of their cases. Those runs look for memory errors and
// undefined behaviour, which a sample reaches; the native run, where the same loops are tens of
// times faster (147 s under ASan against 2 s for the slowest), keeps asserting every case.
#pragma once

#include <cstddef>

namespace partplay::scale {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// The step through an exhaustive range: every case natively, every `sanitized`-th under ASan.
constexpr size_t Step(size_t sanitized) { return kSanitized ? sanitized : 1; }

// A count of rounds, seeds or sizes: `native` natively, `sanitized` under ASan.
template <typename T>
constexpr T Count(T native, T sanitized) {
  return kSanitized ? sanitized : native;
}

}  // namespace partplay::scale
