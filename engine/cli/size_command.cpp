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
#include "partplay/report/report_format.h"
#include "partplay/sizing/data_sizing.h"
#include "partplay/sizing/sizing_request.h"
#include "partplay/sizing/table_sizing.h"
#include "partplay/sizing/table_sizing_writers.h"

namespace {

using partplay::cli::ParseNumber;

using partplay::ErrorCode;
using partplay::Status;

const partplay::cli::CommandSpec kSizeSpec = {
    .name = "size",
    .synopsis =
        "--schema FILE.cql --table [KEYSPACE.]NAME\n"
        " --rows-per-partition N|A*B [options]\n"
        "--data FILE|- --key PATH [--key PATH ...] [options]",
    .description =
        "--schema sizes the CQL table NAME of the script FILE.cql (its CREATE KEYSPACE, USE\n"
        "and CREATE TABLE statements) the way the Cassandra data-modelling guide does:\n"
        "  Nv = Nr (Nc - Npk - Ns) + Ns, St = sum of the partition key, static, and\n"
        "  Nr x (regular + clustering) column sizes + Nv x t_avg, table = St x P x R,\n"
        "and recomputes each redesign (--bucket-column, --time-bucket, --hash-buckets) in full\n"
        "with its CREATE TABLE and query cost. When a partition breaks a limit, the smallest\n"
        "hash bucket count that clears them is suggested.\n"
        "--data groups the JSON items of FILE by the key PATH (as partplay analyze) and gives\n"
        "Nr (items), Nv = Nr x values per row and St (the items' JSON bytes) per partition:\n"
        "p50, p99, max, a histogram, and the partitions over each limit. docs/sizing.md\n"
        "describes both reports.\n",
};

int Usage(const std::string& problem) { return partplay::cli::UsageError(kSizeSpec, problem); }

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

// Writes `text` to `out` (stdout or -o FILE) and commits it: whole or not at all.
int Emit(partplay::cli::Output& out, const std::string& text, bool json) {
  out.Write(text);
  if (Status s = out.Commit(); !s.ok()) return Fail(s, json);
  return 0;
}

int Emit(const std::string& output, const std::string& text, bool json) {
  auto out = partplay::cli::Output::Open(output);
  if (!out.ok()) return Fail(out.status(), json);
  return Emit(*out.value(), text, json);
}

int SizeData(const std::string& file, const std::vector<std::string>& keys,
             std::optional<double> values_per_row, size_t max_examples, bool json,
             partplay::cli::ProgressMode progress_mode, const std::string& output) {
  namespace cli = partplay::cli;
  partplay::AnalysisOptions options;
  options.key_paths = keys;
  options.check_ids = false;
  cli::CatchInterrupts(json);
  auto analyzer = partplay::Analyzer::Create(options);
  if (!analyzer.ok()) return Fail(analyzer.status(), json);
  partplay::Analyzer& a = *analyzer.value();
  // Opened before the reading, so an unwritable FILE is said at once.
  auto out = cli::Output::Open(output);
  if (!out.ok()) return Fail(out.status(), json);
  {
    cli::Progress progress(progress_mode, "partplay size", "items", cli::InputSize(file));
    if (Status s = cli::FeedAnalyzer(a, file, &progress); !s.ok()) {
      progress.Clear();
      return Fail(s, json, file);
    }
  }
  auto sized = partplay::SizeAnalyzedData(
      a, {.values_per_row = values_per_row, .max_examples = max_examples});
  if (!sized.ok()) return Fail(sized.status(), json);
  if (cli::Interrupted()) return Fail(cli::InterruptedStatus(), json);
  return Emit(
      *out.value(),
      json ? partplay::DataSizingToJson(sized.value()) : partplay::DataSizingToText(sized.value()),
      json);
}

}  // namespace

