// Every partition of an analysis as a PartitionList (analysis.h) in size order: the table's
// entries copied out in that order when first asked (TablePartitionList), the size order kept
// while the table is unchanged (Analyzer::Impl::SizeOrder), and LogicalPartitionList over a plain
// list of partitions.
#include <algorithm>
#include <atomic>
#include <mutex>

#include "core/huge_pages.h"
#include "ingest/analyzer_impl.h"
#include "partplay/core/tasks.h"

namespace partplay {

namespace {

// The analyzer's table in size order. Items and bytes are copied out in that order on first
// use (the container model reads them many times, at random: 8-byte arrays, not 48-byte
// entries; a plain listing never asks): 4 bytes per partition besides the table, 24 then (with
// the list index of each partition number, for passes in memory order).
class TablePartitionList : public PartitionList {
 public:
  TablePartitionList(const internal::PartitionTable& table, std::vector<double> weights,
                     std::shared_ptr<const std::vector<uint32_t>> order)
      : table_(table), weights_(std::move(weights)), order_(*order), keep_(std::move(order)) {}
  size_t size() const override { return order_.size(); }
  uint64_t items(size_t i) const override {
    CopySizes();
    return items_[i];
  }
  uint64_t bytes(size_t i) const override {
    CopySizes();
    return bytes_[i];
  }
  double weight(size_t i) const override {
    return order_[i] < weights_.size() ? weights_[order_[i]] : 0.0;
  }
  std::string_view canonical(size_t i) const override { return table_.key_of(order_[i]); }
  LogicalPartition partition(size_t i) const override {
    LogicalPartition p;
    partition_into(i, p);
    return p;
  }
  void read_ahead(size_t i) const override {
    if (i + 32 < order_.size()) table_.PrefetchNumber(order_[i + 32]);
    if (i + 16 < order_.size()) table_.PrefetchKeyOfNumber(order_[i + 16]);
  }
  void read_sizes_ahead(size_t i) const override {
    CopySizes();
    if (i < items_.size()) {
      __builtin_prefetch(&items_[i], 0);
      __builtin_prefetch(&bytes_[i], 0);
    }
  }
  void partition_into(size_t i, LogicalPartition& out) const override {
    table_.ExportInto(order_[i], out);
    out.weight = weight(i);
  }
  // The table's partition numbers are its memory order.
  void VisitStretchInMemoryOrder(size_t begin, size_t end,
                                 const std::function<bool(size_t, std::string_view)>& visit,
                                 const std::function<void(size_t)>& coming) const override {
    constexpr size_t kAhead = 16;
    const std::vector<uint32_t>& at = ListIndexOfNumber();
    end = std::min(end, at.size());
    for (size_t n = begin; n < end; ++n) {
      if (coming && n + kAhead < end) coming(at[n + kAhead]);
      if (!visit(at[n], table_.key_of(static_cast<uint32_t>(n)))) return;
    }
  }

 private:
  // Both caches are filled once, by whichever caller comes first (stretches of a pass may run
  // on several threads), in stretches on the host's threads (core/tasks.h).
  const std::vector<uint32_t>& ListIndexOfNumber() const {
    std::call_once(list_index_once_, [this] {
      internal::ReserveHuge(list_index_, order_.size());
      list_index_.resize(order_.size());
      internal::ParallelStretches(order_.size(), internal::kMinPartitionStretch,
                                  [&](size_t, size_t b, size_t e) {
                                    for (size_t i = b; i < e; ++i) {
                                      if (i + 16 < e)
                                        __builtin_prefetch(&list_index_[order_[i + 16]], 1);
                                      list_index_[order_[i]] = static_cast<uint32_t>(i);
                                    }
                                  });
    });
    return list_index_;
  }
  void CopySizes() const {
    if (sizes_copied_.load(std::memory_order_acquire)) return;  // the common case, inlined
    std::call_once(sizes_once_, [this] {
      internal::ReserveHuge(items_, order_.size());
      internal::ReserveHuge(bytes_, order_.size());
      items_.resize(order_.size());
      bytes_.resize(order_.size());
      // Gathered in list order, the entries loaded ahead: no list index of each number needed.
      // (Scattered in memory order it took 15 ms for 1,000,000 partitions; this way, measured
      // together with the request shares, 23-35 ms against 26: no clear gain in time.)
      internal::ParallelStretches(order_.size(), internal::kMinPartitionStretch,
                                  [&](size_t, size_t b, size_t e) {
                                    for (size_t i = b; i < e; ++i) {
                                      if (i + 16 < e) table_.PrefetchNumber(order_[i + 16]);
                                      items_[i] = table_.items_of(order_[i]);
                                      bytes_[i] = table_.bytes_of(order_[i]);
                                    }
                                  });
      sizes_copied_.store(true, std::memory_order_release);
    });
  }

  const internal::PartitionTable& table_;
  std::vector<double> weights_;  // rounded, by partition number
  const std::vector<uint32_t>& order_;
  std::shared_ptr<const std::vector<uint32_t>> keep_;  // order_'s owner
  mutable std::vector<uint64_t> items_, bytes_;  // filled by CopySizes on first use
  mutable std::vector<uint32_t> list_index_;  // by partition number (ListIndexOfNumber)
  mutable std::once_flag sizes_once_, list_index_once_;
  mutable std::atomic<bool> sizes_copied_{false};
};

}  // namespace

// The full sort is the costly part with many partitions; a report asks for the order more than
// once (its own figures, the container model, then the streamed listing), so it is kept while
// the table stays as it is.
std::shared_ptr<const std::vector<uint32_t>> Analyzer::Impl::SizeOrder(bool sort) const {
  const bool kept = sorted_ && sorted_items_ == items_ && sorted_->size() == partitions_.size();
  if (!kept && !sort) return nullptr;
  if (!kept) {
    sorted_ = std::make_shared<const std::vector<uint32_t>>(partitions_.Largest(partitions_.size()));
    sorted_items_ = items_;
  }
  return sorted_;
}

std::unique_ptr<PartitionList> Analyzer::Impl::AllPartitions() const {
  std::vector<double> weights(weights_.size());
  for (uint32_t i = 0; i < weights.size(); ++i) weights[i] = WeightOf(i);
  return std::make_unique<TablePartitionList>(partitions_, std::move(weights), SizeOrder(true));
}

LogicalPartitionList::LogicalPartitionList(const std::vector<LogicalPartition>& partitions)
    : partitions_(partitions) {
  canonical_.reserve(partitions.size());
  for (const LogicalPartition& p : partitions) canonical_.push_back(p.key.CanonicalBytes());
}

}  // namespace partplay
