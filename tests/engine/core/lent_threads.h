// Test helper: lends the engine threads as the CLI does (cli::LendThreads: a thread per task
// beyond the first), counting the tasks the runner ran, and takes them back when it goes.
#pragma once

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#include "partplay/core/tasks.h"

namespace partplay {

struct LentThreads {
  explicit LentThreads(int threads) {
    SetTaskRunner(
        [this](size_t n, const std::function<void(size_t)>& task) {
          std::vector<std::thread> others;
          for (size_t k = 1; k < n; ++k) others.emplace_back([&task, k] { task(k); });
          task(0);
          for (std::thread& t : others) t.join();
          tasks += static_cast<int>(n);
        },
        threads);
  }
  ~LentThreads() { SetTaskRunner({}, 1); }
  LentThreads(const LentThreads&) = delete;
  LentThreads& operator=(const LentThreads&) = delete;

  std::atomic<int> tasks{0};  // run through the runner (none when it ran inline)
};

}  // namespace partplay
