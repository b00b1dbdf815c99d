// What the libFuzzer targets of tests/fuzz share: invariant checks that abort (so libFuzzer
// records the input as a crash) and a small deterministic generator for choices drawn from a
// seed taken out of the fuzz input.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "partplay/core/status.h"

namespace partplay::fuzz {

// An invariant of the engine was broken: say which, and crash so the input is kept.
[[noreturn]] inline void Fail(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz invariant broken: %.*s\n%.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(detail.size()), detail.data());
  std::abort();
}

inline void Check(bool ok, std::string_view what, std::string_view detail = {}) {
  if (!ok) Fail(what, detail);
}

// The same outcome: both ok, or the same code, message and location.
inline bool SameStatus(const Status& a, const Status& b) {
  return a.code() == b.code() && a.message() == b.message() &&
         a.where().byte_offset == b.where().byte_offset && a.where().line == b.where().line &&
         a.where().column == b.where().column && a.where().item_index == b.where().item_index;
}

// splitmix64: chunk sizes and other choices from a seed the fuzzer mutates.
class Choices {
 public:
  explicit Choices(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (hi >= lo).
  uint64_t Between(uint64_t lo, uint64_t hi) { return lo + Next() % (hi - lo + 1); }

 private:
  uint64_t state_;
};

}  // namespace partplay::fuzz
