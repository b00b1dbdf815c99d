// `partplay compare`: several candidate partition keys judged side by side on the same items
// (report/key_comparison.h).
#include "compare_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.h"
#include "partplay/core/status.h"
#include "partplay/report/key_comparison.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_format.h"

namespace {

using partplay::ErrorCode;
using partplay::Status;

constexpr const char* kCompareUsage =
    "usage: partplay compare --candidate SPEC [--candidate SPEC ...] [--query PATHS ...]\n"
    "                        [--ru N] [--growth X] [--hash-version 1|2]\n"
    "                        [--reads N] [--writes N] [--queries N] [--spread uniform|zipf[:S]]\n"
    "                        [--request JSON] [--format table|json] FILE|-\n"
    "\n"
    "Judges each candidate key on the same JSON items (NDJSON, an array, or one object) and\n"
    "the same container: logical partitions, the largest now and after --growth, partitions over\n"
    "20 GB, physical partitions, the busiest physical partition's RU/s demand (with a workload),\n"
    "and where each --query goes; then picks the best key and says why (docs/report.md\n"
    "\"Key comparison\" has the ranking rule).\n"
    "  SPEC   /tenantId              a path\n"
    "         /tenantId,/userId      a hierarchical key (MultiHash), up to 3 paths\n"
    "         concat:/tenantId,/date a synthetic key joining the values with '-'\n"
    "         random:/tenantId:N     the value and a random suffix 1..N\n"
    "         hash:/tenantId:/id:N   the value and 1 + hash(value at /id) mod N\n"
    "  PATHS  the paths one query filters on by equality, comma-separated: /tenantId,/userId\n"
    "  --request takes the whole request as the page sends it ({keys, container, queries});\n"
    "  later options add to it.\n"
    "Without --reads/--writes/--queries no workload is assumed and no throttling is judged.\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "partplay compare: %s\n\n%s", problem.c_str(), kCompareUsage);
  return static_cast<int>(ErrorCode::kUsage);
}

int Fail(const Status& status, bool json) {
  if (json) {
    std::fputs(partplay::StatusToJson(status).c_str(), stderr);
  } else {
    std::fprintf(stderr, "partplay: %s\n", status.ToString().c_str());
  }
  return static_cast<int>(status.code());
}

std::vector<std::string> SplitCommas(std::string_view text) {
  std::vector<std::string> out;
  while (true) {
    size_t comma = text.find(',');
    out.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    text = text.substr(comma + 1);
  }
}

bool ParseBuckets(std::string_view text, uint32_t& out) {
  double n = 0;
  if (!partplay::cli::ParseNumber(text, n) || n < 1 || n > 1e6 || n != static_cast<uint32_t>(n)) {
    return false;
  }
  out = static_cast<uint32_t>(n);
  return true;
}

// One --candidate SPEC (the usage text's grammar); false when it does not read.
bool ParseCandidate(std::string_view spec, partplay::AnalysisOptions& key) {
  using Kind = partplay::SyntheticKeyOptions::Kind;
  key.discover_items = 0;
  auto colon = spec.find(':');
  if (colon == std::string_view::npos) {
    key.key_paths = SplitCommas(spec);
    for (const std::string& p : key.key_paths) {
      if (p.empty() || p[0] != '/') return false;
    }
    return key.key_paths.size() <= 3;
  }
  std::string_view kind = spec.substr(0, colon), rest = spec.substr(colon + 1);
  if (kind == "concat") {
    key.synthetic.kind = Kind::kConcat;
    key.synthetic.paths = SplitCommas(rest);
    key.key_paths = {key.synthetic.paths[0]};
    return key.synthetic.paths.size() >= 2;
  }
  auto last = rest.rfind(':');
  if (last == std::string_view::npos) return false;
  if (!ParseBuckets(rest.substr(last + 1), key.synthetic.buckets)) return false;
  rest = rest.substr(0, last);
  if (kind == "random") {
    key.synthetic.kind = Kind::kRandomSuffix;
    key.key_paths = {std::string(rest)};
    return !rest.empty() && rest[0] == '/';
  }
  if (kind == "hash") {
    auto mid = rest.find(':');
    if (mid == std::string_view::npos) return false;
    key.synthetic.kind = Kind::kHashSuffix;
    key.key_paths = {std::string(rest.substr(0, mid))};
    key.synthetic.suffix_path = rest.substr(mid + 1);
    return true;
  }
  return false;
}

