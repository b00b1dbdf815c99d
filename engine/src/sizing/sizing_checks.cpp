// The sizing's check table (sizing/sizing_checks.h): which limit each finding code compares which
// measure with, as JSON for the reports, judged for a case when given its terms.
#include "partplay/sizing/sizing_checks.h"

#include <array>

#include "partplay/core/json_writer.h"
#include "partplay/core/limits.h"

namespace partplay {
namespace {

constexpr std::array<SizingCheck, 5> kChecks{{
    {"cells_over_2_billion", "nv", "cassandra_cells_per_partition", "error"},
    {"values_over_100k", "nv", "cassandra_recommended_values_per_partition", "warning"},
    {"size_over_100mb", "st_bytes", "cassandra_recommended_partition_bytes", "warning"},
    {"cosmos_logical_over_20gb", "st_bytes", "cosmos_logical_partition_bytes", "error"},
    {"cosmos_row_over_2mb", "row_bytes", "cosmos_item_bytes", "error"},
}};

}  // namespace

std::span<const SizingCheck> AllSizingChecks() { return kChecks; }

const SizingCheck* FindSizingCheck(std::string_view code) {
  for (const SizingCheck& c : kChecks) {
    if (c.code == code) return &c;
  }
  return nullptr;
}

// Every limit_id above is in the limits table (sizing_checks_test.cpp checks it).
double SizingCheckLimit(const SizingCheck& check) { return FindLimit(check.limit_id)->value; }

std::string SizingCheckLabel(const SizingCheck& check) {
  std::string_view label = FindLimit(check.limit_id)->label;
  std::string out(label.substr(0, label.find(" per ")));
  if (check.measure == "row_bytes") out += " per row";
  return out;
}

double SizingCheckValue(const SizingCheck& check, const SizingTerms& terms) {
  if (check.measure == "nv") return terms.nv;
  if (check.measure == "st_bytes") return terms.st_bytes;
  return RowBytes(terms);
}

std::string SizingChecksJson(const SizingTerms* terms) {
  std::string s = "[";
  for (size_t i = 0; i < kChecks.size(); ++i) {
    const SizingCheck& c = kChecks[i];
    if (i) s += ',';
    s += '{';
    JsonMembers o{s};
    o.Str("code", c.code);
    o.Str("measure", c.measure);
    o.Str("limit_id", c.limit_id);
    o.Num("limit", SizingCheckLimit(c));
    o.Str("label", SizingCheckLabel(c));
    o.Str("severity", c.severity);
    o.Str("source", FindLimit(c.limit_id)->source);
    if (terms != nullptr) {
      const double value = SizingCheckValue(c, *terms);
      o.Num("value", value);
      o.Bool("pass", !(value > SizingCheckLimit(c)));
    }
    s += '}';
  }
  return s + "]";
}

}  // namespace partplay
