#include "partplay/sizing/formulas.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/message_format.h"
#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"
#include "partplay/ingest/key_path.h"

namespace partplay {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool Finite(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

std::optional<double> FixedCqlTypeSize(std::string_view type) {
  std::string t = Lower(type);
  if (t == "boolean" || t == "tinyint") return 1;
  if (t == "smallint") return 2;
  if (t == "int" || t == "date" || t == "float") return 4;
  if (t == "bigint" || t == "counter" || t == "timestamp" || t == "time" || t == "double") {
    return 8;
  }
  if (t == "uuid" || t == "timeuuid") return 16;
  return std::nullopt;
}

std::optional<double> ColumnFixedSize(const SizedColumn& c) {
  if (c.fixed_bytes) return c.fixed_bytes;
  return FixedCqlTypeSize(c.type);
}

namespace {

bool KnownVariableType(std::string_view type) {
  std::string t = Lower(type);
  if (t == "text" || t == "varchar" || t == "ascii" || t == "blob" || t == "varint" ||
      t == "decimal" || t == "inet" || t == "duration") {
    return true;
  }
  for (const char* prefix : {"list<", "set<", "map<", "frozen<", "tuple<", "vector<"}) {
    if (t.rfind(prefix, 0) == 0 && t.back() == '>') return true;
  }
  return false;
}

}  // namespace

StatusOr<SizingTerms> ComputePartitionSize(const SizingInput& in) {
  if (!Finite(in.rows_per_partition)) {
    return Status(ErrorCode::kBadOption, "rows per partition must be 0 or more");
  }
  if (in.rows_per_partition > kSizingMaxRowsPerPartition) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("rows per partition {} is past 2^53 ({}), the most rows the sizing "
                              "counts exactly",
                              FormatQuantity(in.rows_per_partition),
                              FormatQuantity(kSizingMaxRowsPerPartition)));
  }
  if (!Finite(in.partitions) || !Finite(in.replication_factor) || !Finite(in.t_avg)) {
    return Status(ErrorCode::kBadOption,
                  "partitions, replication factor and t_avg must be 0 or more");
  }
  SizingTerms t;
  t.nr = in.rows_per_partition;
  t.t_avg = in.t_avg;
  t.partitions = in.partitions;
  t.replication_factor = in.replication_factor;
  for (const SizedColumn& c : in.columns) {
    double size;
    if (auto fixed = ColumnFixedSize(c)) {
      size = *fixed;
    } else if (c.user_type || KnownVariableType(c.type)) {
      if (!(c.avg_bytes >= 0) || !std::isfinite(c.avg_bytes)) {
        return Status(ErrorCode::kBadOption,
                      fmt::format("column {} ({}) has no fixed size: give its average size in "
                                  "bytes",
                                  c.name, c.type))
            .WithField("/avg_sizes/" + KeyPath::EscapeSegment(c.name));
      }
      size = c.avg_bytes;
      t.estimated_columns.push_back(c.name);
    } else {
      return Status(ErrorCode::kBadOption,
                    fmt::format("column {}: unknown CQL type {}", c.name, c.type));
    }
    ++t.nc;
    switch (c.role) {
      case ColumnRole::kPartitionKey:
        ++t.npk;
        t.sum_partition_key += size;
        break;
      case ColumnRole::kClustering:
        ++t.npk;
        t.sum_clustering += size;
        break;
      case ColumnRole::kStatic:
        ++t.ns;
        t.sum_static += size;
        break;
      case ColumnRole::kRegular:
        t.sum_regular += size;
        break;
    }
  }
  bool has_partition_key = false;
  for (const SizedColumn& c : in.columns) has_partition_key |= c.role == ColumnRole::kPartitionKey;
  if (!has_partition_key) {
    return Status(ErrorCode::kBadOption, "the table needs a partition key column");
  }
  t.nv = t.nr * (t.nc - t.npk - t.ns) + t.ns;
  t.rows_term = t.nr * (t.sum_regular + t.sum_clustering);
  t.metadata_term = t.nv * t.t_avg;
  t.st_bytes = t.sum_partition_key + t.sum_static + t.rows_term + t.metadata_term;
  t.table_bytes = t.st_bytes * t.partitions * t.replication_factor;
  // Products past the largest double would print as null: an error instead.
  if (!std::isfinite(t.st_bytes) || !std::isfinite(t.table_bytes)) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("the sizes overflow: a partition of {} × a table of {} partitions × "
                              "{} replicas is past the largest number the sizing holds",
                              FormatDecimalBytes(t.st_bytes), FormatQuantity(t.partitions),
                              FormatQuantity(t.replication_factor)));
  }
  return t;
}

