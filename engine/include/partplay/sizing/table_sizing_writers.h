// A table sizing report (table_sizing.h) written out: as one JSON object (docs/sizing.md), which
// the CLI's --format json and the page read, and as text for people, with every term's arithmetic.
#pragma once

#include <string>

#include "partplay/sizing/table_sizing.h"

namespace partplay {

// The report as one JSON object (docs/sizing.md), with a trailing newline.
std::string TableSizingToJson(const TableSizingReport& report);
// The report for people: the columns, the arithmetic of each case with the numbers plugged in,
// the findings, the growth and each redesign option.
std::string TableSizingToText(const TableSizingReport& report);

// {"tables": [{"name", "columns": [{"name", "type", "role", "fixed_bytes": n | null,
//              "time_bucket": bool}], "variable_columns": [...]}]} (docs/sizing.md "Tables of a
// script"); time_bucket: a clustering column a time bucket can come from (CanTimeBucket).
std::string SizingTablesToJson(const std::vector<SizingTableInfo>& tables);

}  // namespace partplay
