// The container model's partitions (container_model.h's Model): every logical partition's
// effective partition key as bytes (EPKs are upper-case hex of whole bytes, so the bytes order as
// the text does), the list sorted by EPK once (a radix sort on the first 8 bytes, then the full
// comparison), and each partition's request demand from the workload's shares.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <queue>
#include <utility>

#include "core/hex.h"
#include "core/huge_pages.h"
#include "core/message_format.h"
#include "core/radix_sort.h"
#include "cosmos/container_model.h"
#include "cosmos/container_options.h"
#include "partplay/core/tasks.h"
#include "partplay/cosmos/request_charges.h"

namespace partplay::internal::container {

namespace {

// EPK text to its bytes ("05C1" -> 0x05 0xC1; "FF" -> 0xFF, "" -> ""): EPKs and range bounds
// are upper-case hex of whole bytes, so the bytes order exactly as the text does.
void AppendEpkBytes(std::string_view hex, std::string& out) {
  auto nibble = [](char c) {
    return static_cast<uint8_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  };
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  }
}

}  // namespace

std::string EpkBytes(std::string_view hex) {
  std::string out;
  AppendEpkBytes(hex, out);
  return out;
}

void EpkTextInto(std::string_view bytes, std::string& out) {
  out.clear();
  internal::AppendHex(bytes, out, internal::HexCase::kUpper);
}

std::string EpkText(std::string_view bytes) {
  std::string out;
  EpkTextInto(bytes, out);
  return out;
}

int CompareEpkBytes(std::string_view a, std::string_view b) {
  int c = a.compare(b);  // char_traits<char> compares as unsigned char
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

namespace {

// The first 8 bytes big-endian, zero-padded: orders like the ordinal comparison (a shorter EPK
// that ties is sorted by the full comparison), so most comparisons are one integer compare.
uint64_t OrdinalPrefix(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) {
    v = (v << 8) | (i < s.size() ? static_cast<uint8_t>(s[i]) : 0);
  }
  return v;
}

std::vector<uint32_t> SortByEpk(const Model& m) {
  std::vector<std::pair<uint64_t, uint32_t>> keyed;
  internal::ReserveHuge(keyed, m.epks.size());
  keyed.resize(m.epks.size());
  internal::ParallelStretches(
      keyed.size(), internal::kMinPartitionStretch, [&](size_t, size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
          keyed[i] = {OrdinalPrefix(m.epk(static_cast<uint32_t>(i))), static_cast<uint32_t>(i)};
        }
      });
  auto before = [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    int c = CompareEpkBytes(m.epk(a.second), m.epk(b.second));
    return c != 0 ? c < 0 : a.second < b.second;
  };
  // A radix sort on the 8-byte prefixes; equal prefixes get the full comparison.
  auto word = [](const std::pair<uint64_t, uint32_t>& r, int) { return r.first; };
  auto digit = [](const std::pair<uint64_t, uint32_t>& r, int d) {
    return static_cast<int>((r.first >> (56 - 8 * d)) & 0xFF);
  };
  auto finish = [&](std::pair<uint64_t, uint32_t>* first, std::pair<uint64_t, uint32_t>* last,
                    bool) { std::sort(first, last, before); };
  internal::MsdRadixSort(keyed.data(), keyed.size(),
                         internal::FirstVaryingDigit(keyed.data(), keyed.size(), 1, word), 8,
                         digit, finish);
  std::vector<uint32_t> order;
  internal::ReserveHuge(order, keyed.size());
  order.resize(keyed.size());
  for (size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  return order;
}

}  // namespace

uint64_t KeyValueLimit(const ContainerOptions& options) {
  const bool classic =
      options.version == PartitionKeyHashVersion::kV1 && !options.large_partition_keys;
  return classic ? kCosmosKeyBytesClassic : kCosmosKeyBytesLarge;
}

namespace {

// Each partition's share w_p of the requests (summing to 1).
StatusOr<std::vector<double>> RequestShares(const PartitionList& parts, const Workload& workload) {
  std::vector<double> raw;
  internal::ReserveHuge(raw, parts.size());
  raw.resize(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    switch (workload.spread) {
      case RequestSpread::kUniformItems:
        raw[i] = static_cast<double>(parts.items(i));
        break;
      case RequestSpread::kField:
        if (!FiniteAtLeast(parts.weight(i), 0)) {
          return BadOption(
              fmt::format("the weight field must sum to a finite value >= 0 in "
                          "every partition; {} sums to {}",
                          KeyForMessage(parts.key(i)), parts.weight(i)));
        }
        raw[i] = parts.weight(i);
        break;
      case RequestSpread::kZipf:
        raw[i] = std::pow(static_cast<double>(i + 1), -workload.zipf_exponent);
        break;
    }
  }
  double total = 0;
  for (double x : raw) total += x;
  if (total == 0 && parts.size() > 0) {
    if (workload.spread == RequestSpread::kField) return BadOption("the weight field sums to 0");
    return raw;  // no items at all: no requests land anywhere
  }
  for (double& x : raw) x /= total;
  return raw;
}

// RU/s of the whole workload if every request went to items of `mean_item_bytes`.
double WorkloadCharge(double mean_item_bytes, const Workload& w) {
  return w.point_reads_per_second * w.costs.read_factor * PointReadCharge(mean_item_bytes) +
         w.writes_per_second * w.costs.write_factor * WriteCharge(mean_item_bytes) +
         w.queries_per_second * w.costs.query_ru;
}

}  // namespace