namespace {

// FormatDecimalBytes, with the exact bytes when one decimal would show the limit itself.
std::string DecimalSizeOver(double bytes, double limit) {
  std::string text = FormatDecimalBytes(bytes);
  if (text != FormatDecimalBytes(limit)) return text;
  return fmt::format("{} ({} bytes)", text, FormatQuantity(bytes));
}

}  // namespace

bool CanTimeBucket(std::string_view type) {
  const std::string t = Lower(type);
  return t == "date" || t == "timestamp" || t == "timeuuid";
}

std::vector<SizingFinding> CheckPartitionLimits(double nv, double st_bytes) {
  std::vector<SizingFinding> out;
  if (nv > kCassandraCellsPerPartition) {
    out.push_back({"cells_over_2_billion", "error",
                   fmt::format("{} values in one partition: over Cassandra's hard limit of "
                               "{} cells per partition",
                               FormatQuantity(nv), FormatQuantity(kCassandraCellsPerPartition)),
                   nv, kCassandraCellsPerPartition});
  }
  if (nv > kCassandraRecommendedValuesPerPartition) {
    out.push_back(
        {"values_over_100k", "warning",
         fmt::format("{} values in one partition: over the recommended {}", FormatQuantity(nv),
                     FormatQuantity(kCassandraRecommendedValuesPerPartition)),
         nv, kCassandraRecommendedValuesPerPartition});
  }
  if (st_bytes > kCassandraRecommendedPartitionBytes) {
    out.push_back({"size_over_100mb", "warning",
                   fmt::format("{} in one partition: over the recommended {}",
                               DecimalSizeOver(st_bytes, kCassandraRecommendedPartitionBytes),
                               LimitBytesText(kCassandraRecommendedPartitionBytes)),
                   st_bytes, kCassandraRecommendedPartitionBytes});
  }
  if (st_bytes > kCosmosLogicalPartitionBytes) {
    out.push_back({"cosmos_logical_over_20gb", "error",
                   fmt::format("{} in one partition: over Cosmos DB's {} per logical "
                               "partition (Cassandra API included)",
                               internal::FormatSizeOver(st_bytes, kCosmosLogicalPartitionBytes),
                               LimitBytesText(kCosmosLogicalPartitionBytes)),
                   st_bytes, kCosmosLogicalPartitionBytes});
  }
  return out;
}

double RowBytes(const SizingTerms& t) {
  return t.sum_partition_key + t.sum_static + t.sum_clustering + t.sum_regular;
}

std::vector<SizingFinding> CheckRowLimits(double row_bytes) {
  std::vector<SizingFinding> out;
  if (row_bytes > kCosmosItemBytes) {
    out.push_back({"cosmos_row_over_2mb", "error",
                   fmt::format("{} in one row: over Cosmos DB's {} per item, which a Cassandra "
                               "API row is",
                               internal::FormatSizeOver(row_bytes, kCosmosItemBytes),
                               LimitBytesText(kCosmosItemBytes)),
                   row_bytes, kCosmosItemBytes});
  }
  return out;
}

std::vector<SizingFinding> CheckSizingLimits(const SizingTerms& terms) {
  std::vector<SizingFinding> out = CheckPartitionLimits(terms.nv, terms.st_bytes);
  for (SizingFinding& f : CheckRowLimits(RowBytes(terms))) out.push_back(std::move(f));
  return out;
}

