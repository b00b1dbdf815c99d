#include "partplay/core/tasks.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace partplay {
namespace {

TaskRunner& Runner() {
  static TaskRunner runner;
  return runner;
}
int& Threads() {
  static int threads = 1;
  return threads;
}

}  // namespace

void SetTaskRunner(TaskRunner runner, int threads) {
  const bool usable = runner && threads > 1;
  Runner() = usable ? std::move(runner) : TaskRunner();
  Threads() = usable ? threads : 1;
}

namespace internal {

int TaskThreads() { return Threads(); }

size_t ParallelStretches(size_t n, size_t min_each,
                         const std::function<void(size_t, size_t, size_t)>& fn) {
  const size_t most = min_each == 0 ? n : n / min_each;
  const size_t count = std::max<size_t>(1, std::min(static_cast<size_t>(TaskThreads()), most));
  auto at = [&](size_t k) { return static_cast<size_t>(uint64_t{n} * k / count); };
  auto stretch = [&](size_t k) { fn(k, at(k), at(k + 1)); };
  if (count == 1 || !Runner()) {
    for (size_t k = 0; k < count; ++k) stretch(k);
  } else {
    Runner()(count, stretch);
  }
  return count;
}

}  // namespace internal
}  // namespace partplay
