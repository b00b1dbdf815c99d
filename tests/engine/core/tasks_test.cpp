#include "partplay/core/tasks.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "lent_threads.h"

namespace partplay {
namespace {

// The stretches fn saw, by number: each [begin, end).
std::vector<std::pair<size_t, size_t>> Stretches(size_t n, size_t min_each, size_t& count) {
  std::vector<std::pair<size_t, size_t>> seen(64, {0, 0});
  count = internal::ParallelStretches(n, min_each, [&](size_t s, size_t b, size_t e) {
    seen[s] = {b, e};
  });
  seen.resize(count);
  return seen;
}

TEST(TasksTest, WithoutARunnerOneStretchCoversAll) {
  SetTaskRunner({}, 1);
  EXPECT_EQ(internal::TaskThreads(), 1);
  size_t count = 0;
  auto seen = Stretches(1000, 10, count);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(seen[0], (std::pair<size_t, size_t>{0, 1000}));
  // Nothing to do is still one (empty) stretch.
  seen = Stretches(0, 10, count);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(seen[0], (std::pair<size_t, size_t>{0, 0}));
}

TEST(TasksTest, OneThreadOrNoRunnerMeansNone) {
  LentThreads runner(1);
  EXPECT_EQ(internal::TaskThreads(), 1);
  size_t count = 0;
  Stretches(100000, 10, count);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(runner.tasks, 0);  // ran inline, not through the runner
  SetTaskRunner({}, 8);
  EXPECT_EQ(internal::TaskThreads(), 1);
}

TEST(TasksTest, StretchesCoverEveryItemOnceInOrder) {
  LentThreads runner(4);
  EXPECT_EQ(internal::TaskThreads(), 4);
  for (size_t n : {0u, 1u, 7u, 39u, 40u, 41u, 1000u, 100003u}) {
    size_t count = 0;
    auto seen = Stretches(n, 10, count);
    const size_t expected = std::max<size_t>(1, std::min<size_t>(4, n / 10));
    ASSERT_EQ(count, expected) << n;
    size_t at = 0;
    for (const auto& [b, e] : seen) {
      EXPECT_EQ(b, at) << n;
      EXPECT_LE(b, e) << n;
      if (count > 1) EXPECT_GE(e - b, 10u) << n;
      at = e;
    }
    EXPECT_EQ(at, n);
  }
  EXPECT_GT(runner.tasks, 0);
}

TEST(TasksTest, EveryItemIsVisitedOnceAcrossThreads) {
  LentThreads runner(3);
  std::vector<std::atomic<int>> visits(300000);
  size_t count = internal::ParallelStretches(visits.size(), 1000, [&](size_t, size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) ++visits[i];
  });
  EXPECT_EQ(count, 3u);
  for (size_t i = 0; i < visits.size(); ++i) ASSERT_EQ(visits[i].load(), 1) << i;
}

}  // namespace
}  // namespace partplay
