// The scanner (ingest/json_scan.h) against simdjson's DOM. Input: the JSON bytes, then a 1-byte
// trailer choosing simdjson's active stage 1 or the SIMD stage 1 (json_implementation.h).
// Invariant: a document the scanner settles is one the DOM accepts, with the same values at
// the tracked paths (tests/fuzz/json_scan_diff.h).
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"
#include "ingest/json_implementation.h"
#include "json_scan_diff.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using partplay::fuzz::Check;
  if (size == 0) return 0;
  uint8_t choice = data[size - 1];
  size--;
  const simdjson::implementation* impl = simdjson::get_active_implementation();
  if ((choice & 1) && partplay::SimdStage1Implementation() != nullptr) {
    impl = partplay::SimdStage1Implementation();
  }
  partplay::scan_diff::Scanned s = partplay::scan_diff::Scan(data, size, impl);
  std::string diff = partplay::scan_diff::Compare(s);
  Check(diff.empty(), "the scanner disagrees with simdjson's DOM", diff);
  return 0;
}
