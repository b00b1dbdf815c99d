#include "partplay/core/statistics.h"

#include <cstdint>

namespace partplay {

void StreamedSpread::AddAgain(double x) {
  const size_t k = k_++;
  // Sizes are byte counts (below 2^53 from any real input); a size a uint64 cannot hold is
  // taken as its largest value rather than converted out of range.
  constexpr double kAboveUint64 = 18446744073709551616.0;  // 2^64
  if (k < (n_ + 99) / 100) {
    top1_total_ += x >= kAboveUint64 ? UINT64_MAX : x > 0 ? static_cast<uint64_t>(x) : 0;
  }
  // Gini with sizes ascending x_1..x_n: sum_i (2i - n - 1) x_i / (n * total).
  const double i = static_cast<double>(n_ - k);  // rank of the k-th largest in ascending order
  weighted_ += (2 * i - static_cast<double>(n_) - 1) * x;
}

PartitionSpread StreamedSpread::Result() const {
  PartitionSpread s;
  const size_t n = n_;
  if (n == 0) return s;
  s.mean = total_ / static_cast<double>(n);
  s.top1_count = (n + 99) / 100;
  s.top1_total = top1_total_;
  if (total_ > 0) s.top1_share = static_cast<double>(s.top1_total) / total_;
  if (total_ > 0 && n > 1) s.gini = weighted_ / (static_cast<double>(n) * total_);
  return s;
}

PartitionSpread ComputeSpread(const std::vector<double>& sizes_desc) {
  StreamedSpread spread;
  for (double x : sizes_desc) spread.Add(x);
  for (double x : sizes_desc) spread.AddAgain(x);
  return spread.Result();
}

}  // namespace partplay
