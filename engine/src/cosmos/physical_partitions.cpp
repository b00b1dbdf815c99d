// Physical partition layout: a port of the range arithmetic in the .NET SDK's
// PartitionKeyInternal (Azure/azure-cosmos-dotnet-v3,
// Microsoft.Azure.Cosmos/src/direct/PartitionKeyInternal.cs and NumberPartitionKeyComponent.cs).
//
//  - The SDK's Int128 arithmetic becomes unsigned __int128 (GCC, Clang and Emscripten's Clang):
//    every value lies in 0 .. 2^126 - 1, so signed and unsigned agree.
//  - V1 numbers are written as NumberPartitionKeyComponent.WriteForBinaryEncoding writes them,
//    always with the final byte. (The JavaScript SDK, which effective_partition_key.cpp follows
//    for key EPKs, drops that byte when it is 0x00; that only happens for the numbers 2 and
//    131072, which no initial boundary is, and even then "05C000" sorts between the keys hashing
//    to 1 and to 2, so Locate stays right.)
//  - Bounds must be upper-case hex: the SDK would parse lower case too, but a lower-case bound
//    would break the ordinal order every range relies on.
#include "partplay/cosmos/physical_partitions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "core/hex.h"

namespace partplay {
namespace {

using U128 = unsigned __int128;

// 0x3FFF...FF: MaxHashV2Value, the largest V2 hash after the first byte is masked with 0x3F.
constexpr U128 kMaxHashV2Value = (static_cast<U128>(0x3FFFFFFFFFFFFFFFull) << 64) |
                                 static_cast<U128>(0xFFFFFFFFFFFFFFFFull);
// uint.MaxValue: the largest V1 (MurmurHash3 x86 32-bit) hash.
constexpr int64_t kMaxHashV1Value = 4294967295;
constexpr size_t kHashV2HexLength = 32;
constexpr uint8_t kNumberMarker = 0x05;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string U128ToHex(U128 value) {
  std::string out(kHashV2HexLength, '0');
  for (size_t i = kHashV2HexLength; i-- > 0;) {
    out[i] = internal::HexDigit(static_cast<unsigned>(value & 0xF), internal::HexCase::kUpper);
    value >>= 4;
  }
  return out;
}

std::optional<U128> HexToU128(std::string_view hex) {
  if (hex.size() != kHashV2HexLength) return std::nullopt;
  U128 value = 0;
  for (char c : hex) {
    int v = HexValue(c);
    if (v < 0) return std::nullopt;
    value = (value << 4) | static_cast<U128>(v);
  }
  return value;
}

std::optional<std::string> HexToBytes(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>((hi << 4) | lo));
  }
  return out;
}

// NumberPartitionKeyComponent.EncodeDoubleAsUInt64 / DecodeDoubleFromUInt64: an unsigned form
// of the double whose integer order is the numbers' order.
uint64_t EncodeDoubleAsUInt64(double d) {
  constexpr uint64_t kSign = 0x8000000000000000ull;
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return bits < kSign ? bits ^ kSign : ~bits + 1;
}

double DecodeDoubleFromUInt64(uint64_t payload) {
  constexpr uint64_t kSign = 0x8000000000000000ull;
  uint64_t bits = payload < kSign ? ~(payload - 1) : payload ^ kSign;
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// WriteForBinaryEncoding: marker 05, the payload's first byte whole, then 7 bits per byte with
// the low bit set while more follow, the last byte with it clear; as upper-case hex.
std::string NumberEffectivePartitionKey(double d) {
  std::string bytes;
  uint64_t payload = EncodeDoubleAsUInt64(d);
  bytes.push_back(static_cast<char>(kNumberMarker));
  bytes.push_back(static_cast<char>(payload >> 56));
  payload <<= 8;
  uint8_t byte_to_write = 0;
  bool first = true;
  do {
    if (!first) bytes.push_back(static_cast<char>(byte_to_write));
    first = false;
    byte_to_write = static_cast<uint8_t>(payload >> 56) | 0x01;
    payload <<= 7;
  } while (payload != 0);
  bytes.push_back(static_cast<char>(byte_to_write & 0xFE));
  std::string hex;
  internal::AppendHex(bytes, hex, internal::HexCase::kUpper);
  return hex;
}

// The first component of a V1 EPK read as FromHexEncodedBinaryString reads it, then cast to
// long as GetMiddleRangeEffectivePartitionKey does. The component must be a number in the hash
// range. An encoding that ends without its terminating byte (the JavaScript SDK's dropped 0x00)
// is read as terminated.
std::optional<int64_t> V1BoundValue(std::string_view epk) {
  std::optional<std::string> bytes = HexToBytes(epk);
  if (!bytes || bytes->size() < 2 || static_cast<uint8_t>((*bytes)[0]) != kNumberMarker) {
    return std::nullopt;
  }
  int shift = 56;
  uint64_t payload = static_cast<uint64_t>(static_cast<uint8_t>((*bytes)[1])) << shift;
  for (size_t i = 2; i < bytes->size() && shift >= 7; ++i) {
    uint8_t b = static_cast<uint8_t>((*bytes)[i]);
    shift -= 7;
    payload |= static_cast<uint64_t>(b >> 1) << shift;
    if ((b & 0x01) == 0) break;
  }
  double d = DecodeDoubleFromUInt64(payload);
  if (!(d >= 0) || d > static_cast<double>(kMaxHashV1Value)) return std::nullopt;
  return static_cast<int64_t>(d);  // (long) in C#: toward zero
}

Status BadBound(std::string_view which, std::string_view bound, PartitionKeyHashVersion version) {
  const char* expected = version == PartitionKeyHashVersion::kV1
                             ? "a V1 EPK starting with a number in 0 .. 4294967295"
                             : "32 upper-case hex digits";
  return Status(ErrorCode::kBadOption,
                fmt::format("{} bound \"{}\" is neither \"\" nor \"FF\" nor {}", which, bound,
                            expected));
}

// ceil(value / divisor) for finite value >= 0. Exact for an integral value below 2^53: for
// value = k * divisor + r with 0 < r < divisor, the quotient exceeds k by r / divisor >= 1 /
// divisor, more than half an ulp of k (k * 2^-53) because k * divisor < 2^53, so it never rounds
// down to k; and k * divisor / divisor is exactly k.
double CeilDiv(double value, double divisor) { return std::ceil(value / divisor); }

}  // namespace

