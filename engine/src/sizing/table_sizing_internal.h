// Internal to the sizing domain: helpers the table sizing model, its redesign advice, its request
// parser and its writers share. Not part of the engine's API.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partplay/cassandra/schema.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay::sizing_internal {

// A name as CQL reads it: "Quoted" keeps its case (and "" is a quote), others are lower-cased.
std::string CqlName(std::string_view name);
// Splits "ks.table" at the first '.' outside double quotes, each part read by CqlName; the
// keyspace is "" when none is named.
std::pair<std::string, std::string> SplitTableName(std::string_view qualified);
// "ks.table", or "table" without a keyspace, each part quoted where CQL needs it.
std::string Qualified(const std::string& keyspace, const std::string& table);
std::string_view RoleName(ColumnRole role);
ColumnRole RoleOf(cql::ColumnKind kind);
// A column for the formulas: its CQL type, and for tuples, user-defined types and vectors what the
// type's name does not say (their fixed size when every field or element is fixed-width).
SizedColumn SizedOf(const cql::ColumnSpec& c);
// A column's bytes: its type's fixed size, or the average given for it.
double ColumnBytes(const SizedColumn& c);
// One case: every term of the formulas and the limits it breaks.
StatusOr<SizingScenario> MakeScenario(std::string name, const SizingInput& in,
                                      std::string rows_expression, double per_query);
// The days a grown partition's rows span: its retention, or the whole horizon.
double GrowthSpanDays(const GrowthSeries& g);
// "a, b" with each name quoted where CQL needs it.
std::string KeyList(const std::vector<std::string>& names);
// "PRIMARY KEY ((a, b), c)".
std::string PrimaryKeyText(const std::vector<std::string>& partition_key,
                           const std::vector<std::string>& clustering);

}  // namespace partplay::sizing_internal
