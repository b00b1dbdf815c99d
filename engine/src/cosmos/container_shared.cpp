// A shared-throughput database (container.h SharedDatabaseView), from "Introduction to provisioned
// throughput" (azure-databases-docs, articles/cosmos-db/set-throughput.md): the database's RU/s are
// shared by up to 25 containers whose logical partitions share its physical partitions, so a large
// or busy container takes the RU/s the small ones need. The other containers' requests are spread
// evenly over the partitions (our assumption: the docs give no placement).
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "core/message_format.h"
#include "cosmos/container_model.h"
#include "cosmos/container_options.h"

namespace partplay::internal::container {

Status ValidateSharedDatabase(const ContainerOptions& o) {
  if (!o.shared_database) {
    if (!o.shared_with.empty()) {
      return FieldError("shared_with: other containers share throughput only in a shared-throughput "
                        "database (set shared_database)",
                        "/shared_with");
    }
    return Status::Ok();
  }
  if (o.serverless) {
    return FieldError("shared_database: a serverless container has no provisioned throughput to share",
                      "/shared_database");
  }
  if (o.shared_with.size() + 1 > static_cast<size_t>(kCosmosSharedDatabaseMaxContainers)) {
    return FieldError(fmt::format("shared_with: {} containers in all, more than the {} that share a "
                                  "database's throughput",
                                  o.shared_with.size() + 1, kCosmosSharedDatabaseMaxContainers),
                      "/shared_with");
  }
  for (size_t i = 0; i < o.shared_with.size(); ++i) {
    const SharedContainer& c = o.shared_with[i];
    const std::string at = fmt::format("/shared_with/{}", i);
    if (c.name.empty()) return FieldError(fmt::format("shared_with[{}]: a container needs a name", i), at + "/name");
    if (!FiniteAtLeast(c.storage_bytes, 0)) {
      return FieldError(fmt::format("shared_with[{}] ({}): storage must be a finite number of GB >= 0",
                                    i, c.name),
                        at + "/storage_gb");
    }
    if (!FiniteAtLeast(c.demand_ru, 0)) {
      return FieldError(fmt::format("shared_with[{}] ({}): demand must be a finite number of RU/s >= 0",
                                    i, c.name),
                        at + "/demand_ru");
    }
  }
  return Status::Ok();
}

double SharedStorageBytes(const ContainerOptions& o) {
  double bytes = 0;
  if (o.shared_database) {
    for (const SharedContainer& c : o.shared_with) bytes += c.storage_bytes;
  }
  return bytes;
}

void ApplySharedDatabase(const ContainerOptions& o, double own_bytes, LayoutView& view,
                         SharedDatabaseView& out) {
  out = SharedDatabaseView{};
  if (!o.shared_database || view.ranges.empty()) return;
  out.judged = true;
  out.ru_per_second = view.ru_per_second;
  out.partitions = static_cast<int64_t>(view.ranges.size());
  out.ru_per_partition = view.ru_per_second / static_cast<double>(out.partitions);
  double others = 0;
  for (const SharedContainer& c : o.shared_with) others += c.demand_ru;
  const double others_each = others / static_cast<double>(out.partitions);
  // Each partition throttles every container's requests alike once they pass its share.
  double own = 0, own_throttled = 0, mean_throttled = 0;
  size_t busiest = 0;
  for (size_t i = 0; i < view.ranges.size(); ++i) {
    PhysicalPartition& r = view.ranges[i];
    r.throttled_fraction = ThrottledFraction(r.demand_ru + others_each, r.ru_share);
    own += r.demand_ru;
    own_throttled += r.demand_ru * r.throttled_fraction;
    mean_throttled += r.throttled_fraction / static_cast<double>(view.ranges.size());
    if (r.demand_ru > view.ranges[busiest].demand_ru) busiest = i;
  }
  const double own_fraction = own > 0 ? own_throttled / own : 0;
  view.throttled_fraction = (own + others) > 0
                                ? (own_throttled + others * mean_throttled) / (own + others)
                                : 0;
  out.containers.push_back({"this container", own_bytes, own, own_fraction});
  for (const SharedContainer& c : o.shared_with) {
    out.containers.push_back({c.name, c.storage_bytes, c.demand_ru, c.demand_ru > 0 ? mean_throttled : 0});
  }
  out.reason = fmt::format(
      "The database's {} are shared by {} container{} on its {} physical partition{} ({} each).",
      FormatRate(out.ru_per_second), out.containers.size(), out.containers.size() == 1 ? "" : "s",
      out.partitions, out.partitions == 1 ? "" : "s", FormatRate(out.ru_per_partition));
  if (mean_throttled > 0 && others > 0) {
    const PhysicalPartition& b = view.ranges[busiest];
    out.reason += fmt::format(
        " This container asks physical partition {} for {}, so the other containers' requests "
        "there are throttled too: {} of theirs in all, though they ask each partition for only {}.",
        b.range.id, FormatRate(b.demand_ru), FormatPercent(mean_throttled), FormatRate(others_each));
  } else if (own_fraction > 0) {
    out.reason += fmt::format(" {} of this container's requests are throttled.",
                              FormatPercent(own_fraction));
  } else {
    out.reason += " No container's requests are throttled.";
  }
}

}  // namespace partplay::internal::container
