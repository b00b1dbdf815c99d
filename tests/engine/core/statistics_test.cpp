// ComputeSpread: mean, top 1% and Gini over partition sizes, against hand-computed values.
#include "partplay/core/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace partplay {
namespace {

// Gini as the mean absolute difference over twice the mean: sum_i sum_j |x_i - x_j| / (2 n^2 mean),
// a formula independent of the one the engine uses.
double ReferenceGini(const std::vector<double>& x) {
  double n = static_cast<double>(x.size()), total = 0, diff = 0;
  for (double a : x) total += a;
  if (x.size() < 2 || total == 0) return 0;
  for (double a : x) {
    for (double b : x) diff += std::fabs(a - b);
  }
  return diff / (2 * n * total);
}

TEST(StatisticsTest, NoPartitions) {
  PartitionSpread s = ComputeSpread({});
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.top1_count, 0u);
  EXPECT_EQ(s.top1_total, 0u);
  EXPECT_EQ(s.top1_share, 0);
  EXPECT_EQ(s.gini, 0);
}

TEST(StatisticsTest, OnePartition) {
  PartitionSpread s = ComputeSpread({1234});
  EXPECT_DOUBLE_EQ(s.mean, 1234);
  EXPECT_EQ(s.top1_count, 1u);
  EXPECT_EQ(s.top1_total, 1234u);
  EXPECT_DOUBLE_EQ(s.top1_share, 1.0);
  EXPECT_EQ(s.gini, 0);
}

TEST(StatisticsTest, EqualSizesHaveGiniZero) {
  for (size_t n : {2u, 3u, 10u, 1000u}) {
    PartitionSpread s = ComputeSpread(std::vector<double>(n, 100));
    EXPECT_NEAR(s.gini, 0, 1e-12) << n;
    EXPECT_DOUBLE_EQ(s.mean, 100) << n;
  }
}

TEST(StatisticsTest, TheHeaderExample) {
  PartitionSpread s = ComputeSpread({300, 100});
  EXPECT_DOUBLE_EQ(s.gini, 0.25);
  EXPECT_DOUBLE_EQ(s.mean, 200);
  EXPECT_EQ(s.top1_count, 1u);
  EXPECT_EQ(s.top1_total, 300u);
  EXPECT_DOUBLE_EQ(s.top1_share, 0.75);
}

TEST(StatisticsTest, OneNonZeroAmongNHasGiniNMinusOneOverN) {
  for (size_t n : {2u, 3u, 4u, 10u, 250u}) {
    std::vector<double> sizes(n, 0);
    sizes[0] = 5000;
    PartitionSpread s = ComputeSpread(sizes);
    EXPECT_NEAR(s.gini, static_cast<double>(n - 1) / static_cast<double>(n), 1e-12) << n;
    EXPECT_DOUBLE_EQ(s.top1_share, 1.0) << n;
    EXPECT_DOUBLE_EQ(s.mean, 5000.0 / static_cast<double>(n)) << n;
  }
}

TEST(StatisticsTest, HandComputedGini) {
  // {3, 2, 1}: sum of |xi - xj| over ordered pairs = 2 * (1 + 2 + 1) = 8; 8 / (2 * 9 * 2) = 2/9.
  EXPECT_NEAR(ComputeSpread({3, 2, 1}).gini, 2.0 / 9.0, 1e-12);
  // {10, 10, 0, 0}: pairs differing by 10: 2*2*2 = 8 ordered pairs, 80 / (2 * 16 * 5) = 0.5.
  EXPECT_NEAR(ComputeSpread({10, 10, 0, 0}).gini, 0.5, 1e-12);
}

TEST(StatisticsTest, AllZeroSizes) {
  PartitionSpread s = ComputeSpread({0, 0, 0});
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.gini, 0);
  EXPECT_EQ(s.top1_count, 1u);
  EXPECT_EQ(s.top1_total, 0u);
  EXPECT_EQ(s.top1_share, 0);
}

TEST(StatisticsTest, TopOnePercentCountIsTheCeiling) {
  struct Case {
    size_t n;
    uint64_t count;
  };
  for (Case c : {Case{1, 1}, Case{99, 1}, Case{100, 1}, Case{101, 2}, Case{199, 2}, Case{200, 2},
                 Case{201, 3}, Case{1000, 10}, Case{1001, 11}}) {
    std::vector<double> sizes(c.n);
    for (size_t i = 0; i < c.n; ++i) sizes[i] = static_cast<double>(c.n - i);  // n, n-1, ..., 1
    PartitionSpread s = ComputeSpread(sizes);
    EXPECT_EQ(s.top1_count, c.count) << c.n;
    // The largest `count` sizes: n + (n-1) + ... + (n-count+1).
    uint64_t expected_total = 0;
    for (uint64_t k = 0; k < c.count; ++k) expected_total += c.n - k;
    EXPECT_EQ(s.top1_total, expected_total) << c.n;
    double total = static_cast<double>(c.n) * static_cast<double>(c.n + 1) / 2;
    EXPECT_NEAR(s.top1_share, static_cast<double>(expected_total) / total, 1e-12) << c.n;
    EXPECT_NEAR(s.mean, total / static_cast<double>(c.n), 1e-9) << c.n;
  }
}

TEST(StatisticsTest, GiniMatchesTheReferenceFormulaOnRandomSizes) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    size_t n = 1 + rng() % 300;
    std::vector<double> sizes(n);
    for (double& x : sizes) x = static_cast<double>(rng() % 100000);
    if (round % 5 == 0) sizes[0] *= 1000;  // some heavily skewed sets
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    PartitionSpread s = ComputeSpread(sizes);
    EXPECT_NEAR(s.gini, ReferenceGini(sizes), 1e-9) << "round " << round;
    EXPECT_GE(s.gini, 0);
    EXPECT_LT(s.gini, 1);
  }
}

TEST(StatisticsTest, GiniGrowsWithSkew) {
  double even = ComputeSpread({100, 100, 100, 100}).gini;
  double mild = ComputeSpread({160, 100, 80, 60}).gini;
  double hot = ComputeSpread({370, 10, 10, 10}).gini;
  EXPECT_LT(even, mild);
  EXPECT_LT(mild, hot);
}

// A size no uint64 holds (only a forged partial state can carry one, found by partial_fuzz):
// the top 1% total saturates instead of converting out of range.
TEST(StatisticsTest, SizesBeyondUint64SaturateTheTopTotal) {
  PartitionSpread s = ComputeSpread({1.9e19, 5});
  EXPECT_EQ(s.top1_total, UINT64_MAX);
  EXPECT_GT(s.gini, 0);
  EXPECT_EQ(ComputeSpread({-0.0}).top1_total, 0u);
}

}  // namespace
}  // namespace partplay
