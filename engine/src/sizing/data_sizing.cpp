#include "partplay/sizing/data_sizing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/json_options.h"
#include "core/message_format.h"
#include "partplay/core/json_writer.h"
#include "partplay/sizing/formulas.h"
#include "partplay/sizing/sizing_checks.h"

namespace partplay {

std::vector<MeasuredPartition> MeasuredPartitionsOf(const AnalysisReport& report) {
  std::vector<MeasuredPartition> out;
  out.reserve(report.partitions.size());
  for (const LogicalPartition& p : report.partitions) {
    out.push_back({p.key.ToJson(), static_cast<double>(p.items), static_cast<double>(p.bytes),
                   static_cast<double>(p.largest_item_bytes)});
  }
  return out;
}

double MeanValuesPerItem(const AnalysisReport& report) {
  if (report.sampled_items == 0) return 0;
  uint64_t values = 0;
  for (const CandidatePath& p : report.candidate_paths) {
    bool key = p.path == "/id";
    for (const std::string& k : report.key_paths) key |= p.path == k;
    if (!key) values += p.items;
  }
  return static_cast<double>(values) / static_cast<double>(report.sampled_items);
}

StatusOr<DataSizingRequest> ParseDataSizingRequestJson(std::string_view json) {
  simdjson::dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(simdjson::dom::object object,
                            internal::ParseOptionsObject(parser, json, "data sizing request"));
  DataSizingRequest r;
  PARTPLAY_RETURN_IF_ERROR(internal::ReadOptionFields(
      object, "data sizing",
      {
          {"values_per_row",
           [&](simdjson::dom::element v) -> Status {
             if (v.is_null()) return Status::Ok();
             double d;
             if (v.get_double().get(d) || !std::isfinite(d) || d < 0) {
               return internal::BadOptionField("values_per_row", "must be a number from 0 up");
             }
             r.values_per_row = d;
             return Status::Ok();
           }},
          {"max_examples",
           [&](simdjson::dom::element v) -> Status {
             double d;
             if (v.get_double().get(d) || d < 0 || d > 10000 || d != std::floor(d)) {
               return internal::BadOptionField("max_examples",
                                               "must be a whole number from 0 to 10000");
             }
             r.max_examples = static_cast<size_t>(d);
             return Status::Ok();
           }},
      }));
  return r;
}

StatusOr<DataSizingReport> SizeAnalyzedData(const Analyzer& analyzer,
                                            const DataSizingRequest& request) {
  AnalysisReport report = analyzer.BuildReport({.max_partitions = -1});
  DataSizingOptions options;
  options.values_per_row = request.values_per_row.value_or(MeanValuesPerItem(report));
  options.max_examples = request.max_examples;
  return SizeFromData(MeasuredPartitionsOf(report), options);
}

double NearestRankPercentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double n = static_cast<double>(sorted.size());
  double rank = std::ceil(p * n / 100);
  rank = std::clamp(rank, 1.0, n);
  return sorted[static_cast<size_t>(rank) - 1];
}

std::vector<HistogramBin> LogHistogram(const std::vector<double>& values) {
  std::vector<HistogramBin> bins;
  if (values.empty()) return bins;
  const double max = *std::max_element(values.begin(), values.end());
  // Edges 0, 1, 2, 5, 10, 20, 50, ... until one is above the largest value.
  std::vector<double> edges = {0, 1};
  for (double decade = 1; edges.back() <= max; decade *= 10) {
    for (double step : {2.0, 5.0, 10.0}) edges.push_back(step * decade);
  }
  while (edges.size() > 2 && edges[edges.size() - 2] > max) edges.pop_back();
  for (size_t i = 0; i + 1 < edges.size(); ++i) bins.push_back({edges[i], edges[i + 1], 0});
  for (double v : values) {
    size_t bin =
        static_cast<size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin()) - 1;
    ++bins[std::min(bin, bins.size() - 1)].partitions;
  }
  // From the bin of the smallest value on.
  auto first = std::find_if(bins.begin(), bins.end(),
                            [](const HistogramBin& b) { return b.partitions > 0; });
  bins.erase(bins.begin(), first);
  return bins;
}

