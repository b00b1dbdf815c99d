#include "parallel_listing.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace partplay::cli {

int ListingThreads(size_t partitions) {
  unsigned cores = std::thread::hardware_concurrency();
  if (partitions < 2 * kListingStretch || cores < 2) return 1;
  return static_cast<int>(std::min(cores, 4u));
}

Status WritePartitionsJsonInParallel(const PartitionsJson& listing, size_t from, int threads,
                                     const std::function<void(std::string_view)>& write,
                                     size_t stretch) {
  const size_t end = listing.size();
  stretch = std::max<size_t>(stretch, 1);
  const size_t count = from < end ? (end - from + stretch - 1) / stretch : 0;
  if (threads <= 1 || count < 2) {
    std::string text;
    for (size_t c = 0; c < count; ++c) {
      text.clear();
      PARTPLAY_RETURN_IF_ERROR(listing.Append(from + c * stretch, from + (c + 1) * stretch, text));
      write(text);
    }
    return Status::Ok();
  }
  // Stretch c is formatted by thread c % threads into slot c % slots; a thread starts it once
  // stretch c - slots has been written, so each slot holds one stretch at a time.
  const size_t workers = std::min<size_t>(static_cast<size_t>(threads), count);
  const size_t slots = 2 * workers;
  struct Slot {
    std::string text;
    Status status;
    bool ready = false;
  };
  std::vector<Slot> slot(slots);
  std::mutex mutex;
  std::condition_variable changed;
  size_t written = 0;  // stretches written so far (by this thread)
  bool stop = false;

  auto format = [&](size_t first) {
    for (size_t c = first; c < count; c += workers) {
      std::string text;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || c < written + slots; });
        if (stop) return;
        text = std::move(slot[c % slots].text);  // the slot's buffer, written and cleared
      }
      Status status = listing.Append(from + c * stretch, from + (c + 1) * stretch, text);
      {
        std::lock_guard<std::mutex> lock(mutex);
        Slot& s = slot[c % slots];
        s.text = std::move(text);
        s.status = std::move(status);
        s.ready = true;
      }
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (size_t t = 0; t < workers; ++t) pool.emplace_back(format, t);

  Status result;
  for (size_t c = 0; c < count; ++c) {
    Slot& s = slot[c % slots];
    std::string text;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return s.ready; });
      s.ready = false;
      if (!s.status.ok()) {
        result = std::move(s.status);
        stop = true;
      } else {
        text = std::move(s.text);
      }
    }
    if (!result.ok()) break;
    write(text);
    text.clear();
    {
      std::lock_guard<std::mutex> lock(mutex);
      s.text = std::move(text);  // its memory serves stretch c + slots
      written = c + 1;
    }
    changed.notify_all();
  }
  changed.notify_all();
  for (std::thread& t : pool) t.join();
  return result;
}

}  // namespace partplay::cli
