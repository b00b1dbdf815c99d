// partplay — the command-line face of the engine. Reads a file or stdin in 1 MiB chunks straight
// into the engine's buffer, so inputs far larger than memory stream through.
//
//   partplay analyze --key /userId [--key /b ...] [--format json|table] [--discover N|all] FILE|-
//   partplay epk --version 1|2|multihash VALUE...
//
// Exit code: 0 on success, otherwise the error's code from engine/include/partplay/error_codes.h
// (the error is printed on stderr).
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/analysis.h"
#include "partplay/effective_partition_key.h"
#include "partplay/report_format.h"
#include "partplay/version.h"

namespace {

using partplay::ErrorCode;
using partplay::Status;

constexpr size_t kChunkBytes = 1u << 20;

const char kUsage[] =
    "usage: partplay analyze --key PATH [--key PATH ...] [--format json|table]\n"
    "                        [--discover N|all] [--max-rows N] FILE|-\n"
    "       partplay epk --version 1|2|multihash [--] VALUE...\n"
    "       partplay error-codes\n"
    "       partplay --version\n"
    "\n"
    "analyze   groups the JSON items in FILE (or stdin for -) into logical partitions by the\n"
    "          partition key PATH, a JSON pointer such as /userId or /address/city\n"
    "          (~1 escapes '/', ~0 escapes '~'). Several --key options make a hierarchical key.\n"
    "          Input: NDJSON (one object per line), a JSON array of objects, or one object.\n"
    "          --format json prints the report described in docs/report.md (all partitions);\n"
    "          --format table (default) prints a summary and the largest --max-rows partitions.\n"
    "          --discover N scans the first N items (default 10000, 'all', or 0) for\n"
    "          candidate key paths.\n"
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

int Analyze(int argc, char** argv) {
  partplay::AnalysisOptions options;
  options.key_paths.clear();
  std::string format = "table";
  std::string file;
  int64_t max_rows = 50;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--key" || arg == "-k") {
      const char* v = value();
      if (!v) return Usage("--key needs a path, e.g. --key /userId");
      options.key_paths.push_back(v);
    } else if (arg == "--format") {
      const char* v = value();
      if (!v || (std::string_view(v) != "json" && std::string_view(v) != "table")) {
        return Usage("--format is json or table");
      }
      format = v;
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
    } else if (arg == "-" || (!arg.empty() && arg[0] != '-')) {
      if (!file.empty()) return Usage("give one input file");
      file = arg;
    } else {
      return Usage(fmt::format("unknown option {}", arg));
    }
  }
  if (options.key_paths.empty()) return Usage("--key is required");
  if (file.empty()) return Usage("give an input FILE, or - for stdin");
  bool json = format == "json";

  auto analyzer = partplay::Analyzer::Create(options);
  if (!analyzer.ok()) return Fail(analyzer.status(), json);
  auto& a = *analyzer.value();

  FILE* in = file == "-" ? stdin : std::fopen(file.c_str(), "rb");
  if (in == nullptr) {
    return Fail(Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file,
                                                   std::strerror(errno))),
                json);
  }
  Status status;
  while (status.ok()) {
    uint8_t* at = a.WritableChunk(kChunkBytes);
    if (at == nullptr) {
      status = Status(ErrorCode::kOutOfMemory, "no memory for the input buffer");
      break;
    }
    size_t n = std::fread(at, 1, kChunkBytes, in);
    if (n == 0) {
      if (std::ferror(in)) {
        status = Status(ErrorCode::kIo, fmt::format("cannot read {}", file));
      }
      break;
    }
    status = a.CommitChunk(n);
  }
  if (in != stdin) std::fclose(in);
  if (status.ok()) status = a.Finish();
  if (!status.ok()) return Fail(status, json);

  partplay::ReportOptions report_options;
  std::string out;
  if (json) {
    out = partplay::ReportToJson(a.BuildReport(report_options));
  } else {
    report_options.max_partitions = max_rows;
    out = partplay::ReportToTable(a.BuildReport(report_options), static_cast<size_t>(max_rows));
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
  if (command == "analyze") return Analyze(argc - 2, argv + 2);
  if (command == "epk") return Epk(argc - 2, argv + 2);
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
