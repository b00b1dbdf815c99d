// A finished analysis of seeded random items keyed by /k, for the listing tests.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "partplay/ingest/analysis.h"

namespace partplay {

// A finished analysis of `input` keyed by /k (`options` gets that key path); null (and a
// failed expectation) when it cannot be created, fed or finished.
inline std::unique_ptr<Analyzer> AnalyzeKeyedByK(std::string_view input,
                                                 AnalysisOptions& options) {
  options.key_paths = {"/k"};
  auto created = Analyzer::Create(options);
  EXPECT_TRUE(created.ok());
  if (!created.ok()) return nullptr;
  std::unique_ptr<Analyzer> analyzer = std::move(created.value());
  const Status fed = analyzer->Feed(input);
  EXPECT_TRUE(fed.ok()) << fed.ToString();
  const Status finished = fed.ok() ? analyzer->Finish() : fed;
  EXPECT_TRUE(finished.ok()) << finished.ToString();
  return finished.ok() ? std::move(analyzer) : nullptr;
}

// `items` items {"id", "k": one of `keys` values, "p": up to `max_pad` x's}; `options` gets key
// path /k.
inline std::unique_ptr<Analyzer> AnalyzeRandomItems(uint64_t seed, int items, int keys, int max_pad,
                                                    AnalysisOptions& options) {
  std::mt19937_64 rng(seed);
  std::string input;
  for (int i = 0; i < items; ++i) {
    input += fmt::format("{{\"id\":\"{}\",\"k\":\"v{}\",\"p\":\"{}\"}}\n", i,
                         rng() % static_cast<uint64_t>(keys),
                         std::string(rng() % static_cast<uint64_t>(max_pad + 1), 'x'));
  }
  return AnalyzeKeyedByK(input, options);
}

}  // namespace partplay