// ---- Rows per partition ---------------------------------------------------------------------

double RowsEstimate::value() const {
  double product = 1;
  for (const RowsFactor& f : factors) product *= f.value;
  return product;
}

std::string RowsEstimate::Expression() const {
  std::string out;
  for (size_t i = 0; i < factors.size(); ++i) {
    if (i > 0) out += " × ";
    out += FormatQuantity(factors[i].value);
    if (!factors[i].name.empty()) out += fmt::format(" ({})", factors[i].name);
  }
  return out.empty() ? "1" : out;
}

namespace {

Status RowsFormulaError(std::string_view text, size_t at, std::string_view what) {
  SourceLocation where;
  where.byte_offset = static_cast<int64_t>(at);
  where.line = 1;
  where.column = static_cast<int64_t>(at) + 1;
  return Status(ErrorCode::kBadOption,
                fmt::format("rows per partition \"{}\": {} at column {} (a number, or numbers "
                            "joined by *, x or ×, such as 100*730)",
                            text, what, at + 1),
                where);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The length of the number (digits, '.', an exponent) starting at `at`, 0 if none.
size_t NumberLength(std::string_view text, size_t at) {
  size_t i = at, digits = 0;
  while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < text.size() && IsDigit(text[j])) {
      while (j < text.size() && IsDigit(text[j])) ++j;
      i = j;
    }
  }
  return i - at;
}

// The length of the multiplication sign at `at` ('*', 'x', 'X' or the UTF-8 '×'), 0 if none.
size_t TimesLength(std::string_view text, size_t at) {
  if (text[at] == '*' || text[at] == 'x' || text[at] == 'X') return 1;
  if (text.substr(at, 2) == "\xC3\x97") return 2;
  return 0;
}

}  // namespace

StatusOr<RowsEstimate> ParseRowsFormula(std::string_view text) {
  RowsEstimate out;
  size_t i = 0;
  auto skip_spaces = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  while (true) {
    skip_spaces();
    size_t n = i < text.size() ? NumberLength(text, i) : 0;
    if (n == 0) {
      return RowsFormulaError(text, i,
                              i < text.size() ? "expected a number" : "a number is missing");
    }
    double v = 0;
    if (!ParseFiniteDouble(text.substr(i, n), v) || v > kSizingMaxRowsPerPartition) {
      return RowsFormulaError(text, i, "the number is too large");
    }
    out.factors.push_back({"", v});
    i += n;
    skip_spaces();
    if (i == text.size()) break;
    size_t times = TimesLength(text, i);
    if (times == 0) return RowsFormulaError(text, i, "expected *, x or ×");
    i += times;
  }
  if (!(out.value() <= kSizingMaxRowsPerPartition)) {
    return RowsFormulaError(
        text, 0,
        fmt::format("the product {} is past 2^53 ({}), the most rows "
                    "the sizing counts exactly",
                    FormatQuantity(out.value()), FormatQuantity(kSizingMaxRowsPerPartition)));
  }
  return out;
}

// ---- Splitting a partition ------------------------------------------------------------------

std::string_view TimeBucketUnitName(TimeBucketUnit unit) {
  switch (unit) {
    case TimeBucketUnit::kDay:
      return "day";
    case TimeBucketUnit::kWeek:
      return "week";
    case TimeBucketUnit::kMonth:
      return "month";
  }
  return "month";
}

double TimeBucketDays(TimeBucketUnit unit) {
  switch (unit) {
    case TimeBucketUnit::kDay:
      return 1;
    case TimeBucketUnit::kWeek:
      return 7;
    case TimeBucketUnit::kMonth:
      return 365.25 / 12;
  }
  return 1;
}

