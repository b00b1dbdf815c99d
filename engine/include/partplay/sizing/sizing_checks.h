// The table of checks the sizing applies to a partition (docs/sizing.md, "The limits"): each names
// the measure it reads (Nv, St or one row's bytes), the core/limits.h entry it compares with and
// how bad breaking it is. A value breaks a check when it is over the limit (a value exactly at
// the limit passes), as CheckPartitionLimits and CheckRowLimits (formulas.h) judge it. The
// reports carry the table, and each case carries it judged, so the page draws limit lines and
// pass/fail marks from the engine rather than from a copy.
//
//   for (const SizingCheck& c : AllSizingChecks()) c.limit_id;   // "cassandra_cells_per_partition"
//   SizingCheckLabel(AllSizingChecks()[4]);                     // "2 MB per row"
//   SizingChecksJson(&terms);   // [{"code","measure","limit_id","limit","label","severity",
//                               //   "source","value","pass"}, ...]
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "partplay/sizing/formulas.h"

namespace partplay {

struct SizingCheck {
  std::string_view code;      // as SizingFinding::code: "cells_over_2_billion", ...
  std::string_view measure;   // "nv", "st_bytes" or "row_bytes"
  std::string_view limit_id;  // its entry in core/limits.h
  std::string_view severity;  // "error" (a hard limit) or "warning" (a recommendation)
};

// Every check, in the order the findings list them.
std::span<const SizingCheck> AllSizingChecks();
// The check named `code`, or nullptr.
const SizingCheck* FindSizingCheck(std::string_view code);
// The check's limit value (core/limits.h).
double SizingCheckLimit(const SizingCheck& check);
// The limit as a chart labels it: its limits-table label up to " per " ("2 billion cells",
// "100 MB", "20 GB"), with " per row" for the row check ("2 MB per row").
std::string SizingCheckLabel(const SizingCheck& check);
// The measure of `terms` a check reads: terms.nv, terms.st_bytes or RowBytes(terms).
double SizingCheckValue(const SizingCheck& check, const SizingTerms& terms);

// The table as JSON: [{"code", "measure", "limit_id", "limit", "label", "severity", "source"}].
// With `terms`, each entry also has "value" (the measure) and "pass" (value <= limit).
std::string SizingChecksJson(const SizingTerms* terms = nullptr);

}  // namespace partplay
