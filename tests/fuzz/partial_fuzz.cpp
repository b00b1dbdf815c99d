// The partial-state reader (Analyzer::ParsePartial, and ParsePartialForMerge, which leaves the
// partitions for the merge), which reads files a user hands to `partplay merge`. The first input byte is a mode: even, the last 8 bytes are replaced by the
// right checksum (so mutations reach the value checks behind it); odd, the bytes are read as
// they are. A partial that reads must merge (alone and with itself), report with the container
// model, and serialize again to bytes that read back and serialize identically.
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/report_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  if (size < 1) return 0;
  bool fix_checksum = (data[0] & 1) == 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (fix_checksum && bytes.size() >= 8) {
    uint64_t sum = XXH3_64bits(bytes.data(), bytes.size() - 8);
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  }
  StatusOr<std::unique_ptr<Analyzer>> parsed = Analyzer::ParsePartial(bytes);
  // Read for a merge, the partitions stay unloaded: every check but a key repeated inside the
  // part, which the merge (here of the part alone: its table loaded) finds with the same error.
  StatusOr<std::unique_ptr<Analyzer>> kept = Analyzer::ParsePartialForMerge(bytes);
  if (!parsed.ok()) {
    fuzz::Check(parsed.status().code() == ErrorCode::kBadPartial, "a bad partial is bad_partial",
                parsed.status().ToString());
    fuzz::Check(parsed.status().where().byte_offset >= 0 &&
                    parsed.status().where().byte_offset <= static_cast<int64_t>(bytes.size()),
                "a bad partial is located in the file", parsed.status().ToString());
    if (kept.ok()) {
      std::vector<std::unique_ptr<Analyzer>> alone;
      alone.push_back(std::move(kept).value());
      StatusOr<std::unique_ptr<Analyzer>> merged = Analyzer::Merge(std::move(alone));
      // A repeated key never merges: the merge refuses the part, with the reader's error when
      // the repeat is what it finds first (else one of its own checks, e.g. counts past 2^53).
      const std::string said = merged.ok() ? "merged" : merged.status().ToString();
      fuzz::Check(!merged.ok() && merged.status().code() == ErrorCode::kBadPartial,
                  "a part only a merge finds broken does not merge",
                  parsed.status().ToString() + " / " + said);
      fuzz::Check(said.find("appears twice") == std::string::npos ||
                      said == parsed.status().ToString(),
                  "a repeat the merge finds is the one the reader finds",
                  parsed.status().ToString() + " / " + said);
    } else {
      fuzz::Check(kept.status().code() == ErrorCode::kBadPartial, "read for a merge: bad_partial",
                  kept.status().ToString());
    }
    return 0;
  }
  fuzz::Check(kept.ok(), "a partial that reads, reads for a merge",
              kept.ok() ? "" : kept.status().ToString());
  StatusOr<std::string> again = parsed.value()->SerializePartial();
  fuzz::Check(again.ok(), "a partial that reads serializes");
  StatusOr<std::string> kept_again = kept.value()->SerializePartial();
  fuzz::Check(kept_again.ok() && kept_again.value() == again.value(),
              "read for a merge, it serializes the same");
  StatusOr<std::unique_ptr<Analyzer>> reread = Analyzer::ParsePartial(again.value());
  fuzz::Check(reread.ok(), "a serialized partial reads back",
              reread.ok() ? "" : reread.status().ToString());
  StatusOr<std::string> third = reread.value()->SerializePartial();
  fuzz::Check(third.ok() && third.value() == again.value(), "the round trip is stable");

  AnalysisOptions options = parsed.value()->options();
  std::vector<std::unique_ptr<Analyzer>> parts;
  parts.push_back(std::move(parsed).value());
  StatusOr<std::unique_ptr<Analyzer>> twice = Analyzer::ParsePartial(again.value());
  parts.push_back(std::move(twice).value());
  StatusOr<std::unique_ptr<Analyzer>> merged = Analyzer::Merge(std::move(parts));
  // The same two parts, the second unloaded: the same merge.
  std::vector<std::unique_ptr<Analyzer>> with_kept;
  with_kept.push_back(Analyzer::ParsePartial(again.value()).value());
  with_kept.push_back(std::move(kept).value());
  StatusOr<std::unique_ptr<Analyzer>> merged_kept = Analyzer::Merge(std::move(with_kept));
  fuzz::Check(merged.ok() == merged_kept.ok(), "an unloaded part merges as a loaded one");
  if (!merged.ok()) {
    fuzz::Check(merged.status().ToString() == merged_kept.status().ToString(),
                "an unloaded part fails its merge as a loaded one");
    return 0;  // the part's own error, rebased
  }
  ReportRequest plain;
  plain.max_partitions = -1;
  StatusOr<BuiltReport> a = BuildFullReport(*merged.value(), options, plain);
  StatusOr<BuiltReport> b = BuildFullReport(*merged_kept.value(), options, plain);
  fuzz::Check(a.ok() == b.ok() && (!a.ok() || a.value().json == b.value().json),
              "an unloaded part reports as a loaded one");
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 12000;
  if (options.key_paths.size() > 1) {
    request.container->version = PartitionKeyHashVersion::kMultiHash;
  }
  (void)BuildFullReport(*merged.value(), options, request);
  return 0;
}
