// The AnalysisReport of an analysis (Analyzer::BuildReport): the input's format and counts, the
// findings, the partition size figures and their spread (statistics.h), and the candidate key
// paths discovery found in the sampled items.
#include <algorithm>
#include <cmath>

#include "ingest/analyzer_impl.h"
#include "partplay/core/statistics.h"

namespace partplay {

AnalysisReport Analyzer::Impl::BuildReport(const ReportOptions& options) const {
  AnalysisReport r;
  switch (merged_ ? merged_->format : stream_.format()) {
    case internal::InputFormat::kArray:
      r.format = "array";
      break;
    default:
      r.format = items_ == 1 ? "object" : "ndjson";
      break;
  }
  r.key_paths = options_.key_paths;  // paths_ also holds the id, weight and synthetic paths
  r.items = items_;
  r.bytes = bytes_;
  r.input_bytes = merged_ ? merged_->input_bytes : stream_.input_bytes();
  r.undefined_key_items = undefined_items_;
  r.invalid_key_items = invalid_items_;
  r.invalid_key_bytes = invalid_bytes_;
  r.invalid_key_examples = invalid_examples_;
  r.oversized_items = oversized_;
  r.oversized_examples = oversized_examples_;
  r.missing_id_items = missing_id_;
  r.missing_id_examples = missing_id_examples_;
  r.duplicate_id_items = duplicate_id_;
  r.duplicate_id_examples = duplicate_id_examples_;
  r.imprecise_number_items = imprecise_;
  r.imprecise_number_examples = imprecise_examples_;
  r.weight_missing_items = weight_missing_;
  auto exported = [&](uint32_t i) {
    LogicalPartition p = partitions_.Export(i);
    p.weight = WeightOf(i);
    return p;
  };

  // Statistics from the sizes alone; only the listed partitions are selected and decoded. When
  // the full size order is kept (asked for by keep_size_order, or kept by AllPartitions), the
  // sizes and the listed partitions are read off it instead: the same figures, without sorting
  // the sizes and selecting the largest again.
  const std::shared_ptr<const std::vector<uint32_t>> full = SizeOrder(options.keep_size_order);
  size_t listed = options.max_partitions < 0
                      ? partitions_.size()
                      : std::min(partitions_.size(), static_cast<size_t>(options.max_partitions));
  std::vector<uint32_t> order;
  if (full) {
    r.partition_bytes.resize(full->size());
    for (size_t i = 0; i < full->size(); ++i) {
      if (i + 16 < full->size()) partitions_.PrefetchNumber((*full)[i + 16]);
      r.partition_bytes[i] = static_cast<double>(partitions_.bytes_of((*full)[i]));
    }
    const size_t chosen = std::min(std::max<size_t>(listed, 1), full->size());
    order.assign(full->begin(), full->begin() + static_cast<std::ptrdiff_t>(chosen));
  } else {
    std::vector<uint64_t> sizes = partitions_.SizesDescending();
    r.partition_bytes.assign(sizes.begin(), sizes.end());
    sizes = {};
    order = partitions_.Largest(std::max<size_t>(listed, 1));
  }
  r.partition_count = r.partition_bytes.size();
  for (size_t k = 0; k < listed; ++k) r.partitions.push_back(exported(order[k]));
  r.partitions_omitted = partitions_.size() - listed;
  if (!order.empty()) {
    r.has_largest = true;
    r.largest = exported(order[0]);
  }
  PartitionSpread spread = ComputeSpread(r.partition_bytes);
  r.mean_partition_bytes = spread.mean;
  r.top1_partitions = spread.top1_count;
  r.top1_bytes = spread.top1_total;
  r.top1_share = spread.top1_share;
  r.gini = spread.gini;

  r.sampled_items = discovery_->sampled_items();
  r.candidate_paths = discovery_->Paths(options.candidate_values);
  return r;
}

}  // namespace partplay
