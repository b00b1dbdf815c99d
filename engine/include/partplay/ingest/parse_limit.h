// The parser alone, the ceiling every ingest figure is compared with (`make bench`): simdjson's
// DOM parse_many over a whole input, which validates every value of every document and builds
// its tape, and nothing else — no key, no table, no report. Natively (engine_bench
// --parse-limit) and in the wasm module (ParseLimitProbe) it runs the same code the validated
// path of the ingest stream uses (item_stream.h), so "engine MB/s / parse-limit MB/s" says how
// much of the time is the parser's.
//
//   ParseLimitProbe probe;
//   uint8_t* at = probe.Buffer(n);  // n bytes, then simdjson's padding
//   std::memcpy(at, bytes, n);
//   StatusOr<uint64_t> documents = probe.Parse();  // a located error for bad JSON
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "partplay/core/status.h"

namespace partplay {

class ParseLimitProbe {
 public:
  ParseLimitProbe();
  ~ParseLimitProbe();
  // Room for `n` input bytes (the previous input is dropped); null when out of memory.
  uint8_t* Buffer(size_t n);
  // Parses the buffer as whitespace-separated documents (NDJSON) in batches of `batch_bytes`;
  // answers how many there are, or the first error (located at the document's start).
  StatusOr<uint64_t> Parse(size_t batch_bytes = size_t{1} << 24);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace partplay
