// Internal: a key path whose values are amounts rather than identifiers (/total, /amount, /qty).
// Such a value changes with the item while a partition key value cannot, and its spread says
// nothing about the access pattern. Shared by the key advisor and the key comparison, so both
// judge a path alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace partplay::internal {

// What the values at one path showed.
struct MeasureEvidence {
  uint64_t valued = 0;          // items with a value there
  uint64_t numbers = 0;         // items whose value is a number
  uint64_t fractional = 0;      // ... a number with a fraction
  double example = 0;           // one fractional value
  bool fractions_known = true;  // false when the values were not kept (only names are judged)
};

// Counts `items` items holding the canonical component at `canonical` (partition_key.h: kind
// byte, then 8 LE double bytes for a number or a 4-byte LE length and the bytes for a string);
// returns the bytes the component took (0 when malformed).
size_t TallyCanonicalComponent(std::string_view canonical, uint64_t items, MeasureEvidence& e);

// One sentence when the path looks like a measure — mostly numbers, and either fractions or a
// last segment named like a quantity (total, amount, price, qty, count, ...) — else empty.
std::string MeasureReason(std::string_view path, const MeasureEvidence& e);

// One sentence when the path is (or lies under) a property Cosmos DB writes itself when it
// stores an item (/_rid, /_self, /_etag, /_attachments, /_ts), as exports carry them: an item
// being created has no value there yet, so it cannot be a partition key; else empty.
std::string SystemPropertyReason(std::string_view path);

}  // namespace partplay::internal
