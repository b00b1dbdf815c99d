// partplay — the command-line face of the engine. Reads a file or stdin in 1 MiB chunks straight
// into the engine's buffer, so inputs far larger than memory stream through.
//
//   partplay analyze --key /userId [--key /b ...] [--format json|table] [--discover N|all] FILE|-
//   partplay epk --version 1|2|multihash VALUE...
//   partplay token | cql (cql_commands.cpp), partplay size (size_command.cpp)
//
// Exit code: 0 on success, otherwise the error's code from engine/include/partplay/core/error_codes.h
// (the error is printed on stderr).
#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.h"
#include "cli_io.h"
#include "cql_commands.h"
#include "partplay/ingest/analysis.h"
#include "shard_commands.h"
#include "size_command.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_builder.h"
#include "partplay/report/report_format.h"
#include "partplay/core/version.h"

namespace {

using partplay::cli::ParseNumber;

using partplay::ErrorCode;
using partplay::Status;

const char kUsage[] =
    "usage: partplay analyze --key PATH [--key PATH ...] [--format json|table]\n"
    "                        [--discover N|all] [--max-rows N] [--no-id-check]\n"
    "                        [--synthetic concat:P1,P2[,..] | random:N | hash:PATH:N]\n"
    "                        [--separator S] [--seed N] [--weight PATH]\n"
    "                        [--container] [--hash-version 1|2|multihash] [--no-large-keys]\n"
    "                        [--ru N] [--autoscale] [--growth X] [--grow-ru N]\n"
    "                        [--reads N] [--writes N] [--queries N]\n"
    "                        [--spread uniform|zipf[:S]|field:PATH]\n"
    "                        [--read-factor X] [--write-factor X] [--query-ru X]\n"
    "                        [--route KEY_JSON] [--container-json JSON]\n"
    "                        [--analysis-json JSON] [--jobs N] [--partial-out PART]\n"
    "                        FILE|-\n"
    "       partplay merge [--format json|table] [--max-rows N] [container options]\n"
    "                      PART...\n"
    "       partplay epk --version 1|2|multihash [--] VALUE...\n"
    "       partplay token --types T1[,T2...] VALUE...   (partplay token --help)\n"
    "       partplay cql [--nodes N] [--vnodes V] [--format json|cqlsh|details] FILE|-\n"
    "       partplay size --schema FILE.cql --table NAME --rows-per-partition N ...\n"
    "       partplay size --data FILE --key PATH ...     (partplay size --help)\n"
    "       partplay error-codes\n"
    "       partplay --version\n"
    "\n"
    "analyze   groups the JSON items in FILE (or stdin for -) into logical partitions by the\n"
    "          partition key PATH, a JSON pointer such as /userId or /address/city\n"
    "          (~1 escapes '/', ~0 escapes '~'). Several --key options make a hierarchical key.\n"
    "          Input: NDJSON (one object per line), a JSON array of objects, or one object.\n"
    "          --format json prints the report described in docs/report.md (all partitions,\n"
    "          streamed);\n"
    "          --format table (default) prints a summary and the largest --max-rows partitions.\n"
    "          --discover N scans the first N items (default 10000, 'all', or 0) for\n"
    "          candidate key paths.\n"
    "          --synthetic builds one string key per item: the values at P1,P2.. joined by\n"
    "          --separator (default -), or the value at --key followed by the separator and\n"
    "          1 + a seeded random number mod N (random) or 1 + MurmurHash3 of the value at\n"
    "          PATH mod N (hash). --weight sums a numeric field per partition.\n"
    "          --container (or any option after it above) models a Cosmos DB container: EPKs,\n"
    "          physical partitions for --ru RU/s (default 400), growth and splits, the\n"
    "          workload's RU/s per partition, hot partitions, findings, query routing for\n"
    "          --route, and the key advisor. README \"Cosmos DB model\" lists the assumptions.\n"
    "          --analysis-json and --container-json take the options as the page sends them\n"
    "          (docs/report.md \"Options\"); later options override them.\n"
    "          --jobs N analyzes N parts of FILE on N threads and merges them (default: one\n"
    "          per core for files over 1 MiB; NDJSON only, cut between items; the report\n"
    "          and any error are exactly one pass's). --partial-out PART also writes the\n"
    "          analysis as a mergeable partial state (README \"Sharding\").\n"
    "merge     merges the partial states PART... (in input order) and prints the report of\n"
    "          one pass over the concatenated inputs; the analysis options come from them.\n"
    "epk       prints the Cosmos DB effective partition key (upper-case hex) of the key whose\n"
    "          components are the VALUEs, as the @azure/cosmos SDK computes it for a partition\n"
    "          key definition of version 1 or 2 or of kind MultiHash (hierarchical keys). Each\n"
    "          VALUE is a JSON literal ('\"redmond\"', 5, -0.5, true, null) or undefined.\n";

int Fail(const Status& status, bool json) {
  if (json) {
    std::fputs(partplay::StatusToJson(status).c_str(), stderr);
  } else {
    std::fprintf(stderr, "partplay: %s\n", status.ToString().c_str());
  }
  return static_cast<int>(status.code());
}

int Usage(const std::string& problem) {
  std::fprintf(stderr, "partplay: %s\n\n%s", problem.c_str(), kUsage);
  return static_cast<int>(ErrorCode::kUsage);
}

bool ParseCount(std::string_view text, int64_t& out) {
  if (text.empty() || text.size() > 18) return false;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

// --synthetic concat:/a,/b | random:N | hash:/path:N
bool ParseSynthetic(std::string_view text, partplay::SyntheticKeyOptions& syn) {
  using Kind = partplay::SyntheticKeyOptions::Kind;
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view kind = text.substr(0, colon), rest = text.substr(colon + 1);
  int64_t n = 0;
  if (kind == "concat") {
    syn.kind = Kind::kConcat;
    syn.paths.clear();
    while (true) {
      auto comma = rest.find(',');
      syn.paths.emplace_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    return true;
  }
  if (kind == "random") {
    syn.kind = Kind::kRandomSuffix;
  } else if (kind == "hash") {
    syn.kind = Kind::kHashSuffix;
    auto last = rest.rfind(':');
    if (last == std::string_view::npos) return false;
    syn.suffix_path = rest.substr(0, last);
    rest = rest.substr(last + 1);
  } else {
    return false;
  }
  if (!ParseCount(rest, n) || n < 1 || n > 1000000) return false;
  syn.buckets = static_cast<uint32_t>(n);
  return true;
}

// `analyze`, or with `merge` the `merge` command (same report and container options; the input
// is partial states, and the analysis options come from them).
int Analyze(int argc, char** argv, bool merge) {
  partplay::AnalysisOptions options;
  options.key_paths.clear();
  std::optional<partplay::ContainerOptions> container;
  auto model = [&]() -> partplay::ContainerOptions& {
    if (!container) container.emplace();
    return *container;
  };
  std::string format = "table";
  std::string file;
  std::vector<std::string> parts;  // merge
  int64_t jobs = 0;                // 0: one per core, for files over 1 MiB
  std::string partial_out;
  int64_t max_rows = 50;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    // A numeric option of the container model: false (after a usage message) when bad.
    auto number = [&](double& out, double min) {
      const char* v = value();
      return v && ParseNumber(v, out) && out >= min;
    };
    if (arg == "--jobs") {
      const char* v = value();
      if (!v || !ParseCount(v, jobs) || jobs < 1 || jobs > 256) {
        return Usage("--jobs takes a number of parts, 1 to 256");
      }
    } else if (arg == "--partial-out") {
      const char* v = value();
      if (!v || !*v) return Usage("--partial-out needs a file name");
      partial_out = v;
    } else if (arg == "--key" || arg == "-k") {
      const char* v = value();
      if (!v) return Usage("--key needs a path, e.g. --key /userId");
      options.key_paths.push_back(v);
    } else if (arg == "--format") {
      const char* v = value();
      if (!v || (std::string_view(v) != "json" && std::string_view(v) != "table" &&
                 std::string_view(v) != "text")) {
        return Usage("--format is json or table (or text)");
      }
      format = std::string_view(v) == "text" ? "table" : v;
    } else if (arg == "--discover") {
      const char* v = value();
      if (v && std::string_view(v) == "all") {
        options.discover_items = -1;
      } else if (!v || !ParseCount(v, options.discover_items)) {
        return Usage("--discover takes a number of items or 'all'");
      }
    } else if (arg == "--max-rows") {
      const char* v = value();
      if (!v || !ParseCount(v, max_rows)) return Usage("--max-rows takes a number");
    } else if (arg == "--no-id-check") {
      options.check_ids = false;
    } else if (arg == "--synthetic") {
      const char* v = value();
      if (!v || !ParseSynthetic(v, options.synthetic)) {
        return Usage("--synthetic takes concat:P1,P2[,..], random:N or hash:PATH:N");
      }
    } else if (arg == "--separator") {
      const char* v = value();
      if (!v) return Usage("--separator needs a string");
      options.synthetic.separator = v;
    } else if (arg == "--seed") {
      const char* v = value();
      int64_t seed = 0;
      if (!v || !ParseCount(v, seed)) return Usage("--seed takes a whole number");
      options.synthetic.seed = static_cast<uint64_t>(seed);
    } else if (arg == "--weight") {
      const char* v = value();
      if (!v) return Usage("--weight needs a path");
      options.weight_path = v;
    } else if (arg == "--analysis-json") {
      const char* v = value();
      if (!v) return Usage("--analysis-json needs a JSON object");
      auto parsed = partplay::ParseAnalysisOptionsJson(v);
      if (!parsed.ok()) return Usage(parsed.status().message());
      options = std::move(parsed).value();
    } else if (arg == "--container") {
      model();
    } else if (arg == "--container-json") {
      const char* v = value();
      if (!v) return Usage("--container-json needs a JSON object");
      auto parsed = partplay::ParseContainerOptionsJson(v);
      if (!parsed.ok()) return Usage(parsed.status().message());
      container = std::move(parsed).value();
    } else if (arg == "--hash-version") {
      const char* v = value();
      auto version = partplay::ParsePartitionKeyHashVersion(v ? v : "");
      if (!version.ok()) return Usage("--hash-version is 1, 2 or multihash");
      model().version = version.value();
    } else if (arg == "--no-large-keys") {
      model().large_partition_keys = false;
    } else if (arg == "--ru") {
      if (!number(model().ru_per_second, 1)) return Usage("--ru takes RU/s (1 or more)");
    } else if (arg == "--autoscale") {
      model().autoscale = true;
    } else if (arg == "--growth") {
      if (!number(model().growth, 1)) return Usage("--growth takes a factor of 1 or more");
    } else if (arg == "--grow-ru") {
      if (!number(model().grown_ru_per_second, 0)) return Usage("--grow-ru takes RU/s");
    } else if (arg == "--reads") {
      if (!number(model().workload.point_reads_per_second, 0)) return Usage("--reads takes a rate");
    } else if (arg == "--writes") {
      if (!number(model().workload.writes_per_second, 0)) return Usage("--writes takes a rate");
    } else if (arg == "--queries") {
      if (!number(model().workload.queries_per_second, 0)) return Usage("--queries takes a rate");
    } else if (arg == "--read-factor") {
      if (!number(model().workload.costs.read_factor, 0)) return Usage("--read-factor: 0 or more");
    } else if (arg == "--write-factor") {
      if (!number(model().workload.costs.write_factor, 0)) {
        return Usage("--write-factor: 0 or more");
      }
    } else if (arg == "--query-ru") {
      if (!number(model().workload.costs.query_ru, 0)) return Usage("--query-ru: 0 or more");
    } else if (arg == "--spread") {
      const char* v = value();
      std::string_view spread = v ? v : "";
      partplay::Workload& w = model().workload;
      if (spread == "uniform") {
        w.spread = partplay::RequestSpread::kUniformItems;
      } else if (spread == "zipf" || spread.substr(0, 5) == "zipf:") {
        w.spread = partplay::RequestSpread::kZipf;
        if (spread.size() > 5 && (!ParseNumber(spread.substr(5), w.zipf_exponent) ||
                                  w.zipf_exponent <= 0)) {
          return Usage("--spread zipf:S takes an exponent S > 0");
        }
      } else if (spread.substr(0, 6) == "field:" && spread.size() > 6) {
        w.spread = partplay::RequestSpread::kField;
        options.weight_path = spread.substr(6);
      } else {
        return Usage("--spread is uniform, zipf[:S] or field:PATH");
      }
    } else if (arg == "--route") {
      const char* v = value();
      auto key = partplay::ParsePartitionKeyJson(v ? v : "");
      if (!key.ok()) return Usage(fmt::format("--route: {}", key.status().message()));
      model().route = std::move(key).value();
    } else if (merge && !arg.empty() && arg[0] != '-') {
      parts.emplace_back(arg);
    } else if (arg == "-" || (!arg.empty() && arg[0] != '-')) {
      if (!file.empty()) return Usage("give one input file");
      file = arg;
    } else {
      return Usage(fmt::format("unknown option {}", arg));
    }
  }
  if (merge) {
    if (!options.key_paths.empty() || jobs != 0 || !partial_out.empty()) {
      return Usage(
          "merge takes its analysis options from the partial states (no --key, --jobs "
          "or --partial-out)");
    }
    if (parts.empty()) return Usage("give the partial states to merge (PART...)");
  } else {
    if (options.key_paths.empty()) return Usage("--key is required");
    if (file.empty()) return Usage("give an input FILE, or - for stdin");
  }
  bool json = format == "json";

  auto analyzer =
      merge ? partplay::cli::MergePartialFiles(parts)
            : partplay::cli::RunAnalysis(
                  options, file, jobs == 0 ? partplay::cli::DefaultJobs() : static_cast<int>(jobs),
                  jobs == 0 ? (1u << 20) : 1, partial_out);
  if (!analyzer.ok()) return Fail(analyzer.status(), json);
  auto& a = *analyzer.value();
  options = a.options();
  // Several key paths make a hierarchical key unless a version was chosen.
  if (container && options.key_paths.size() > 1 &&
      container->version == partplay::PartitionKeyHashVersion::kV2) {
    container->version = partplay::PartitionKeyHashVersion::kMultiHash;
  }

  partplay::ReportRequest request;
  request.container = container;
  // JSON lists every partition: the first ones in the report, the others streamed after it.
  constexpr int64_t kJsonHeadPartitions = 1000;
  request.max_partitions = json ? kJsonHeadPartitions : max_rows;
  request.stream_partitions = json;
  auto built = partplay::BuildFullReport(a, options, request);
  if (!built.ok()) return Fail(built.status(), json);
  std::string out;
  if (json) {
    std::string tail = std::move(built.value().json_tail);
    std::fwrite(built.value().json.data(), 1, built.value().json.size(), stdout);
    built.value() = {};  // only the tail is needed now
    // The model hashed every key already, so an EPK cannot fail here.
    Status streamed = partplay::WriteMorePartitionsJson(
        a, request, kJsonHeadPartitions,
        [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
    if (!streamed.ok()) return Fail(streamed, json);
    out = std::move(tail);
  } else {
    out = partplay::ReportToTable(built.value().analysis, static_cast<size_t>(max_rows));
    if (built.value().container) {
      out += "\n" + partplay::ContainerToTable(*container, *built.value().container);
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int Epk(int argc, char** argv) {
  std::string version;
  std::vector<std::string_view> values;
  bool options_done = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    // A JSON number may start with '-': "-5" and "-0.5" are values, not options.
    bool is_value = options_done || arg.size() < 2 || arg[0] != '-' ||
                    (arg[1] >= '0' && arg[1] <= '9');
    if (is_value) {
      values.push_back(arg);
    } else if (arg == "--") {
      options_done = true;
    } else if (arg == "--version") {
      if (i + 1 >= argc) return Usage("--version needs 1, 2 or multihash");
      version = argv[++i];
    } else if (arg.substr(0, 10) == "--version=") {
      version = arg.substr(10);
    } else {
      return Usage(fmt::format("unknown option {}", arg));
    }
  }
  if (version.empty()) return Usage("epk needs --version 1|2|multihash");
  auto parsed_version = partplay::ParsePartitionKeyHashVersion(version);
  if (!parsed_version.ok()) return Usage(parsed_version.status().message());
  if (values.empty()) return Usage("epk needs at least one VALUE");
  partplay::PartitionKey key;
  for (std::string_view v : values) {
    auto component = partplay::ParseKeyComponentLiteral(v);
    if (!component.ok()) {
      return Usage(fmt::format("bad VALUE {}: {} (a JSON literal such as '\"redmond\"', 5, true, "
                               "null, or undefined; quote strings for the shell)",
                               v, component.status().message()));
    }
    key.components.push_back(std::move(component).value());
  }
  auto epk = partplay::EffectivePartitionKey(key, parsed_version.value());
  if (!epk.ok()) return Fail(epk.status(), false);
  std::printf("%s\n", epk.value().c_str());
  return 0;
}

int ErrorCodes() {
  std::string s = "[";
  bool first = true;
#define PARTPLAY_X(name, number, short_name, description)                                  \
  s += fmt::format("{}{{\"code\":{},\"name\":\"{}\",\"description\":\"{}\"}}", first ? "" : ",", \
                   number, short_name, description);                                       \
  first = false;
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  s += "]\n";
  std::fputs(s.c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage("no command");
  std::string_view command = argv[1];
  if (command == "analyze") return Analyze(argc - 2, argv + 2, false);
  if (command == "merge") return Analyze(argc - 2, argv + 2, true);
  if (command == "epk") return Epk(argc - 2, argv + 2);
  if (command == "token") return RunTokenCommand(argc - 1, argv + 1);
  if (command == "cql") return RunCqlCommand(argc - 1, argv + 1);
  if (command == "size") return RunSizeCommand(argc - 1, argv + 1);
  if (command == "error-codes") return ErrorCodes();
  if (command == "--version" || command == "version") {
    std::printf("partplay %s\n", partplay::kVersion);
    return 0;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  return Usage(fmt::format("unknown command {}", command));
}
