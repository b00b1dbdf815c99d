// `partplay compare`: several candidate partition keys judged side by side on the same items
// (report/key_comparison.h).
#include "compare_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.h"
#include "cli_io.h"
#include "partplay/core/status.h"
#include "partplay/report/candidate_spec.h"
#include "partplay/report/comparison_run.h"
#include "partplay/report/key_comparison.h"
#include "partplay/report/options_json.h"
#include "partplay/report/query_workload.h"
#include "partplay/report/report_format.h"

namespace {

namespace cli = partplay::cli;
using partplay::ErrorCode;
using partplay::Status;

const cli::CommandSpec kCompareSpec = {
    .name = "compare",
    .synopsis =
        "--candidate SPEC [--candidate SPEC ...]\n"
        " [--query SQL|PATHS [--query-rate N] ...] [--queries FILE]\n"
        " [options] FILE|-",
    .description =
        "Judges each candidate key on the same JSON items (NDJSON, an array, or one object)\n"
        "and the same container: logical partitions, the largest now and after --growth,\n"
        "partitions over 20 GB, physical partitions, the busiest physical partition's RU/s\n"
        "demand (with a workload), and where each --query goes; then picks the best key and\n"
        "says why (docs/report.md \"Key comparison\" has the ranking rule). A query is a\n"
        "Cosmos DB NoSQL query (SELECT * FROM c WHERE c.userId = @u) or the paths it\n"
        "filters on by equality (/tenantId,/userId); a parameter without --param takes the\n"
        "value of its property that the most items hold. A SPEC is\n"
        "  /tenantId                a path\n"
        "  /tenantId,/userId        a hierarchical key (MultiHash), up to 3 paths\n"
        "  concat:/tenantId,/date   a synthetic key joining the values with '-'; a part may\n"
        "                           be a piece of a value: concat:/tenantId,month(/orderDate)\n"
        "                           (year, month, day, hour of a date; left(/P, N);\n"
        "                           substring(/P, START, N))\n"
        "  random:/tenantId:N       the value and a random suffix 1..N\n"
        "  hash:/tenantId:/id:N     the value and 1 + hash(value at /id) mod N\n"
        "Without --reads/--writes or a --query-rate no workload is assumed and no throttling\n"
        "is judged (the queries' rates add up to the workload's queries per second). Then\n"
        "the items are read a second time under every key as laid out: the\n"
        "write spread (the items cut into time windows by --time-path, or a time field\n"
        "found in the first item: how many physical partitions each window's writes reach)\n"
        "and whether each key is monotonic (follows the input's order or the time).\n",
};

Status Bad(std::string_view message) { return Status(ErrorCode::kUsage, std::string(message)); }

int Fail(const Status& status, bool json) {
  if (json) {
    std::fputs(partplay::StatusToJson(status).c_str(), stderr);
  } else {
    std::fprintf(stderr, "partplay compare: %s\n", status.ToString().c_str());
  }
  return static_cast<int>(status.code());
}

}  // namespace