StatusOr<TimeBucketUnit> ParseTimeBucketUnit(std::string_view name) {
  std::string n = Lower(name);
  if (n == "day") return TimeBucketUnit::kDay;
  if (n == "week") return TimeBucketUnit::kWeek;
  if (n == "month") return TimeBucketUnit::kMonth;
  return Status(ErrorCode::kBadOption,
                fmt::format("time bucket unit {}: expected day, week or month", name));
}

std::string_view SplitKindName(SplitKind kind) {
  switch (kind) {
    case SplitKind::kMoveClusteringColumn:
      return "move_clustering_column";
    case SplitKind::kTimeBucket:
      return "time_bucket";
    case SplitKind::kHashBucket:
      return "hash_bucket";
  }
  return "hash_bucket";
}

namespace {

SizedColumn* FindColumn(SizingInput& in, std::string_view name) {
  for (SizedColumn& c : in.columns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// `wanted` if given (an error when taken), else `base`, "base_2", "base_3", ...
StatusOr<std::string> NewColumnName(SizingInput& in, const std::string& wanted,
                                    const std::string& base) {
  if (!wanted.empty()) {
    if (FindColumn(in, wanted) != nullptr) {
      return Status(ErrorCode::kBadOption,
                    fmt::format("the new column {} is already a column of the table", wanted));
    }
    return wanted;
  }
  if (FindColumn(in, base) == nullptr) return base;
  for (int i = 2;; ++i) {
    std::string name = fmt::format("{}_{}", base, i);
    if (FindColumn(in, name) == nullptr) return name;
  }
}

StatusOr<SizedColumn*> ClusteringColumn(SizingInput& in, const std::string& name,
                                        std::string_view purpose) {
  SizedColumn* c = FindColumn(in, name);
  if (c == nullptr) {
    return Status(ErrorCode::kBadOption, fmt::format("{}: the table has no column {}", purpose,
                                                     name.empty() ? "(none given)" : name));
  }
  if (c->role != ColumnRole::kClustering) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("{}: {} is not a clustering column", purpose, name));
  }
  return c;
}

}  // namespace

StatusOr<RedesignedInput> ApplySplit(const SizingInput& base, const PartitionSplit& split) {
  RedesignedInput out;
  out.input = base;
  SizingInput& in = out.input;
  switch (split.kind) {
    case SplitKind::kMoveClusteringColumn: {
      PARTPLAY_ASSIGN_OR_RETURN(SizedColumn * c,
                                ClusteringColumn(in, split.column, "moving a column"));
      if (!(split.distinct_values >= 1) || !std::isfinite(split.distinct_values)) {
        return Status(ErrorCode::kBadOption,
                      fmt::format("moving {} into the partition key: give its distinct values "
                                  "per partition (1 or more)",
                                  split.column));
      }
      c->role = ColumnRole::kPartitionKey;
      out.moved_column = c->name;
      out.split_factor = split.distinct_values;
      break;
    }
    case SplitKind::kTimeBucket: {
      PARTPLAY_ASSIGN_OR_RETURN(SizedColumn * c,
                                ClusteringColumn(in, split.column, "a time bucket"));
      std::string type = Lower(c->type);
      if (!CanTimeBucket(type)) {
        return Status(ErrorCode::kBadOption,
                      fmt::format("a time bucket: {} is {}, not a date, timestamp or timeuuid",
                                  c->name, c->type));
      }
      if (!(split.span_days > 0) || !std::isfinite(split.span_days)) {
        return Status(ErrorCode::kBadOption,
                      "a time bucket needs the days one partition's rows span (more than 0)");
      }
      out.split_factor = std::ceil(split.span_days / TimeBucketDays(split.unit));
      if (split.unit == TimeBucketUnit::kDay && type == "date") {
        c->role = ColumnRole::kPartitionKey;  // a day bucket of a date is the date itself
        out.moved_column = c->name;
        break;
      }
      PARTPLAY_ASSIGN_OR_RETURN(
          out.added_column,
          NewColumnName(in, split.new_column, std::string(TimeBucketUnitName(split.unit))));
      out.added_type = split.unit == TimeBucketUnit::kMonth ? "int" : "date";
      break;
    }
    case SplitKind::kHashBucket: {
      if (!(split.buckets >= 2) || split.buckets != std::floor(split.buckets) ||
          !std::isfinite(split.buckets)) {
        return Status(ErrorCode::kBadOption,
                      "a hash bucket needs a whole number of 2 or more "
                      "buckets");
      }
      out.split_factor = split.buckets;
      PARTPLAY_ASSIGN_OR_RETURN(out.added_column, NewColumnName(in, split.new_column, "bucket"));
      out.added_type = "int";
      break;
    }
  }
  if (!out.added_column.empty()) {
    // After the last partition key column, where a reader of the schema expects it.
    size_t at = 0;
    for (size_t i = 0; i < in.columns.size(); ++i) {
      if (in.columns[i].role == ColumnRole::kPartitionKey) at = i + 1;
    }
    SizedColumn added;
    added.name = out.added_column;
    added.type = out.added_type;
    added.role = ColumnRole::kPartitionKey;
    in.columns.insert(in.columns.begin() + static_cast<std::ptrdiff_t>(at), std::move(added));
  }
  in.rows_per_partition = std::ceil(base.rows_per_partition / out.split_factor);
  in.partitions = base.partitions * out.split_factor;
  return out;
}

