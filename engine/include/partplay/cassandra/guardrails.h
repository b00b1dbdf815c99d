// The guardrails of Cassandra 4.1 and 5.0 that concern partitions, off (-1) by default as there,
// set by a console command (GUARDRAIL name value; a cassandra.yaml key and its value) with
// GuardrailsOptions' checks and messages, and checked as Guardrails.java words them
// ("Guardrail page_size violated: ..."): past a warn threshold the statement gets a client warning,
// past a fail threshold it is refused. partition_size and partition_tombstones (5.0) are checked
// where Cassandra checks them, when a partition is written to an sstable, so they only ever warn
// (Cassandra logs them).
//
//   Guardrails g;  SetGuardrail(g, "page_size_fail_threshold", "100", where);
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cql {

enum class Guardrail : uint8_t {
  kItemsPerCollection,
  kPartitionKeysInSelect,
  kPageSize,
  kPartitionSize,
  kPartitionTombstones
};

struct GuardrailThresholds {
  int64_t warn = -1;  // -1: disabled
  int64_t fail = -1;
};

struct Guardrails {
  std::array<GuardrailThresholds, 5> thresholds;
  const GuardrailThresholds& of(Guardrail g) const { return thresholds[static_cast<size_t>(g)]; }
  bool enabled(Guardrail g) const { return of(g).warn > 0 || of(g).fail > 0; }
};

// Sets `name` (items_per_collection_warn_threshold, ..._fail_threshold; the same for
// partition_keys_in_select, page_size and partition_size) to `value`: a count, or for
// partition_size a size (bytes, or with B, KiB, MiB or GiB); -1 disables it.
Status SetGuardrail(Guardrails& guardrails, std::string_view name, std::string_view value,
                    const SourceLocation& where);
// Every guardrail, one line each: "page_size_warn_threshold: -1".
std::string DescribeGuardrails(const Guardrails& guardrails);

// Threshold.guard: `value` of `what` past the fail threshold is the violation (an error),
// past the warn threshold a warning appended to `warnings`.
Status Guard(const Guardrails& guardrails, Guardrail g, int64_t value, std::string_view what,
             std::vector<std::string>& warnings, const SourceLocation& where);

}  // namespace partplay::cql
