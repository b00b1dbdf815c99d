// How evenly data spreads over partitions: the mean, the share held by the largest 1% of
// partitions, and the Gini coefficient (0 when every partition is the same size, approaching 1
// when one partition holds everything), computed over partition sizes.
//
//   PartitionSpread s = ComputeSpread({300, 100});  // s.gini == 0.25, s.top1_share == 0.75
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace partplay {

struct PartitionSpread {
  double mean = 0;
  uint64_t top1_count = 0;  // ceil(1% of the partitions), at least 1 when there is any
  uint64_t top1_total = 0;  // their summed size
  double top1_share = 0;    // top1_total / total (0 when total is 0)
  double gini = 0;
};

// `sizes_desc`: partition sizes, largest first.
PartitionSpread ComputeSpread(const std::vector<double>& sizes_desc);

// The same figures, bit for bit, from sizes streamed twice (largest first both times), never
// held: every size to Add, then every size again to AddAgain, then Result (a report merged from
// bucket summaries, ingest/buckets.h). ComputeSpread is this over its vector.
class StreamedSpread {
 public:
  void Add(double size) {
    total_ += size;
    ++n_;
  }
  void AddAgain(double size);
  PartitionSpread Result() const;

 private:
  size_t n_ = 0, k_ = 0;  // sizes, and sizes seen again
  double total_ = 0, weighted_ = 0;
  uint64_t top1_total_ = 0;
};

}  // namespace partplay