// ---- Growth over time -----------------------------------------------------------------------

namespace {

struct Threshold {
  const char* code;
  bool on_values;  // Nv, else St
  double limit;
};

constexpr Threshold kThresholds[] = {
    {"cells_over_2_billion", true, kCassandraCellsPerPartition},
    {"values_over_100k", true, kCassandraRecommendedValuesPerPartition},
    {"size_over_100mb", false, kCassandraRecommendedPartitionBytes},
    {"cosmos_logical_over_20gb", false, kCosmosLogicalPartitionBytes},
};

}  // namespace

StatusOr<GrowthSeries> ComputeGrowth(const SizingInput& table, const GrowthOptions& options) {
  if (!Finite(options.rows_per_day) || options.retention_days < 0 || options.horizon_days < 0) {
    return Status(ErrorCode::kBadOption,
                  "growth: rows per day, retention and horizon must be 0 or more");
  }
  GrowthSeries series;
  series.options = options;
  const int64_t retention = options.retention_days;
  int64_t& horizon = series.options.horizon_days;
  if (horizon == 0) horizon = std::max<int64_t>(kSizingDefaultHorizonDays, retention > 0 ? retention + 365 : 0);

  SizingInput at = table;
  auto point = [&](int64_t day) -> StatusOr<GrowthPoint> {
    int64_t kept = retention > 0 ? std::min(day, retention) : day;
    at.rows_per_partition = options.rows_per_day * static_cast<double>(kept);
    PARTPLAY_ASSIGN_OR_RETURN(SizingTerms t, ComputePartitionSize(at));
    return GrowthPoint{day, t.nr, t.nv, t.st_bytes};
  };
  PARTPLAY_ASSIGN_OR_RETURN(GrowthPoint start, point(0));
  // Every later point is computed from a valid table; only an overflowing row count can fail.
  auto measure = [&](int64_t day, const Threshold& th) {
    StatusOr<GrowthPoint> p = point(day);
    if (!p.ok()) return HUGE_VAL;
    return th.on_values ? p->nv : p->st_bytes;
  };

  std::vector<int64_t> days;
  for (const Threshold& th : kThresholds) {
    ThresholdCrossing c{th.code, th.on_values ? "nv" : "st_bytes", th.limit, std::nullopt, false};
    if ((th.on_values ? start.nv : start.st_bytes) > th.limit) {
      c.day = 0;
    } else {
      // The value never shrinks: find a day over the limit, then the first one by bisection.
      int64_t hi = 0;
      if (retention > 0) {
        if (measure(retention, th) > th.limit) hi = retention;
      } else if (options.rows_per_day > 0) {
        hi = 1;
        while (hi < (int64_t{1} << 62) && measure(hi, th) <= th.limit) hi *= 2;
        if (measure(hi, th) <= th.limit) hi = 0;
      }
      if (hi > 0) {
        int64_t lo = 0;  // measure(lo) <= limit < measure(hi)
        while (hi - lo > 1) {
          int64_t mid = lo + (hi - lo) / 2;
          (measure(mid, th) > th.limit ? hi : lo) = mid;
        }
        c.day = hi;
      }
    }
    c.within_horizon = c.day.has_value() && *c.day <= horizon;
    if (c.within_horizon) days.push_back(*c.day);
    series.crossings.push_back(std::move(c));
  }

  const int64_t step = std::max<int64_t>(1, (horizon + 364) / 365);
  for (int64_t d = 0; d < horizon; d += step) days.push_back(d);
  days.push_back(horizon);
  if (retention > 0 && retention < horizon) days.push_back(retention);
  std::sort(days.begin(), days.end());
  days.erase(std::unique(days.begin(), days.end()), days.end());
  for (int64_t d : days) {
    PARTPLAY_ASSIGN_OR_RETURN(GrowthPoint p, point(d));
    series.points.push_back(p);
  }
  series.largest = series.points.back();
  return series;
}

