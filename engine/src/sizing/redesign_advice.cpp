#include "partplay/sizing/redesign_advice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "partplay/cassandra/schema.h"
#include "partplay/core/limits.h"
#include "sizing/table_sizing_internal.h"

namespace partplay {

using namespace sizing_internal;

namespace sizing_internal {

std::string KeyList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + cql::QuoteName(n);
  return out;
}

std::string PrimaryKeyText(const std::vector<std::string>& partition_key,
                           const std::vector<std::string>& clustering) {
  std::string key = partition_key.size() == 1 ? cql::QuoteName(partition_key[0])
                                              : fmt::format("({})", KeyList(partition_key));
  if (!clustering.empty()) key += fmt::format(", {}", KeyList(clustering));
  return fmt::format("PRIMARY KEY ({})", key);
}

}  // namespace sizing_internal

namespace {
// ---- Building a redesigned table
// -----------------------------------------------------------------------

// "hotel_id" or "(hotel_id, region)": what one original partition is.
std::string KeyDescription(const std::vector<std::string>& partition_key) {
  return partition_key.size() == 1 ? partition_key[0] : fmt::format("({})", KeyList(partition_key));
}

std::string CreateTableText(const cql::TableSchema& original, const SizingInput& in,
                            const std::vector<std::string>& partition_key,
                            const std::vector<std::string>& clustering) {
  std::string out = fmt::format("CREATE TABLE {} (\n", Qualified(original.keyspace, original.name));
  for (const SizedColumn& c : in.columns) {
    out += fmt::format("    {} {}{},\n", cql::QuoteName(c.name), c.type,
                       c.role == ColumnRole::kStatic ? " static" : "");
  }
  out += fmt::format("    {}\n)", PrimaryKeyText(partition_key, clustering));
  bool any_descending = false;
  std::string order;
  for (const std::string& name : clustering) {
    const cql::ColumnSpec* c = original.Find(name);
    bool descending = c != nullptr && c->descending;
    any_descending |= descending;
    order += fmt::format("{}{} {}", order.empty() ? "" : ", ", cql::QuoteName(name),
                         descending ? "DESC" : "ASC");
  }
  if (any_descending) out += fmt::format(" WITH CLUSTERING ORDER BY ({})", order);
  return out + ";";
}

struct RedesignContext {
  const cql::TableSchema& schema;
  const TableSizingReport& report;
};

std::string SplitRowsExpression(double rows, double factor, double result) {
  return fmt::format("⌈{} / {}⌉ = {}", FormatQuantity(rows), FormatQuantity(factor),
                     FormatQuantity(result));
}

// The option's title, query cost, trade-off and Cosmos DB form, in words.
void ExplainOption(const TableSizingReport& report, const std::vector<std::string>& partition_key,
                   double split_factor, RedesignOption& o) {
  const std::string key = KeyDescription(report.partition_key);
  const std::string new_column = o.moved_column.empty() ? o.added_column : o.moved_column;
  const std::string per = FormatQuantity(split_factor);
  const std::string rows_now = FormatQuantity(o.input.rows_per_partition);
  const std::string rows_before = FormatQuantity(report.input.rows_per_partition);
  std::string paths;
  for (const std::string& c : partition_key) paths += (paths.empty() ? "/" : ", /") + c;
  o.query_cost = fmt::format(
      "Reading every row of one {} (one partition before) now touches {} "
      "partition{}",
      key, per, split_factor == 1 ? "" : "s");
  if (o.growth && o.growth->partitions_per_query != split_factor) {
    o.query_cost += fmt::format(", {} after the growth horizon",
                                FormatQuantity(o.growth->partitions_per_query));
  }
  o.query_cost += ".";
  switch (o.split.kind) {
    case SplitKind::kMoveClusteringColumn:
      o.title = fmt::format("move {} into the partition key ({} values per partition)",
                            o.split.column, per);
      break;
    case SplitKind::kTimeBucket:
      o.title =
          o.moved_column.empty()
              ? fmt::format("time bucket: {} from {} ({} per partition over {} days)",
                            o.added_column, o.split.column, per, FormatQuantity(o.split.span_days))
              : fmt::format(
                    "time bucket: day, which is {} moved into the partition key "
                    "({} per partition over {} days)",
                    o.split.column, per, FormatQuantity(o.split.span_days));
      break;
    case SplitKind::kHashBucket:
      o.title = fmt::format("hash bucket: {} in 0..{} ({} buckets)", o.added_column,
                            FormatQuantity(o.split.buckets - 1), per);
      break;
  }
  if (o.split.kind == SplitKind::kHashBucket) {
    std::string source = report.clustering.empty() ? "the row's key"
                         : report.clustering.size() == 1
                             ? report.clustering[0]
                             : fmt::format("({})", KeyList(report.clustering));
    o.trade_off = fmt::format(
        "Each {} spreads over {} partitions of {} rows instead of {}, by a bucket the "
        "application computes on every write (for example a hash of {} mod {}). A query for one "
        "{} must read all {} buckets ({} queries, or an IN over {} keys) unless it can compute "
        "the bucket of the rows it wants.",
        key, per, rows_now, rows_before, source, per, key, per, per, per);
    o.cosmos = fmt::format(
        "In Cosmos DB: a synthetic key {}-bucket (partplay analyze --synthetic hash:PATH:{} "
        "models it) or a hierarchical key [{}]; the {} limit then applies to each bucket, and "
        "with the hierarchical key a query on {} alone is routed only to the physical partitions "
        "holding that prefix.",
        key, per, paths, LimitBytesText(kCosmosLogicalPartitionBytes), key);
  } else {
    bool time = o.split.kind == SplitKind::kTimeBucket && o.moved_column.empty();
    std::string unit(TimeBucketUnitName(o.split.unit));
    o.trade_off = time
                      ? fmt::format(
                            "Each partition holds one {} of one {}: {} rows instead of {}. A query "
                            "within one {} reads one partition, a range over k {}s reads k. The "
                            "application derives {} from {} on every write and query ({} partly "
                            "duplicates {}), and the current {} takes all of a {}'s writes.",
                            unit, key, rows_now, rows_before, unit, unit, o.added_column,
                            o.split.column, o.added_column, o.split.column, unit, key)
                      : fmt::format(
                            "Each partition holds one ({}, {}): {} rows instead of {}. A query "
                            "must name {} to stay in one partition; a range of {} becomes one "
                            "partition per value, and neighbouring values likely live on "
                            "different nodes.",
                            KeyList(report.partition_key), new_column, rows_now, rows_before,
                            new_column, new_column);
    o.cosmos = fmt::format(
        "In Cosmos DB: a synthetic key joining {} and {} or a hierarchical key [{}]; the {} "
        "limit then applies per full key, and with the hierarchical key a query on {} alone is "
        "routed only to the physical partitions holding that prefix.",
        key, new_column, paths, LimitBytesText(kCosmosLogicalPartitionBytes), key);
  }
}

}  // namespace

