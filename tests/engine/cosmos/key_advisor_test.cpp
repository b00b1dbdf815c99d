// The key advisor: measures of hand-built candidate paths (coverage, projected largest value,
// Gini, physical balance checked against Locate, immutability), the verdict at each
// disqualifier's boundary, the ranking rule and the reasons' numbers.
#include "partplay/cosmos/key_advisor.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "partplay/cosmos/container.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"
#include "partplay/ingest/analysis.h"

namespace partplay {
namespace {

std::string Canonical(const std::string& text) {
  PartitionKey key;
  key.components.push_back(KeyComponent::String(text));
  return key.CanonicalBytes();
}

// A candidate path whose values are "<path>-0".. with the given items and bytes each.
CandidatePath Path(const std::string& path,
                   const std::vector<std::pair<uint64_t, uint64_t>>& values,
                   uint64_t ids_repeated = 0, uint64_t ids_changed = 0) {
  CandidatePath c;
  c.path = path;
  for (size_t i = 0; i < values.size(); ++i) {
    c.values.push_back(
        {Canonical(path + "-" + std::to_string(i)), values[i].first, values[i].second});
    c.items += values[i].first;
  }
  c.distinct = c.values.size();
  c.strings = c.items;
  c.ids_repeated = ids_repeated;
  c.ids_changed = ids_changed;
  return c;
}

// `n` values of `items` items and `bytes` bytes each.
CandidatePath EvenPath(const std::string& path, int n, uint64_t items, uint64_t bytes,
                       uint64_t ids_repeated = 0, uint64_t ids_changed = 0) {
  return Path(path, std::vector<std::pair<uint64_t, uint64_t>>(n, {items, bytes}), ids_repeated,
              ids_changed);
}

AnalysisReport Sample(uint64_t sampled, uint64_t items, uint64_t bytes,
                      std::vector<CandidatePath> paths) {
  AnalysisReport r;
  r.sampled_items = sampled;
  r.items = items;
  r.bytes = bytes;
  r.candidate_paths = std::move(paths);
  return r;
}

const CandidateAssessment& Find(const std::vector<CandidateAssessment>& all,
                                const std::string& path) {
  for (const CandidateAssessment& a : all) {
    if (a.path == path) return a;
  }
  ADD_FAILURE() << "no assessment of " << path;
  static CandidateAssessment none;
  return none;
}

bool AnyReasonHas(const CandidateAssessment& a, const std::string& text) {
  for (const std::string& r : a.reasons) {
    if (r.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string Joined(const CandidateAssessment& a) {
  std::string out;
  for (const std::string& r : a.reasons) out += r + "\n";
  return out;
}

TEST(AdvisorTest, RanksGoodThenFairThenPoor) {
  // 1,000 sampled items of 1,000 bytes.
  AnalysisReport analysis =
      Sample(1000, 1000, 1000000,
             {
                 EvenPath("/userId", 200, 5, 5000, 50, 0),                      // good
                 Path("/type", {{600, 600000}, {300, 300000}, {100, 100000}}),  // fair: 3 values
                 EvenPath("/country", 50, 10, 10000),       // poor: half lack it
                 EvenPath("/status", 200, 5, 5000, 40, 3),  // poor: changes
                 EvenPath("/tenant", 1, 1000, 1000000),     // poor: one value
             });
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  ASSERT_EQ(ranked.size(), 5u);
  EXPECT_EQ(ranked[0].path, "/userId");
  EXPECT_EQ(ranked[0].verdict, "good");
  EXPECT_EQ(ranked[1].path, "/type");
  EXPECT_EQ(ranked[1].verdict, "fair");
  for (size_t i = 2; i < 5; ++i) EXPECT_EQ(ranked[i].verdict, "poor") << ranked[i].path;
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(ranked[i].rank, static_cast<int>(i) + 1);

  // /userId: 200 values, even, one physical partition: 50 x log10(200) / 5 + 25 + 25.
  const CandidateAssessment& user = ranked[0];
  EXPECT_EQ(user.cardinality, 200u);
  EXPECT_DOUBLE_EQ(user.coverage, 1);
  EXPECT_DOUBLE_EQ(user.gini, 0);
  EXPECT_EQ(user.physical_partitions, 1);
  EXPECT_DOUBLE_EQ(user.physical_max_over_mean, 1);
  EXPECT_DOUBLE_EQ(user.largest_bytes_projected, 5000);
  EXPECT_NEAR(user.score, 10 * std::log10(200.0) + 50, 1e-9);
  EXPECT_EQ(user.immutability, "immutable");
  EXPECT_FALSE(user.risk_20gb);

  // /type: sizes 600, 300, 100 (thousands): Gini (2 x 600 - 2 x 100) / (3 x 1000) = 1/3.
  const CandidateAssessment& type = ranked[1];
  EXPECT_NEAR(type.gini, 1.0 / 3, 1e-12);
  EXPECT_NEAR(type.score, 10 * std::log10(3.0) + 25 * (2.0 / 3) + 25, 1e-9);
  EXPECT_EQ(type.reasons[0],
            "Fair rather than good: 3 distinct values are fewer than the hundreds a key should "
            "have.");
  EXPECT_EQ(type.reasons[1], "3 distinct values in 1,000 sampled items.");
  EXPECT_TRUE(AnyReasonHas(type, "The largest value holds 60.0% of the sampled data"))
      << Joined(type);

  const CandidateAssessment& country = Find(ranked, "/country");
  EXPECT_DOUBLE_EQ(country.coverage, 0.5);
  EXPECT_EQ(country.reasons[0],
            "Poor: 50.0% of the sampled items lack it, and all of them would share the one "
            "logical partition of the undefined key.");
  const CandidateAssessment& status = Find(ranked, "/status");
  EXPECT_EQ(status.immutability, "changes");
  EXPECT_TRUE(AnyReasonHas(status, "3 of the 40 items seen again")) << Joined(status);
  const CandidateAssessment& tenant = Find(ranked, "/tenant");
  EXPECT_EQ(tenant.cardinality, 1u);
  EXPECT_TRUE(AnyReasonHas(tenant, "single value")) << Joined(tenant);
}

TEST(AdvisorTest, CoverageOf99PercentIsEnough) {
  AnalysisReport analysis =
      Sample(1000, 1000, 1000000, {EvenPath("/a", 198, 5, 5000), EvenPath("/b", 989, 1, 1000)});
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  const CandidateAssessment& a = Find(ranked, "/a");  // 990 of 1,000 items
  EXPECT_DOUBLE_EQ(a.coverage, 0.99);
  EXPECT_EQ(a.verdict, "good");
  const CandidateAssessment& b = Find(ranked, "/b");  // 989 of 1,000 items
  EXPECT_EQ(b.verdict, "poor");
  EXPECT_EQ(b.reasons[0].rfind("Poor: 1.1% of the sampled items lack it", 0), 0u) << Joined(b);
  EXPECT_EQ(ranked[0].path, "/a");
}

TEST(AdvisorTest, LargestValueProjectedTo20Gb) {
  // 1,000 sampled of 1,000,000 items: sample bytes x 1,000. 21,474,836 x 1,000 is just under
  // 20 GiB (21,474,836,480 bytes); 21,474,837 x 1,000 is just over.
  const uint64_t under = 21474836, over = 21474837;
  AnalysisReport analysis = Sample(
      1000, 1000000, 100ull << 30,
      {Path("/under", {{500, under}, {500, 1000}}), Path("/over", {{500, over}, {500, 1000}})});
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  const CandidateAssessment& u = Find(ranked, "/under");
  EXPECT_DOUBLE_EQ(u.largest_bytes_projected, 21474836000.0);
  EXPECT_FALSE(u.risk_20gb);
  const CandidateAssessment& o = Find(ranked, "/over");
  EXPECT_DOUBLE_EQ(o.largest_bytes_projected, 21474837000.0);
  EXPECT_TRUE(o.risk_20gb);
  EXPECT_EQ(o.verdict, "poor");
  EXPECT_TRUE(AnyReasonHas(o, "over the 20 GB a logical partition may store")) << Joined(o);

  // Growth x2 doubles the projection: the half-size value crosses too.
  AdvisorOptions grown;
  grown.growth = 2;
  AnalysisReport half = Sample(1000, 1000000, 100ull << 30, {Path("/half", {{500, 10737419}})});
  const CandidateAssessment h = AdviseKeys(half, grown)[0];
  EXPECT_DOUBLE_EQ(h.largest_bytes_projected, 21474838000.0);
  EXPECT_TRUE(h.risk_20gb);
  EXPECT_TRUE(AnyReasonHas(h, "after growth x2")) << Joined(h);
}

TEST(AdvisorTest, PhysicalBalanceFromTheValuesEpks) {
  // 18,000 RU/s manual: 3 physical partitions (the creation rule, ceil(18,000 / 6,000); the
  // scaling best-practices doc's own example). 40 values of 100..4,000 bytes placed by their V2 EPK.
  std::vector<std::pair<uint64_t, uint64_t>> values;
  for (uint64_t i = 40; i >= 1; --i) values.push_back({1, 100 * i});
  AnalysisReport analysis = Sample(40, 40, 82000, {Path("/k", values)});
  AdvisorOptions options;
  options.ru_per_second = 18000;
  const CandidateAssessment a = AdviseKeys(analysis, options)[0];
  EXPECT_EQ(a.physical_partitions, 3);

  StatusOr<PhysicalLayout> layout = InitialLayout(3, PartitionKeyHashVersion::kV2);
  ASSERT_TRUE(layout.ok());
  double bytes[3] = {0, 0, 0};
  for (const CandidateValue& v : analysis.candidate_paths[0].values) {
    StatusOr<std::string> epk = EffectivePartitionKey(PartitionKey::FromCanonicalBytes(v.canonical),
                                                      PartitionKeyHashVersion::kV2);
    ASSERT_TRUE(epk.ok());
    bytes[Locate(layout.value(), epk.value()).value()] += static_cast<double>(v.bytes);
  }
  const double total = 82000;  // 100 x (1 + ... + 40)
  EXPECT_EQ(bytes[0] + bytes[1] + bytes[2], total);
  EXPECT_DOUBLE_EQ(a.physical_max_over_mean, std::max({bytes[0], bytes[1], bytes[2]}) / (total / 3));
  EXPECT_TRUE(AnyReasonHas(a,
                           "At 18,000 RU/s and 80.1 KB the fullest of the 3 physical "
                           "partitions would hold"))
      << Joined(a);
}

TEST(AdvisorTest, PartitionCountFollowsTheContainersCreation) {
  // Authored: the same rules as the container model (container.h), for the advisor's count.
  AnalysisReport analysis = Sample(40, 40, 82000, {Path("/k", {{20, 41000}, {20, 41000}})});
  auto count = [&](AdvisorOptions o) { return AdviseKeys(analysis, o)[0].physical_partitions; };
  AdvisorOptions manual;
  manual.ru_per_second = 30000;
  EXPECT_EQ(count(manual), 5);  // ceil(30,000 / 6,000)
  AdvisorOptions autoscale = manual;
  autoscale.autoscale = true;
  EXPECT_EQ(count(autoscale), 3);  // ceil(30,000 / 10,000)
  AdvisorOptions raised = manual;
  raised.created_ru_per_second = 12000;
  EXPECT_EQ(count(raised), 3);  // 2 at creation, split to ceil(30,000 / 10,000)
  AdvisorOptions lowered;
  lowered.ru_per_second = 6000;
  lowered.created_ru_per_second = 30000;
  EXPECT_EQ(count(lowered), 5);  // a scale-down keeps the partitions
  AdvisorOptions serverless;
  serverless.serverless = true;
  EXPECT_EQ(count(serverless), 1);
}

TEST(AdvisorTest, OnePhysicalPartitionNeedsNoBalance) {
  AnalysisReport analysis = Sample(10, 10, 1000, {Path("/k", {{9, 900}, {1, 100}})});
  const CandidateAssessment a = AdviseKeys(analysis, AdvisorOptions{})[0];
  EXPECT_EQ(a.physical_partitions, 1);
  EXPECT_DOUBLE_EQ(a.physical_max_over_mean, 1);
  EXPECT_TRUE(AnyReasonHas(a,
                           "At 400 RU/s and 1,000 bytes the container has 1 physical "
                           "partition, so how the values hash does not matter yet."))
      << Joined(a);
}

TEST(AdvisorTest, LowerGiniRanksHigherAtEqualCardinality) {
  AnalysisReport analysis =
      Sample(1000, 1000, 1000000,
             {Path("/skewed", {{700, 700000}, {100, 100000}, {100, 100000}, {100, 100000}}),
              Path("/even", {{250, 250000}, {250, 250000}, {250, 250000}, {250, 250000}})});
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  EXPECT_EQ(ranked[0].path, "/even");
  EXPECT_EQ(ranked[1].path, "/skewed");
  EXPECT_EQ(ranked[0].verdict, ranked[1].verdict);
  EXPECT_GT(ranked[0].score, ranked[1].score);
}

TEST(AdvisorTest, FairWhenOneValueHoldsAlmostEverything) {
  // 100 values: one of 990,000 bytes, 99 of 100. Ascending ranks give the Gini numerator
  // 99 x 990,000 + 100 x (2 x 4,950 - 101 x 99) = 98,000,100 over 100 x 999,900.
  std::vector<std::pair<uint64_t, uint64_t>> values = {{1, 990000}};
  for (int i = 0; i < 99; ++i) values.push_back({1, 100});
  AnalysisReport analysis = Sample(100, 100, 999900, {Path("/k", values)});
  const CandidateAssessment a = AdviseKeys(analysis, AdvisorOptions{})[0];
  EXPECT_NEAR(a.gini, 98000100.0 / 99990000.0, 1e-12);
  EXPECT_EQ(a.verdict, "fair");
  EXPECT_EQ(a.reasons[0],
            "Fair rather than good: the values' sizes are uneven (a Gini coefficient of 0.98, "
            "above 0.5).");
  EXPECT_TRUE(AnyReasonHas(a, "The largest value holds 99.0% of the sampled data")) << Joined(a);
}

TEST(AdvisorTest, HigherCardinalityRanksHigherWhenEven) {
  AnalysisReport analysis = Sample(
      1200, 1200, 1200000, {EvenPath("/few", 120, 10, 10000), EvenPath("/many", 1200, 1, 1000)});
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  EXPECT_EQ(ranked[0].path, "/many");
  EXPECT_EQ(ranked[0].verdict, "good");
  EXPECT_EQ(ranked[1].verdict, "good");
}

TEST(AdvisorTest, IdLikePathsAreOnePartitionPerItem) {
  AnalysisReport analysis =
      Sample(500, 500, 500000, {EvenPath("/id", 500, 1, 1000), EvenPath("/orderId", 500, 1, 1000)});
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  const CandidateAssessment& id = Find(ranked, "/id");
  EXPECT_EQ(id.reasons[0],
            "500 distinct values in 500 sampled items; every item holds its own value, so each "
            "item is its own logical partition and a point read needs only the id.");
  const CandidateAssessment& order = Find(ranked, "/orderId");
  EXPECT_TRUE(AnyReasonHas(order, "each item is its own logical partition."));
  EXPECT_FALSE(AnyReasonHas(order, "point read"));
  // Equal measures: the path breaks the tie.
  EXPECT_EQ(ranked[0].path, "/id");
}

TEST(AdvisorTest, CappedPathsCountAsHighCardinalityWithUnknownSizes) {
  CandidatePath capped;
  capped.path = "/sessionId";
  capped.items = 250000;
  capped.distinct = kMaxDistinctPerPath;
  capped.distinct_capped = true;
  AnalysisReport analysis = Sample(250000, 1000000, 1ull << 30, {capped});
  const CandidateAssessment a = AdviseKeys(analysis, AdvisorOptions{})[0];
  EXPECT_TRUE(a.cardinality_capped);
  EXPECT_EQ(a.cardinality, 100000u);
  EXPECT_EQ(a.largest_bytes_projected, -1);
  EXPECT_EQ(a.gini, -1);
  EXPECT_EQ(a.physical_max_over_mean, -1);
  EXPECT_FALSE(a.risk_20gb);
  EXPECT_EQ(a.verdict, "good");
  EXPECT_DOUBLE_EQ(a.score, 100);
  EXPECT_TRUE(AnyReasonHas(a, "the largest partition is unknown")) << Joined(a);
  EXPECT_TRUE(AnyReasonHas(a, "More than 100,000 distinct values in 250,000 sampled items"))
      << Joined(a);
}

TEST(AdvisorTest, ImmutabilityFromRepeatedIds) {
  AnalysisReport analysis =
      Sample(300, 300, 300000,
             {EvenPath("/a", 150, 2, 2000, 0, 0), EvenPath("/b", 150, 2, 2000, 20, 0),
              EvenPath("/c", 150, 2, 2000, 20, 1)});
  std::vector<CandidateAssessment> ranked = AdviseKeys(analysis, AdvisorOptions{});
  EXPECT_EQ(Find(ranked, "/a").immutability, "unknown");
  EXPECT_TRUE(AnyReasonHas(Find(ranked, "/a"), "whether the value ever changes is unknown"));
  EXPECT_EQ(Find(ranked, "/b").immutability, "immutable");
  EXPECT_TRUE(AnyReasonHas(Find(ranked, "/b"), "The 20 items seen again in the sample kept"));
  EXPECT_EQ(Find(ranked, "/c").immutability, "changes");
  EXPECT_EQ(Find(ranked, "/c").verdict, "poor");
  // Unknown is no disqualifier: /a and /b are equal otherwise.
  EXPECT_EQ(Find(ranked, "/a").verdict, "good");
}

TEST(AdvisorTest, NothingSampledNothingAdvised) {
  EXPECT_TRUE(AdviseKeys(AnalysisReport{}, AdvisorOptions{}).empty());
}

TEST(AdvisorTest, OptionErrors) {
  EXPECT_TRUE(ValidateAdvisorOptions(AdvisorOptions{}).ok());
  AdvisorOptions zero_ru;
  zero_ru.ru_per_second = 0;
  EXPECT_EQ(ValidateAdvisorOptions(zero_ru).code(), ErrorCode::kBadOption);
  AdvisorOptions shrink;
  shrink.growth = 0.5;
  EXPECT_EQ(ValidateAdvisorOptions(shrink).code(), ErrorCode::kBadOption);
  AdvisorOptions nan_growth;
  nan_growth.growth = NAN;
  EXPECT_EQ(ValidateAdvisorOptions(nan_growth).code(), ErrorCode::kBadOption);
}

}  // namespace
}  // namespace partplay

namespace partplay {
namespace {

// A path whose `n` values are the numbers first, first + step, ... (one item, 100 bytes each).
CandidatePath NumberPath(const std::string& path, int n, double first, double step) {
  CandidatePath c;
  c.path = path;
  for (int i = 0; i < n; ++i) {
    PartitionKey key;
    key.components.push_back(KeyComponent::Number(first + step * i));
    c.values.push_back({key.CanonicalBytes(), 1, 100});
  }
  c.items = c.numbers = static_cast<uint64_t>(n);
  c.distinct = c.values.size();
  return c;
}

TEST(AdvisorTest, PathsThatLookLikeMeasuresArePoor) {
  AnalysisReport r =
      Sample(500, 500, 50000,
             {NumberPath("/total", 500, 10.25, 1), NumberPath("/qty", 500, 1, 1),
              NumberPath("/customerNo", 500, 1000, 1), EvenPath("/userId", 500, 1, 100)});
  const auto all = AdviseKeys(r, {});
  const CandidateAssessment& total = Find(all, "/total");
  EXPECT_EQ(total.verdict, "poor");
  EXPECT_TRUE(AnyReasonHas(total, "numbers with fractions (500 of its items, e.g. 10.25)"));
  const CandidateAssessment& qty = Find(all, "/qty");
  EXPECT_EQ(qty.verdict, "poor");
  EXPECT_TRUE(AnyReasonHas(qty, "named like a quantity"));
  // Whole numbers under an identifier's name are an identifier.
  EXPECT_TRUE(Find(all, "/customerNo").measure_reason.empty());
  EXPECT_NE(Find(all, "/customerNo").verdict, "poor");
  EXPECT_TRUE(Find(all, "/userId").measure_reason.empty());
  EXPECT_LT(Find(all, "/userId").rank, total.rank);
  // Capped paths keep no values: only the name is judged.
  CandidatePath capped = NumberPath("/amount", 10, 0.5, 1);
  capped.values.clear();
  capped.distinct_capped = true;
  capped.distinct = kMaxDistinctPerPath;
  capped.items = capped.numbers = 500;
  CandidatePath capped_id = capped;
  capped_id.path = "/serial";
  const auto more = AdviseKeys(Sample(500, 500, 50000, {capped, capped_id}), {});
  EXPECT_EQ(Find(more, "/amount").verdict, "poor");
  EXPECT_TRUE(Find(more, "/serial").measure_reason.empty());
}

TEST(AdvisorTest, SystemPropertiesOfAnExportArePoor) {
  // Every item of an export has its own _rid, _etag and _ts, as evenly spread as /id: only the
  // rule that Cosmos DB writes them keeps them from the top.
  AnalysisReport r = Sample(500, 500, 50000,
                            {EvenPath("/_rid", 500, 1, 100), EvenPath("/_etag", 500, 1, 100),
                             EvenPath("/_ts", 500, 1, 100), EvenPath("/id", 500, 1, 100),
                             EvenPath("/_ridge", 500, 1, 100)});
  const auto all = AdviseKeys(r, {});
  for (const char* path : {"/_rid", "/_etag", "/_ts"}) {
    const CandidateAssessment& a = Find(all, path);
    EXPECT_EQ(a.verdict, "poor") << path;
    EXPECT_TRUE(AnyReasonHas(a, "system property Cosmos DB writes when it stores an item")) << path;
    EXPECT_GT(a.rank, Find(all, "/id").rank) << path;
  }
  EXPECT_TRUE(Find(all, "/id").system_reason.empty());
  EXPECT_TRUE(Find(all, "/_ridge").system_reason.empty());  // only the exact names
  EXPECT_EQ(all[0].verdict, "good");
}

}  // namespace
}  // namespace partplay

namespace partplay {
namespace {

// A unique millisecond timestamp spreads as well as a random id, but its values arrive in write
// order: the advisor rates it fair below the id, and says why (issue 38). Authored.
TEST(KeyAdvisorTest, AMonotonicTimestampIsFairAndRanksBelowARandomId) {
  std::mt19937_64 rng(5);
  std::string input;
  for (int i = 0; i < 3000; ++i) {
    input += fmt::format(R"({{"id":"{:016x}","orderDate":"2024-03-01T00:{:02}:{:02}.{:03}Z"}})",
                         rng(), i / 60000 % 60, i / 1000 % 60, i % 1000) +
             "\n";
  }
  AnalysisOptions options;
  options.key_paths = {"/id"};
  auto analyzer = Analyzer::Create(options);
  ASSERT_TRUE(analyzer.ok());
  ASSERT_TRUE(analyzer.value()->Feed(input).ok());
  ASSERT_TRUE(analyzer.value()->Finish().ok());
  const AnalysisReport report = analyzer.value()->BuildReport({});
  const std::vector<CandidateAssessment> ranked = AdviseKeys(report, {.ru_per_second = 40000});
  ASSERT_GE(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].path, "/id");
  EXPECT_EQ(ranked[0].verdict, "good");
  EXPECT_FALSE(ranked[0].monotonic);
  EXPECT_GT(ranked[0].rises_with_input, 0.4);
  EXPECT_LT(ranked[0].rises_with_input, 0.6);
  EXPECT_EQ(ranked[1].path, "/orderDate");
  EXPECT_EQ(ranked[1].verdict, "fair");
  EXPECT_TRUE(ranked[1].monotonic);
  EXPECT_DOUBLE_EQ(ranked[1].rises_with_input, 1);
  EXPECT_EQ(ranked[1].cardinality, 3000u);
  ASSERT_FALSE(ranked[1].reasons.empty());
  EXPECT_EQ(ranked[1].reasons[0].rfind("Fair rather than good: its values rise and fall with the "
                                       "input's order (they rise in 100.0% of the changes",
                                       0),
            0u)
      << ranked[1].reasons[0];
}

// Fewer than 20 changes: not judged.
TEST(KeyAdvisorTest, FewChangesAreNotJudgedMonotonic) {
  CandidatePath c = EvenPath("/seq", 200, 1, 100);
  c.value_changes = 19;
  c.value_rises = 19;
  AnalysisReport r = Sample(200, 200, 20000, {c});
  std::vector<CandidateAssessment> ranked = AdviseKeys(r, {.ru_per_second = 400});
  ASSERT_EQ(ranked.size(), 1u);
  EXPECT_FALSE(ranked[0].monotonic);
  EXPECT_EQ(ranked[0].rises_with_input, -1);
  c.value_changes = 20;
  c.value_rises = 2;  // 90% fall
  r = Sample(200, 200, 20000, {c});
  ranked = AdviseKeys(r, {.ru_per_second = 400});
  EXPECT_TRUE(ranked[0].monotonic);
  EXPECT_EQ(ranked[0].verdict, "fair");
}

}  // namespace
}  // namespace partplay