int CompareEffectivePartitionKeys(std::string_view a, std::string_view b) {
  // std::char_traits<char> compares as unsigned char: ordinal byte order.
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

StatusOr<int64_t> PhysicalPartitionCount(double ru_per_second, double storage_bytes) {
  if (!std::isfinite(ru_per_second) || ru_per_second < 0) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("throughput must be a finite number of RU/s >= 0, got {}",
                              ru_per_second));
  }
  if (!std::isfinite(storage_bytes) || storage_bytes < 0) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("storage must be a finite number of bytes >= 0, got {}",
                              storage_bytes));
  }
  double count = std::max({CeilDiv(ru_per_second, kCosmosPhysicalPartitionRuPerSecond),
                           CeilDiv(storage_bytes, kCosmosPhysicalPartitionBytes), 1.0});
  constexpr double kMaxExactCount = 9007199254740992.0;  // 2^53
  if (count > kMaxExactCount) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("{} physical partitions is beyond the model's range", count));
  }
  return static_cast<int64_t>(count);
}

StatusOr<PhysicalLayout> InitialLayout(int n, PartitionKeyHashVersion version) {
  if (n < 1 || n > kMaxInitialPartitions) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("the number of physical partitions must be 1 .. {}, got {}",
                              kMaxInitialPartitions, n));
  }
  PhysicalLayout layout;
  layout.version = version;
  layout.ranges.reserve(static_cast<size_t>(n));
  std::string min(kMinEffectivePartitionKey);
  // Divide first, then multiply, as GetMinInclusiveEffectivePartitionKey does.
  const U128 step_v2 = kMaxHashV2Value / static_cast<U128>(n);
  const int64_t step_v1 = kMaxHashV1Value / n;
  for (int i = 0; i < n; ++i) {
    std::string max;
    if (i == n - 1) {
      max = std::string(kMaxEffectivePartitionKey);
    } else if (version == PartitionKeyHashVersion::kV1) {
      max = NumberEffectivePartitionKey(static_cast<double>(step_v1 * (i + 1)));
    } else {
      max = U128ToHex(step_v2 * static_cast<U128>(i + 1));
    }
    layout.ranges.push_back(EpkRange{min, max, i});
    min = std::move(max);
  }
  layout.next_id = n;
  return layout;
}

StatusOr<std::string> MidpointEffectivePartitionKey(std::string_view min_inclusive,
                                                    std::string_view max_exclusive,
                                                    PartitionKeyHashVersion version) {
  const bool min_is_start = min_inclusive == kMinEffectivePartitionKey;
  const bool max_is_end = max_exclusive == kMaxEffectivePartitionKey;
  auto too_narrow = [&] {
    return Status(ErrorCode::kBadOption,
                  fmt::format("range [\"{}\", \"{}\") is too narrow to split", min_inclusive,
                              max_exclusive));
  };

  if (version == PartitionKeyHashVersion::kV1) {
    int64_t lo = 0, hi = kMaxHashV1Value;
    if (!min_is_start) {
      std::optional<int64_t> v = V1BoundValue(min_inclusive);
      if (!v) return BadBound("min", min_inclusive, version);
      lo = *v;
    }
    if (!max_is_end) {
      std::optional<int64_t> v = V1BoundValue(max_exclusive);
      if (!v) return BadBound("max", max_exclusive, version);
      hi = *v;
    }
    int64_t mid = (lo + hi) / 2;
    if (hi <= lo || mid == lo) return too_narrow();
    return NumberEffectivePartitionKey(static_cast<double>(mid));
  }

  // V2 and MultiHash. MultiHash keeps only the first level of each bound.
  std::string_view min_text = min_inclusive, max_text = max_exclusive;
  if (version == PartitionKeyHashVersion::kMultiHash) {
    min_text = min_text.substr(0, kHashV2HexLength);
    max_text = max_text.substr(0, kHashV2HexLength);
  }
  U128 lo = 0, hi = kMaxHashV2Value;
  if (!min_is_start) {
    std::optional<U128> v = HexToU128(min_text);
    if (!v) return BadBound("min", min_inclusive, version);
    lo = *v;
  }
  if (!max_is_end) {
    std::optional<U128> v = HexToU128(max_text);
    if (!v) return BadBound("max", max_exclusive, version);
    hi = *v;
  }
  if (hi <= lo) return too_narrow();
  U128 mid = lo + (hi - lo) / 2;
  if (mid == lo) return too_narrow();
  return U128ToHex(mid);
}

