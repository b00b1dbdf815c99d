// The Analyzer's candidate-path discovery in the sampled items: items, distinct values and types
// per path, values only when asked, the sample's item limit and the caps on values and paths.
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

#include "analyzer_test_helpers.h"
#include "cli_io.h"
#include "partplay/core/json_diagnostics.h"
#include "partplay/report/report_format.h"
#include "simdjson.h"

namespace partplay {
namespace {

using namespace analyzer_test;  // NOLINT: the shared helpers
using namespace std::string_literals;

// --- candidate paths --------------------------------------------------------------------------

TEST(AnalyzerCandidatePathsTest, ItemsDistinctAndTypes) {
  std::string input = JoinLines({
      R"({"id":1,"user":{"name":"a","tags":["x","y"],"deep":{"z":true}},"n":null,"b":true})",
      R"({"id":"2","user":{"name":"a"},"arr":[{"deep":1}],"b":false})",
      R"({"id":3,"user":{"name":"b"},"b":"yes","a/b":1,"m~n":2})",
      R"({"id":1,"user":"flat"})",
  });
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.sampled_items, 4u);

  const CandidatePath* id = FindPath(o.report, "/id");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->items, 4u);
  EXPECT_EQ(id->distinct, 3u);  // 1, "2", 3
  EXPECT_FALSE(id->distinct_capped);
  EXPECT_EQ(id->numbers, 3u);
  EXPECT_EQ(id->strings, 1u);

