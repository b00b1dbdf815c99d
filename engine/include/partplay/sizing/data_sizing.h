// Partition sizes measured from real data: each partition's rows (items) and bytes give Nr, Nv
// and St, their distribution (max, p50, p99, a histogram) and the partitions that break each
// limit of core/limits.h. A pure function over vectors; MeasuredPartitionsOf and MeanValuesPerItem
// read them from an Analyzer's report (items, JSON text bytes, largest item).
//
//   Nv = Nr x values_per_row   (the non-key values of a row; JSON items have no static columns)
//   St = the partition's measured bytes
//
//   StatusOr<DataSizingReport> d = SizeFromData({{"[\"a\"]", 3, 300}, {"[\"b\"]", 1, 90}},
//                                               {.values_per_row = 4});
//   // d->nv.max == 12, d->st_bytes.p50 == 90
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

struct MeasuredPartition {
  std::string key;               // the partition key as JSON, to name it in findings
  double rows = 0;               // Nr: its items (rows)
  double bytes = 0;              // St: its measured bytes
  double largest_row_bytes = 0;  // its largest item; 0 = not known (no row-limit check)
  double values = -1;            // Nv as measured (a CQL partition's cells); < 0: rows x
                                 // values_per_row
};

struct DataSizingOptions {
  double values_per_row = 1;  // non-key values per row (item)
  size_t max_examples = 10;   // partitions listed per threshold, largest first
};

// Percentiles use the nearest-rank method: the p-th percentile of n sorted values is the value of
// rank ceil(p / 100 x n) (1-based), so it is always one of the values: p50 of {1, 2, 3, 4} is 2,
// p99 of 100 values is the 99th smallest.
struct Distribution {
  double min = 0, p50 = 0, p99 = 0, max = 0, mean = 0, total = 0;
};

// Log-spaced bins on a 1-2-5 series: [0, 1), [1, 2), [2, 5), [5, 10), [10, 20), ... from the bin
// holding the smallest value to the one holding the largest.
struct HistogramBin {
  double lower = 0, upper = 0;  // [lower, upper)
  uint64_t partitions = 0;
};

struct PartitionOverLimit {
  std::string key;
  double value = 0;
};

// One limit and the partitions over it (a value exactly at the limit is within it).
struct DataThreshold {
  std::string code;      // as SizingFinding::code
  std::string severity;  // "error" or "warning"
  std::string measure;   // "nv", "st_bytes" or "row_bytes"
  double limit = 0;
  uint64_t partitions = 0;                   // how many break it
  std::vector<PartitionOverLimit> examples;  // the largest of them
  // The smallest hash bucket count N (a synthetic key's suffix, or a bucket column) that brings
  // the largest partition within the limit if its rows spread evenly: ceil(largest / limit).
  // 0 when nothing breaks it, or for row_bytes (splitting a partition does not shrink a row).
  double buckets_needed = 0;
  std::string message;  // empty when nothing breaks it
};

struct DataSizingReport {
  uint64_t partitions = 0;
  double values_per_row = 0;
  Distribution nr, nv, st_bytes;
  std::vector<HistogramBin> nv_histogram, st_histogram;
  std::vector<DataThreshold> thresholds;  // every limit, broken or not
};

// Nv of a partition is its `values` when given, else rows x values_per_row.
// Errors: kBadOption for a negative or non-finite values_per_row, rows, bytes or values given.
StatusOr<DataSizingReport> SizeFromData(const std::vector<MeasuredPartition>& partitions,
                                        const DataSizingOptions& options);

// The Analyzer's logical partitions (report.partitions, so BuildReport({.max_partitions = -1}))
// as measured partitions: key = PartitionKey::ToJson(), rows = items, bytes = their JSON text
// bytes, largest_row_bytes = the largest item.
std::vector<MeasuredPartition> MeasuredPartitionsOf(const AnalysisReport& report);
// The default values per row: the mean number of scalar fields per sampled item outside arrays
// (the candidate paths' items / sampled_items), not counting the key paths and /id, which play
// the primary key's part (Npk). 0 when no item was sampled.
double MeanValuesPerItem(const AnalysisReport& report);

// What a caller asks of sizing from an analysis: values per row (unset: MeanValuesPerItem of the
// data) and the partitions listed per threshold. The CLI's `size --data` flags and the page's
// JSON fill the same struct.
struct DataSizingRequest {
  std::optional<double> values_per_row;
  size_t max_examples = 10;
};
// {"values_per_row": number >= 0 | null, "max_examples": 0..10000}, both optional; unknown
// fields are errors (kBadOption naming the field), bad JSON a located kMalformedJson.
StatusOr<DataSizingRequest> ParseDataSizingRequestJson(std::string_view json);
// A finished analysis's logical partitions sized as Cassandra partitions.
StatusOr<DataSizingReport> SizeAnalyzedData(const Analyzer& analyzer,
                                            const DataSizingRequest& request);

// The nearest-rank percentile (see Distribution) of values sorted ascending; 0 when empty.
double NearestRankPercentile(const std::vector<double>& sorted, double p);
// The 1-2-5 histogram of `values` (any order); empty when `values` is.
std::vector<HistogramBin> LogHistogram(const std::vector<double>& values);

// docs/sizing.md "From data" documents the JSON; one object with a trailing newline.
std::string DataSizingToJson(const DataSizingReport& report);
std::string DataSizingToText(const DataSizingReport& report);

}  // namespace partplay