int RunCompareCommand(int argc, char** argv) {
  partplay::ComparisonRequest request;
  std::string format = "table", file, output;
  cli::ProgressMode progress_mode = cli::ProgressMode::kAuto;
  auto& c = request.container;
  bool ru_given = false;  // --ru given: refused with --serverless
  auto number = [](double& out, double min, std::string_view takes) {
    return [&out, min, takes](std::string_view v) {
      return cli::ParseNumber(v, out) && out >= min ? Status::Ok() : Bad(takes);
    };
  };
  std::vector<cli::Option> table = {
      {"--candidate", "-c", "SPEC", "a key to judge (see above); repeat, up to 8",
       [&](std::string_view v) {
         auto key = partplay::ParseCandidateSpec(v);  // report/candidate_spec.h
         if (!key.ok()) {
           return Bad(partplay::CandidateSpecGrammar());
         }
         request.keys.push_back(std::move(key).value());
         return Status::Ok();
       }},
      {"--query", "", "SQL|PATHS",
       "a query the application runs: Cosmos DB NoSQL, or the paths it filters on by equality "
       "(comma-separated); repeat, up to 16",
       [&](std::string_view v) {
         partplay::QuerySpec q;
         if (!v.empty() && v[0] == '/') {
           auto paths = partplay::ParsePathList(v);
           if (!paths) return Bad("takes a SELECT query or JSON pointers such as /tenantId,/userId");
           q.paths = std::move(*paths);
         } else if (v.empty()) {
           return Bad("takes a SELECT query or JSON pointers such as /tenantId,/userId");
         } else {
           q.sql = std::string(v);
         }
         request.queries.push_back(std::move(q));
         return Status::Ok();
       }},
      {"--query-rate", "", "N", "calls per second of the --query before it",
       [&](std::string_view v) {
         double rate = 0;
         if (request.queries.empty()) return Bad("follows the --query it gives a rate to");
         if (!cli::ParseNumber(v, rate) || rate < 0 || rate > 1e9) {
           return Bad("takes calls per second, 0 to 1e9");
         }
         request.queries.back().rate = rate;
         return Status::Ok();
       }},
      {"--queries", "", "FILE",
       "queries, one per line, each optionally after its rate (\"50 SELECT ...\"); lines "
       "\"@name = JSON\" give parameters",
       [&](std::string_view v) {
         auto text = cli::ReadWholeFile(std::string(v));
         if (!text.ok()) {
           double number = 0;
           if (cli::ParseNumber(v, number)) {
             return Bad("takes a FILE of queries (the rate of each --query is --query-rate)");
           }
           return Bad(text.status().message());
         }
         auto list = partplay::ParseQueryList(text.value());
         if (!list.ok()) return Bad(list.status().message());
         for (auto& q : list.value().queries) request.queries.push_back(std::move(q));
         for (auto& [name, value] : list.value().parameters) {
           if (!request.parameters.emplace(name, value).second) {
             return Bad(fmt::format("gives {} a second value", name));
           }
         }
         return Status::Ok();
       }},
      {"--param", "", "@NAME=JSON", "a query parameter's value (repeat)",
       [&](std::string_view v) {
         const size_t eq = v.find('=');
         if (v.empty() || v[0] != '@' || eq == std::string_view::npos || eq < 2) {
           return Bad("takes @name=JSON value, such as @u=\"u1\" or @n=5");
         }
         auto value = partplay::cosmosql::ParseValueJson(v.substr(eq + 1));
         if (!value.ok()) return Bad(value.status().message());
         if (!request.parameters.emplace(std::string(v.substr(0, eq)), std::move(value).value())
                  .second) {
           return Bad("gives a parameter a second value");
         }
         return Status::Ok();
       }},
      {"--request", "", "JSON",
       "the whole request as the page sends it ({keys, container, queries}); later options add "
       "to it",
       [&](std::string_view v) {
         auto parsed = partplay::ParseComparisonRequestJson(v);
         if (!parsed.ok()) return Bad(parsed.status().message());
         request = std::move(parsed).value();
         return Status::Ok();
       }},
      {"--format", "", "table|json", "a table with the pick (default), or docs/report.md's JSON",
       [&](std::string_view v) {
         if (v != "table" && v != "json") return Bad("is table or json");
         format = v;
         return Status::Ok();
       }},
      {"--hash-version", "", "1|2", "how single-path keys are hashed (several paths: MultiHash)",
       [&](std::string_view v) {
         auto version = partplay::ParsePartitionKeyHashVersion(v);
         if (!version.ok()) return Bad("is 1, 2 or multihash");
         c.version = version.value();
         return Status::Ok();
       }},
      {"--ru", "", "N", "provisioned RU/s (default 400), or the autoscale maximum",
       [&](std::string_view v) {
         ru_given = true;
         return number(c.ru_per_second, 1, "takes RU/s (1 or more)")(v);
       }},
      {"--autoscale", "", "", "--ru is the autoscale maximum (it scales down to 10%)",
       [&](std::string_view) {
         c.autoscale = true;
         return Status::Ok();
       }},
      {"--created-ru", "", "N", "the RU/s the containers were created with (default: --ru)",
       number(c.created_ru_per_second, 1, "takes RU/s (1 or more)")},
      {"--serverless", "", "", "serverless containers (no --ru)",
       [&](std::string_view) {
         c.serverless = true;
         return Status::Ok();
       }},
      {"--quota-increase", "", "REASON",
       "why RU/s above the 1,000,000 per container quota are modelled",
       [&](std::string_view v) {
         if (v.empty()) return Bad("takes a reason");
         c.quota_increase_reason = std::string(v);
         return Status::Ok();
       }},
      {"--growth", "", "X", "the data multiplied by X (default 1)",
       number(c.growth, 1, "takes a factor of 1 or more")},
      {"--reads", "", "N", "point reads per second",
       number(c.workload.point_reads_per_second, 0, "takes a rate")},
      {"--writes", "", "N", "writes per second",
       number(c.workload.writes_per_second, 0, "takes a rate")},
  };
  table.push_back({"--time-path", "", "PATH",
                   "the field holding each item's write time (default: found in the first item)",
                   [&](std::string_view v) {
                     if (v.empty() || v[0] != '/') return Bad("takes a JSON pointer such as /createdAt");
                     request.writes.time_path = std::string(v);
                     return Status::Ok();
                   }});
  table.push_back({"--write-window", "", "W",
                   "the write spread's window: 1m, 1h, 1d, 7d, 30d or seconds (default: the "
                   "smallest holding 100 writes on average)",
                   [&](std::string_view v) {
                     static constexpr std::pair<std::string_view, int64_t> kNamed[] = {
                         {"1m", 60}, {"1h", 3600}, {"1d", 86400}, {"7d", 604800}, {"30d", 2592000}};
                     for (const auto& [name, seconds] : kNamed) {
                       if (v == name) {
                         request.writes.window_seconds = seconds;
                         return Status::Ok();
                       }
                     }
                     double seconds = 0;
                     if (!cli::ParseNumber(v, seconds) || seconds < 1 || seconds > 366.0 * 86400 ||
                         seconds != static_cast<double>(static_cast<int64_t>(seconds))) {
                       return Bad("takes 1m, 1h, 1d, 7d, 30d or a whole number of seconds up to 366 days");
                     }
                     request.writes.window_seconds = static_cast<int64_t>(seconds);
                     return Status::Ok();
                   }});
  table.push_back({"--no-write-spread", "", "",
                   "no write spread and no monotonicity on the second read",
                   [&](std::string_view) {
                     request.writes.enabled = false;
                     return Status::Ok();
                   }});
  table.push_back({"--no-second-read", "", "",
                   "read the items once: no parameter values from the data, no query matches, "
                   "no write spread (what the page's comparison shows)",
                   [&](std::string_view) {
                     request.second_read = false;
                     return Status::Ok();
                   }});
  cli::AddOutputOption(table, output);
  cli::AddProgressOptions(table, progress_mode);
  auto operand = [&](std::string_view arg) {
    if (!file.empty()) return Bad("give one input file");
    file = arg;
    return Status::Ok();
  };
  if (auto done = cli::ParseCommandLine(kCompareSpec, table, argc, argv, operand)) return *done;
  if (request.keys.empty()) return cli::UsageError(kCompareSpec, "give at least one --candidate");
  if (c.serverless && (ru_given || c.autoscale)) {
    return cli::UsageError(kCompareSpec,
                           fmt::format("--serverless takes no {}: a serverless container has no "
                                       "provisioned throughput",
                                       ru_given ? "--ru" : "--autoscale"));
  }
  if (request.keys.size() > partplay::kMaxComparedKeys) {
    return cli::UsageError(kCompareSpec,
                           fmt::format("at most {} candidates", partplay::kMaxComparedKeys));
  }
  if (request.queries.size() > partplay::kMaxComparedQueries) {
    return cli::UsageError(kCompareSpec,
                           fmt::format("at most {} queries", partplay::kMaxComparedQueries));
  }
  if (file.empty()) return cli::UsageError(kCompareSpec, "give an input FILE, or - for stdin");
  const std::string file_name = file;
  const partplay::ContainerOptions container = request.container;  // `request` moves into the run
  auto created = partplay::ComparisonRun::Create(std::move(request));
  if (!created.ok()) return cli::UsageError(kCompareSpec, created.status().ToString());
  partplay::ComparisonRun& run = *created.value();
  // The queries include any the request's query text lists.
  const bool second_read_asked = run.second_read_needed();
  const bool json = format == "json";
  cli::CatchInterrupts(json);
  auto out = cli::Output::Open(output);
  if (!out.ok()) return Fail(out.status(), json);
  // stdin cannot be read twice: its bytes are kept for the second read.
  const bool keep_stdin = second_read_asked && file_name == "-";
  std::string kept;
  // Every key's analyzer (and the value counts) read the same chunk from a staging buffer.
  std::string staging;
  const auto stage = [&](size_t n) {
    staging.resize(n);
    return reinterpret_cast<uint8_t*>(staging.data());
  };
  {
    cli::ChunkSink sink{stage,
                        [&](size_t n) {
                          if (keep_stdin) kept.append(staging.data(), n);
                          return run.Feed(std::string_view(staging.data(), n));
                        },
                        [&]() { return run.Finish(); }, [&]() { return run.items_seen(); }};
    cli::Progress progress(progress_mode, "partplay compare", "items", cli::InputSize(file_name));
    if (Status s = cli::FeedFile(file_name, sink, &progress); !s.ok()) {
      progress.Clear();
      return Fail(s, json);
    }
    progress.Step("comparing the keys");
  }
  if (Status s = run.Compare(container, nullptr); !s.ok()) return Fail(s, json);
  if (run.second_read_needed()) {
    cli::ChunkSink sink{stage,
                        [&](size_t n) { return run.FeedSecond(std::string_view(staging.data(), n)); },
                        [&]() { return run.FinishSecond(); },
                        [&]() { return run.second_items_seen(); }};
    Status read = Status::Ok();
    {
      cli::Progress progress(progress_mode, "partplay compare (second read)", "items",
                             keep_stdin ? std::optional<uint64_t>(kept.size())
                                        : cli::InputSize(file_name));
      if (keep_stdin) {
        read = run.FeedSecond(kept);
        if (read.ok()) read = run.FinishSecond();
      } else {
        read = cli::FeedFile(file_name, sink, &progress);
      }
      if (!read.ok()) progress.Clear();
    }
    if (!read.ok()) return Fail(read, json);
  }
  if (cli::Interrupted()) return Fail(cli::InterruptedStatus(), json);
  out.value()->Write(json ? partplay::ComparisonToJson(run.report())
                          : partplay::ComparisonToTable(run.report()));
  if (Status s = out.value()->Commit(); !s.ok()) return Fail(s, json);
  return 0;
}