Status FeedFile(partplay::KeyComparison& comparison, const std::string& file) {
  FILE* in = file == "-" ? stdin : std::fopen(file.c_str(), "rb");
  if (in == nullptr) return Status(ErrorCode::kIo, fmt::format("cannot open {}", file));
  std::string chunk(1 << 20, '\0');
  Status status;
  while (status.ok()) {
    size_t n = std::fread(chunk.data(), 1, chunk.size(), in);
    if (n == 0) {
      if (std::ferror(in)) status = Status(ErrorCode::kIo, fmt::format("cannot read {}", file));
      break;
    }
    status = comparison.Feed(std::string_view(chunk.data(), n));
  }
  if (in != stdin) std::fclose(in);
  if (status.ok()) status = comparison.Finish();
  return status;
}

}  // namespace

int RunCompareCommand(int argc, char** argv) {
  partplay::ComparisonRequest request;
  std::string format = "table", file;
  auto& c = request.container;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    auto number = [&](double& out, double min) {
      const char* v = value();
      return v && partplay::cli::ParseNumber(v, out) && out >= min;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kCompareUsage, stdout);
      return 0;
    } else if (arg == "--candidate" || arg == "-c") {
      const char* v = value();
      partplay::AnalysisOptions key;
      if (!v || !ParseCandidate(v, key)) {
        return Usage(fmt::format("--candidate: cannot read '{}' as a key SPEC", v ? v : ""));
      }
      request.keys.push_back(std::move(key));
    } else if (arg == "--query") {
      const char* v = value();
      if (!v) return Usage("--query needs the paths it filters on, e.g. --query /tenantId");
      request.queries.push_back({SplitCommas(v)});
    } else if (arg == "--request") {
      const char* v = value();
      if (!v) return Usage("--request needs a JSON object");
      auto parsed = partplay::ParseComparisonRequestJson(v);
      if (!parsed.ok()) return Usage(parsed.status().message());
      request = std::move(parsed).value();
    } else if (arg == "--format") {
      const char* v = value();
      if (!v || (std::string_view(v) != "json" && std::string_view(v) != "table")) {
        return Usage("--format is json or table");
      }
      format = v;
    } else if (arg == "--hash-version") {
      const char* v = value();
      auto version = partplay::ParsePartitionKeyHashVersion(v ? v : "");
      if (!version.ok()) return Usage("--hash-version is 1, 2 or multihash");
      c.version = version.value();
    } else if (arg == "--ru") {
      if (!number(c.ru_per_second, 1)) return Usage("--ru takes RU/s (1 or more)");
    } else if (arg == "--growth") {
      if (!number(c.growth, 1)) return Usage("--growth takes a factor of 1 or more");
    } else if (arg == "--reads") {
      if (!number(c.workload.point_reads_per_second, 0)) return Usage("--reads takes a rate");
    } else if (arg == "--writes") {
      if (!number(c.workload.writes_per_second, 0)) return Usage("--writes takes a rate");
    } else if (arg == "--queries") {
      if (!number(c.workload.queries_per_second, 0)) return Usage("--queries takes a rate");
    } else if (arg == "--spread") {
      const char* v = value();
      std::string_view spread = v ? v : "";
      if (spread == "uniform") {
        c.workload.spread = partplay::RequestSpread::kUniformItems;
      } else if (spread == "zipf" || spread.substr(0, 5) == "zipf:") {
        c.workload.spread = partplay::RequestSpread::kZipf;
        if (spread.size() > 5 &&
            (!partplay::cli::ParseNumber(spread.substr(5), c.workload.zipf_exponent) ||
             c.workload.zipf_exponent <= 0)) {
          return Usage("--spread zipf:S takes an exponent S > 0");
        }
      } else {
        return Usage("--spread is uniform or zipf[:S]");
      }
    } else if (arg == "-" || (!arg.empty() && arg[0] != '-')) {
      if (!file.empty()) return Usage("give one input file");
      file = arg;
    } else {
      return Usage(fmt::format("unknown option {}", arg));
    }
  }
  if (request.keys.empty()) return Usage("give at least one --candidate");
  if (request.keys.size() > partplay::kMaxComparedKeys) {
    return Usage(fmt::format("at most {} candidates", partplay::kMaxComparedKeys));
  }
  if (request.queries.size() > partplay::kMaxComparedQueries) {
    return Usage(fmt::format("at most {} queries", partplay::kMaxComparedQueries));
  }
  if (file.empty()) return Usage("give an input FILE, or - for stdin");
  const bool json = format == "json";
  auto comparison = partplay::KeyComparison::Create(request.keys);
  if (!comparison.ok()) return Fail(comparison.status(), json);
  if (Status s = FeedFile(*comparison.value(), file); !s.ok()) return Fail(s, json);
  auto report = comparison.value()->Compare(request.container, request.queries);
  if (!report.ok()) return Fail(report.status(), json);
  std::string out = json ? partplay::ComparisonToJson(report.value())
                         : partplay::ComparisonToTable(report.value());
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