StatusOr<Model> BuildModel(const PartitionList& parts, const ContainerOptions& options) {
  Model m;
  m.parts = &parts;
  const uint64_t key_limit = KeyValueLimit(options);
  PartitionKey key;  // reused, as is epk: no allocation per partition once they have grown
  std::string epk;
  auto long_key = [key_limit](std::vector<std::pair<uint32_t, uint64_t>>& into, size_t i,
                              std::string_view canonical) {
    if (const uint64_t size = CanonicalValueBytes(canonical); size > key_limit) {
      into.emplace_back(static_cast<uint32_t>(i), size);
    }
  };
  bool hashed = false;
  if (options.version == PartitionKeyHashVersion::kV2) {
    // Every V2 EPK is 16 bytes, so each has its place before it is computed: the keys are read
    // in memory order, not in the list's (one cache miss less per partition), in stretches of
    // that order on the host's threads (core/tasks.h), each noting its long keys.
    constexpr size_t kWidth = 16;
    internal::ReserveHuge(m.epks.bytes, parts.size() * kWidth);
    m.epks.bytes.assign(parts.size() * kWidth, '\0');
    m.epks.width = kWidth;
    char* const out = m.epks.bytes.data();
    auto store_soon = [out](size_t i) { __builtin_prefetch(out + i * kWidth, 1); };
    const size_t most = static_cast<size_t>(internal::TaskThreads());
    std::vector<std::vector<std::pair<uint32_t, uint64_t>>> long_keys(most);
    std::vector<char> stretch_hashed(most, 1);
    const size_t stretches = internal::ParallelStretches(
        parts.size(), internal::kMinPartitionStretch, [&](size_t s, size_t begin, size_t end) {
          std::string scratch;
          parts.VisitStretchInMemoryOrder(begin, end, [&](size_t i, std::string_view canonical) {
            if (!EffectivePartitionKeyV2FromCanonical(canonical, scratch, out + i * kWidth).ok()) {
              stretch_hashed[s] = 0;  // the pass in list order below names the first failure
              return false;
            }
            long_key(long_keys[s], i, canonical);
            return true;
          }, store_soon);
        });
    hashed = std::all_of(stretch_hashed.begin(), stretch_hashed.begin() + stretches,
                         [](char ok) { return ok != 0; });
    for (size_t s = 0; s < stretches; ++s) {
      m.long_keys.insert(m.long_keys.end(), long_keys[s].begin(), long_keys[s].end());
    }
    std::sort(m.long_keys.begin(), m.long_keys.end());
  }
  if (!hashed) {
    m.epks = {};
    m.epks.end.reserve(parts.size());
    m.long_keys.clear();
    for (size_t i = 0; i < parts.size(); ++i) {
      parts.read_ahead(i);
      const std::string_view canonical = parts.canonical(i);
      key.AssignCanonicalBytes(canonical);
      PARTPLAY_RETURN_IF_ERROR(
          EffectivePartitionKeyInto(key, options.version, EpkForm::kBytes, epk));
      m.epks.bytes += epk;
      m.epks.end.push_back(m.epks.bytes.size());
      long_key(m.long_keys, i, canonical);
    }
  }
  m.order = SortByEpk(m);
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<double> shares, RequestShares(parts, options.workload));
  // Each figure gathered in EPK order from the list's (the reads of several partitions ahead
  // overlap; stores scattered the other way did not: 74 ms against 36-42 for 1,000,000).
  const size_t n = parts.size();
  internal::ReserveHuge(m.items_at, n);
  internal::ReserveHuge(m.bytes_at, n);
  internal::ReserveHuge(m.demand_at, n);
  m.items_at.resize(n);
  m.bytes_at.resize(n);
  m.demand_at.resize(n);
  constexpr size_t kAhead = 16;
  internal::ParallelStretches(
      n, internal::kMinPartitionStretch, [&](size_t, size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
          if (k + kAhead < end) {
            parts.read_sizes_ahead(m.order[k + kAhead]);
            __builtin_prefetch(&shares[m.order[k + kAhead]], 0);
          }
          const uint32_t i = m.order[k];
          const uint64_t items = parts.items(i);
          const uint64_t bytes = parts.bytes(i);
          const double mean_item =
              items > 0 ? static_cast<double>(bytes) / static_cast<double>(items) : 0;
          m.items_at[k] = items;
          m.bytes_at[k] = bytes;
          m.demand_at[k] = shares[i] * WorkloadCharge(mean_item, options.workload);
        }
      });
  return m;
}

}  // namespace partplay::internal::container
