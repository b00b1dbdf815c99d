#include "size_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.h"
#include "cli_io.h"
#include "partplay/ingest/analysis.h"
#include "partplay/sizing/data_sizing.h"
#include "partplay/report/report_format.h"
#include "partplay/sizing/sizing_request.h"
#include "partplay/sizing/table_sizing.h"
#include "partplay/sizing/table_sizing_writers.h"

namespace {

using partplay::cli::ParseNumber;

using partplay::ErrorCode;
using partplay::Status;

const char kSizeUsage[] =
    "usage: partplay size --schema FILE.cql --table [KEYSPACE.]NAME\n"
    "                     --rows-per-partition N|A*B [--worst-rows N|A*B]\n"
    "                     [--avg-size COLUMN=BYTES ...] [--partitions P] [--rf R] [--t-avg B]\n"
    "                     [--bucket-column COLUMN=DISTINCT ...]\n"
    "                     [--time-bucket COLUMN:day|week|month:SPAN_DAYS ...]\n"
    "                     [--hash-buckets N ...] [--no-suggest]\n"
    "                     [--growth-rows-per-day N [--retention-days D] [--horizon-days H]]\n"
    "                     [--request-json JSON] [--format text|json]\n"
    "       partplay size --data FILE|- --key PATH [--key PATH ...] [--values-per-row N]\n"
    "                     [--max-examples N] [--format text|json]\n"
    "\n"
    "--schema   sizes the CQL table NAME of the script FILE.cql (its CREATE KEYSPACE, USE and\n"
    "           CREATE TABLE statements) the way the Cassandra data-modelling guide does:\n"
    "           Nv = Nr (Nc - Npk - Ns) + Ns, St = sum of the partition key, static, and\n"
    "           Nr x (regular + clustering) column sizes + Nv x t_avg, table = St x P x R.\n"
    "           --rows-per-partition is Nr, a number or a product (100*730, '100 x 730');\n"
    "           --worst-rows the worst case. --avg-size gives the average bytes of each\n"
    "           variable-width column (text, blob, collections...). --partitions P (default 1),\n"
    "           --rf R (default: the keyspace's; NetworkTopologyStrategy sums its datacenters),\n"
    "           --t-avg B bytes of metadata per value (default 8).\n"
    "           Redesign options, each recomputed in full with its CREATE TABLE and query cost:\n"
    "           --bucket-column moves a clustering column with DISTINCT values per partition\n"
    "           into the partition key; --time-bucket adds a day, week or month column derived\n"
    "           from a date/timestamp clustering column whose rows span SPAN_DAYS per\n"
    "           partition; --hash-buckets adds a bucket column of N values. When a partition\n"
    "           breaks a limit, the smallest hash bucket count that clears them is suggested\n"
    "           (--no-suggest: not). --growth-rows-per-day adds the growth of a partition over\n"
    "           --horizon-days (default 3650, or the retention + 365 if longer), with rows\n"
    "           expiring after --retention-days (TTL; default 0, kept forever).\n"
    "           --request-json takes the request as the page sends it (docs/sizing.md); the\n"
    "           options after it override it.\n"
    "--data     groups the JSON items of FILE by the key PATH (as partplay analyze) and gives\n"
    "           Nr (items), Nv = Nr x values per row and St (the items' JSON bytes) per\n"
    "           partition: p50, p99, max, a histogram, and the partitions over each limit.\n"
    "           --values-per-row defaults to the mean number of scalar fields per item outside\n"
    "           arrays, less the key paths and /id, over the first 10,000 items.\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "partplay size: %s\n\n%s", problem.c_str(), kSizeUsage);
  return static_cast<int>(ErrorCode::kUsage);
}

// The error on stderr (JSON for --format json), `context` (a file name) before a located one.
int Fail(const Status& status, bool json, const std::string& context = "") {
  if (json) {
    std::fputs(partplay::StatusToJson(status).c_str(), stderr);
  } else if (!context.empty() && status.where().known()) {
    std::fprintf(stderr, "partplay size: %s: %s\n", context.c_str(), status.ToString().c_str());
  } else {
    std::fprintf(stderr, "partplay size: %s\n", status.ToString().c_str());
  }
  return static_cast<int>(status.code());
}

bool ParseDays(std::string_view text, int64_t& out) {
  double d = 0;
  if (!ParseNumber(text, d) || d < 0 || d != std::floor(d) || d > 1e15) return false;
  out = static_cast<int64_t>(d);
  return true;
}