StatusOr<std::pair<EpkRange, EpkRange>> SplitAtMidpoint(PhysicalLayout& layout, int range_id) {
  auto it = std::find_if(layout.ranges.begin(), layout.ranges.end(),
                         [&](const EpkRange& r) { return r.id == range_id; });
  if (it == layout.ranges.end()) {
    return Status(ErrorCode::kBadOption, fmt::format("no physical partition with id {}", range_id));
  }
  PARTPLAY_ASSIGN_OR_RETURN(std::string mid, MidpointEffectivePartitionKey(
                                                 it->min_inclusive, it->max_exclusive,
                                                 layout.version));
  // A midpoint always lies inside the range numerically; check the strings agree.
  if (!(it->min_inclusive < mid && mid < it->max_exclusive)) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("midpoint \"{}\" is outside range [\"{}\", \"{}\")", mid,
                              it->min_inclusive, it->max_exclusive));
  }
  EpkRange left{it->min_inclusive, mid, layout.next_id};
  EpkRange right{mid, it->max_exclusive, layout.next_id + 1};
  layout.next_id += 2;
  *it = left;
  layout.ranges.insert(it + 1, right);
  return std::make_pair(std::move(left), std::move(right));
}

StatusOr<size_t> Locate(const PhysicalLayout& layout, std::string_view epk) {
  if (layout.ranges.empty()) {
    return Status(ErrorCode::kBadOption, "the layout has no physical partitions");
  }
  if (CompareEffectivePartitionKeys(epk, layout.ranges.back().max_exclusive) >= 0) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("EPK \"{}\" is outside the key space (>= \"{}\")", epk,
                              layout.ranges.back().max_exclusive));
  }
  // The first range whose min is past the EPK; the one before it holds the EPK. ranges[0].min
  // is "", which no EPK is before, so that is never the first one.
  auto it = std::upper_bound(layout.ranges.begin(), layout.ranges.end(), epk,
                             [](std::string_view key, const EpkRange& r) {
                               return CompareEffectivePartitionKeys(key, r.min_inclusive) < 0;
                             });
  if (it == layout.ranges.begin()) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("EPK \"{}\" is before the first range", epk));
  }
  return static_cast<size_t>(it - layout.ranges.begin()) - 1;
}

Status ValidateLayout(const PhysicalLayout& layout) {
  const auto& r = layout.ranges;
  if (r.empty()) return Status(ErrorCode::kInvalidState, "the layout has no physical partitions");
  if (r.front().min_inclusive != kMinEffectivePartitionKey) {
    return Status(ErrorCode::kInvalidState,
                  fmt::format("the first range starts at \"{}\", not \"\"", r.front().min_inclusive));
  }
  if (r.back().max_exclusive != kMaxEffectivePartitionKey) {
    return Status(ErrorCode::kInvalidState,
                  fmt::format("the last range ends at \"{}\", not \"FF\"", r.back().max_exclusive));
  }
  std::vector<int> ids;
  ids.reserve(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    if (CompareEffectivePartitionKeys(r[i].min_inclusive, r[i].max_exclusive) >= 0) {
      return Status(ErrorCode::kInvalidState,
                    fmt::format("range {} (id {}) is empty: [\"{}\", \"{}\")", i, r[i].id,
                                r[i].min_inclusive, r[i].max_exclusive));
    }
    if (i + 1 < r.size() && r[i].max_exclusive != r[i + 1].min_inclusive) {
      return Status(ErrorCode::kInvalidState,
                    fmt::format("range {} ends at \"{}\" but range {} starts at \"{}\"", i,
                                r[i].max_exclusive, i + 1, r[i + 1].min_inclusive));
    }
    if (r[i].id < 0 || r[i].id >= layout.next_id) {
      return Status(ErrorCode::kInvalidState,
                    fmt::format("range {} has id {}, outside 0 .. {}", i, r[i].id,
                                layout.next_id - 1));
    }
    ids.push_back(r[i].id);
  }
  std::sort(ids.begin(), ids.end());
  auto dup = std::adjacent_find(ids.begin(), ids.end());
  if (dup != ids.end()) {
    return Status(ErrorCode::kInvalidState, fmt::format("id {} is used twice", *dup));
  }
  return Status::Ok();
}

}  // namespace partplay