namespace {

Distribution Describe(std::vector<double> values) {
  Distribution d;
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.min = values.front();
  d.max = values.back();
  d.p50 = NearestRankPercentile(values, 50);
  d.p99 = NearestRankPercentile(values, 99);
  d.total = std::accumulate(values.begin(), values.end(), 0.0);
  d.mean = d.total / static_cast<double>(values.size());
  return d;
}

struct Threshold {
  const char* code;
  const char* severity;
  const char* measure;
  double limit;
  const char* words;  // what the limit is, for the message; {} is the limit (core/limits.h)
};

constexpr Threshold kThresholds[] = {
    {"cells_over_2_billion", "error", "nv", kCassandraCellsPerPartition,
     "over Cassandra's hard limit of {} values per partition"},
    {"values_over_100k", "warning", "nv", kCassandraRecommendedValuesPerPartition,
     "over the recommended {} values per partition"},
    {"size_over_100mb", "warning", "st_bytes", kCassandraRecommendedPartitionBytes,
     "over the recommended {} per partition"},
    {"cosmos_logical_over_20gb", "error", "st_bytes", kCosmosLogicalPartitionBytes,
     "over Cosmos DB's {} per logical partition"},
    {"cosmos_row_over_2mb", "error", "row_bytes", kCosmosItemBytes,
     "holding an item over Cosmos DB's {} per item"},
};

std::string ThresholdWords(const Threshold& l) {
  const bool values = std::string_view(l.measure) == "nv";
  std::string limit =
      values ? internal::GroupThousands(static_cast<uint64_t>(l.limit)) : LimitBytesText(l.limit);
  std::string words = l.words;  // a constant holding one {} (no runtime format string)
  size_t at = words.find("{}");
  if (at != std::string::npos) words.replace(at, 2, limit);
  return words;
}

// Values as counts; Cassandra's sizes in decimal units, Cosmos DB's in its units of 1024.
std::string ValueText(const DataThreshold& t, double v) {
  if (t.measure == "nv") return fmt::format("{} values", FormatQuantity(v));
  if (t.code.rfind("cosmos_", 0) == 0) return internal::FormatSizeOver(v, t.limit);
  return FormatDecimalBytes(v);
}

}  // namespace

StatusOr<DataSizingReport> SizeFromData(const std::vector<MeasuredPartition>& partitions,
                                        const DataSizingOptions& options) {
  if (!(options.values_per_row >= 0) || !std::isfinite(options.values_per_row)) {
    return Status(ErrorCode::kBadOption, "values per row must be 0 or more");
  }
  DataSizingReport r;
  r.partitions = partitions.size();
  r.values_per_row = options.values_per_row;
  std::vector<double> rows, values, bytes;
  for (const MeasuredPartition& p : partitions) {
    for (double v : {p.rows, p.bytes, p.largest_row_bytes}) {
      if (!(v >= 0) || !std::isfinite(v)) {
        return Status(ErrorCode::kBadOption,
                      fmt::format("partition {}: rows and bytes must be 0 or more", p.key));
      }
    }
    if (p.values >= 0 && !std::isfinite(p.values)) {
      return Status(ErrorCode::kBadOption,
                    fmt::format("partition {}: values must be 0 or more", p.key));
    }
    rows.push_back(p.rows);
    values.push_back(p.values >= 0 ? p.values : p.rows * options.values_per_row);
    bytes.push_back(p.bytes);
  }
  r.nv_histogram = LogHistogram(values);
  r.st_histogram = LogHistogram(bytes);
  r.nr = Describe(std::move(rows));
  r.nv = Describe(values);
  r.st_bytes = Describe(bytes);

  for (const Threshold& l : kThresholds) {
    DataThreshold t{l.code, l.severity, l.measure, l.limit, 0, {}, 0, ""};
    std::vector<PartitionOverLimit> over;
    for (size_t i = 0; i < partitions.size(); ++i) {
      const MeasuredPartition& p = partitions[i];
      double v = t.measure == "nv"         ? values[i]
                 : t.measure == "st_bytes" ? p.bytes
                                           : p.largest_row_bytes;
      if (v > l.limit) over.push_back({p.key, v});
    }
    t.partitions = over.size();
    if (!over.empty()) {
      std::stable_sort(over.begin(), over.end(),
                       [](const PartitionOverLimit& a, const PartitionOverLimit& b) {
                         return a.value > b.value;
                       });
      const PartitionOverLimit largest = over.front();
      if (over.size() > options.max_examples) over.resize(options.max_examples);
      t.examples = std::move(over);
      t.message = fmt::format("{} partition{} {} (the largest, {}, {})",
                              internal::GroupThousands(t.partitions), t.partitions == 1 ? "" : "s",
                              ThresholdWords(l), largest.key, ValueText(t, largest.value));
      if (t.measure != "row_bytes") {
        t.buckets_needed = std::ceil(largest.value / l.limit);
        t.message += fmt::format(
            ": a synthetic key with {} hash buckets, or a bucket column, "
            "brings it within the limit if its rows spread evenly",
            FormatQuantity(t.buckets_needed));
      } else {
        t.message += ": splitting the partition does not shrink an item; split the item";
      }
    }
    r.thresholds.push_back(std::move(t));
  }
  return r;
}

