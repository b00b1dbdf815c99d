#include "partplay/report/key_comparison.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "core/json_options.h"
#include "core/message_format.h"
#include "cosmos/measure_paths.h"
#include "partplay/core/json_writer.h"
#include "partplay/cosmos/request_charges.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_builder.h"

namespace partplay {
namespace {

namespace dom = simdjson::dom;
using internal::FormatPercent;
using internal::FormatRate;
using internal::FormatSize;
using internal::GroupThousands;
using Kind = SyntheticKeyOptions::Kind;

Status Bad(std::string_view field, std::string_view what) {
  return internal::BadOptionField(field, what);
}

// The sentence naming a measure-like component (cosmos/measure_paths.h), or empty. Synthetic keys
// are text: not judged.
std::string MeasureProblem(const AnalysisOptions& key, const PartitionList& all) {
  if (key.synthetic.kind != Kind::kNone) return {};
  std::vector<internal::MeasureEvidence> tally(key.key_paths.size());
  for (size_t i = 0; i < all.size(); ++i) {
    all.read_ahead(i);
    std::string_view canonical = all.canonical(i);
    for (size_t c = 0; c < tally.size() && !canonical.empty(); ++c) {
      const size_t used = internal::TallyCanonicalComponent(canonical, all.items(i), tally[c]);
      if (used == 0) break;
      canonical.remove_prefix(used);
    }
  }
  for (size_t c = 0; c < tally.size(); ++c) {
    std::string reason = internal::MeasureReason(key.key_paths[c], tally[c]);
    if (!reason.empty()) return reason;
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// One key's row.

PartitionKeyHashVersion VersionFor(const AnalysisOptions& key, const ContainerOptions& c) {
  return key.key_paths.size() > 1 ? PartitionKeyHashVersion::kMultiHash : c.version;
}

// A key with fewer distinct values than this, seen on at least kItemsPerValueForFew items each
// on average (so a small sample is not judged), has too few values (the Cosmos DB guidance:
// "hundreds or thousands of distinct values").
constexpr uint64_t kFewDistinctValues = 100;
constexpr uint64_t kItemsPerValueForFew = 10;

bool HasWorkload(const Workload& w) {
  return w.point_reads_per_second > 0 || w.writes_per_second > 0 || w.queries_per_second > 0;
}

// Throttling as a problem: the share throttled, and the RU/s that removes it (or why none does).
std::string ThrottlingProblem(const KeyFacts& f, const LayoutView& last) {
  std::string s = fmt::format("{} of requests are throttled (429) at {}",
                              FormatPercent(f.throttled_fraction), FormatRate(last.ru_per_second));
  const RuNeeded& n = f.ru_needed;
  if (!n.possible) return s + ": " + n.reason;
  if (n.manual_ru_per_second > 0) {
    return s + fmt::format("; none is at {} (manual) or an autoscale maximum of {}",
                           FormatRate(n.manual_ru_per_second),
                           FormatRate(n.autoscale_max_ru_per_second));
  }
  return s + fmt::format(
                 "; none is when created at {} and set to {} (manual), or at an "
                 "autoscale maximum of {}",
                 FormatRate(n.manual_rescaled_created_ru_per_second),
                 FormatRate(n.manual_rescaled_ru_per_second),
                 FormatRate(n.autoscale_max_ru_per_second));
}

StatusOr<KeyFacts> Facts(const Analyzer& analyzer, const AnalysisOptions& key,
                         const ContainerOptions& shared, const std::vector<QueryFilter>& queries,
                         bool workload) {
  KeyFacts f;
  f.label = KeyLabel(key);
  f.options = key;
  f.version = VersionFor(key, shared);
  ContainerOptions container = shared;
  container.version = f.version;
  container.route.reset();
  container.top_per_range = 1;
  ReportRequest request;
  request.max_partitions = 1;
  request.container = container;
  PARTPLAY_ASSIGN_OR_RETURN(BuiltReport built, BuildFullReport(analyzer, key, request));
  const AnalysisReport& a = built.analysis;
  const ContainerReport& c = *built.container;
  f.items = a.items;
  f.logical_partitions = a.partition_count;
  f.undefined_key_items = a.undefined_key_items;
  f.invalid_key_items = a.invalid_key_items;
  f.coverage = a.items == 0 ? 0 : static_cast<double>(a.items - a.undefined_key_items) / a.items;
  if (a.has_largest) {
    f.largest_bytes = static_cast<double>(a.largest.bytes);
    f.largest_key_json = a.largest.key.ToJson();
  }
  f.largest_bytes_after = f.largest_bytes * (c.grown ? shared.growth : 1);
  f.gini = a.gini;
  f.top1_share = a.top1_share;

  const LayoutView& last = c.grown ? c.after : c.before;
  f.physical_partitions = static_cast<int64_t>(last.ranges.size());
  double total = 0, most = 0;
  for (size_t i = 0; i < last.ranges.size(); ++i) {
    const PhysicalPartition& r = last.ranges[i];
    total += r.bytes;
    most = std::max(most, r.bytes);
    if (f.busiest_range < 0 || r.demand_ru > f.busiest_demand_ru) {
      f.busiest_range = r.range.id;
      f.busiest_demand_ru = r.demand_ru;
      f.busiest_share_ru = r.ru_share;
    }
  }
  f.storage_max_over_mean = total > 0 ? most / (total / last.ranges.size()) : 1;
  f.layout.version = f.version;
  for (const PhysicalPartition& r : last.ranges) {
    f.layout.ranges.push_back(r.range);
    f.layout.next_id = std::max(f.layout.next_id, r.range.id + 1);
  }
  f.throttled_fraction = last.throttled_fraction;
  f.throttles = workload && last.throttled_fraction > 0;
  f.hot_logical_partitions = workload ? c.hot_count : 0;
  f.ru_needed = c.ru_needed;
  f.ru_needed_ru_per_second = c.ru_needed.manual_ru_per_second > 0
                                  ? c.ru_needed.manual_ru_per_second
                                  : c.ru_needed.manual_rescaled_ru_per_second;

  f.mean_item_bytes = a.items ? static_cast<double>(a.bytes) / static_cast<double>(a.items) : 0;
  for (const QueryFilter& q : queries) {
    QueryFanout fanout;
    static_cast<QueryTarget&>(fanout) =
        TargetQuery(q, key, f.version, f.layout, f.logical_partitions);
    if (fanout.kind != "single" && fanout.kind != "none") ++f.fanout_queries;
    f.queries.push_back(std::move(fanout));
  }

  // Problems, the disqualifiers.
  if (a.items > 0 && f.coverage < 0.99) {
    f.problems.push_back(fmt::format(
        "{} of {} items ({}) have no value for {}: they all share one logical partition",
        GroupThousands(a.undefined_key_items), GroupThousands(a.items),
        FormatPercent(1 - f.coverage), f.label));
  }
  for (const Finding& finding : c.findings) {
    if (finding.code == "logical_partition_over_20gb") f.over_20gb_partitions = finding.count;
    if (finding.severity == "error") f.problems.push_back(finding.message);
  }
  if (a.items > 0 && a.partition_count == 1) {
    f.problems.push_back(
        fmt::format("every item has the same value for {}: one logical partition", f.label));
  } else if (a.partition_count < kFewDistinctValues &&
             a.items >= kItemsPerValueForFew * a.partition_count) {
    f.problems.push_back(fmt::format(
        "{} has only {} distinct values: the container can never spread over more physical "
        "partitions than that, and the guidance asks for hundreds to thousands",
        f.label, a.partition_count));
  }
  std::unique_ptr<PartitionList> all = analyzer.AllPartitions();
  for (const std::string& path : key.key_paths) {
    std::string system = internal::SystemPropertyReason(path);
    if (!system.empty()) f.problems.push_back(std::move(system));
  }
  std::string measure = MeasureProblem(key, *all);
  if (!measure.empty()) {
    f.measure_like = true;
    f.problems.push_back(std::move(measure));
  }
  // Throttling last, so that a key's first problem is the one a larger RU/s cannot fix.
  if (f.throttles) f.problems.push_back(ThrottlingProblem(f, last));
  return f;
}

// Two sums of the same data taken in another order may differ in the last bits: such figures
// are equal for the ranking.
bool Differs(double a, double b) {
  return std::fabs(a - b) > 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

// Strict weak order of the ranking (header comment); indices break the last tie.
// 0: no problem; 1: throttling is the only problem; 2: another problem.
int ProblemClass(const KeyFacts& k) {
  if (k.problems.empty()) return 0;
  return k.throttles && k.problems.size() == 1 ? 1 : 2;
}

// The RU/s needed as the ranking weighs it: none possible ranks last.
double NeededForRanking(const KeyFacts& k) {
  return k.ru_needed_ru_per_second > 0 ? k.ru_needed_ru_per_second
                                       : std::numeric_limits<double>::infinity();
}

bool RanksBefore(const KeyFacts& a, size_t ia, const KeyFacts& b, size_t ib, bool workload) {
  const int pa = ProblemClass(a), pb = ProblemClass(b);
  if (pa != pb) return pa < pb;
  if (pa == 1 && NeededForRanking(a) != NeededForRanking(b)) {
    return NeededForRanking(a) < NeededForRanking(b);
  }
  if (a.fanout_queries != b.fanout_queries) return a.fanout_queries < b.fanout_queries;
  if (a.monotonicity.monotonic != b.monotonicity.monotonic) return !a.monotonicity.monotonic;
  const double la = workload ? a.busiest_demand_ru : a.storage_max_over_mean;
  const double lb = workload ? b.busiest_demand_ru : b.storage_max_over_mean;
  if (Differs(la, lb)) return la < lb;
  if (Differs(a.largest_bytes_after, b.largest_bytes_after)) {
    return a.largest_bytes_after < b.largest_bytes_after;
  }
  return ia < ib;
}

std::string Growth(const ComparisonReport& r) {
  return r.growth > 1 ? fmt::format(" after growth x{}", r.growth) : "";
}

std::string QueriesFact(const KeyFacts& k, size_t listed) {
  if (listed == 0) return {};
  if (k.fanout_queries == 0) {
    return listed == 1 ? "the listed query reaches one logical partition"
                       : fmt::format("all {} listed queries reach one logical partition", listed);
  }
  if (k.fanout_queries == listed) {
    return listed == 1 ? "the listed query reaches more than one logical partition"
                       : fmt::format(
                             "none of the {} listed queries reaches a single logical "
                             "partition",
                             listed);
  }
  return fmt::format("{} of {} listed queries reach one logical partition",
                     listed - k.fanout_queries, listed);
}

std::string LoadFact(const KeyFacts& k, bool workload) {
  if (workload) {
    return fmt::format("its busiest physical partition needs {} of its {}",
                       FormatRate(k.busiest_demand_ru), FormatRate(k.busiest_share_ru));
  }
  return fmt::format("its fullest physical partition holds {:.2f}x the mean",
                     k.storage_max_over_mean);
}

// How a monotonic key follows time or the input, in words (empty when it does not).
std::string MonotonicWords(const Monotonicity& m) {
  const auto way = [](double share) { return share >= 0.5 ? "rises" : "falls"; };
  const auto pct = [](double share) { return FormatPercent(share >= 0.5 ? share : 1 - share); };
  if (m.follows_time >= 0 && m.timed_changes >= kMonotonicMinChanges &&
      IsMonotonicShare(m.follows_time)) {
    return fmt::format(
        "is monotonic: it {} with the time field in {} of consecutive items, so its values come "
        "in write order (a coarser form of it, such as a date, would send each period's "
        "writes to one partition, and a query over a time range reaches every partition)",
        m.follows_time >= 0.5 ? "rises" : "falls against it", pct(m.follows_time));
  }
  if (m.monotonic) {
    return fmt::format(
        "is monotonic: it {} along the input in {} of the changes between consecutive items, so "
        "its values come in insertion order (a coarser form of it would send each period's "
        "writes to one partition)",
        way(m.rises_with_input), pct(m.rises_with_input));
  }
  return {};
}

std::string WindowWords(int64_t seconds) {
  switch (seconds) {
    case 60: return "minute";
    case 3600: return "hour";
    case 86400: return "day";
    case 7 * 86400: return "week";
    case 30 * 86400: return "30 days";
    default: return fmt::format("{} s", seconds);
  }
}

// Writes concentrated in time: over several physical partitions, the busiest takes at least half
// of a window's writes and at least twice its even share (2 / partitions).
bool Concentrated(const WriteSpread& w) {
  return w.measured && w.physical_partitions >= 2 &&
         w.busiest_share >= std::max(0.5, std::min(1.0, 2.0 / w.physical_partitions)) - 1e-12;
}

// Why the runner-up ranks below the winner: the first criterion on which they differ.
std::string WhyNotRunnerUp(const KeyFacts& w, const KeyFacts& r, bool workload) {
  if (ProblemClass(r) != ProblemClass(w)) {
    return fmt::format("{} has a problem: {}", r.label, r.problems[0]);
  }
  if (ProblemClass(r) == 1 && NeededForRanking(w) != NeededForRanking(r)) {
    return r.ru_needed_ru_per_second > 0
               ? fmt::format("{} needs {} so that none of its requests is throttled", r.label,
                             FormatRate(r.ru_needed_ru_per_second))
               : fmt::format("{}: {}", r.label, r.ru_needed.reason);
  }
  if (w.fanout_queries != r.fanout_queries) {
    return fmt::format("{} sends {} of the listed queries to more than one logical partition",
                       r.label, r.fanout_queries);
  }
  if (w.monotonicity.monotonic != r.monotonicity.monotonic) {
    return fmt::format("{} {}", r.label, MonotonicWords(r.monotonicity));
  }
  if (workload && Differs(w.busiest_demand_ru, r.busiest_demand_ru)) {
    return fmt::format("{}'s busiest physical partition needs {}", r.label,
                       FormatRate(r.busiest_demand_ru));
  }
  if (!workload && Differs(w.storage_max_over_mean, r.storage_max_over_mean)) {
    return fmt::format("{}'s fullest physical partition holds {:.2f}x the mean", r.label,
                       r.storage_max_over_mean);
  }
  if (Differs(w.largest_bytes_after, r.largest_bytes_after)) {
    return fmt::format("{}'s largest logical partition holds {}", r.label,
                       FormatSize(r.largest_bytes_after));
  }
  return fmt::format("{} ties with it and was listed later", r.label);
}

std::string Why(const ComparisonReport& r, const std::vector<size_t>& order) {
  if (r.keys.empty()) return {};
  if (r.best < 0) {
    return fmt::format(
        "No key is picked: every one has a problem (for {}: {}).", r.keys[order[0]].label,
        r.keys[order[0]].problems.empty() ? std::string("none") : r.keys[order[0]].problems[0]);
  }
  const KeyFacts& w = r.keys[static_cast<size_t>(r.best)];
  std::vector<std::string> facts;
  facts.push_back(fmt::format("no logical partition over 20 GB{} (largest {})", Growth(r),
                              FormatSize(w.largest_bytes_after)));
  std::string q = QueriesFact(w, r.queries.size());
  if (!q.empty()) facts.push_back(std::move(q));
  facts.push_back(LoadFact(w, r.workload_given));
  std::string s = fmt::format("{} is the pick: ", w.label);
  if (w.throttles) {
    // Only when every key throttles (the ranking puts a key that does not first).
    s = fmt::format(
        "{} is the pick although every key throttles at {}: {} of its requests are throttled, "
        "and it needs the fewest RU/s for none to be ({}); ",
        w.label, FormatRate(r.ru_per_second), FormatPercent(w.throttled_fraction),
        w.ru_needed_ru_per_second > 0 ? FormatRate(w.ru_needed_ru_per_second)
                                      : std::string("no RU/s can"));
  }
  for (size_t i = 0; i < facts.size(); ++i) {
    s += i == 0 ? "" : (i + 1 == facts.size() ? " and " : ", ");
    s += facts[i];
  }
  if (order.size() > 1) {
    s += fmt::format("; next, {}", WhyNotRunnerUp(w, r.keys[order[1]], r.workload_given));
  }
  s += ".";
  return s;
}

// The rows a call returns: one for an aggregate without GROUP BY; TOP n or OFFSET o LIMIT l
// (literal or given values) cap the matches; else every matching row (with DISTINCT or GROUP BY
// at most that many).
int64_t ReturnedRows(const QueryFilter& q, uint64_t rows) {
  if (!q.parsed) return static_cast<int64_t>(rows);
  const cosmosql::Query& query = *q.parsed;
  if (query.has_aggregates && query.group_by.empty()) return 1;
  const auto value = [&](const std::optional<cosmosql::QueryCount>& c) -> std::optional<uint64_t> {
    if (!c) return std::nullopt;
    if (c->value) return c->value;
    for (const BoundParameter& b : q.parameters) {
      if (b.name == c->parameter && b.value.kind() == cosmosql::ValueKind::kNumber &&
          b.value.number() >= 0) {
        return static_cast<uint64_t>(b.value.number());
      }
    }
    return std::nullopt;
  };
  uint64_t n = rows;
  if (auto top = value(query.top)) n = std::min(n, *top);
  if (auto offset = value(query.offset)) n = n > *offset ? n - *offset : 0;
  if (auto limit = value(query.limit)) n = std::min(n, *limit);
  return static_cast<int64_t>(n);
}

void AppendQueryJson(const QueryFilter& q, std::string& o) {
  o.push_back('{');
  JsonMembers m{o};
  m.Str("text", q.text.empty() ? QueryText(q) : q.text);
  if (!q.canonical.empty()) m.Str("canonical", q.canonical);
  if (!q.sql.empty()) {
    m.Str("sql", q.sql);
  } else {
    m.Raw("filter", JsonArray(q.paths, [](const std::string& p, std::string& s) {
            AppendJsonString(p, s);
          }));
  }
  if (q.rate > 0) {
    m.Num("rate", q.rate);
  } else {
    m.Raw("rate", "null");
  }
  m.Raw("parameters", JsonArray(q.parameters, [](const BoundParameter& b, std::string& s) {
          s.push_back('{');
          JsonMembers pm{s};
          pm.Str("name", b.name);
          pm.Raw("value", b.value.is_defined() ? b.value.ToJson() : "null");
          pm.Str("from", b.from);
          if (!b.pointer.empty()) pm.Str("pointer", b.pointer);
          if (b.from == "most_common") {
            pm.UInt("items", b.items);
            pm.UInt("distinct", b.distinct);
          }
          s.push_back('}');
        }));
  o.push_back('}');
}

void Rank(ComparisonReport& r) {
  r.best = -1;
  if (r.keys.empty()) return;
  std::vector<size_t> order(r.keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return RanksBefore(r.keys[a], a, r.keys[b], b, r.workload_given);
  });
  for (size_t k = 0; k < order.size(); ++k) r.keys[order[k]].rank = static_cast<int>(k + 1);
  if (ProblemClass(r.keys[order[0]]) < 2) r.best = static_cast<int>(order[0]);
  r.why = Why(r, order);
}

std::string WriteSpreadJson(const WriteSpread& w, bool concentrated) {
  std::string out = "{";
  JsonMembers m{out};
  m.Bool("measured", w.measured);
  if (!w.measured) {
    m.Str("why_not", w.why_not);
  } else {
    m.Str("time_path", w.time_path);
    m.Str("time_form", w.time_form);
    m.Bool("time_path_detected", w.time_path_detected);
    m.Int("window_seconds", w.window_seconds);
    m.UInt("windows", w.windows);
    m.UInt("timed_items", w.timed_items);
    m.UInt("untimed_items", w.untimed_items);
    m.Num("logical_per_window", w.logical_per_window);
    m.Num("physical_per_window", w.physical_per_window);
    m.UInt("max_physical_per_window", w.max_physical_per_window);
    m.Num("busiest_share", w.busiest_share);
    m.Int("physical_partitions", w.physical_partitions);
    m.Bool("concentrated", concentrated);
  }
  out.push_back('}');
  return out;
}

std::string MonotonicityJson(const Monotonicity& mono) {
  std::string out = "{";
  JsonMembers m{out};
  m.UInt("key_changes", mono.key_changes);
  m.Num("rises_with_input", mono.rises_with_input);
  m.UInt("timed_changes", mono.timed_changes);
  if (mono.follows_time >= 0) {
    m.Num("follows_time", mono.follows_time);
  } else {
    m.Raw("follows_time", "null");
  }
  m.Bool("monotonic", mono.monotonic);
  out.push_back('}');
  return out;
}

void AppendFactsJson(const KeyFacts& k, std::string& out, bool traffic) {
  out.push_back('{');
  JsonMembers m{out};
  m.Str("label", k.label);
  m.Raw("key_paths", JsonArray(k.options.key_paths, [](const std::string& p, std::string& o) {
          AppendJsonString(p, o);
        }));
  m.Str("synthetic", SyntheticKindName(k.options.synthetic.kind));
  m.Str("hash_version", HashVersionName(k.version));
  m.UInt("rank", static_cast<uint64_t>(k.rank));
  m.UInt("items", k.items);
  m.UInt("logical_partitions", k.logical_partitions);
  m.UInt("undefined_key_items", k.undefined_key_items);
  m.UInt("invalid_key_items", k.invalid_key_items);
  m.Num("coverage", k.coverage);
  m.Num("largest_bytes", k.largest_bytes);
  m.Raw("largest_key", k.largest_key_json.empty() ? "null" : k.largest_key_json);
  m.Num("largest_bytes_after_growth", k.largest_bytes_after);
  m.UInt("over_20gb_partitions", k.over_20gb_partitions);
  m.Num("gini", k.gini);
  m.Num("top1_share", k.top1_share);
  m.Int("physical_partitions", k.physical_partitions);
  m.Num("storage_max_over_mean", k.storage_max_over_mean);
  m.Num("busiest_demand_ru", k.busiest_demand_ru);
  m.Num("busiest_share_ru", k.busiest_share_ru);
  m.Int("busiest_range", k.busiest_range);
  m.Num("throttled_fraction", k.throttled_fraction);
  m.Bool("throttles", k.throttles);
  m.UInt("hot_logical_partitions", k.hot_logical_partitions);
  if (k.ru_needed_ru_per_second > 0) {
    m.Num("ru_needed_ru_per_second", k.ru_needed_ru_per_second);
  } else {
    m.Raw("ru_needed_ru_per_second", "null");
  }
  m.Raw("ru_needed", RuNeededToJson(k.ru_needed));
  m.Raw("queries", JsonArray(k.queries, [](const QueryFanout& q, std::string& o) {
          o.push_back('{');
          JsonMembers qm{o};
          qm.Str("kind", q.kind);
          qm.Bool("single_partition", q.kind == "single");
          const auto count = [&](std::string_view name, int64_t n) {
            if (n < 0) {
              qm.Raw(name, "null");
            } else {
              qm.Int(name, n);
            }
          };
          count("logical_partitions", q.logical_partitions);
          count("physical_partitions", q.physical_partitions);
          if (q.exact) {
            qm.Raw("range_ids", JsonArray(q.range_ids, [](int id, std::string& ro) {
                     ro += fmt::format("{}", id);
                   }));
          } else {
            qm.Raw("range_ids", "null");
          }
          if (!q.epk.empty()) qm.Str("epk", q.epk);
          count("matching_items", q.matching_items);
          count("rows", q.rows);
          count("returned_rows", q.returned_rows);
          count("physical_partitions_with_matches", q.physical_partitions_with_matches);
          if (q.ru_per_call >= 0) {
            qm.Num("ru_per_call", q.ru_per_call);
          } else {
            qm.Raw("ru_per_call", "null");
          }
          o.push_back('}');
        }));
  m.UInt("fanout_queries", k.fanout_queries);
  m.Bool("measure_like", k.measure_like);
  m.Raw("problems", JsonArray(k.problems, [](const std::string& p, std::string& o) {
          AppendJsonString(p, o);
        }));
  m.Raw("write_spread", traffic ? WriteSpreadJson(k.write_spread, k.writes_concentrated) : "null");
  m.Raw("monotonicity", traffic ? MonotonicityJson(k.monotonicity) : "null");
  out.push_back('}');
}

}  // namespace

std::string KeyLabel(const AnalysisOptions& key) {
  const SyntheticKeyOptions& syn = key.synthetic;
  const std::string first = key.key_paths.empty() ? std::string() : key.key_paths[0];
  switch (syn.kind) {
    case Kind::kConcat: {
      std::string s;
      for (size_t i = 0; i < syn.paths.size(); ++i) s += (i ? syn.separator : "") + syn.paths[i];
      return s;
    }
    case Kind::kRandomSuffix:
      return fmt::format("{}{}{{1..{} random}}", first, syn.separator, syn.buckets);
    case Kind::kHashSuffix:
      return fmt::format("{}{}{{hash({}) % {} + 1}}", first, syn.separator, syn.suffix_path,
                         syn.buckets);
    case Kind::kNone:
      break;
  }
  if (key.key_paths.size() == 1) return first;
  std::string s = "[";
  for (size_t i = 0; i < key.key_paths.size(); ++i) s += (i ? ", " : "") + key.key_paths[i];
  return s + "]";
}

namespace {

StatusOr<ComparisonRequest> ParseComparison(std::string_view json, bool with_keys) {
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object,
                            internal::ParseOptionsObject(parser, json, "comparison request"));
  ComparisonRequest r;
  std::string weight_path;
  bool has_keys = false;
  PARTPLAY_RETURN_IF_ERROR(internal::ReadOptionFields(
      object, "comparison",
      {
          {"keys",
           [&](dom::element v) -> Status {
             has_keys = true;
             dom::array keys;
             if (v.get_array().get(keys)) return Bad("keys", "must be an array of key options");
             size_t i = 0;
             for (dom::element k : keys) {
               const std::string field = fmt::format("keys[{}]", i++);
               if (i > kMaxComparedKeys) {
                 return Bad("keys", fmt::format("compares at most {} keys", kMaxComparedKeys));
               }
               dom::object ko;
               if (k.get_object().get(ko)) return Bad(field, "must be an object");
               StatusOr<AnalysisOptions> a = ParseAnalysisOptionsJson(simdjson::minify(k));
               if (!a.ok()) return Bad(field, a.status().message());
               dom::element discover;
               if (ko["discover_items"].get(discover)) a.value().discover_items = 0;
               r.keys.push_back(std::move(a).value());
             }
             return Status::Ok();
           }},
          {"container",
           [&](dom::element v) -> Status {
             StatusOr<ContainerOptions> c = ParseContainerOptionsJson(simdjson::minify(v));
             if (!c.ok()) return Bad("container", c.status().message());
             r.container = std::move(c).value();
             return Status::Ok();
           }},
          {"queries",
           [&](dom::element v) -> Status {
             dom::array list;
             if (v.get_array().get(list)) return Bad("queries", "must be an array");
             size_t i = 0;
             for (dom::element q : list) {
               const std::string field = fmt::format("queries[{}]", i++);
               if (i > kMaxComparedQueries) {
                 return Bad("queries",
                            fmt::format("lists at most {} queries", kMaxComparedQueries));
               }
               dom::object qo;
               dom::array paths;
               std::string_view sql;
               const char* shape =
                   "must be {\"filter\": [\"/path\", ...]} or {\"sql\": \"SELECT ...\", "
                   "\"rate\": N}";
               if (q.get_object().get(qo)) return Bad(field, shape);
               QueryFilter filter;
               size_t known = 0;
               double rate = 0;
               if (!qo["rate"].get_double().get(rate)) {
                 ++known;
                 if (!(rate >= 0) || rate > 1e9) {
                   return Bad(field, "rate must be 0 to 1e9 calls per second");
                 }
                 filter.rate = rate;
               }
               if (!qo["sql"].get_string().get(sql)) {
                 if (qo.size() != known + 1) return Bad(field, shape);
                 filter.sql = std::string(sql);
                 r.queries.push_back(std::move(filter));
                 continue;
               }
               if (qo["filter"].get_array().get(paths) || qo.size() != known + 1) {
                 return Bad(field, shape);
               }
               for (dom::element p : paths) {
                 std::string_view s;
                 if (p.get_string().get(s) || s.empty() || s[0] != '/') {
                   return Bad(field, "filter paths must be JSON pointers such as \"/tenantId\"");
                 }
                 if (filter.paths.size() == 8) return Bad(field, "filters on at most 8 paths");
                 filter.paths.emplace_back(s);
               }
               r.queries.push_back(std::move(filter));
             }
             return Status::Ok();
           }},
          {"parameters",
           [&](dom::element v) -> Status {
             StatusOr<cosmosql::Parameters> p =
                 cosmosql::ParseParametersJson(simdjson::minify(v));
             if (!p.ok()) return Bad("parameters", p.status().message());
             r.parameters = std::move(p).value();
             return Status::Ok();
           }},
          {"time_path",
           [&](dom::element v) -> Status {
             std::string_view path;
             if (v.get_string().get(path) || path.empty() || path[0] != '/') {
               return Bad("time_path", "must be a JSON pointer such as \"/createdAt\"");
             }
             r.writes.time_path = std::string(path);
             return Status::Ok();
           }},
          {"write_window_seconds",
           [&](dom::element v) -> Status {
             int64_t seconds;
             if (v.get_int64().get(seconds) || seconds < 1 || seconds > 366LL * 86400) {
               return Bad("write_window_seconds", "must be a whole number of seconds, 1 to 31,622,400");
             }
             r.writes.window_seconds = seconds;
             return Status::Ok();
           }},
          {"second_read",
           [&](dom::element v) -> Status {
             if (v.get_bool().get(r.second_read)) return Bad("second_read", "must be true or false");
             return Status::Ok();
           }},
          {"query_text",
           [&](dom::element v) -> Status {
             // Read by ComparisonRun (ReadQueryText); kept as text here so that the element's
             // module, which refuses it, carries no query-list reader.
             std::string_view text;
             if (v.get_string().get(text)) return Bad("query_text", "must be a string");
             if (text.size() > kMaxQueryTextBytes) {
               return Bad("query_text", fmt::format("is over {} bytes", kMaxQueryTextBytes));
             }
             r.query_text = std::string(text);
             return Status::Ok();
           }},
          {"write_spread",
           [&](dom::element v) -> Status {
             bool on;
             if (v.get_bool().get(on)) return Bad("write_spread", "must be true or false");
             r.writes.enabled = on;
             return Status::Ok();
           }},
          {"weight_path",
           [&](dom::element v) -> Status {
             std::string_view s;
             if (v.get_string().get(s)) return Bad("weight_path", "must be a string");
             weight_path = std::string(s);
             return Status::Ok();
           }},
      }));
  if (!with_keys && has_keys) return Bad("keys", "are given when the comparison is created");
  if (!with_keys && !weight_path.empty()) {
    return Bad("weight_path", "is given when the comparison is created");
  }
  if (with_keys && (!has_keys || r.keys.empty())) return Bad("keys", "must list at least one key");
  if (!weight_path.empty()) {
    for (AnalysisOptions& k : r.keys) {
      if (k.weight_path.empty()) k.weight_path = weight_path;
    }
  }
  return r;
}

}  // namespace

StatusOr<ComparisonRequest> ParseComparisonRequestJson(std::string_view json) {
  return ParseComparison(json, true);
}

StatusOr<ComparisonRequest> ParseComparisonModelJson(std::string_view json) {
  return ParseComparison(json, false);
}

Status RefuseQueryText(const ComparisonRequest& request) {
  if (request.query_text.empty()) return Status::Ok();
  return Bad("query_text",
             "needs the query reader, which this module leaves out: list the queries as "
             "{\"filter\": [\"/path\", ...]}");
}

KeyComparison::~KeyComparison() = default;

StatusOr<std::unique_ptr<KeyComparison>> KeyComparison::Create(
    const std::vector<AnalysisOptions>& keys) {
  if (keys.empty()) return Status(ErrorCode::kBadOption, "a comparison needs at least one key");
  if (keys.size() > kMaxComparedKeys) {
    return Status(ErrorCode::kBadOption, fmt::format("a comparison has at most {} keys (got {})",
                                                     kMaxComparedKeys, keys.size()));
  }
  std::unique_ptr<KeyComparison> c(new KeyComparison());
  for (const AnalysisOptions& k : keys) {
    StatusOr<std::unique_ptr<Analyzer>> a = Analyzer::Create(k);
    if (!a.ok()) {
      return Status(a.status().code(),
                    fmt::format("key {}: {}", KeyLabel(k), a.status().message()));
    }
    c->options_.push_back(k);
    c->analyzers_.push_back(std::move(a).value());
  }
  return c;
}

Status KeyComparison::Feed(std::string_view bytes) {
  Status first = Status::Ok();
  for (auto& a : analyzers_) {
    Status s = a->Feed(bytes);
    if (!s.ok() && first.ok()) first = std::move(s);
  }
  return first;
}

Status KeyComparison::Finish() {
  Status first = Status::Ok();
  for (auto& a : analyzers_) {
    Status s = a->Finish();
    if (!s.ok() && first.ok()) first = std::move(s);
  }
  return first;
}

uint64_t KeyComparison::bytes_consumed() const { return analyzers_[0]->bytes_consumed(); }
uint64_t KeyComparison::items_seen() const { return analyzers_[0]->items_seen(); }

StatusOr<ComparisonReport> KeyComparison::Compare(const ContainerOptions& given,
                                                  const std::vector<QueryFilter>& queries) const {
  // The listed queries' rates add up to the workload's queries per second.
  ContainerOptions container = given;
  for (const QueryFilter& q : queries) container.workload.queries_per_second += q.rate;
  ComparisonReport r;
  r.workload_given = HasWorkload(container.workload);
  r.ru_per_second = container.ru_per_second;
  r.growth = container.growth;
  r.queries = queries;
  r.query_ru = container.workload.costs.query_ru;
  for (size_t q = 0; q < queries.size(); ++q) {
    if (!queries[q].sql.empty() && !queries[q].parsed) {
      return Status(ErrorCode::kBadOption,
                    fmt::format("query {}: a Cosmos DB NoSQL query is read by partplay compare "
                                "(PrepareQueries); here, give the paths it filters on",
                                q + 1));
    }
  }
  for (size_t i = 0; i < analyzers_.size(); ++i) {
    StatusOr<KeyFacts> f = Facts(*analyzers_[i], options_[i], container, queries, r.workload_given);
    if (!f.ok()) {
      return Status(f.status().code(),
                    fmt::format("key {}: {}", KeyLabel(options_[i]), f.status().message()));
    }
    r.keys.push_back(std::move(f).value());
  }
  Rank(r);
  return r;
}

std::vector<TrafficKey> TrafficKeysOf(const ComparisonReport& report) {
  std::vector<TrafficKey> keys;
  for (const KeyFacts& k : report.keys) keys.push_back({k.options, k.version, k.layout});
  return keys;
}

Status ApplyTraffic(ComparisonReport& r, const KeyTraffic& traffic) {
  if (traffic.keys.size() != r.keys.size()) {
    return Status(ErrorCode::kInvalidState, "the traffic pass ran over other keys");
  }
  for (const KeyTrafficReport& t : traffic.keys) {
    if (t.queries.size() != r.queries.size()) {
      return Status(ErrorCode::kInvalidState, "the traffic pass ran other queries");
    }
  }
  r.traffic = true;
  for (size_t i = 0; i < r.keys.size(); ++i) {
    KeyFacts& k = r.keys[i];
    for (size_t q = 0; q < r.queries.size(); ++q) {
      const QueryTraffic& t = traffic.keys[i].queries[q];
      QueryFanout& f = k.queries[q];
      f.matching_items = static_cast<int64_t>(t.matching_items);
      f.rows = static_cast<int64_t>(t.rows);
      f.returned_rows = ReturnedRows(r.queries[q], t.rows);
      f.physical_partitions_with_matches = static_cast<int64_t>(t.ranges_with_matches);
      if (f.physical_partitions >= 0) {
        f.ru_per_call = static_cast<double>(f.physical_partitions) * r.query_ru +
                        static_cast<double>(f.returned_rows) * PointReadCharge(k.mean_item_bytes);
      }
    }
    k.write_spread = traffic.keys[i].write_spread;
    k.monotonicity = traffic.keys[i].monotonicity;
    k.writes_concentrated = Concentrated(k.write_spread);
    if (!k.writes_concentrated) continue;
    const WriteSpread& w = k.write_spread;
    std::string problem = fmt::format(
        "writes concentrate in time: in any {} (by {}), {} of the writes go to one physical "
        "partition, and they touch {:.1f} of the {} physical partitions",
        WindowWords(w.window_seconds), w.time_path, FormatPercent(w.busiest_share),
        w.physical_per_window, w.physical_partitions);
    // Before a throttling problem, which stays last (Facts).
    auto at = k.problems.end();
    if (k.throttles && !k.problems.empty()) at = k.problems.end() - 1;
    k.problems.insert(at, std::move(problem));
  }
  Rank(r);
  return Status::Ok();
}

std::string ComparisonToJson(const ComparisonReport& r) {
  std::string out = "{";
  JsonMembers m{out};
  m.Bool("workload_given", r.workload_given);
  m.Num("ru_per_second", r.ru_per_second);
  m.Num("growth", r.growth);
  m.Raw("queries", JsonArray(r.queries, AppendQueryJson));
  m.Int("best", r.best);
  m.Str("why", r.why);
  m.Bool("traffic_measured", r.traffic);
  m.Raw("keys", JsonArray(r.keys, [&](const KeyFacts& k, std::string& o) {
          AppendFactsJson(k, o, r.traffic);
        }));
  out += "}\n";
  return out;
}

std::string ComparisonToTable(const ComparisonReport& r) {
  std::vector<size_t> order(r.keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return r.keys[a].rank < r.keys[b].rank; });
  size_t width = 3;
  for (const KeyFacts& k : r.keys) width = std::max(width, k.label.size());
  std::string out = fmt::format(
      "{:<4} {:<{}} {:>10} {:>12} {:>12} {:>6} {:>5} {:>14} {:>14} {:>8} {}\n", "rank", "key",
      width, "logical", "largest", r.growth > 1 ? fmt::format("x{}", r.growth) : "after", ">20GB",
      "phys", r.workload_given ? "busiest RU/s" : "max/mean", "RU/s needed", "fan-out", "problems");
  for (size_t i : order) {
    const KeyFacts& k = r.keys[i];
    const std::string needed = !r.workload_given ? std::string("-")
                               : k.ru_needed_ru_per_second > 0
                                   ? FormatRate(k.ru_needed_ru_per_second)
                                   : std::string("none can");
    out += fmt::format("{:<4} {:<{}} {:>10} {:>12} {:>12} {:>6} {:>5} {:>14} {:>14} {:>8} {}\n",
                       k.rank, k.label, width, GroupThousands(k.logical_partitions),
                       FormatSize(k.largest_bytes), FormatSize(k.largest_bytes_after),
                       GroupThousands(k.over_20gb_partitions), k.physical_partitions,
                       r.workload_given ? FormatRate(k.busiest_demand_ru)
                                        : fmt::format("{:.2f}", k.storage_max_over_mean),
                       needed, fmt::format("{}/{}", k.fanout_queries, r.queries.size()),
                       k.problems.empty() ? std::string("-") : std::to_string(k.problems.size()));
  }
  for (size_t i : order) {
    for (const std::string& p : r.keys[i].problems)
      out += fmt::format("  {}: {}\n", r.keys[i].label, p);
  }
  for (size_t i : order) {
    const KeyFacts& k = r.keys[i];
    if (!r.traffic) break;
    const WriteSpread& w = k.write_spread;
    if (w.measured) {
      out += fmt::format(
          "  {}: writes per {} (by {}): {:.1f} logical and {:.1f} of {} physical partitions, the "
          "busiest taking {}\n",
          k.label, WindowWords(w.window_seconds), w.time_path, w.logical_per_window,
          w.physical_per_window, w.physical_partitions, FormatPercent(w.busiest_share));
    }
    std::string mono = MonotonicWords(k.monotonicity);
    if (!mono.empty()) out += fmt::format("  {} {}\n", k.label, mono);
  }
  if (r.traffic && !r.keys.empty() && !r.keys[0].write_spread.measured) {
    out += fmt::format("Write spread not measured: {}.\n", r.keys[0].write_spread.why_not);
  }
  out += r.why + "\n";
  if (!r.workload_given) {
    out +=
        "No workload given: throttling and request demand are not judged (--reads, --writes, "
        "--queries).\n";
  }
  return out;
}

}  // namespace partplay
