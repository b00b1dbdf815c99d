// The CLI's --format json listing of every partition, formatted on several threads: stretches of
// partitions go to the threads in turn and are written in order, so the bytes are exactly those
// of one PartitionsJson::Append (report/report_builder.h) over the whole range.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "partplay/core/status.h"
#include "partplay/report/report_builder.h"

namespace partplay::cli {

// Partitions a thread formats at a time (about 0.5 MB of uuid-keyed JSON).
inline constexpr size_t kListingStretch = 4096;

// Writes partitions [from, listing.size()) with `threads` formatting threads (1 = this thread
// only) in stretches of `stretch` partitions, at most two stretches per thread held at once.
// The first error of a stretch, in order, ends the listing and is returned.
Status WritePartitionsJsonInParallel(const PartitionsJson& listing, size_t from, int threads,
                                     const std::function<void(std::string_view)>& write,
                                     size_t stretch = kListingStretch);

// The formatting threads for a listing of `partitions`: one below two stretches' worth, else
// the machine's cores, at most 4.
int ListingThreads(size_t partitions);

}  // namespace partplay::cli
