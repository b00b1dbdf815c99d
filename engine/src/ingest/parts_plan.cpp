// The parts policy of ingest/parts_plan.h: how many parts, how small, and the retry rule.
#include "partplay/ingest/parts_plan.h"

#include <algorithm>

#include "partplay/ingest/split_points.h"

namespace partplay {

PartsPlan PlanParts(const PartsRequest& request) {
  PartsPlan plan;
  const bool page = request.host == PartsHost::kPage;
  const int cores = std::max(1, request.cores);
  const int asked = std::max(0, request.workers_asked);
  int workers = asked > 0 ? std::min(asked, page ? kPageMaxWorkers : kProcessMaxJobs)
                          : std::min(cores, page ? kPageDefaultWorkers : kProcessDefaultJobs);
  plan.threads = workers;
  plan.first_part_weight = page ? kFirstPartWeightInPage : kFirstPartWeightInProcess;
  plan.min_part_bytes = page ? kPageMinPartBytes : asked > 0 ? 1 : kProcessDefaultMinPartBytes;
  plan.retire_heap_bytes = page ? kPageRetireHeapBytes : 0;
  if (workers <= 1) {
    plan.why = "one worker";
  } else if (!request.seekable) {
    plan.why = "the input cannot be read by ranges";
  } else if (request.random_suffix) {
    plan.why = "a random-suffix key depends on each item's place in the whole input";
  } else if (page && request.input_bytes < kPageMinInputBytes) {
    plan.why = "the input is small";
  } else {
    plan.parts = workers;
  }
  plan.read_ahead = page && cores > plan.parts;
  return plan;
}

PartsRetry RetryParts(ErrorCode code, bool id_records) {
  switch (code) {
    case ErrorCode::kInterrupted:
    case ErrorCode::kCancelled:
    case ErrorCode::kEngineFailed:
      return PartsRetry::kStop;
    case ErrorCode::kBadPartial:
      return id_records ? PartsRetry::kOnePass : PartsRetry::kWithIdRecords;
    default:
      return PartsRetry::kOnePass;
  }
}

std::string_view PartsRetryName(PartsRetry retry) {
  switch (retry) {
    case PartsRetry::kStop:
      return "stop";
    case PartsRetry::kWithIdRecords:
      return "id_records";
    case PartsRetry::kOnePass:
      return "one_pass";
  }
  return "one_pass";
}

}  // namespace partplay
