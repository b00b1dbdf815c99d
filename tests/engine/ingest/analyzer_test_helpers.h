// Helpers the Analyzer tests share (analyzer_*_test.cpp): options, analysing an input whole or in
// chunks (Outcome), cutting inputs, locating errors, finding partitions and candidate paths in a
// report, the documented consistency rules of a report, and the every-split check.
#pragma once

#include "partplay/ingest/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_io.h"
#include "sanitizer_scale.h"
#include "partplay/core/json_diagnostics.h"
#include "partplay/report/report_format.h"
#include "simdjson.h"

namespace partplay::analyzer_test {

inline AnalysisOptions Keys(std::vector<std::string> paths, int64_t discover_items = 10000) {
  AnalysisOptions options;
  options.key_paths = std::move(paths);
  options.discover_items = discover_items;
  return options;
}

struct Outcome {
  Status status;                  // the first failure, or OK
  bool failed_in_finish = false;  // else in the Feed of chunk `failed_chunk`
  size_t failed_chunk = 0;
  AnalysisReport report;
  std::string json;  // ReportToJson(report) when OK
  uint64_t items_seen = 0;
  uint64_t bytes_consumed = 0;
};

inline Outcome AnalyzeChunks(const std::vector<std::string_view>& chunks, const AnalysisOptions& options,
                      const ReportOptions& report_options = {}) {
  Outcome out;
  auto created = Analyzer::Create(options);
  if (!created.ok()) {
    ADD_FAILURE() << "Create: " << created.status().ToString();
    out.status = created.status();
    return out;
  }
  Analyzer& analyzer = *created.value();
  for (size_t i = 0; i < chunks.size(); ++i) {
    Status s = analyzer.Feed(chunks[i]);
    if (!s.ok()) {
      out.status = s;
      out.failed_chunk = i;
      return out;
    }
  }
  Status s = analyzer.Finish();
  if (!s.ok()) {
    out.status = s;
    out.failed_in_finish = true;
    return out;
  }
  out.report = analyzer.BuildReport(report_options);
  out.json = ReportToJson(out.report);
  out.items_seen = analyzer.items_seen();
  out.bytes_consumed = analyzer.bytes_consumed();
  return out;
}

inline Outcome Analyze(std::string_view input, const AnalysisOptions& options = Keys({"/id"}),
                const ReportOptions& report_options = {}) {
  return AnalyzeChunks({input}, options, report_options);
}

// The input cut at the given (ascending) offsets.
inline std::vector<std::string_view> Cut(std::string_view input, const std::vector<size_t>& cuts) {
  std::vector<std::string_view> chunks;
  size_t from = 0;
  for (size_t at : cuts) {
    chunks.push_back(input.substr(from, at - from));
    from = at;
  }
  chunks.push_back(input.substr(from));
  return chunks;
}

inline std::vector<std::string_view> FixedChunks(std::string_view input, size_t size) {
  std::vector<std::string_view> chunks;
  for (size_t i = 0; i < input.size(); i += size) chunks.push_back(input.substr(i, size));
  return chunks;
}

inline std::string Where(const Status& s) {
  const SourceLocation& w = s.where();
  return "code " + std::string(ErrorCodeName(s.code())) + ", byte " +
         std::to_string(w.byte_offset) + ", line " + std::to_string(w.line) + ", column " +
         std::to_string(w.column) + ", item " + std::to_string(w.item_index) + " (" +
         s.message() + ")";
}

inline void ExpectError(const Status& s, ErrorCode code, int64_t byte_offset, int64_t line,
                 int64_t column, int64_t item_index) {
  ASSERT_FALSE(s.ok()) << "expected " << ErrorCodeName(code);
  EXPECT_EQ(s.code(), code) << Where(s);
  EXPECT_EQ(s.where().byte_offset, byte_offset) << Where(s);
  EXPECT_EQ(s.where().line, line) << Where(s);
  EXPECT_EQ(s.where().column, column) << Where(s);
  EXPECT_EQ(s.where().item_index, item_index) << Where(s);
  EXPECT_FALSE(s.message().empty());
}

inline bool SameError(const Status& a, const Status& b) {
  return a.code() == b.code() && a.where().byte_offset == b.where().byte_offset &&
         a.where().line == b.where().line && a.where().column == b.where().column &&
         a.where().item_index == b.where().item_index;
}

inline const LogicalPartition* FindPartition(const AnalysisReport& r, const std::string& key_json) {
  for (const auto& p : r.partitions) {
    if (p.key.ToJson() == key_json) return &p;
  }
  return nullptr;
}

inline const LogicalPartition* FindNumberPartition(const AnalysisReport& r, double value) {
  for (const auto& p : r.partitions) {
    if (p.key.components.size() == 1 && p.key.components[0].kind == KeyKind::kNumber &&
        p.key.components[0].number == value) {
      return &p;
    }
  }
  return nullptr;
}

inline const CandidatePath* FindPath(const AnalysisReport& r, const std::string& path) {
  for (const auto& c : r.candidate_paths) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

// The documented sum rules and internal consistency of a report listing every partition.
inline void ExpectConsistent(const AnalysisReport& r) {
  uint64_t items = 0, bytes = 0, undefined = 0;
  for (const auto& p : r.partitions) {
    items += p.items;
    bytes += p.bytes;
    EXPECT_GE(p.largest_item_index, 0);
    EXPECT_LE(p.largest_item_bytes, p.bytes);
    bool has_undefined = false;
    for (const auto& c : p.key.components) has_undefined |= c.kind == KeyKind::kUndefined;
    if (has_undefined) undefined += p.items;
  }
  ASSERT_EQ(r.partitions_omitted, 0u);
  EXPECT_EQ(r.items, items + r.invalid_key_items) << "items = sum(partition items) + invalid";
  EXPECT_EQ(r.bytes, bytes + r.invalid_key_bytes);
  EXPECT_EQ(r.undefined_key_items, undefined);
  EXPECT_EQ(r.partition_count, r.partitions.size());
  EXPECT_EQ(r.partition_bytes.size(), r.partitions.size());
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    EXPECT_EQ(r.partition_bytes[i], static_cast<double>(r.partitions[i].bytes));
    if (i) {
      EXPECT_GE(r.partitions[i - 1].bytes, r.partitions[i].bytes);
    }
  }
  EXPECT_EQ(r.has_largest, !r.partitions.empty());
  if (r.has_largest) {
    EXPECT_EQ(r.largest.key, r.partitions[0].key);
    EXPECT_EQ(r.largest.bytes, r.partitions[0].bytes);
    EXPECT_EQ(r.largest.items, r.partitions[0].items);
  }
  EXPECT_LE(r.bytes, r.input_bytes);
}

inline std::string JoinLines(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += i + "\n";
  return out;
}

inline uint64_t SumSizes(const std::vector<std::string>& items) {
  uint64_t n = 0;
  for (const auto& i : items) n += i.size();
  return n;
}

// Feeds the input in two chunks split at every byte position; each must give the one-chunk
// result: the same report JSON, or the same error (code and location).
inline void ExpectEverySplitAgrees(const std::string& input, const AnalysisOptions& options) {
  Outcome whole = Analyze(input, options);
  for (size_t at = 0; at <= input.size(); at += scale::Step(5)) {
    Outcome split = AnalyzeChunks(Cut(input, {at}), options);
    if (whole.status.ok()) {
      ASSERT_TRUE(split.status.ok()) << "split at " << at << ": " << Where(split.status);
      ASSERT_EQ(split.json, whole.json) << "split at " << at;
    } else {
      ASSERT_FALSE(split.status.ok()) << "split at " << at << " succeeded; whole input: "
                                      << Where(whole.status);
      ASSERT_TRUE(SameError(split.status, whole.status))
          << "split at " << at << ": " << Where(split.status)
          << "\n  one chunk: " << Where(whole.status);
    }
  }
}

}  // namespace partplay::analyzer_test
