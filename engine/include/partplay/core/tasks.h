// Work the engine may spread over threads that its host lends it. The engine starts no thread
// of its own (its WebAssembly build has none): the native CLI sets a runner over its cores once,
// before any analysis; without one every task runs in turn on the calling thread. No result
// depends on the runner: tasks write disjoint places and are joined in a fixed order.
#pragma once

#include <cstddef>
#include <functional>

namespace partplay {

// Runs task(0), ..., task(n - 1), each exactly once, possibly at the same time, and returns
// when every one has ended.
using TaskRunner = std::function<void(size_t n, const std::function<void(size_t)>& task)>;

// Sets the runner and how many tasks it runs at once (`threads` >= 1; an empty runner or 1
// thread: none). Call it from one thread while no analysis runs.
void SetTaskRunner(TaskRunner runner, int threads);

namespace internal {

// How many tasks run at once: 1 without a runner.
int TaskThreads();

// A pass over every partition goes in stretches of at least this many, so that starting a
// thread (0.4-2 ms on the 2-core machine of the README's figures) stays a small part of each.
inline constexpr size_t kMinPartitionStretch = size_t{1} << 16;

// Cuts [0, n) into at most TaskThreads() stretches of at least `min_each` items (one stretch
// when n is smaller) and runs fn(stretch, begin, end) for each; returns the stretch count.
// `stretch` numbers them 0, 1, ... in order, so per-stretch results can be joined in order.
size_t ParallelStretches(size_t n, size_t min_each,
                         const std::function<void(size_t stretch, size_t begin, size_t end)>& fn);

}  // namespace internal
}  // namespace partplay