int RunSizeCommand(int argc, char** argv) {
  namespace cli = partplay::cli;
  partplay::TableSizingRequest request;
  std::string schema_file, data_file, format = "text", output;
  std::vector<std::string> keys;
  std::optional<double> values_per_row;
  std::optional<partplay::GrowthOptions> growth;
  int64_t max_examples = 10;
  cli::ProgressMode progress_mode = cli::ProgressMode::kAuto;
  // The row formulas are read after the options, so their located errors follow --format.
  std::optional<std::string> rows_text, worst_rows_text;
  bool have_request_rows = false;
  auto growth_options = [&]() -> partplay::GrowthOptions& {
    if (!growth) growth = request.growth.value_or(partplay::GrowthOptions{});
    return *growth;
  };
  auto ok = [](bool good, std::string_view takes) {
    return good ? Status::Ok() : Status(ErrorCode::kUsage, std::string(takes));
  };
  std::vector<cli::Option> table = {
      {"--schema", "", "FILE.cql", "the CQL script holding the table's CREATE TABLE",
       [&](std::string_view v) {
         schema_file = v;
         return Status::Ok();
       }},
      {"--table", "", "[KEYSPACE.]NAME", "the table to size (with --schema)",
       [&](std::string_view v) {
         request.table = v;
         return Status::Ok();
       }},
      {"--rows-per-partition", "", "N|A*B",
       "Nr, a number or a product (100*730, '100 x 730') (with --schema)",
       [&](std::string_view v) {
         rows_text = std::string(v);
         return Status::Ok();
       }},
      {"--worst-rows", "", "N|A*B", "the worst case of Nr",
       [&](std::string_view v) {
         worst_rows_text = std::string(v);
         return Status::Ok();
       }},
      {"--avg-size", "", "COLUMN=BYTES",
       "the average bytes of a variable-width column (text, blob, collections...); repeat per "
       "column",
       [&](std::string_view v) {
         std::string column;
         double number = 0;
         if (!ParseAssignment(v, column, number) || number < 0) {
           return ok(false, "--avg-size takes COLUMN=BYTES, e.g. --avg-size hotel_id=5");
         }
         request.avg_sizes.emplace_back(column, number);
         return Status::Ok();
       }},
      {"--partitions", "", "P", "the number of partitions (default 1)",
       [&](std::string_view v) {
         return ok(ParseNumber(v, request.partitions) && request.partitions >= 0,
                   "--partitions takes a number of partitions");
       }},
      {"--rf", "", "R",
       "the replication factor (default: the keyspace's; NetworkTopologyStrategy sums its "
       "datacenters)",
       [&](std::string_view v) {
         double number = 0;
         if (!ParseNumber(v, number) || number < 0) {
           return ok(false, "--rf takes a replication factor");
         }
         request.replication_factor = number;
         return Status::Ok();
       }},
      {"--t-avg", "", "B", "bytes of metadata per value (default 8)",
       [&](std::string_view v) {
         return ok(ParseNumber(v, request.t_avg) && request.t_avg >= 0,
                   "--t-avg takes bytes of metadata per value");
       }},
      {"--bucket-column", "", "COLUMN=DISTINCT",
       "redesign: move a clustering column with DISTINCT values per partition into the "
       "partition key",
       [&](std::string_view v) {
         partplay::PartitionSplit split;
         split.kind = partplay::SplitKind::kMoveClusteringColumn;
         if (!ParseAssignment(v, split.column, split.distinct_values) ||
             split.distinct_values < 1) {
           return ok(false, "--bucket-column takes COLUMN=DISTINCT, e.g. --bucket-column date=730");
         }
         request.splits.push_back(std::move(split));
         return Status::Ok();
       }},
      {"--time-bucket", "", "COLUMN:day|week|month:SPAN_DAYS",
       "redesign: add a day, week or month column derived from a date/timestamp clustering "
       "column whose rows span SPAN_DAYS per partition",
       [&](std::string_view v) {
         partplay::PartitionSplit split;
         PARTPLAY_RETURN_IF_ERROR(ParseTimeBucket(v, split));
         request.splits.push_back(std::move(split));
         return Status::Ok();
       }},
      {"--hash-buckets", "", "N", "redesign: add a bucket column of N values (2 or more)",
       [&](std::string_view v) {
         partplay::PartitionSplit split;
         split.kind = partplay::SplitKind::kHashBucket;
         if (!ParseNumber(v, split.buckets) || split.buckets < 2 ||
             split.buckets != std::floor(split.buckets)) {
           return ok(false, "--hash-buckets takes a whole number of 2 or more");
         }
         request.splits.push_back(std::move(split));
         return Status::Ok();
       }},
      {"--no-suggest", "", "", "no hash bucket suggestion",
       [&](std::string_view) {
         request.suggest_splits = false;
         return Status::Ok();
       }},
      {"--growth-rows-per-day", "", "N",
       "rows added per day per partition: the growth of a partition over --horizon-days",
       [&](std::string_view v) {
         return ok(
             ParseNumber(v, growth_options().rows_per_day) && growth_options().rows_per_day >= 0,
             "--growth-rows-per-day takes rows per day per partition");
       }},
      {"--retention-days", "", "D", "rows expire after D days (TTL; default 0, kept forever)",
       [&](std::string_view v) {
         return ok(ParseDays(v, growth_options().retention_days),
                   "--retention-days takes a whole number of days (0: kept forever)");
       }},
      {"--horizon-days", "", "H",
       "the growth's horizon (default 3650, or the retention + 365 if longer)",
       [&](std::string_view v) {
         return ok(ParseDays(v, growth_options().horizon_days),
                   "--horizon-days takes a whole number of days");
       }},
      {"--request-json", "", "JSON",
       "the request as the page sends it (docs/sizing.md); the options after it override it",
       [&](std::string_view v) {
         auto parsed = partplay::ParseTableSizingRequestJson(v);
         if (!parsed.ok()) return ok(false, parsed.status().message());
         request = std::move(parsed).value();
         have_request_rows = true;  // the parser requires rows_per_partition
         rows_text.reset();
         worst_rows_text.reset();
         growth.reset();
         return Status::Ok();
       }},
      {"--data", "", "FILE|-", "measure the partitions of the JSON items in FILE (- for stdin)",
       [&](std::string_view v) {
         data_file = v;
         return Status::Ok();
       }},
      {"--key", "-k", "PATH", "the partition key path (with --data); repeat for a hierarchical key",
       [&](std::string_view v) {
         keys.emplace_back(v);
         return Status::Ok();
       }},
      {"--values-per-row", "", "N",
       "values per row (with --data; default: the mean number of scalar fields per item outside "
       "arrays, less the key paths and /id, over the first 10,000 items)",
       [&](std::string_view v) {
         double number = 0;
         if (!ParseNumber(v, number) || number < 0) {
           return ok(false, "--values-per-row takes a number of values");
         }
         values_per_row = number;
         return Status::Ok();
       }},
      {"--max-examples", "", "N", "partitions listed per limit (with --data; default 10)",
       [&](std::string_view v) {
         return ok(ParseDays(v, max_examples), "--max-examples takes a number");
       }},
      {"--format", "", "text|json",
       "text (default) shows the arithmetic; json prints docs/sizing.md's object",
       [&](std::string_view v) {
         if (v != "json" && v != "text") return ok(false, "--format is text or json");
         format = v;
         return Status::Ok();
       }},
  };
  cli::AddOutputOption(table, output);
  cli::AddProgressOptions(table, progress_mode);
  auto operand = [](std::string_view arg) {
    return Status(ErrorCode::kUsage,
                  fmt::format("unexpected {} (files are given with --schema or --data)", arg));
  };
  if (auto done = cli::ParseCommandLine(kSizeSpec, table, argc, argv, operand)) return *done;
  bool json = format == "json";
  bool have_rows = have_request_rows || rows_text.has_value();
  if (worst_rows_text) {
    auto rows = partplay::ParseRowsFormula(*worst_rows_text);
    if (!rows.ok()) return Fail(rows.status(), json, "--worst-rows");
    request.worst_rows_per_partition = std::move(rows).value();
  }
  if (rows_text) {
    auto rows = partplay::ParseRowsFormula(*rows_text);
    if (!rows.ok()) return Fail(rows.status(), json, "--rows-per-partition");
    request.rows_per_partition = std::move(rows).value();
  }

  if (!data_file.empty()) {
    if (!schema_file.empty() || have_rows) {
      return Usage("--data measures data; --schema and --rows-per-partition estimate: pick one");
    }
    if (keys.empty()) return Usage("--data needs --key PATH");
    return SizeData(data_file, keys, values_per_row, static_cast<size_t>(max_examples), json,
                    progress_mode, output);
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
  return Emit(output,
              json ? partplay::TableSizingToJson(report.value())
                   : partplay::TableSizingToText(report.value()),
              json);
}