// "name=value" with a number value.
bool ParseAssignment(std::string_view text, std::string& name, double& value) {
  size_t eq = text.rfind('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  name = std::string(text.substr(0, eq));
  return ParseNumber(text.substr(eq + 1), value);
}

// "column:unit:span_days"
Status ParseTimeBucket(std::string_view text, partplay::PartitionSplit& split) {
  size_t first = text.find(':');
  size_t second = first == std::string_view::npos ? first : text.find(':', first + 1);
  if (second == std::string_view::npos) {
    return Status(ErrorCode::kUsage, "--time-bucket takes COLUMN:day|week|month:SPAN_DAYS");
  }
  split.kind = partplay::SplitKind::kTimeBucket;
  split.column = std::string(text.substr(0, first));
  auto unit = partplay::ParseTimeBucketUnit(text.substr(first + 1, second - first - 1));
  if (!unit.ok()) return Status(ErrorCode::kUsage, "--time-bucket: " + unit.status().message());
  split.unit = unit.value();
  if (!ParseNumber(text.substr(second + 1), split.span_days) || split.span_days <= 0) {
    return Status(ErrorCode::kUsage, "--time-bucket: SPAN_DAYS is a number of days above 0");
  }
  return Status::Ok();
}

int SizeData(const std::string& file, const std::vector<std::string>& keys,
             std::optional<double> values_per_row, size_t max_examples, bool json) {
  partplay::AnalysisOptions options;
  options.key_paths = keys;
  options.check_ids = false;
  auto analyzer = partplay::Analyzer::Create(options);
  if (!analyzer.ok()) return Fail(analyzer.status(), json);
  partplay::Analyzer& a = *analyzer.value();
  if (Status s = partplay::cli::FeedAnalyzer(a, file); !s.ok()) return Fail(s, json, file);
  auto sized = partplay::SizeAnalyzedData(
      a, {.values_per_row = values_per_row, .max_examples = max_examples});
  if (!sized.ok()) return Fail(sized.status(), json);
  std::string out =
      json ? partplay::DataSizingToJson(sized.value()) : partplay::DataSizingToText(sized.value());
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

int RunSizeCommand(int argc, char** argv) {
  partplay::TableSizingRequest request;
  bool have_rows = false;
  std::string schema_file, data_file, format = "text";
  std::vector<std::string> keys;
  std::optional<double> values_per_row;
  std::optional<partplay::GrowthOptions> growth;
  int64_t max_examples = 10;
  bool json = false;  // known before the other options, for their errors
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string_view(argv[i]) == "--format") json = std::string_view(argv[i + 1]) == "json";
  }
  auto growth_options = [&]() -> partplay::GrowthOptions& {
    if (!growth) growth = request.growth.value_or(partplay::GrowthOptions{});
    return *growth;
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    auto take = [&]() -> const char* {
      if (value != nullptr) ++i;
      return value;
    };
    double number = 0;
    if (arg == "--schema") {
      if (!take()) return Usage("--schema needs a CQL file");
      schema_file = value;
    } else if (arg == "--table") {
      if (!take()) return Usage("--table needs a table name");
      request.table = value;
    } else if (arg == "--rows-per-partition" || arg == "--worst-rows") {
      if (!take()) return Usage(fmt::format("{} needs a number or a product such as 100*730", arg));
      auto rows = partplay::ParseRowsFormula(value);
      if (!rows.ok()) return Fail(rows.status(), json, std::string(arg));
      if (arg == "--worst-rows") {
        request.worst_rows_per_partition = std::move(rows).value();
      } else {
        request.rows_per_partition = std::move(rows).value();
        have_rows = true;
      }
    } else if (arg == "--avg-size") {
      std::string column;
      if (!take() || !ParseAssignment(value, column, number) || number < 0) {
        return Usage("--avg-size takes COLUMN=BYTES, e.g. --avg-size hotel_id=5");
      }
      request.avg_sizes.emplace_back(column, number);
    } else if (arg == "--partitions") {
      if (!take() || !ParseNumber(value, request.partitions) || request.partitions < 0) {
        return Usage("--partitions takes a number of partitions");
      }
    } else if (arg == "--rf") {
      if (!take() || !ParseNumber(value, number) || number < 0) {
        return Usage("--rf takes a replication factor");
      }
      request.replication_factor = number;
    } else if (arg == "--t-avg") {
      if (!take() || !ParseNumber(value, request.t_avg) || request.t_avg < 0) {
        return Usage("--t-avg takes bytes of metadata per value");
      }
    } else if (arg == "--bucket-column") {
      partplay::PartitionSplit split;
      split.kind = partplay::SplitKind::kMoveClusteringColumn;
      if (!take() || !ParseAssignment(value, split.column, split.distinct_values) ||
          split.distinct_values < 1) {
        return Usage("--bucket-column takes COLUMN=DISTINCT, e.g. --bucket-column date=730");
      }
      request.splits.push_back(std::move(split));
    } else if (arg == "--time-bucket") {
      partplay::PartitionSplit split;
      if (!take()) return Usage("--time-bucket takes COLUMN:day|week|month:SPAN_DAYS");
      if (Status s = ParseTimeBucket(value, split); !s.ok()) return Usage(s.message());
      request.splits.push_back(std::move(split));
    } else if (arg == "--hash-buckets") {
      partplay::PartitionSplit split;
      split.kind = partplay::SplitKind::kHashBucket;
      if (!take() || !ParseNumber(value, split.buckets) || split.buckets < 2 ||
          split.buckets != std::floor(split.buckets)) {
        return Usage("--hash-buckets takes a whole number of 2 or more");
      }
      request.splits.push_back(std::move(split));
    } else if (arg == "--no-suggest") {
      request.suggest_splits = false;
    } else if (arg == "--growth-rows-per-day") {
      if (!take() || !ParseNumber(value, growth_options().rows_per_day) ||
          growth_options().rows_per_day < 0) {
        return Usage("--growth-rows-per-day takes rows per day per partition");
      }
    } else if (arg == "--retention-days") {
      if (!take() || !ParseDays(value, growth_options().retention_days)) {
        return Usage("--retention-days takes a whole number of days (0: kept forever)");
      }
    } else if (arg == "--horizon-days") {
      if (!take() || !ParseDays(value, growth_options().horizon_days)) {
        return Usage("--horizon-days takes a whole number of days");
      }
    } else if (arg == "--request-json") {
      if (!take()) return Usage("--request-json needs a JSON object");
      auto parsed = partplay::ParseTableSizingRequestJson(value);
      if (!parsed.ok()) return Usage(fmt::format("--request-json: {}", parsed.status().message()));
      have_rows = true;  // the parser requires rows_per_partition
      request = std::move(parsed).value();
      growth.reset();
    } else if (arg == "--data") {
      if (!take()) return Usage("--data needs a JSON file, or - for stdin");
      data_file = value;
    } else if (arg == "--key" || arg == "-k") {
      if (!take()) return Usage("--key needs a path, e.g. --key /userId");
      keys.push_back(value);
    } else if (arg == "--values-per-row") {
      if (!take() || !ParseNumber(value, number) || number < 0) {
        return Usage("--values-per-row takes a number of values");
      }
      values_per_row = number;
    } else if (arg == "--max-examples") {
      int64_t n = 0;
      if (!take() || !ParseDays(value, n)) return Usage("--max-examples takes a number");
      max_examples = n;
    } else if (arg == "--format") {
      if (!take() || (std::string_view(value) != "json" && std::string_view(value) != "text")) {
        return Usage("--format is text or json");
      }
      format = value;
    } else {
      return Usage(fmt::format("unknown option {}", arg));
    }
  }

  if (!data_file.empty()) {
    if (!schema_file.empty() || have_rows) {
      return Usage("--data measures data; --schema and --rows-per-partition estimate: pick one");
    }
    if (keys.empty()) return Usage("--data needs --key PATH");
    return SizeData(data_file, keys, values_per_row, static_cast<size_t>(max_examples), json);
  }
  if (schema_file.empty() && request.cql.empty()) return Usage("give --schema FILE.cql or --data");
  if (request.table.empty()) return Usage("--table is required");
  if (!have_rows) return Usage("--rows-per-partition is required");
  if (growth) request.growth = growth;
  if (!schema_file.empty()) {
    request.cql.clear();
    auto text = partplay::cli::ReadWholeFile(schema_file);
    if (!text.ok()) return Fail(text.status(), json);
    request.cql = std::move(text).value();
  }
  auto report = partplay::SizeTable(request);
  if (!report.ok()) return Fail(report.status(), json, schema_file);
  std::string out = json ? partplay::TableSizingToJson(report.value())
                         : partplay::TableSizingToText(report.value());
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
