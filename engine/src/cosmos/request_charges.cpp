#include "partplay/cosmos/request_charges.h"

#include <array>
#include <cstddef>

namespace partplay {
namespace {

struct ChargeRow {
  double kilobytes;  // KB of 1024 bytes
  double read;
  double write;
};

// Source: https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption,
// table "Document Size | Read | Write" (session / eventual consistency).
constexpr std::array<ChargeRow, 12> kChargeTable = {{
    {1, 1.00, 4.95},
    {2, 1.04, 6.29},
    {4, 1.14, 6.67},
    {8, 1.33, 7.04},
    {16, 1.67, 9.52},
    {32, 2.19, 11.23},
    {64, 4.76, 22.67},
    {128, 9.95, 48.19},
    {256, 20.28, 98.29},
    {512, 40.95, 184.57},
    {1024, 145.90, 625.00},
    {2048, 291.80, 1250.00},
}};

// Linear interpolation in one column of kChargeTable: the 1 KB value below 1 KB, the last
// segment extended above 2,048 KB.
double InterpolateCharge(double item_bytes, double ChargeRow::*column) {
  const double kb = item_bytes / 1024.0;
  if (!(kb > kChargeTable.front().kilobytes)) return kChargeTable.front().*column;
  size_t hi = 1;
  while (hi + 1 < kChargeTable.size() && kb > kChargeTable[hi].kilobytes) ++hi;
  const ChargeRow& a = kChargeTable[hi - 1];
  const ChargeRow& b = kChargeTable[hi];
  const double t = (kb - a.kilobytes) / (b.kilobytes - a.kilobytes);
  return a.*column + t * (b.*column - a.*column);
}

}  // namespace

double PointReadCharge(double item_bytes) {
  return InterpolateCharge(item_bytes, &ChargeRow::read);
}
double WriteCharge(double item_bytes) { return InterpolateCharge(item_bytes, &ChargeRow::write); }

}  // namespace partplay
