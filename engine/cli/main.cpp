// partplay — the command-line face of the engine. Reads a file or stdin in 1 MiB chunks straight
// into the engine's buffer, so inputs far larger than memory stream through.
//
// The commands are the table kCommands below (each its own options table, cli_args.h);
// `partplay --help` lists them, `partplay COMMAND --help` describes one, docs/cli.md holds both.
// Exit status: 0 on success, 2 for a bad command line, 130 when interrupted, otherwise the
// error's code from engine/include/partplay/core/error_codes.h (the error is printed on stderr).
#include <fmt/format.h>

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.h"
#include "cli_io.h"
#include "compare_command.h"
#include "cql_commands.h"
#include "parallel_listing.h"
#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"
#include "partplay/core/version.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/ingest/analysis.h"
#include "partplay/ingest/parts_plan.h"
#include "partplay/report/candidate_spec.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_builder.h"
#include "partplay/report/report_format.h"
#include "shard_commands.h"
#include "size_command.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

using partplay::ErrorCode;
using partplay::Status;
using partplay::cli::CommandSpec;
using partplay::cli::Option;
using partplay::cli::ParseCount;
using partplay::cli::ParseNumber;

int Fail(const Status& status, bool json) {
  if (json) {
    std::fputs(partplay::StatusToJson(status).c_str(), stderr);
  } else {
    std::fprintf(stderr, "partplay: %s\n", status.ToString().c_str());
  }
  return static_cast<int>(status.code());
}

Status Bad(std::string_view message) { return Status(ErrorCode::kUsage, std::string(message)); }

