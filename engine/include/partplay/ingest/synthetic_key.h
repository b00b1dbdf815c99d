// The pieces of a synthetic partition key (analysis.h SyntheticKeyOptions) that are rules, in one
// place: how a component value is written into the key's text, and which suffix an item gets. The
// analyzer builds each item's key with them, and so does every later pass that must find an
// item's logical partition again (report/key_traffic.h, report/query_workload.h), so they never
// disagree.
//
// A concatenated key joins parts, each a path's whole value or a piece of it (ParseKeyPart):
//   /tenantId                    the value, as AppendSyntheticComponentText writes it
//   year(/orderDate)             "2024": the UTC year of an ISO-8601 string or an epoch number
//   month(/orderDate)            "2024-03"          (numbers: seconds in [1e9, 1e11),
//   day(/orderDate)              "2024-03-15"        milliseconds in [1e12, 1e14): core/iso_time.h)
//   hour(/orderDate)             "2024-03-15T10"
//   left(/sku, 3)                the first 3 characters (code points) of a string (NoSQL's LEFT)
//   substring(/sku, 2, 4)        4 characters from the 0-based character 2 (NoSQL's SUBSTRING)
// A value a part cannot read (a date bucket of "soon", LEFT of a number) gives the item no
// synthetic key: it is counted with the items that lack the key, never dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "partplay/core/status.h"
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

struct KeyPart {
  enum class Fn { kWhole, kYear, kMonth, kDay, kHour, kLeft, kSubstring };
  std::string path;  // a JSON pointer
  Fn fn = Fn::kWhole;
  uint32_t start = 0;   // kSubstring
  uint32_t length = 0;  // kLeft, kSubstring: characters, 1 to kMaxKeyPartLength
};

// A piece's length (and a substring's start) is at most this many characters.
inline constexpr uint32_t kMaxKeyPartLength = 1000;
// A part's text is at most this many bytes (a path is bounded by the paths' own limits too).
inline constexpr size_t kMaxKeyPartText = 2048;

// Reads a part ("/a", "month(/a)", "LEFT(/a, 3)", "substring( /a , 0 , 2 )"; names in any case).
// Errors: kBadOption naming the text and what a part may be.
StatusOr<KeyPart> ParseKeyPart(std::string_view text);

// True when `text` is a part with a function (not a bare path): how a caller tells a concatenated
// key's expression from a path without reading it twice.
bool IsKeyPartFunction(std::string_view text);

// Appends the part of one component; false (nothing appended) when the value is undefined or is
// not one the part reads (see the table above).
bool AppendKeyPartText(const KeyPart& part, KeyKind kind, double number, std::string_view text,
                       std::string& out);

}  // namespace partplay