// ---- Output ---------------------------------------------------------------------------------

namespace {

std::string DistributionJson(const Distribution& d) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("min", d.min);
  o.Num("p50", d.p50);
  o.Num("p99", d.p99);
  o.Num("max", d.max);
  o.Num("mean", d.mean);
  o.Num("total", d.total);
  return s + "}";
}

std::string HistogramJson(const std::vector<HistogramBin>& bins) {
  return JsonArray(bins, [](const HistogramBin& bin, std::string& s) {
    s += '{';
    JsonMembers o{s};
    o.Num("lower", bin.lower);
    o.Num("upper", bin.upper);
    o.UInt("partitions", bin.partitions);
    s += '}';
  });
}

std::string ThresholdJson(const DataThreshold& t) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("code", t.code);
  o.Str("severity", t.severity);
  o.Str("measure", t.measure);
  o.Num("limit", t.limit);
  o.UInt("partitions", t.partitions);
  o.Raw("examples", JsonArray(t.examples, [](const auto& example, std::string& examples) {
          examples += '{';
          JsonMembers e{examples};
          e.Str("key", example.key);
          e.Num("value", example.value);
          examples += '}';
        }));
  o.Num("buckets_needed", t.buckets_needed);
  o.Str("message", t.message);
  return s + "}";
}

}  // namespace

std::string DataSizingToJson(const DataSizingReport& r) {
  std::string s = "{";
  JsonMembers o{s};
  o.UInt("partitions", r.partitions);
  o.Num("values_per_row", r.values_per_row);
  o.Raw("nr", DistributionJson(r.nr));
  o.Raw("nv", DistributionJson(r.nv));
  o.Raw("st_bytes", DistributionJson(r.st_bytes));
  o.Raw("nv_histogram", HistogramJson(r.nv_histogram));
  o.Raw("st_histogram", HistogramJson(r.st_histogram));
  o.Raw("thresholds", JsonArray(r.thresholds, [](const DataThreshold& t, std::string& out) {
          out += ThresholdJson(t);
        }));
  o.Raw("checks", SizingChecksJson());
  return s + "}\n";
}

namespace {

void AppendHistogram(const std::vector<HistogramBin>& bins, bool bytes, std::string& out) {
  uint64_t most = 1;
  for (const HistogramBin& b : bins) most = std::max(most, b.partitions);
  auto edge = [&](double v) { return bytes ? FormatDecimalBytes(v) : FormatQuantity(v); };
  for (const HistogramBin& b : bins) {
    std::string range = fmt::format("[{}, {})", edge(b.lower), edge(b.upper));
    size_t bar = static_cast<size_t>(
        std::ceil(40.0 * static_cast<double>(b.partitions) / static_cast<double>(most)));
    out += fmt::format("  {:<26} {:>10}  {}\n", range, internal::GroupThousands(b.partitions),
                       std::string(bar, '#'));
  }
}

}  // namespace

std::string DataSizingToText(const DataSizingReport& r) {
  std::string out = fmt::format("{} partitions, {} values per row (Nv = Nr × {})\n\n",
                                internal::GroupThousands(r.partitions),
                                FormatQuantity(r.values_per_row), FormatQuantity(r.values_per_row));
  out += fmt::format("  {:<12} {:>16} {:>16} {:>16} {:>16}\n", "", "p50", "p99", "max", "mean");
  auto row = [&](const char* name, const Distribution& d, bool bytes) {
    auto v = [&](double x) { return bytes ? FormatDecimalBytes(x) : FormatQuantity(x); };
    out += fmt::format("  {:<12} {:>16} {:>16} {:>16} {:>16}\n", name, v(d.p50), v(d.p99), v(d.max),
                       v(d.mean));
  };
  row("Nr (rows)", r.nr, false);
  row("Nv (values)", r.nv, false);
  row("St (bytes)", r.st_bytes, true);
  out += "\nValues per partition (Nv)\n";
  AppendHistogram(r.nv_histogram, false, out);
  out += "\nBytes per partition (St)\n";
  AppendHistogram(r.st_histogram, true, out);
  out += "\nLimits\n";
  for (const DataThreshold& t : r.thresholds) {
    if (t.partitions == 0) {
      std::string limit =
          t.code.rfind("cosmos_", 0) == 0 ? internal::FormatSize(t.limit) : ValueText(t, t.limit);
      out += fmt::format("  {}: none over {}\n", t.code, limit);
      continue;
    }
    out += fmt::format("  {}: {}\n", t.severity, t.message);
    for (const PartitionOverLimit& e : t.examples) {
      out += fmt::format("    {}  {}\n", e.key, ValueText(t, e.value));
    }
  }
  return out;
}

}  // namespace partplay
