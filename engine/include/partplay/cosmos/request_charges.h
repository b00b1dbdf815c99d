// The request-unit charge of a point read and of a write as the item size grows, interpolated
// linearly in the published table (session or eventual consistency; the source is in
// request_charges.cpp). An approximation Cosmos DB does not promise: docs/cosmos-model.md.
//
//   PointReadCharge(1024);      // 1.00 RU
//   WriteCharge(3 * 1024);      // between 6.29 and 6.67 RU
#pragma once

namespace partplay {

// RU of one point read / one write of an item of `item_bytes` (the 1 KB figure below 1 KB, the
// last segment extended above 2 MB).
double PointReadCharge(double item_bytes);
double WriteCharge(double item_bytes);

}  // namespace partplay
