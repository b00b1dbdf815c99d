#include "partplay/core/statistics.h"

namespace partplay {

PartitionSpread ComputeSpread(const std::vector<double>& sizes_desc) {
  PartitionSpread s;
  const size_t n = sizes_desc.size();
  if (n == 0) return s;
  double total = 0;
  for (double x : sizes_desc) total += x;
  s.mean = total / static_cast<double>(n);
  s.top1_count = (n + 99) / 100;
  for (size_t i = 0; i < s.top1_count; ++i) s.top1_total += static_cast<uint64_t>(sizes_desc[i]);
  if (total > 0) s.top1_share = static_cast<double>(s.top1_total) / total;
  // Gini with sizes ascending x_1..x_n: sum_i (2i - n - 1) x_i / (n * total).
  if (total > 0 && n > 1) {
    double weighted = 0;
    for (size_t k = 0; k < n; ++k) {
      double i = static_cast<double>(n - k);  // rank of sizes_desc[k] in ascending order
      weighted += (2 * i - static_cast<double>(n) - 1) * sizes_desc[k];
    }
    s.gini = weighted / (static_cast<double>(n) * total);
  }
  return s;
}

}  // namespace partplay
