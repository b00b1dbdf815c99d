// How an input is cut into parts analysed apart and merged (docs/sharding.md), and what to do
// when they fail: the one home of the policy, for the CLI's `analyze --jobs` (threads of one
// process, engine/cli/shard_commands.cpp) and for the page's workers (web/worker/client.js asks
// it through the worker's plan-parts request, wasm/ingest_bindings.cpp planParts). The two hosts
// differ in their numbers (a page worker costs a wasm heap and ~0.1 s to start, a thread
// neither), so the host is a parameter; the rule is the same. Where the cuts fall is
// split_points.h's.
//
//   PartsPlan plan = PlanParts({.host = PartsHost::kPage, .input_bytes = size, .seekable = true,
//                               .cores = navigator_cores});
//   if (plan.parts > 1) ... SplitSearch(size, plan.parts, plan.min_part_bytes,
//                                       plan.first_part_weight) ...
//   switch (RetryParts(failure.code(), /*id_records=*/false)) { ... }
#pragma once

#include <cstdint>
#include <string_view>

#include "partplay/core/error_codes.h"
#include "partplay/core/status.h"

namespace partplay {

// Where the parts run: threads of one process (the CLI) or the page's workers.
enum class PartsHost { kProcess, kPage };

struct PartsRequest {
  PartsHost host = PartsHost::kProcess;
  uint64_t input_bytes = 0;
  // Read by ranges: a regular file (not stdin, a pipe, a text, a URL or a gzip stream).
  bool seekable = false;
  // A random-suffix synthetic key: each item's suffix depends on its place in the whole input.
  bool random_suffix = false;
  // Parts asked for (the CLI's --jobs, the page's ?workers=N); 0: not asked, the cores decide.
  int workers_asked = 0;
  // The machine's cores (hardware concurrency); 0 or less counts as 1.
  int cores = 1;
};

struct PartsPlan {
  // The parts (workers or threads) to cut the input into; 1: one pass.
  int parts = 1;
  // No part is smaller (SplitSearch's min_part_bytes).
  uint64_t min_part_bytes = 1;
  // The first part's share against each other part's 1 (split_points.h).
  double first_part_weight = 1;
  // Page: a pool worker whose wasm heap passed this after its part is stopped (a heap never
  // shrinks) before the merge; 0: never (the CLI's threads share one heap).
  uint64_t retire_heap_bytes = 0;
  // Threads the container model's passes may use (core/tasks.h); the CLI lends them.
  int threads = 1;
  // Page: whether each part's file is read ahead by its worker's reader thread, which pays only
  // where a core is left beside the parts' engines (web/worker/reader.js).
  bool read_ahead = false;
  // Why one pass ("" when in parts): for progress lines and tests.
  std::string_view why;
};

// The page's numbers: at most kPageDefaultWorkers workers unless asked (each holds an engine and
// its own heap), at most kPageMaxWorkers when asked; inputs under kPageMinInputBytes in one pass
// (starting workers would cost more than it saves); parts of at least kPageMinPartBytes.
inline constexpr int kPageDefaultWorkers = 4;
inline constexpr int kPageMaxWorkers = 16;
inline constexpr uint64_t kPageMinInputBytes = uint64_t{4} << 20;
inline constexpr uint64_t kPageMinPartBytes = uint64_t{1} << 20;
inline constexpr uint64_t kPageRetireHeapBytes = uint64_t{256} << 20;
// The CLI's: without --jobs, the cores (at most kProcessDefaultJobs) and parts of at least
// kProcessDefaultMinPartBytes (so a file of two 8 MiB parts is cut); --jobs N (at most
// kProcessMaxJobs) cuts any size into up to N parts.
inline constexpr int kProcessDefaultJobs = 64;
inline constexpr int kProcessMaxJobs = 256;
inline constexpr uint64_t kProcessDefaultMinPartBytes = uint64_t{8} << 20;

PartsPlan PlanParts(const PartsRequest& request);

// What to do after parts, or their merge, failed with `code`.
enum class PartsRetry {
  kStop,           // cancelled, interrupted or the engine failed: report it, no second pass
  kWithIdRecords,  // an id repeated across parts that kept their ids' hashes only: again, with records
  kOnePass,        // a part's error: the whole input in one pass gives one pass's exact error
};
// `id_records`: whether the failed parts recorded every id (PartIds::kRecorded).
PartsRetry RetryParts(ErrorCode code, bool id_records);

// The names of the above, as the page's plan-parts answer spells them.
std::string_view PartsRetryName(PartsRetry retry);

}  // namespace partplay
