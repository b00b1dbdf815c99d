// What a report means for the chosen key, in a few judged sentences: every key in one partition,
// items without the key, the largest partition's share of the data and of the 20 GB quota
// (core/limits.h), mixed value types, too few distinct values, invalid or oversized items, an even
// spread. The engine judges; the page only shows them (the `insights` of docs/report.md).
//
// A message may name partition keys: "{0}", "{1}" stand for keys[0], keys[1] (PartitionKey JSON),
// which the page draws as keys and the text output prints as JSON.
#pragma once

#include <string>
#include <vector>

#include "partplay/ingest/analysis.h"

namespace partplay {

struct Insight {
  std::string code;   // "all_undefined", "largest_share", "largest_vs_limit", ...
  std::string level;  // "bad", "warn", "good", or "" (information)
  std::string message;
  std::vector<PartitionKey> keys;
};

std::vector<Insight> JudgeReport(const AnalysisReport& report);

// [{"code", "level", "message", "keys": [...]}]
std::string InsightsToJson(const std::vector<Insight>& insights);

}  // namespace partplay
