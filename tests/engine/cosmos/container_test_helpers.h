// Helpers the container model tests share (container_*_test.cpp): keys and partitions built by
// hand the way the analyzer lists them (largest bytes first), uniform reports, the model or its
// error, EPKs and midpoints, and lookups in a layout or a report's findings.
#pragma once

#include "partplay/cosmos/container.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"

namespace partplay::container_test {

using V = PartitionKeyHashVersion;

constexpr double kGiB = 1073741824.0;
constexpr uint64_t kGiBInt = 1073741824;

inline PartitionKey Key(std::vector<KeyComponent> components) {
  PartitionKey key;
  key.components = std::move(components);
  return key;
}

inline PartitionKey Str(const std::string& s) { return Key({KeyComponent::String(s)}); }

inline LogicalPartition Part(PartitionKey key, uint64_t items, uint64_t bytes, double weight = 0) {
  LogicalPartition p;
  p.key = std::move(key);
  p.items = items;
  p.bytes = bytes;
  p.weight = weight;
  return p;
}

// A report listing `parts` in the given order (callers list them largest first).
inline AnalysisReport Report(std::vector<LogicalPartition> parts,
                      std::vector<std::string> key_paths = {"/pk"}) {
  AnalysisReport r;
  r.key_paths = std::move(key_paths);
  for (const LogicalPartition& p : parts) {
    r.items += p.items;
    r.bytes += p.bytes;
  }
  r.partition_count = parts.size();
  r.partitions = std::move(parts);
  return r;
}

// `n` partitions "k0".."k{n-1}" (or another prefix) of `items` items and `bytes` bytes each.
inline AnalysisReport Uniform(int n, uint64_t items, uint64_t bytes, const std::string& prefix = "k") {
  std::vector<LogicalPartition> parts;
  for (int i = 0; i < n; ++i) parts.push_back(Part(Str(prefix + std::to_string(i)), items, bytes));
  return Report(std::move(parts));
}

inline ContainerReport Model(const AnalysisReport& analysis, const ContainerOptions& options) {
  StatusOr<ContainerReport> report = ModelContainer(analysis, options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  return report.ok() ? std::move(report).value() : ContainerReport{};
}

inline ErrorCode ErrorOf(const AnalysisReport& analysis, const ContainerOptions& options) {
  StatusOr<ContainerReport> report = ModelContainer(analysis, options);
  return report.ok() ? ErrorCode::kOk : report.status().code();
}

inline std::string Epk(const PartitionKey& key, V version) {
  StatusOr<std::string> epk = EffectivePartitionKey(key, version);
  EXPECT_TRUE(epk.ok()) << epk.status().ToString();
  return epk.ok() ? epk.value() : std::string();
}

inline std::string Mid(std::string_view min, std::string_view max, V version = V::kV2) {
  StatusOr<std::string> mid = MidpointEffectivePartitionKey(min, max, version);
  EXPECT_TRUE(mid.ok()) << mid.status().ToString();
  return mid.ok() ? mid.value() : std::string();
}

// Every partition listed in any range's top list, by key JSON.
inline std::map<std::string, PlacedPartition> Listed(const LayoutView& layout) {
  std::map<std::string, PlacedPartition> out;
  for (const PhysicalPartition& p : layout.ranges) {
    for (const PlacedPartition& t : p.top) out[t.key.ToJson()] = t;
  }
  return out;
}

inline const Finding* FindCode(const ContainerReport& r, const std::string& code) {
  for (const Finding& f : r.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

inline std::vector<int> Ids(const LayoutView& layout) {
  std::vector<int> ids;
  for (const PhysicalPartition& p : layout.ranges) ids.push_back(p.range.id);
  return ids;
}

}  // namespace partplay::container_test