// --synthetic concat:/a,/b | random:N | hash:/path:N
bool ParseSynthetic(std::string_view text, partplay::SyntheticKeyOptions& syn) {
  using Kind = partplay::SyntheticKeyOptions::Kind;
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view kind = text.substr(0, colon), rest = text.substr(colon + 1);
  int64_t n = 0;
  if (kind == "concat") {
    // The --candidate grammar's concat (parts such as month(/date) may hold commas).
    auto key = partplay::ParseCandidateSpec(text);
    if (!key.ok()) return false;
    std::string separator = syn.separator;  // --separator may come first
    syn = key.value().synthetic;
    syn.separator = separator;
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

const CommandSpec kAnalyzeSpec = {
    .name = "analyze",
    .synopsis = "--key PATH [--key PATH ...] [options] FILE|-",
    .description =
        "Groups the JSON items in FILE (or stdin for -) into logical partitions by the\n"
        "partition key PATH, a JSON pointer such as /userId or /address/city (~1 escapes\n"
        "'/', ~0 escapes '~'). Several --key options make a hierarchical key. Input: NDJSON\n"
        "(one object per line), a JSON array of objects, or one object; it streams through\n"
        "in 1 MiB chunks. --container, or any container option, also models a Cosmos DB\n"
        "container (docs/cosmos-model.md lists the assumptions).\n",
};

const CommandSpec kMergeSpec = {
    .name = "merge",
    .synopsis = "[--format json|table] [--max-rows N] [container options] PART...\n"
                "       partplay merge --bucket B --summary-out FILE DIR...\n"
                "       partplay merge --summaries SUMDIR [report options] DIR...",
    .description =
        "Merges the partial states PART... (written by analyze --partial-out, given in input\n"
        "order) and prints the report of one pass over the concatenated inputs; the analysis\n"
        "options come from the parts (docs/sharding.md). Parts cut into buckets (analyze\n"
        "--partial-out DIR --buckets K) merge one bucket of every part DIR at a time into a\n"
        "summary (--bucket, --summary-out), and every part's figures with the K summaries\n"
        "into the report (--summaries; docs/partial-format.md).\n",
};

// merge --bucket (a bucket summary) and merge --partial-out (a partial state): `merged` written
// whole to FILE, and a line saying so.
int WriteMerged(const partplay::StatusOr<std::string>& merged, const std::string& file,
                const std::string& what, partplay::cli::Progress& progress,
                partplay::cli::Output& to, bool json) {
  namespace cli = partplay::cli;
  progress.Clear();
  if (!merged.ok()) return Fail(merged.status(), json);
  auto out = cli::Output::Open(file);
  if (!out.ok()) return Fail(out.status(), json);
  out.value()->Write(merged.value());
  if (Status committed = out.value()->Commit(); !committed.ok()) return Fail(committed, json);
  to.Write(fmt::format("{}: {} ({} bytes)\n", file, what, cli::GroupDigits(merged.value().size())));
  if (Status committed = to.Commit(); !committed.ok()) return Fail(committed, json);
  return 0;
}

// `analyze`, or with `merge` the `merge` command (the same report and container options; the
// input is partial states, whose analysis options are used).
int AnalyzeOrMerge(int argc, char** argv, bool merge) {
  namespace cli = partplay::cli;
  const CommandSpec& spec = merge ? kMergeSpec : kAnalyzeSpec;
  std::vector<std::string> parts;  // merge
  int64_t buckets = 0;             // analyze --buckets
  int64_t bucket = -1;             // merge --bucket
  std::string summary_out, summaries_dir;
  int64_t jobs = 0;  // 0: not given (ingest/parts_plan.h decides from the machine's cores)
  std::string partial_out;
  partplay::AnalysisOptions options;
  options.key_paths.clear();
  std::optional<partplay::ContainerOptions> container;
  auto model = [&]() -> partplay::ContainerOptions& {
    if (!container) container.emplace();
    return *container;
  };
  bool ru_given = false;  // --ru given: refused with --serverless
  std::string format = "table", file, output;
  int64_t max_rows = 50;
  cli::ProgressMode progress_mode = cli::ProgressMode::kAuto;
  // A numeric option of the container model, `min` or more.
  auto number = [](double& out, double min, std::string_view takes) {
    return [&out, min, takes](std::string_view v) {
      return ParseNumber(v, out) && out >= min ? Status::Ok() : Bad(takes);
    };
  };
  // A file or directory option: its value, which may not be empty.
  auto path = [](std::string& out, const char* needs) {
    return [&out, needs](std::string_view v) {
      if (v.empty()) return Bad(needs);
      out = v;
      return Status::Ok();
    };
  };
  auto flag = [](auto set) {
    return [set](std::string_view) {
      set();
      return Status::Ok();
    };
  };
  std::vector<Option> table = {
      {"--key", "-k", "PATH",
       "the partition key path, a JSON pointer (required); repeat for a hierarchical key of up "
       "to 3 paths",
       [&](std::string_view v) {
         options.key_paths.emplace_back(v);
         return Status::Ok();
       }},
      {"--format", "", "json|table",
       "table (default): a summary and the largest --max-rows partitions; json: the report of "
       "docs/report.md, every partition listed (streamed)",
       [&](std::string_view v) {
         if (v != "json" && v != "table" && v != "text") return Bad("--format is json or table");
         format = v == "text" ? "table" : v;
         return Status::Ok();
       }},
      {"--jobs", "-j", "N",
       "analyze N parts of FILE on N threads and merge them (default: the machine's cores, "
       "parts of at least 8 MiB; NDJSON files only, cut between items; the report and any error "
       "are exactly one pass's); the container model uses N threads too",
       [&](std::string_view v) {
         return ParseCount(v, jobs) && jobs >= 1 && jobs <= 256 ? Status::Ok()
                                                                : Bad("takes 1 to 256");
       }},
      {"--partial-out", "", "PART",
       "also write the analysis as a mergeable partial state (docs/sharding.md), whole or "
       "not at all; with --buckets a directory; merge: write the merge as one partial state",
       path(partial_out, "needs a file name")},
      {"--buckets", "", "K",
       "with --partial-out DIR: write the part into DIR as its figures and K bucket files cut "
       "by a hash of the partition key, for merge --bucket and merge --summaries (1 to 4096)",
       [&](std::string_view v) {
         return ParseCount(v, buckets) && buckets >= 1 && buckets <= partplay::kMaxBuckets
                    ? Status::Ok()
                    : Bad("--buckets takes 1 to 4096");
       }},
      {"--bucket", "", "B",
       "merge: bucket B of every part DIR into a summary (with --summary-out)",
       [&](std::string_view v) {
         return ParseCount(v, bucket) && bucket < partplay::kMaxBuckets
                    ? Status::Ok()
                    : Bad("--bucket takes 0 to 4095");
       }},
      {"--summary-out", "", "FILE", "merge --bucket: where its summary goes",
       path(summary_out, "needs a file name")},
      {"--summaries", "", "SUMDIR",
       "merge: the report from every part DIR's figures and the bucket summaries (*.sum) in "
       "SUMDIR",
       path(summaries_dir, "needs a directory")},
      {"--discover", "", "N|all",
       "scan the first N items (default 10000; 0: none) for candidate key paths",
       [&](std::string_view v) {
         if (v == "all") {
           options.discover_items = -1;
         } else if (!ParseCount(v, options.discover_items)) {
           return Bad("--discover takes a number of items or 'all'");
         }
         return Status::Ok();
       }},
      {"--max-rows", "", "N", "the partitions the table lists (default 50)",
       [&](std::string_view v) {
         return ParseCount(v, max_rows) ? Status::Ok() : Bad("--max-rows takes a number");
       }},
      {"--no-id-check", "", "",
       "skip the id checks (missing and duplicate ids; they cost 8-16 bytes of memory per item, "
       "none when the key is /id)",
       flag([&] { options.check_ids = false; })},
      {"--synthetic", "", "concat:P1,P2[,..]|random:N|hash:PATH:N",
       "one string key per item: the values at P1,P2.. joined by --separator (a part may take a "
       "piece of its value: year(/P), month(/P), day(/P), hour(/P) of a date, left(/P, N), "
       "substring(/P, START, N)), or the value at "
       "--key, the separator and 1 + a seeded random number mod N (random) or 1 + MurmurHash3 "
       "of the value at PATH mod N (hash)",
       [&](std::string_view v) {
         return ParseSynthetic(v, options.synthetic)
                    ? Status::Ok()
                    : Bad("--synthetic takes concat:P1,P2[,..], random:N or hash:PATH:N");
       }},
      {"--separator", "", "S", "the synthetic key's separator (default -)",
       [&](std::string_view v) {
         options.synthetic.separator = v;
         return Status::Ok();
       }},
      {"--seed", "", "N", "the seed of random:N (default 0)",
       [&](std::string_view v) {
         int64_t seed = 0;
         if (!ParseCount(v, seed)) return Bad("--seed takes a whole number");
         options.synthetic.seed = static_cast<uint64_t>(seed);
         return Status::Ok();
       }},
      {"--weight", "", "PATH", "sum this numeric field per partition",
       [&](std::string_view v) {
         options.weight_path = v;
         return Status::Ok();
       }},
      {"--analysis-json", "", "JSON",
       "the analysis options as the page sends them (docs/report.md \"Options\"); later options "
       "override them",
       [&](std::string_view v) {
         auto parsed = partplay::ParseAnalysisOptionsJson(v);
         if (!parsed.ok()) return Bad(parsed.status().message());
         options = std::move(parsed).value();
         return Status::Ok();
       }},
      {"--container", "", "",
       "model a Cosmos DB container with the defaults (V2, 400 RU/s); every option below "
       "implies it",
       flag([&] { model(); })},
      {"--container-json", "", "JSON",
       "the container options as the page sends them; later options override them",
       [&](std::string_view v) {
         auto parsed = partplay::ParseContainerOptionsJson(v);
         if (!parsed.ok()) return Bad(parsed.status().message());
         container = std::move(parsed).value();
         return Status::Ok();
       }},
      {"--hash-version", "", "1|2|multihash",
       "the partition key definition (several --key make it multihash)",
       [&](std::string_view v) {
         auto version = partplay::ParsePartitionKeyHashVersion(v);
         if (!version.ok()) return Bad("--hash-version is 1, 2 or multihash");
         model().version = version.value();
         return Status::Ok();
       }},
      {"--no-large-keys", "", "",
       "a V1 container without large partition keys (101-byte key values)",
       flag([&] { model().large_partition_keys = false; })},
      {"--ru", "", "N", "manual RU/s (default 400), or the autoscale maximum",
       [&](std::string_view v) {
         ru_given = true;
         return number(model().ru_per_second, 1, "--ru takes RU/s (1 or more)")(v);
       }},
      {"--autoscale", "", "", "--ru is the autoscale maximum (it scales down to 10%)",
       flag([&] { model().autoscale = true; })},
      {"--created-ru", "", "N",
       "the RU/s the container was created with (default: --ru); --ru is then a later change: "
       "instant up to partitions x 10,000 RU/s, splits beyond, a scale-down when lower",
       [&](std::string_view v) {
         return number(model().created_ru_per_second, 1, "--created-ru takes RU/s (1 or more)")(v);
       }},
      {"--serverless", "", "",
       "a serverless container: no --ru; 5,000 RU/s up to 5 partitions (250 GB), then 1,000 more "
       "per partition",
       flag([&] { model().serverless = true; })},
      {"--shared-database", "", "",
       "--ru is a shared-throughput database's, shared with the --shared-with containers (up to "
       "25 in all; created at 10,000 RU/s per partition)",
       flag([&] { model().shared_database = true; })},
      {"--shared-with", "", "NAME:GB[:RU]",
       "another container of the shared database: its storage in GB and the RU/s it asks for "
       "(repeatable)",
       [&](std::string_view v) -> Status {
         // NAME:GB or NAME:GB:RU, read from the right (a name holds no ':').
         std::vector<std::string_view> parts;
         for (size_t from = 0;;) {
           const size_t colon = v.find(':', from);
           parts.push_back(v.substr(from, colon == std::string_view::npos ? v.size() - from : colon - from));
           if (colon == std::string_view::npos) break;
           from = colon + 1;
         }
         partplay::SharedContainer c;
         double gb = 0;
         if (parts.size() < 2 || parts.size() > 3 || parts[0].empty() ||
             !partplay::ParseFiniteDouble(parts[1], gb) || gb < 0 ||
             (parts.size() == 3 &&
              (!partplay::ParseFiniteDouble(parts[2], c.demand_ru) || c.demand_ru < 0))) {
           return Bad(fmt::format("--shared-with takes NAME:GB or NAME:GB:RU (GB and RU/s numbers "
                                  ">= 0, a name without ':'), got \"{}\"",
                                  v));
         }
         c.name = std::string(parts[0]);
         c.storage_bytes = gb * partplay::kBytesPerGigabyte;
         model().shared_with.push_back(std::move(c));
         return Status::Ok();
       }},
      {"--quota-increase", "", "REASON",
       "why RU/s above the 1,000,000 per container quota are modelled (the support ticket)",
       [&](std::string_view v) {
         if (v.empty()) return Bad("--quota-increase takes a reason");
         model().quota_increase_reason = std::string(v);
         return Status::Ok();
       }},
      {"--growth", "", "X", "the data multiplied by X: the \"after\" layout and its splits",
       [&](std::string_view v) {
         return number(model().growth, 1, "--growth takes a factor of 1 or more")(v);
       }},
      {"--grow-ru", "", "N", "the RU/s after the growth",
       [&](std::string_view v) {
         return number(model().grown_ru_per_second, 0, "--grow-ru takes RU/s")(v);
       }},
      {"--reads", "", "N", "point reads per second",
       [&](std::string_view v) {
         return number(model().workload.point_reads_per_second, 0, "--reads takes a rate")(v);
       }},
      {"--writes", "", "N", "writes per second",
       [&](std::string_view v) {
         return number(model().workload.writes_per_second, 0, "--writes takes a rate")(v);
       }},
      {"--queries", "", "N", "queries per second",
       [&](std::string_view v) {
         return number(model().workload.queries_per_second, 0, "--queries takes a rate")(v);
       }},
      {"--spread", "", "uniform|zipf[:S]|field:PATH",
       "how requests spread over keys: by items, Zipf with exponent S (default 1), or by a "
       "numeric field",
       [&](std::string_view spread) {
         partplay::Workload& w = model().workload;
         if (spread == "uniform") {
           w.spread = partplay::RequestSpread::kUniformItems;
         } else if (spread == "zipf" || spread.substr(0, 5) == "zipf:") {
           w.spread = partplay::RequestSpread::kZipf;
           if (spread.size() > 5 &&
               (!ParseNumber(spread.substr(5), w.zipf_exponent) || w.zipf_exponent <= 0)) {
             return Bad("--spread zipf:S takes an exponent S > 0");
           }
         } else if (spread.substr(0, 6) == "field:" && spread.size() > 6) {
           w.spread = partplay::RequestSpread::kField;
           options.weight_path = spread.substr(6);
         } else {
           return Bad("--spread is uniform, zipf[:S] or field:PATH");
         }
         return Status::Ok();
       }},
      {"--read-factor", "", "X", "times the published charge of a point read (default 1)",
       [&](std::string_view v) {
         return number(model().workload.costs.read_factor, 0, "--read-factor: 0 or more")(v);
       }},
      {"--write-factor", "", "X", "times the published charge of a write (default 1)",
       [&](std::string_view v) {
         return number(model().workload.costs.write_factor, 0, "--write-factor: 0 or more")(v);
       }},
      {"--query-ru", "", "X", "RU per physical partition a query touches (default 3)",
       [&](std::string_view v) {
         return number(model().workload.costs.query_ru, 0, "--query-ru: 0 or more")(v);
       }},
      {"--route", "", "KEY_JSON",
       "which physical partitions a query filtered on this key (or key prefix) touches, e.g. "
       "'[\"c-1001\"]'",
       [&](std::string_view v) {
         auto key = partplay::ParsePartitionKeyJson(v);
         if (!key.ok()) return Bad(key.status().message());
         model().route = std::move(key).value();
         return Status::Ok();
       }},
  };
  cli::AddOutputOption(table, output);
  cli::AddProgressOptions(table, progress_mode);
  auto operand = [&](std::string_view arg) {
    if (merge) {
      parts.emplace_back(arg);
      return Status::Ok();
    }
    if (!file.empty()) return Bad("give one input file");
    file = arg;
    return Status::Ok();
  };
  if (auto done = cli::ParseCommandLine(spec, table, argc, argv, operand)) return *done;
  if (container && container->serverless && (ru_given || container->autoscale)) {
    return cli::UsageError(spec, fmt::format("--serverless takes no {}: a serverless container "
                                             "has no provisioned throughput",
                                             ru_given ? "--ru" : "--autoscale"));
  }
  if (merge) {
    if (!options.key_paths.empty() || jobs != 0) {
      return cli::UsageError(spec,
                             "merge takes its analysis options from the partial states (no "
                             "--key or --jobs)");
    }
    if (!partial_out.empty() && (bucket >= 0 || !summaries_dir.empty())) {
      return cli::UsageError(spec, "--partial-out writes a merge of whole parts (no --bucket or "
                                   "--summaries)");
    }
    if (parts.empty()) return cli::UsageError(spec, "give the partial states to merge (PART...)");
    if (buckets != 0) return cli::UsageError(spec, "--buckets is analyze's (with --partial-out)");
    if ((bucket >= 0) != !summary_out.empty()) {
      return cli::UsageError(spec, "--bucket B and --summary-out FILE go together");
    }
    if (bucket >= 0 && !summaries_dir.empty()) {
      return cli::UsageError(spec, "--bucket makes one summary; --summaries merges them: one or "
                                   "the other");
    }
  } else {
    if (bucket >= 0 || !summary_out.empty() || !summaries_dir.empty()) {
      return cli::UsageError(spec, "--bucket, --summary-out and --summaries are merge's");
    }
    if (buckets != 0 && partial_out.empty()) {
      return cli::UsageError(spec, "--buckets K cuts the --partial-out DIR: give both");
    }
    if (options.key_paths.empty()) return cli::UsageError(spec, "--key is required");
    if (file.empty()) return cli::UsageError(spec, "give an input FILE, or - for stdin");
  }
  bool json = format == "json";
  // Several key paths make a hierarchical key unless a version was chosen.
  if (container && options.key_paths.size() > 1 &&
      container->version == partplay::PartitionKeyHashVersion::kV2) {
    container->version = partplay::PartitionKeyHashVersion::kMultiHash;
  }

  cli::CatchInterrupts(json);
  // Opened before the reading, so an unwritable FILE is said at once.
  auto out = cli::Output::Open(output);
  if (!out.ok()) return Fail(out.status(), json);
  cli::Output& to = *out.value();
  // Parts, partial states and merges read through shard_commands; one pass streams here. Both
  // draw progress and stop on Ctrl-C between chunks.
  // How many parts on how many threads (ingest/parts_plan.h: without --jobs, the machine's
  // cores and parts of at least 8 MiB).
  const std::optional<uint64_t> input_size = merge ? std::nullopt : cli::InputSize(file);
  const partplay::PartsPlan plan = partplay::PlanParts(
      {.host = partplay::PartsHost::kProcess,
       .input_bytes = input_size.value_or(0),
       .seekable = input_size.has_value() && file != "-",
       .random_suffix =
           options.synthetic.kind == partplay::SyntheticKeyOptions::Kind::kRandomSuffix,
       .workers_asked = static_cast<int>(jobs),
       .cores = cli::MachineCores()});
  cli::LendThreads(plan.threads);  // as many for the container model's passes
  const bool sharded = merge || plan.parts > 1 || !partial_out.empty();
  // merge: a progress line over the parts (their stored bytes, the items they hold).
  std::optional<uint64_t> parts_total = 0;
  for (const std::string& part : parts) {
    auto size = cli::InputSize(part);
    parts_total =
        size && parts_total ? std::optional<uint64_t>(*parts_total + *size) : std::nullopt;
  }
  cli::Progress merge_progress(merge ? progress_mode : cli::ProgressMode::kOff, "partplay merge",
                               "parts", parts_total);
  cli::Progress progress(merge ? cli::ProgressMode::kOff : progress_mode, "partplay analyze",
                         "items", cli::InputSize(file));
  if (merge && bucket >= 0) {
    auto summary = cli::MergeBucketFiles(parts, static_cast<uint32_t>(bucket), &merge_progress);
    return WriteMerged(summary, summary_out,
                       fmt::format("the summary of bucket {} of {} parts", bucket, parts.size()),
                       merge_progress, to, json);
  }
  if (merge && !partial_out.empty()) {
    auto state = cli::MergeToPartialState(parts, &merge_progress);
    return WriteMerged(state, partial_out,
                       fmt::format("the partial state of {} parts merged", parts.size()),
                       merge_progress, to, json);
  }
  const uint32_t cut = static_cast<uint32_t>(buckets);
  auto analyzer = merge ? (summaries_dir.empty() ? cli::MergePartialFiles(parts, &merge_progress)
                                                 : cli::MergeFiguresFiles(parts, &merge_progress))
                  : sharded ? cli::RunAnalysis(options, file, plan, partial_out, cut, &progress)
                            : partplay::Analyzer::Create(options);
  if (!analyzer.ok()) {
    merge_progress.Clear();
    progress.Clear();
    return Fail(analyzer.status(), json);
  }
  auto& a = *analyzer.value();
  if (merge) {
    options = a.options();
    if (container && options.key_paths.size() > 1 &&
        container->version == partplay::PartitionKeyHashVersion::kV2) {
      container->version = partplay::PartitionKeyHashVersion::kMultiHash;
    }
  }
  if (!sharded) {
    if (Status status = cli::FeedAnalyzer(a, file, &progress); !status.ok()) {
      progress.Clear();
      return Fail(status, json);
    }
  }
  if (cli::Interrupted()) return Fail(cli::InterruptedStatus(), json);
  if (cut > 0) {  // a part of a cluster run: its files say the rest
    progress.Clear();
    to.Write(fmt::format("{}: {} and {} bucket files of {} items\n", partial_out,
                         cli::FiguresFile(partial_out), cut, cli::GroupDigits(a.items_seen())));
    if (Status committed = to.Commit(); !committed.ok()) return Fail(committed, json);
    return 0;
  }
  progress.Step(
      fmt::format("{} items read; building the report", cli::GroupDigits(a.items_seen())));

  partplay::ReportRequest request;
  request.container = container;
  // JSON lists every partition: the first ones in the report, the others streamed after it.
  constexpr int64_t kJsonHeadPartitions = 1000;
  request.max_partitions = json ? kJsonHeadPartitions : max_rows;
  request.stream_partitions = json;
  // merge --summaries: the figures' report with every bucket's partitions (ingest/buckets.h).
  std::optional<partplay::SummaryMerge> summary;
  if (!summaries_dir.empty()) {
    auto merged = cli::MergeSummaryFiles(
        summaries_dir, a,
        {.max_partitions = request.max_partitions, .candidate_values = container.has_value()},
        json || container.has_value(), &merge_progress);
    if (!merged.ok()) {
      merge_progress.Clear();
      return Fail(merged.status(), json);
    }
    summary = std::move(merged).value();
  }
  auto built = summary ? partplay::BuildFullReportFrom(std::move(summary->report),
                                                       summary->all.get(), options, request)
                       : partplay::BuildFullReport(a, options, request);
  progress.Clear();
  merge_progress.Clear();
  if (!built.ok()) return Fail(built.status(), json);
  if (cli::Interrupted()) return Fail(cli::InterruptedStatus(), json);
  if (json) {
    std::string tail = std::move(built.value().json_tail);
    partplay::EpkColumn epks;
    if (built.value().container) epks = std::move(built.value().container->all_epks);
    to.Write(built.value().json);
    built.value() = {};  // only the tail and the EPKs are needed now
    // The model hashed every key already, so an EPK cannot fail here. After Ctrl-C the rest is
    // skipped (the streaming cannot stop early); Commit then drops the file.
    std::optional<partplay::PartitionsJson> listed;
    if (summary) {
      listed.emplace(*summary->all, request, &epks);
    } else {
      listed.emplace(a, request, &epks);
    }
    const partplay::PartitionsJson& listing = *listed;
    Status streamed = cli::WritePartitionsJsonInParallel(
        listing, kJsonHeadPartitions, cli::ListingThreads(listing.size()),
        [&to](std::string_view piece) {
          if (!cli::Interrupted()) to.Write(piece);
        });
    if (!streamed.ok()) return Fail(streamed, json);
    to.Write(tail);
  } else {
    std::string text =
        partplay::ReportToTable(built.value().analysis, static_cast<size_t>(max_rows));
    if (built.value().container) {
      text += "\n" + partplay::ContainerToTable(*container, *built.value().container);
    }
    to.Write(text);
  }
  if (Status committed = to.Commit(); !committed.ok()) return Fail(committed, json);
  // The process ends here: its memory goes back whole, faster than the analyzer's millions of
  // pieces one by one (3% of a 1,000,000-partition run).
  (void)analyzer.value().release();
  return 0;
}

const CommandSpec kEpkSpec = {
    .name = "epk",
    .synopsis = "--version 1|2|multihash [--] VALUE...",
    .description =
        "Prints the Cosmos DB effective partition key (upper-case hex) of the key whose\n"
        "components are the VALUEs, as the @azure/cosmos SDK computes it for a partition key\n"
        "definition of version 1 or 2 or of kind MultiHash (hierarchical keys). Each VALUE is\n"
        "a JSON literal ('\"redmond\"', 5, -0.5, true, null) or undefined; quote strings for\n"
        "the shell.\n",
};

int Epk(int argc, char** argv) {
  namespace cli = partplay::cli;
  std::optional<partplay::PartitionKeyHashVersion> version;
  std::vector<std::string_view> values;
  std::vector<Option> table = {
      {"--version", "", "1|2|multihash", "the partition key definition (required)",
       [&](std::string_view v) {
         auto parsed = partplay::ParsePartitionKeyHashVersion(v);
         if (!parsed.ok()) return Bad("--version is 1, 2 or multihash");
         version = parsed.value();
         return Status::Ok();
       }},
  };
  auto operand = [&](std::string_view arg) {
    values.push_back(arg);
    return Status::Ok();
  };
  if (auto done = cli::ParseCommandLine(kEpkSpec, table, argc, argv, operand)) return *done;
  if (!version) return cli::UsageError(kEpkSpec, "--version 1|2|multihash is required");
  if (values.empty()) return cli::UsageError(kEpkSpec, "give at least one VALUE");
  partplay::PartitionKey key;
  for (std::string_view v : values) {
    auto component = partplay::ParseKeyComponentLiteral(v);
    if (!component.ok()) {
      return cli::UsageError(
          kEpkSpec, fmt::format("bad VALUE {}: {} (a JSON literal such as '\"redmond\"', 5, true, "
                                "null, or undefined; quote strings for the shell)",
                                v, component.status().message()));
    }
    key.components.push_back(std::move(component).value());
  }
  auto epk = partplay::EffectivePartitionKey(key, *version);
  if (!epk.ok()) return Fail(epk.status(), false);
  std::printf("%s\n", epk.value().c_str());
  return 0;
}

const CommandSpec kErrorCodesSpec = {
    .name = "error-codes",
    .synopsis = "",
    .description =
        "Prints the table of error codes as a JSON array of {code, name, description}. A\n"
        "command's exit status is the code of the error that stopped it.\n",
};

int ErrorCodes(int argc, char** argv) {
  std::vector<Option> table;
  auto operand = [](std::string_view arg) { return Bad(fmt::format("unexpected {}", arg)); };
  if (auto done = partplay::cli::ParseCommandLine(kErrorCodesSpec, table, argc, argv, operand)) {
    return *done;
  }
  std::string s = "[";
  bool first = true;
#define PARTPLAY_X(name, number, short_name, description)                                        \
  s += fmt::format("{}{{\"code\":{},\"name\":\"{}\",\"description\":\"{}\"}}", first ? "" : ",", \
                   number, short_name, description);                                             \
  first = false;
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  s += "]\n";
  std::fputs(s.c_str(), stdout);
  return 0;
}

// The commands: adding one is an entry here (and its CommandSpec and options table).
struct Command {
  std::string_view name;
  std::string_view summary;           // for `partplay --help`
  int (*run)(int argc, char** argv);  // argv: the arguments after the command's name
};

int Analyze(int argc, char** argv) { return AnalyzeOrMerge(argc, argv, false); }
int Merge(int argc, char** argv) { return AnalyzeOrMerge(argc, argv, true); }

const Command kCommands[] = {
    {"analyze", "partitions of JSON items by a key; the Cosmos DB container model", Analyze},
    {"merge", "partial states of analyze --partial-out merged into one report", Merge},
    {"compare", "candidate keys side by side on the same items, and a pick", RunCompareCommand},
    {"epk", "the Cosmos DB effective partition key of a key", Epk},
    {"token", "the Cassandra Murmur3 token of a partition key", RunTokenCommand},
    {"cql", "run a CQL script on an in-memory Cassandra cluster", RunCqlCommand},
    {"size", "will the partitions get too big? from a CQL schema or from data", RunSizeCommand},
    {"error-codes", "the error codes (the exit statuses) as JSON", ErrorCodes},
};

const CommandSpec kToolSpec = {
    .name = "", .synopsis = "COMMAND [options] [--help]\n--version", .description = ""};

std::string ToolHelp() {
  std::string out = fmt::format("usage: partplay {}\n", "COMMAND [options] [--help]");
  out += "       partplay --version\n\ncommands:\n";
  for (const Command& c : kCommands)
    fmt::format_to(std::back_inserter(out), "  {:<13}{}\n", c.name, c.summary);
  out +=
      "\n'partplay COMMAND --help' describes a command and its options; docs/cli.md is the\n"
      "reference. Progress is drawn on stderr when it is a terminal; Ctrl-C stops cleanly.\n";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // A fixed threshold: blocks of 128 KiB or more are always mapped, and unmapped when freed.
  // glibc's default raises it after each such block is freed, and later large blocks then come
  // from the heap and stay resident: the peak of the same /id run varied by 20 MiB (139-145
  // against 162-165 MiB) with what happened to be freed before the listing.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  if (argc < 2) {
    std::fputs(ToolHelp().c_str(), stderr);
    return static_cast<int>(ErrorCode::kUsage);
  }
  std::string_view command = argv[1];
  // `partplay help COMMAND` is `partplay COMMAND --help`.
  if (command == "help" && argc > 2) {
    command = argv[2];
    char help_flag[] = "--help";
    char* help_args[] = {help_flag};
    for (const Command& c : kCommands) {
      if (command == c.name) return c.run(1, help_args);
    }
    return partplay::cli::UsageError(kToolSpec, fmt::format("unknown command {}", command));
  }
  for (const Command& c : kCommands) {
    if (command == c.name) return c.run(argc - 2, argv + 2);
  }
  if (command == "--version" || command == "version") {
    std::printf("partplay %s\n", partplay::kVersion);
    return 0;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(ToolHelp().c_str(), stdout);
    return 0;
  }
  return partplay::cli::UsageError(kToolSpec, command.substr(0, 1) == "-"
                                                  ? fmt::format("unknown option {}", command)
                                                  : fmt::format("unknown command {}", command));
}