// ---- Formatting -----------------------------------------------------------------------------

std::string FormatQuantity(double x) {
  if (!std::isfinite(x)) return "∞";
  if (x < 0) return fmt::format("-{}", FormatQuantity(-x));
  if (x >= 1e19) return fmt::format("{:.3g}", x);
  if (x == std::floor(x)) return internal::GroupThousands(static_cast<uint64_t>(x));
  std::string text = fmt::format("{:.2f}", x);
  size_t dot = text.find('.');
  int64_t whole_part = 0;
  if (!ParseInt64(std::string_view(text).substr(0, dot), whole_part)) return text;
  std::string whole = internal::GroupThousands(static_cast<uint64_t>(whole_part));
  std::string frac = text.substr(dot + 1);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return frac.empty() ? whole : whole + "." + frac;
}

std::string FormatDecimalBytes(double bytes) {
  if (bytes < 1000) return FormatQuantity(bytes) + " bytes";
  static constexpr const char* kUnits[] = {"KB", "MB", "GB", "TB", "PB"};
  double value = bytes / 1000;
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && value >= 999.95) {
    value /= 1000;
    ++unit;
  }
  return fmt::format("{} {}", internal::OneDecimal(value), kUnits[unit]);
}

std::string NvArithmetic(const SizingTerms& t) {
  return fmt::format("Nv = {} × ({} − {} − {}) + {} = {}", FormatQuantity(t.nr), t.nc, t.npk, t.ns,
                     t.ns, FormatQuantity(t.nv));
}

std::string StArithmetic(const SizingTerms& t) {
  const std::string pk = FormatQuantity(t.sum_partition_key);
  const std::string st = FormatQuantity(t.sum_static);
  return fmt::format(
      "St = {} + {} + {} × ({} + {}) + {} × {} = {} + {} + {} + {} = {} bytes ({})", pk, st,
      FormatQuantity(t.nr), FormatQuantity(t.sum_regular), FormatQuantity(t.sum_clustering),
      FormatQuantity(t.nv), FormatQuantity(t.t_avg), pk, st, FormatQuantity(t.rows_term),
      FormatQuantity(t.metadata_term), FormatQuantity(t.st_bytes), FormatDecimalBytes(t.st_bytes));
}

std::string TableArithmetic(const SizingTerms& t) {
  return fmt::format("table = {} × {} × {} = {} bytes ({})", FormatQuantity(t.st_bytes),
                     FormatQuantity(t.partitions), FormatQuantity(t.replication_factor),
                     FormatQuantity(t.table_bytes), FormatDecimalBytes(t.table_bytes));
}

}  // namespace partplay
