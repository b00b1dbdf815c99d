// Helpers the sharded-analysis tests share (partial_state*_test.cpp): a report's JSON, one pass
// over an input, inputs cut into parts at item boundaries and analysed part by part (directly or
// through the serialized partial format), the examples and seeded random inputs.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"

namespace partplay::partial_state_test {

inline std::string ReportJson(const Analyzer& analyzer, const AnalysisOptions& options) {
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 40000;
  if (options.key_paths.size() > 1) {
    request.container->version = PartitionKeyHashVersion::kMultiHash;
  }
  auto built = BuildFullReport(analyzer, options, request);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  return built.ok() ? built.value().json : "";
}

// One pass: the report JSON, or the error.
inline StatusOr<std::string> OnePass(const AnalysisOptions& options, std::string_view text) {
  PARTPLAY_ASSIGN_OR_RETURN(auto analyzer, Analyzer::Create(options));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Feed(text));
  PARTPLAY_RETURN_IF_ERROR(analyzer->Finish());
  return ReportJson(*analyzer, options);
}

// The parts between `cuts` (offsets), each fed in chunks of `chunk` bytes, merged directly
// (serialized = false; the first part made as one, as the CLI's --jobs makes it) or after a
// round trip through the partial format.
// for_merge: the first part merged in memory, the others read by ParsePartialForMerge (their
// partitions unloaded until the merge), as the page's worker merges its pool's parts.
// ids: the parts' PartIds (ShardedHashed below is what a caller of kHashed does).
inline StatusOr<std::string> Sharded(const AnalysisOptions& options, std::string_view text,
                              std::vector<size_t> cuts, bool serialized, size_t chunk = 4096,
                              bool for_merge = false, PartIds ids = PartIds::kRecorded) {
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(text.size());
  std::vector<std::unique_ptr<Analyzer>> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const bool in_memory_first = (!serialized || for_merge) && k == 0;
    PARTPLAY_ASSIGN_OR_RETURN(auto part, Analyzer::CreatePart(options, in_memory_first, ids));
    std::string_view slice = text.substr(cuts[k], cuts[k + 1] - cuts[k]);
    Status s;
    for (size_t at = 0; at < slice.size() && s.ok(); at += chunk) {
      s = part->Feed(slice.substr(at, chunk));
    }
    if (s.ok()) s = part->Finish();
    (void)s;  // a failed part carries its error into the merge
    if (serialized && !in_memory_first) {
      PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, part->SerializePartial());
      if (for_merge) {
        PARTPLAY_ASSIGN_OR_RETURN(part, Analyzer::ParsePartialForMerge(std::move(bytes)));
      } else {
        PARTPLAY_ASSIGN_OR_RETURN(part, Analyzer::ParsePartial(bytes));
      }
    }
    parts.push_back(std::move(part));
  }
  PARTPLAY_ASSIGN_OR_RETURN(auto merged, Analyzer::Merge(std::move(parts)));
  return ReportJson(*merged, options);
}

// What the CLI's --jobs and the page do: parts made with PartIds::kHashed, and when their merge
// refuses an id repeated across parts (which they cannot name), the parts again with records.
// `again`: whether that happened.
inline StatusOr<std::string> ShardedHashed(const AnalysisOptions& options, std::string_view text,
                                    const std::vector<size_t>& cuts, bool serialized,
                                    bool for_merge, bool* again = nullptr) {
  StatusOr<std::string> hashed =
      Sharded(options, text, cuts, serialized, 4096, for_merge, PartIds::kHashed);
  bool unnamed = !hashed.ok() && hashed.status().code() == ErrorCode::kBadPartial &&
                 hashed.status().message().find("made without id records") != std::string::npos;
  if (again) *again = unnamed;
  if (!unnamed) return hashed;
  return Sharded(options, text, cuts, serialized, 4096, for_merge, PartIds::kRecorded);
}

