// Engine micro-benchmarks (Google Benchmark): analysis throughput of NDJSON and of a JSON array
// on generated items, against a baseline in the same process that only runs simdjson's DOM
// parse over the same bytes (the floor any full-validation parser pays).
//
// `engine_bench --parse-limit FILE [RUNS] [THREADS]` instead times simdjson's DOM parse_many over
// FILE (every value validated, documents only counted), best of RUNS, and prints
// {"parse_limit_mb_s": X, "threads": T, "documents": D}: `make bench` compares the CLI with it on
// the same file. With THREADS = N the file is cut into N pieces at line ends and each piece is
// parsed by its own thread, side by side, timed from the first start to the last end: N cores'
// limit, the like-for-like ceiling of `partplay analyze --jobs N`.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

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

// Cut points of `bytes` into `pieces` parts, each ending after a '\n' (the last at the end).
std::vector<size_t> CutAtLines(std::string_view bytes, int pieces) {
  std::vector<size_t> cuts{0};
  for (int i = 1; i < pieces; ++i) {
    size_t at = bytes.size() * static_cast<size_t>(i) / static_cast<size_t>(pieces);
    at = std::max(at, cuts.back());
    size_t nl = bytes.find('\n', at);
    cuts.push_back(nl == std::string_view::npos ? bytes.size() : nl + 1);
  }
  cuts.push_back(bytes.size());
  return cuts;
}

int ParseLimit(const char* file, int runs, int threads) {
  std::FILE* in = std::fopen(file, "rb");
  if (in == nullptr) {
    std::fprintf(stderr, "cannot read %s\n", file);
    return 1;
  }
  std::string bytes;
  char chunk[1 << 16];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, in)) > 0;) bytes.append(chunk, n);
  std::fclose(in);
  std::vector<size_t> cuts = CutAtLines(bytes, threads);
  // One probe (its own buffer and parser) per piece, filled before any timing.
  std::vector<partplay::ParseLimitProbe> probes(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    size_t n = cuts[t + 1] - cuts[t];
    uint8_t* at = probes[t].Buffer(n);
    if (at == nullptr) {
      std::fprintf(stderr, "out of memory\n");
      return 1;
    }
    if (n) std::memcpy(at, bytes.data() + cuts[t], n);
  }
  double best = 0;
  uint64_t documents = 0;
  for (int run = 0; run < runs; ++run) {
    std::vector<uint64_t> counts(static_cast<size_t>(threads));
    std::vector<int> failed(static_cast<size_t>(threads));
    auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        auto parsed = probes[t].Parse();
        failed[t] = !parsed.ok();
        if (parsed.ok()) counts[t] = parsed.value();
      });
    }
    for (auto& thread : pool) thread.join();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    for (int t = 0; t < threads; ++t) {
      if (failed[t]) return 2;
    }
    documents = 0;
    for (uint64_t c : counts) documents += c;
    double mb_s = static_cast<double>(bytes.size()) / 1e6 / seconds;
    if (mb_s > best) best = mb_s;
    benchmark::DoNotOptimize(documents);
  }
  std::printf("{\"parse_limit_mb_s\":%.1f,\"threads\":%d,\"documents\":%llu,\"implementation\":\"%s\"}\n",
              best, threads, static_cast<unsigned long long>(documents),
              simdjson::get_active_implementation()->name().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--parse-limit") == 0) {
    int runs = argc >= 4 ? std::atoi(argv[3]) : 3;
    int threads = argc >= 5 ? std::atoi(argv[4]) : 1;
    if (runs < 1 || threads < 1 || threads > 256) {
      std::fprintf(stderr, "usage: engine_bench --parse-limit FILE [RUNS >= 1] [THREADS 1..256]\n");
      return 1;
    }
    return ParseLimit(argv[2], runs, threads);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
