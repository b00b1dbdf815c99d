// The SIMD stage 1 (ingest/json_stage1.h) against simdjson's fallback stage 1, byte for byte.
// Input: a 1-byte trailer (stage1_mode and the padding byte), then the JSON bytes. Invariant:
// the same error, counts and structural index array (tests/fuzz/json_stage1_diff.h).
#include <cstddef>
#include <cstdint>

#include "fuzz_common.h"
#include "json_stage1_diff.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using partplay::fuzz::Check;
  if (size == 0) return 0;
  uint8_t choice = data[size - 1];
  size--;
  const simdjson::stage1_mode modes[] = {simdjson::stage1_mode::regular,
                                         simdjson::stage1_mode::streaming_partial,
                                         simdjson::stage1_mode::streaming_final};
  const uint8_t pads[] = {' ', 0, 0x80, '"', 0xBF, '\\', 'a', 0xA0};
  std::string diff = partplay::stage1_diff::Compare(data, size, modes[choice % 3], pads[(choice / 3) % 8]);
  Check(diff.empty(), "json_stage1::Scan differs from simdjson's fallback stage 1", diff);
  return 0;
}
