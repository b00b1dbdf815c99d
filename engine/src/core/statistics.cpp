#include "partplay/core/statistics.h"

#include <cstdint>

namespace partplay {

PartitionSpread ComputeSpread(const std::vector<double>& sizes_desc) {
  PartitionSpread s;
  const size_t n = sizes_desc.size();
  if (n == 0) return s;
  double total = 0;
  for (double x : sizes_desc) total += x;
  s.mean = total / static_cast<double>(n);
  s.top1_count = (n + 99) / 100;
  // Sizes are byte counts (below 2^53 from any real input); a size a uint64 cannot hold is
  // taken as its largest value rather than converted out of range.
  constexpr double kAboveUint64 = 18446744073709551616.0;  // 2^64
  for (size_t i = 0; i < s.top1_count; ++i) {
    const double x = sizes_desc[i];
    s.top1_total += x >= kAboveUint64 ? UINT64_MAX : x > 0 ? static_cast<uint64_t>(x) : 0;
  }
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
