// The partial-state reader (Analyzer::ParsePartial), which reads files a user hands to
// `partplay merge`. The first input byte is a mode: even, the last 8 bytes are replaced by the
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
  if (!parsed.ok()) {
    fuzz::Check(parsed.status().code() == ErrorCode::kBadPartial, "a bad partial is bad_partial",
                parsed.status().ToString());
    fuzz::Check(parsed.status().where().byte_offset >= 0 &&
                    parsed.status().where().byte_offset <= static_cast<int64_t>(bytes.size()),
                "a bad partial is located in the file", parsed.status().ToString());
    return 0;
  }
  StatusOr<std::string> again = parsed.value()->SerializePartial();
  fuzz::Check(again.ok(), "a partial that reads serializes");
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
  if (!merged.ok()) return 0;  // the part's own error, rebased
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 12000;
  if (options.key_paths.size() > 1) {
    request.container->version = PartitionKeyHashVersion::kMultiHash;
  }
  (void)BuildFullReport(*merged.value(), options, request);
  return 0;
}
