// Internal: exact sums of doubles, so a partition's weight does not depend on the order its items
// were added in (one pass, or partial sums from several workers merged in any grouping). A sum is
// kept as a Shewchuk expansion (non-overlapping doubles, increasing magnitude, whose exact real
// sum is the value) and read as that value correctly rounded (the last step of Python's
// math.fsum). Weights are finite JSON numbers; a sum beyond the double range reads as +-inf.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace partplay::internal {

// Knuth's TwoSum: s = fl(a + b) and the exact error, a + b = s + err.
inline void TwoSum(double a, double b, double& s, double& err) {
  s = a + b;
  double bb = s - a;
  err = (a - (s - bb)) + (b - bb);
}

// Adds x to the expansion `parts` (Shewchuk's GROW-EXPANSION with zero elimination).
inline void GrowExpansion(std::vector<double>& parts, double x) {
  size_t kept = 0;
  double q = x;
  for (double c : parts) {
    double s, err;
    TwoSum(q, c, s, err);
    if (!std::isfinite(s)) {  // out of double range: the sum is +-inf (or NaN) from here on
      parts.assign(1, s);
      return;
    }
    if (err != 0) parts[kept++] = err;
    q = s;
  }
  parts.resize(kept);
  if (q != 0 || parts.empty()) parts.push_back(q);
}

// The expansion's exact value, correctly rounded to a double (ties to even).
inline double RoundExpansion(const double* p, size_t n) {
  if (n == 0) return 0.0;
  double hi = p[--n], lo = 0;
  while (n > 0) {
    double x = hi, y = p[--n];
    hi = x + y;
    double yr = hi - x;
    lo = y - yr;
    if (lo != 0) break;
  }
  // Half-way case: the components below decide which way the tie goes.
  if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
    double y = lo * 2, x = hi + y, yr = x - hi;
    if (y == yr) hi = x;
  }
  return hi;
}

// One partition's weight: up to two components inline (every sum of integers and of most
// decimals), more in `spill` (owned by the caller, indexed by the partition).
struct WeightSum {
  double hi = 0, lo = 0;  // lo smaller in magnitude; a spilled sum has lo = NaN as its mark
  bool spilled() const { return std::isnan(lo) && hi == 0; }
};

}  // namespace partplay::internal