StatusOr<RedesignOption> EvaluateRedesign(const cql::TableSchema& schema,
                                          const TableSizingReport& report_in, PartitionSplit split,
                                          bool suggested) {
  const RedesignContext ctx{schema, report_in};
  const TableSizingReport& report = ctx.report;
  RedesignOption o;
  o.suggested = suggested;
  PARTPLAY_ASSIGN_OR_RETURN(RedesignedInput avg, ApplySplit(report.input, split));
  split.new_column = avg.added_column;  // the growth case must add the same column
  o.split = split;
  o.input = avg.input;
  o.added_column = avg.added_column;
  o.added_type = avg.added_type;
  o.moved_column = avg.moved_column;
  PARTPLAY_ASSIGN_OR_RETURN(
      o.average, MakeScenario("average", avg.input,
                              SplitRowsExpression(report.input.rows_per_partition, avg.split_factor,
                                                  avg.input.rows_per_partition),
                              avg.split_factor));
  if (report.worst_case) {
    SizingInput base = report.input;
    base.rows_per_partition = report.worst_case->terms.nr;
    PARTPLAY_ASSIGN_OR_RETURN(RedesignedInput worst, ApplySplit(base, split));
    PARTPLAY_ASSIGN_OR_RETURN(
        o.worst_case, MakeScenario("worst_case", worst.input,
                                   SplitRowsExpression(base.rows_per_partition, worst.split_factor,
                                                       worst.input.rows_per_partition),
                                   worst.split_factor));
  }
  if (report.grown) {
    SizingInput base = report.input;
    base.rows_per_partition = report.grown->terms.nr;
    PartitionSplit grown_split = split;
    if (split.kind == SplitKind::kTimeBucket)
      grown_split.span_days = GrowthSpanDays(*report.growth);
    if (grown_split.kind != SplitKind::kTimeBucket || grown_split.span_days > 0) {
      PARTPLAY_ASSIGN_OR_RETURN(RedesignedInput grown, ApplySplit(base, grown_split));
      PARTPLAY_ASSIGN_OR_RETURN(
          o.growth, MakeScenario("growth", grown.input,
                                 SplitRowsExpression(base.rows_per_partition, grown.split_factor,
                                                     grown.input.rows_per_partition),
                                 grown.split_factor));
    }
  }
  o.clears_limits = o.average.findings.empty() &&
                    (!o.worst_case || o.worst_case->findings.empty()) &&
                    (!o.growth || o.growth->findings.empty());

  // The new primary key: the original partition key plus the moved or added column.
  std::vector<std::string> partition_key = report.partition_key;
  std::vector<std::string> clustering;
  partition_key.push_back(o.moved_column.empty() ? o.added_column : o.moved_column);
  for (const std::string& c : report.clustering) {
    if (c != o.moved_column) clustering.push_back(c);
  }
  o.primary_key = PrimaryKeyText(partition_key, clustering);
  o.create_table = CreateTableText(ctx.schema, o.input, partition_key, clustering);

  ExplainOption(report, partition_key, avg.split_factor, o);
  return o;
}