// Item boundaries drawn with `rng` (sorted, distinct): offsets just after a newline between a
// '}' and a '{' (whitespace aside), the rule the CLI's --jobs cuts by.
inline std::vector<size_t> LineCuts(std::string_view text, size_t count, std::mt19937_64& rng) {
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  std::vector<size_t> starts;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '\n') continue;
    size_t before = i, after = i + 1;
    while (before > 0 && space(text[before - 1])) --before;
    while (after < text.size() && space(text[after])) ++after;
    if (before > 0 && text[before - 1] == '}' && after < text.size() && text[after] == '{') {
      starts.push_back(i + 1);
    }
  }
  std::shuffle(starts.begin(), starts.end(), rng);
  starts.resize(std::min(count, starts.size()));
  std::sort(starts.begin(), starts.end());
  return starts;
}

inline void ExpectSame(const StatusOr<std::string>& one, const StatusOr<std::string>& parts,
                const std::string& what) {
  ASSERT_EQ(one.ok(), parts.ok()) << what
                                  << "\none: " << (one.ok() ? "ok" : one.status().ToString())
                                  << "\nparts: " << (parts.ok() ? "ok" : parts.status().ToString());
  if (!one.ok()) {
    EXPECT_EQ(one.status().code(), parts.status().code()) << what;
    EXPECT_EQ(one.status().message(), parts.status().message()) << what;
    const SourceLocation &a = one.status().where(), &b = parts.status().where();
    EXPECT_EQ(a.byte_offset, b.byte_offset) << what;
    EXPECT_EQ(a.line, b.line) << what;
    EXPECT_EQ(a.column, b.column) << what;
    EXPECT_EQ(a.item_index, b.item_index) << what;
    return;
  }
  EXPECT_EQ(one.value(), parts.value()) << what;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline AnalysisOptions Options(std::vector<std::string> keys, int64_t discover = 10000,
                        std::string weight = "") {
  AnalysisOptions o;
  o.key_paths = std::move(keys);
  o.discover_items = discover;
  o.weight_path = std::move(weight);
  return o;
}

// Items with repeated ids within and across parts, ids that are not strings, invalid and
// imprecise keys, weights whose float sum depends on the order, nested candidate paths,
// pretty-printed items over several lines and items several to a line.
inline std::string RandomInput(uint64_t seed, int items) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  const char* weights[] = {"0.1", "1e16", "-1e16", "3", "0.3", "1e-300", "2.5", "\"x\"", "7"};
  std::string out;
  for (int i = 0; i < items; ++i) {
    std::string item = "{";
    switch (pick(10)) {
      case 0:
        item += "\"id\":" + std::to_string(pick(50));  // a number: a missing id
        break;
      case 1:
        break;  // no id
      default:
        item += "\"id\":\"i" + std::to_string(pick(items)) + "\"";
    }
    if (item.size() > 1) item += ",";
    switch (pick(12)) {
      case 0:
        item += "\"user\":{\"o\":1}";  // an invalid key
        break;
      case 1:
        item += "\"user\":12345678901234567890";  // imprecise
        break;
      case 2:
        item += "\"other\":1";  // the key is missing: the undefined partition
        break;
      default:
        item += "\"user\":\"u" + std::to_string(pick(30)) + "\"";
    }
    item += ",\"w\":" + std::string(weights[pick(9)]);
    item += ",\"n\":{\"a\":" + std::to_string(pick(4)) + ",\"b\":[1,{\"c\":2}]}";
    if (pick(3) == 0) item += ",\"tag\":\"t" + std::to_string(pick(5)) + "\"";
    item += "}";
    if (pick(8) == 0) {
      std::string pretty;
      for (char c : item) {
        pretty += c;
        if (c == ',') pretty += "\n  ";
      }
      item = pretty;
    }
    out += item;
    out += pick(6) == 0 ? " " : "\n";
  }
  return out;
}

}  // namespace partplay::partial_state_test
