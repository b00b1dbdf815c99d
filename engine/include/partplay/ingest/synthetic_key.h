// The pieces of a synthetic partition key (analysis.h SyntheticKeyOptions) that are rules, in one
// place: how a component value is written into the key's text, and which suffix an item gets. The
// analyzer builds each item's key with them, and so does every later pass that must find an
// item's logical partition again (report/key_traffic.h), so the two can never disagree.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "partplay/ingest/partition_key.h"

namespace partplay {

// Appends a component as a synthetic key writes it: strings as they are, "null", "true",
// "false", numbers in their shortest round-trip form ({fmt}'s "{}": 42, 3.5, 1e+21). False (and
// nothing appended) for an undefined component: such an item has no synthetic key.
bool AppendSyntheticComponentText(KeyKind kind, double number, std::string_view text,
                                  std::string& out);

// The suffix (1..buckets) of the item at 0-based `item_index` of the input, for a random-suffix
// key with `seed`: SplitMix64(seed ^ SplitMix64(index)) % buckets + 1.
uint64_t RandomSuffixBucket(uint64_t seed, uint32_t buckets, int64_t item_index);

// The suffix (1..buckets) of a pre-calculated key: MurmurHash3 x86 32-bit (seed 0) of the suffix
// value's text (as AppendSyntheticComponentText writes it) % buckets + 1.
uint64_t HashSuffixBucket(std::string_view suffix_text, uint32_t buckets);

}  // namespace partplay