  const CandidatePath* name = FindPath(o.report, "/user/name");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->items, 3u);
  EXPECT_EQ(name->distinct, 2u);
  EXPECT_EQ(name->strings, 3u);

  const CandidatePath* user = FindPath(o.report, "/user");
  ASSERT_NE(user, nullptr);  // a scalar in item 3 only
  EXPECT_EQ(user->items, 1u);

  const CandidatePath* b = FindPath(o.report, "/b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->items, 3u);
  EXPECT_EQ(b->booleans, 2u);
  EXPECT_EQ(b->strings, 1u);
  EXPECT_EQ(b->distinct, 3u);  // true, false, "yes"

  const CandidatePath* n = FindPath(o.report, "/n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->nulls, 1u);
  EXPECT_NE(FindPath(o.report, "/user/deep/z"), nullptr);
  EXPECT_NE(FindPath(o.report, "/a~1b"), nullptr);
  EXPECT_NE(FindPath(o.report, "/m~0n"), nullptr);

  // Arrays are not descended; containers are not paths.
  EXPECT_EQ(FindPath(o.report, "/user/tags"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/arr"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/arr/deep"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/deep"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/user/deep"), nullptr);
  EXPECT_EQ(o.report.candidate_paths.size(), 8u);

  // Most common first, then by path.
  for (size_t i = 1; i < o.report.candidate_paths.size(); ++i) {
    const auto& prev = o.report.candidate_paths[i - 1];
    const auto& cur = o.report.candidate_paths[i];
    EXPECT_TRUE(prev.items > cur.items || (prev.items == cur.items && prev.path < cur.path))
        << prev.path << " before " << cur.path;
  }
  EXPECT_EQ(o.report.candidate_paths[0].path, "/id");
}

// The values of each candidate path (what the key advisor ranks) come only when asked for; the
// counts are the same either way.
TEST(AnalyzerCandidatePathsTest, ValuesOnlyWhenAsked) {
  std::string input =
      JoinLines({R"({"id":"a","u":1})", R"({"id":"b","u":1})", R"({"id":"c","u":2})"});
  Outcome with = Analyze(input);
  Outcome without = Analyze(input, Keys({"/id"}), {.candidate_values = false});
  ASSERT_TRUE(with.status.ok() && without.status.ok());
  ASSERT_EQ(with.report.candidate_paths.size(), 2u);
  ASSERT_EQ(without.report.candidate_paths.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const CandidatePath& w = with.report.candidate_paths[i];
    const CandidatePath& wo = without.report.candidate_paths[i];
    EXPECT_EQ(w.path, wo.path);
    EXPECT_EQ(w.items, wo.items);
    EXPECT_EQ(w.distinct, wo.distinct);
    EXPECT_EQ(w.values.size(), w.distinct) << w.path;
    EXPECT_TRUE(wo.values.empty()) << wo.path;
  }
  EXPECT_EQ(with.json, without.json);  // the report's JSON never lists them
  const CandidatePath* u = FindPath(with.report, "/u");
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(u->values.size(), 2u);
  EXPECT_EQ(u->values[0].items, 2u);  // largest bytes first: the two items holding 1
}

TEST(AnalyzerCandidatePathsTest, NumbersCompareAsDoublesForDistinct) {
  Outcome o = Analyze(JoinLines({R"({"n":5})", R"({"n":5.0})", R"({"n":-0})", R"({"n":0})",
                                 R"({"n":"5"})", R"({"n":1e400})"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  const CandidatePath* n = FindPath(o.report, "/n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->distinct, 3u);  // 5, 0, "5"
  EXPECT_EQ(n->items, 5u);     // an out-of-range number is no candidate value
}

TEST(AnalyzerCandidatePathsTest, DuplicatePropertyCountsTheItemOnce) {
  Outcome o = Analyze(R"({"x":1,"x":2})");
  ASSERT_TRUE(o.status.ok());
  const CandidatePath* x = FindPath(o.report, "/x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->items, 1u);
  EXPECT_EQ(x->numbers, 1u);
}

TEST(AnalyzerCandidatePathsTest, DiscoverItemsLimit) {
  std::string input = JoinLines({R"({"id":1,"first":1})", R"({"id":2,"second":1})",
                                 R"({"id":3,"third":1})", R"({"id":4})", R"({"id":5})"});
  Outcome none = Analyze(input, Keys({"/id"}, 0));
  ASSERT_TRUE(none.status.ok());
  EXPECT_EQ(none.report.sampled_items, 0u);
  EXPECT_TRUE(none.report.candidate_paths.empty());
  EXPECT_EQ(none.report.partition_count, 5u);  // discovery does not affect the analysis

  Outcome two = Analyze(input, Keys({"/id"}, 2));
  ASSERT_TRUE(two.status.ok());
  EXPECT_EQ(two.report.sampled_items, 2u);
  ASSERT_NE(FindPath(two.report, "/id"), nullptr);
  EXPECT_EQ(FindPath(two.report, "/id")->items, 2u);
  EXPECT_NE(FindPath(two.report, "/first"), nullptr);
  EXPECT_NE(FindPath(two.report, "/second"), nullptr);
  EXPECT_EQ(FindPath(two.report, "/third"), nullptr);

  Outcome all = Analyze(input, Keys({"/id"}, -1));
  ASSERT_TRUE(all.status.ok());
  EXPECT_EQ(all.report.sampled_items, 5u);
  EXPECT_EQ(FindPath(all.report, "/id")->items, 5u);
  EXPECT_NE(FindPath(all.report, "/third"), nullptr);

  Outcome more = Analyze(input, Keys({"/id"}, 100));
  EXPECT_EQ(more.report.sampled_items, 5u);
}

TEST(AnalyzerCandidatePathsTest, DistinctIsCappedAt100000) {
  std::string input;
  input.reserve(3u << 20);
  for (int i = 0; i < 100005; ++i) {
    input += "{\"u\":" + std::to_string(i) + ",\"c\":" + std::to_string(i % 3) + "}\n";
  }
  Outcome o = Analyze(input, Keys({"/c"}, -1));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  const CandidatePath* u = FindPath(o.report, "/u");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->items, 100005u);
  EXPECT_TRUE(u->distinct_capped);
  EXPECT_EQ(u->distinct, kMaxDistinctPerPath);
  const CandidatePath* c = FindPath(o.report, "/c");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->distinct_capped);
  EXPECT_EQ(c->distinct, 3u);
  EXPECT_EQ(o.report.partition_count, 3u);
}

TEST(AnalyzerCandidatePathsTest, AtMost1000PathsAreTracked) {
  std::string item = "{";
  for (int i = 0; i < 1200; ++i) item += (i ? ",\"p" : "\"p") + std::to_string(i) + "\":1";
  item += "}";
  Outcome o = Analyze(item);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.candidate_paths.size(), kMaxCandidatePaths);
  EXPECT_NE(FindPath(o.report, "/p0"), nullptr);
  EXPECT_NE(FindPath(o.report, "/p999"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/p1000"), nullptr);  // the first seen win
}

}  // namespace
}  // namespace partplay
