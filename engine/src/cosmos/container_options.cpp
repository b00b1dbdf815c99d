#include "cosmos/container_options.h"

#include <fmt/format.h>

#include <cmath>

#include "core/message_format.h"

namespace partplay::internal {

using Version = PartitionKeyHashVersion;

Status BadOption(std::string message) { return Status(ErrorCode::kBadOption, std::move(message)); }

bool FiniteAtLeast(double v, double min) { return std::isfinite(v) && v >= min; }

namespace {

Status ValidateWorkload(const Workload& w) {
  if (!FiniteAtLeast(w.point_reads_per_second, 0) || !FiniteAtLeast(w.writes_per_second, 0) ||
      !FiniteAtLeast(w.queries_per_second, 0)) {
    return BadOption(fmt::format(
        "workload rates must be finite and >= 0, got {} reads/s, {} writes/s, {} queries/s",
        w.point_reads_per_second, w.writes_per_second, w.queries_per_second));
  }
  if (w.spread == RequestSpread::kZipf &&
      !(std::isfinite(w.zipf_exponent) && w.zipf_exponent > 0)) {
    return BadOption(fmt::format("the Zipf exponent must be > 0, got {}", w.zipf_exponent));
  }
  const RequestCosts& c = w.costs;
  if (!FiniteAtLeast(c.read_factor, 0) || !FiniteAtLeast(c.write_factor, 0) ||
      !FiniteAtLeast(c.query_ru, 0)) {
    return BadOption(fmt::format(
        "request costs must be finite and >= 0, got read factor {}, write factor {}, query {} RU",
        c.read_factor, c.write_factor, c.query_ru));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateRoute(const PartitionKey& route, Version version, size_t levels) {
  const size_t n = route.components.size();
  if (n == 0) return Status::Ok();  // no filter: a cross-partition query
  if (version == Version::kMultiHash) {
    if (n < 1 || n > levels) {
      return BadOption(fmt::format("a route needs 1 to {} key components, got {}", levels, n));
    }
  } else if (n != 1) {
    return BadOption(fmt::format("a route needs exactly 1 key component, got {}", n));
  }
  return Status::Ok();
}

Status ValidateContainerOptions(const AnalysisReport& analysis, const ContainerOptions& options,
                                uint64_t omitted) {
  if (!(std::isfinite(options.ru_per_second) && options.ru_per_second > 0)) {
    return BadOption(fmt::format("throughput must be a finite number of RU/s > 0, got {}",
                                 options.ru_per_second));
  }
  if (!FiniteAtLeast(options.growth, 1)) {
    return BadOption(fmt::format("growth must be a finite factor >= 1, got {}", options.growth));
  }
  if (!FiniteAtLeast(options.grown_ru_per_second, 0)) {
    return BadOption(
        fmt::format("the grown throughput must be a finite number of RU/s >= 0, got {}",
                    options.grown_ru_per_second));
  }
  if (options.top_per_range < 0) {
    return BadOption(fmt::format("top_per_range must be >= 0, got {}", options.top_per_range));
  }
  const size_t levels = analysis.key_paths.size();
  if (options.version == Version::kMultiHash) {
    if (levels < 1 || levels > 3) {
      return BadOption(
          fmt::format("hash version multihash needs 1 to 3 key paths, got {}", levels));
    }
  } else if (levels != 1) {
    return BadOption(fmt::format("a key with {} paths needs hash version multihash", levels));
  }
  PARTPLAY_RETURN_IF_ERROR(ValidateWorkload(options.workload));
  if (omitted != 0) {
    return Status(ErrorCode::kInvalidState,
                  fmt::format("the analysis omits {} partitions; the container model needs every "
                              "partition (max_partitions = -1)",
                              omitted));
  }
  if (options.route) {
    PARTPLAY_RETURN_IF_ERROR(ValidateRoute(*options.route, options.version, levels));
  }
  return Status::Ok();
}

}  // namespace partplay::internal