// The smallest hash bucket count clearing every limit in every case, if one does.
StatusOr<std::optional<RedesignOption>> SuggestHashBuckets(const cql::TableSchema& schema,
                                                           const TableSizingReport& report) {
  const RedesignContext ctx{schema, report};
  const TableSizingReport& r = ctx.report;
  double max_rows = r.input.rows_per_partition;
  if (r.worst_case) max_rows = std::max(max_rows, r.worst_case->terms.nr);
  if (r.grown) max_rows = std::max(max_rows, r.grown->terms.nr);
  max_rows = std::ceil(max_rows);
  auto clears = [&](int64_t n) -> StatusOr<std::optional<RedesignOption>> {
    PartitionSplit split;
    split.kind = SplitKind::kHashBucket;
    split.buckets = static_cast<double>(n);
    PARTPLAY_ASSIGN_OR_RETURN(RedesignOption o,
                              EvaluateRedesign(ctx.schema, ctx.report, split, true));
    if (!o.clears_limits) return std::optional<RedesignOption>();
    return std::optional<RedesignOption>(std::move(o));
  };
  if (!(max_rows >= 2)) return std::optional<RedesignOption>();
  // An integer search, bounded: at most 2^53 buckets (one row each), so at most 53 doublings and
  // 53 halvings; a double midpoint would stop moving past 2^53.
  const int64_t most = static_cast<int64_t>(std::min(max_rows, kSizingMaxRowsPerPartition));
  int64_t lo = 1, hi = 2;  // clears(lo) is false (or untested at 1), find hi that clears
  std::optional<RedesignOption> best;
  while (true) {
    PARTPLAY_ASSIGN_OR_RETURN(best, clears(hi));
    if (best) break;
    if (hi >= most) return std::optional<RedesignOption>();  // one row per partition fails
    lo = hi;
    hi = std::min(hi * 2, most);
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    PARTPLAY_ASSIGN_OR_RETURN(std::optional<RedesignOption> o, clears(mid));
    if (o) {
      hi = mid;
      best = std::move(o);
    } else {
      lo = mid;
    }
  }
  return best;
}

}  // namespace partplay
