// JSON ingest fed in random chunkings: the Analyzer (WritableChunk / CommitChunk / Finish /
// BuildReport) and the full report with the container model, as the page's worker drives them.
// Input: the JSON bytes, then a 6-byte trailer (the options and the chunking). Invariants: the
// input fed whole and fed in the drawn chunks gives the same report, or the same located error;
// and so does the walked path alone (item_stream.h: the validated path turned off), and the
// validated path without its scanner (json_scan.h: the DOM's stage 2 for every item).
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "ingest/item_stream.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"
#include "partplay/sizing/data_sizing.h"

namespace partplay::fuzz {
namespace {

AnalysisOptions OptionsFor(uint8_t choice) {
  AnalysisOptions o;
  switch (choice % 10) {
    case 0:
      o.key_paths = {"/id"};
      break;
    case 1:
      o.key_paths = {"/userId"};
      break;
    case 2:
      o.key_paths = {"/a", "/b"};
      break;
    case 3:
      o.key_paths = {"/customer/id", "/date", "/x~1y"};
      break;
    case 4:
      o.key_paths = {"/a"};
      o.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
      o.synthetic.paths = {"/a", "/b", "/c/d"};
      break;
    case 5:
      o.key_paths = {"/a"};
      o.synthetic.kind = SyntheticKeyOptions::Kind::kRandomSuffix;
      o.synthetic.buckets = 7;
      o.synthetic.seed = 42;
      break;
    case 6:
      o.key_paths = {"/a"};
      o.synthetic.kind = SyntheticKeyOptions::Kind::kHashSuffix;
      o.synthetic.suffix_path = "/id";
      o.synthetic.buckets = 400;
      break;
    case 7:
      o.key_paths = {"/deviceId"};
      o.weight_path = "/w";
      break;
    case 8:
      o.key_paths = {"/a"};
      o.discover_items = -1;
      o.check_ids = false;
      break;
    default:
      o.key_paths = {"/tags/0/name"};
      o.discover_items = 0;
      break;  // an array element
  }
  return o;
}

struct Outcome {
  Status status;
  std::string report;
};

Outcome Run(std::string_view json, const AnalysisOptions& options, const ContainerOptions& c,
            Choices* chunking, int chunk_style) {
  Outcome out;
  auto created = Analyzer::Create(options);
  Check(created.ok(), "the fixed analysis options are valid", created.status().ToString());
  Analyzer& analyzer = *created.value();
  size_t at = 0;
  while (at < json.size()) {
    size_t n = json.size() - at;
    if (chunking != nullptr) {
      uint64_t cap = chunk_style == 0 ? 1 : chunk_style == 1 ? 16 : chunk_style == 2 ? 4096 : n;
      n = static_cast<size_t>(chunking->Between(1, cap < n ? cap : n));
    }
    // Ask for more room than is written now and then, as the page does with a File slice.
    size_t room = n + (chunking != nullptr ? static_cast<size_t>(chunking->Next() % 8) : 0);
    uint8_t* space = analyzer.WritableChunk(room);
    Check(space != nullptr, "WritableChunk gives room");
    std::memcpy(space, json.data() + at, n);
    at += n;
    out.status = analyzer.CommitChunk(n);
    if (!out.status.ok()) return out;
  }
  out.status = analyzer.Finish();
  if (!out.status.ok()) return out;
  Check(analyzer.bytes_consumed() == json.size(), "every byte is consumed");
  ReportRequest request;
  request.max_partitions = 50;
  request.container = c;
  StatusOr<BuiltReport> built = BuildFullReport(analyzer, options, request);
  if (!built.ok()) {
    out.status = built.status();
    return out;
  }
  out.report = built.value().json;
  // Sizing from the analysed data, as the page's "from data" sizing does.
  AnalysisReport r = analyzer.BuildReport({.max_partitions = -1});
  DataSizingOptions sizing{.values_per_row = MeanValuesPerItem(r), .max_examples = 5};
  StatusOr<DataSizingReport> sized = SizeFromData(MeasuredPartitionsOf(r), sizing);
  if (sized.ok()) out.report += DataSizingToJson(sized.value());
  return out;
}

}  // namespace
}  // namespace partplay::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  using namespace partplay::fuzz;
  constexpr size_t kTrailer = 6;
  if (size < kTrailer) return 0;
  std::string_view json(reinterpret_cast<const char*>(data), size - kTrailer);
  const uint8_t* t = data + size - kTrailer;
  AnalysisOptions options = OptionsFor(t[0]);
  ContainerOptions container;
  switch (t[1] % 3) {
    case 0:
      container.version = PartitionKeyHashVersion::kV1;
      break;
    case 1:
      container.version = PartitionKeyHashVersion::kV2;
      break;
    default:
      container.version = PartitionKeyHashVersion::kMultiHash;
      break;
  }
  if (container.version != PartitionKeyHashVersion::kMultiHash && options.key_paths.size() > 1) {
    container.version = PartitionKeyHashVersion::kMultiHash;
  }
  container.ru_per_second = (t[1] & 0x80) ? 400000 : 4000;
  container.growth = (t[1] & 0x40) ? 1000 : 1;
  int chunk_style = (t[1] >> 3) % 4;
  // No sample: every item goes to the validated path (the sampled ones are always walked).
  if ((t[1] & 0x04) && options.discover_items > 0) options.discover_items = 0;
  uint32_t seed;
  std::memcpy(&seed, t + 2, sizeof seed);

  Outcome whole = Run(json, options, container, nullptr, 0);
  Choices chunking(seed);
  Outcome chunked = Run(json, options, container, &chunking, chunk_style);
  Check(SameStatus(whole.status, chunked.status), "chunking changes the outcome",
        whole.status.ToString() + "\nvs\n" + chunked.status.ToString());
  Check(whole.report == chunked.report, "chunking changes the report");
  internal::SetValidatedPathEnabled(false);
  Outcome walked = Run(json, options, container, nullptr, 0);
  internal::SetValidatedPathEnabled(true);
  Check(SameStatus(whole.status, walked.status), "the validated path changes the outcome",
        whole.status.ToString() + "\nvs\n" + walked.status.ToString());
  Check(whole.report == walked.report, "the validated path changes the report");
  internal::SetScanEnabled(false);  // the validated path with the DOM's stage 2 for every item
  Outcome dom = Run(json, options, container, nullptr, 0);
  internal::SetScanEnabled(true);
  Check(SameStatus(whole.status, dom.status), "the scanner changes the outcome",
        whole.status.ToString() + "\nvs\n" + dom.status.ToString());
  Check(whole.report == dom.report, "the scanner changes the report");
  return 0;
}
