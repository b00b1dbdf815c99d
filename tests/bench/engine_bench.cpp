// Engine micro-benchmarks (Google Benchmark): analysis throughput of NDJSON and of a JSON array
// on generated items, against a baseline in the same process that only runs simdjson's DOM
// parse over the same bytes (the floor any full-validation parser pays).
//
// `engine_bench --parse-limit FILE [RUNS]` instead times simdjson's DOM parse_many over FILE (every
// value validated, documents only counted), best of RUNS, and prints {"parse_limit_mb_s": X}:
// `make bench` compares the CLI with it on the same file.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "partplay/ingest/analysis.h"
#include "partplay/ingest/parse_limit.h"
#include "simdjson.h"

namespace {

std::string MakeItems(int n, bool array) {
  std::string s = array ? "[" : "";
  for (int i = 0; i < n; ++i) {
    if (array && i) s += ",\n";
    s += fmt::format(
        R"({{"id":"item-{}","userId":"user-{}","amount":{}.{},"active":{},"address":{{"city":"city-{}","zip":"{:05d}"}}}})",
        i, (i * 7919) % 5000, i % 1000, i % 100, i % 3 == 0 ? "true" : "false", i % 97, i % 99999);
    if (!array) s += "\n";
  }
  if (array) s += "]";
  return s;
}

void Analyze(benchmark::State& state, bool array) {
  std::string input = MakeItems(static_cast<int>(state.range(0)), array);
  for (auto _ : state) {
    auto analyzer = partplay::Analyzer::Create({.key_paths = {"/userId"}, .discover_items = 0});
    for (size_t at = 0; at < input.size(); at += 1 << 20) {
      auto status = analyzer.value()->Feed(std::string_view(input).substr(at, 1 << 20));
      if (!status.ok()) state.SkipWithError(status.ToString().c_str());
    }
    if (!analyzer.value()->Finish().ok()) state.SkipWithError("finish failed");
    benchmark::DoNotOptimize(analyzer.value()->items_seen());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * input.size()));
}

void BM_AnalyzeNdjson(benchmark::State& state) { Analyze(state, false); }
void BM_AnalyzeArray(benchmark::State& state) { Analyze(state, true); }

void BM_BaselineDomParseMany(benchmark::State& state) {
  std::string input = MakeItems(static_cast<int>(state.range(0)), false);
  simdjson::padded_string padded(input);
  simdjson::dom::parser parser;
  for (auto _ : state) {
    size_t count = 0;
    simdjson::dom::document_stream docs;
    if (parser.parse_many(padded).get(docs)) state.SkipWithError("parse_many failed");
    for (auto doc : docs) {
      if (doc.error()) state.SkipWithError("bad document");
      ++count;
    }
    benchmark::DoNotOptimize(count);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * input.size()));
}

BENCHMARK(BM_AnalyzeNdjson)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeArray)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BaselineDomParseMany)->Arg(100000)->Unit(benchmark::kMillisecond);

int ParseLimit(const char* file, int runs) {
  std::FILE* in = std::fopen(file, "rb");
  if (in == nullptr) {
    std::fprintf(stderr, "cannot read %s\n", file);
    return 1;
  }
  std::fseek(in, 0, SEEK_END);
  long size = std::ftell(in);
  std::fseek(in, 0, SEEK_SET);
  partplay::ParseLimitProbe probe;
  uint8_t* at = size >= 0 ? probe.Buffer(static_cast<size_t>(size)) : nullptr;
  bool read = at != nullptr && std::fread(at, 1, static_cast<size_t>(size), in) ==
                                   static_cast<size_t>(size);
  std::fclose(in);
  if (!read) {
    std::fprintf(stderr, "cannot read %s\n", file);
    return 1;
  }
  double best = 0;
  for (int run = 0; run < runs; ++run) {
    auto started = std::chrono::steady_clock::now();
    auto documents = probe.Parse();
    if (!documents.ok()) return 2;
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    double mb_s = static_cast<double>(size) / 1e6 / seconds;
    if (mb_s > best) best = mb_s;
    benchmark::DoNotOptimize(documents.value());
  }
  std::printf("{\"parse_limit_mb_s\":%.1f,\"implementation\":\"%s\"}\n", best,
              simdjson::get_active_implementation()->name().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--parse-limit") == 0) {
    return ParseLimit(argv[2], argc >= 4 ? std::atoi(argv[3]) : 3);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
