// Internal to the Cosmos DB domain: the checks on a container description (container.h) before it
// is modelled, each refusal a kBadOption naming the option and its allowed range.
#pragma once

#include <cstddef>
#include <string>

#include "partplay/core/status.h"
#include "partplay/cosmos/container.h"

namespace partplay::internal {

Status BadOption(std::string message);
bool FiniteAtLeast(double v, double min);

// Every option of `options` against its range, the route against the key's levels; `omitted`:
// partitions missing from the list to be modelled (refused).
Status ValidateContainerOptions(const AnalysisReport& analysis, const ContainerOptions& options,
                                uint64_t omitted);
// A query filter: one value per key level (a prefix of them with MultiHash).
Status ValidateRoute(const PartitionKey& route, PartitionKeyHashVersion version, size_t levels);

}  // namespace partplay::internal
