// Synthetic key rules shared by the analyzer and the later passes (ingest/synthetic_key.h).
#include "partplay/ingest/synthetic_key.h"

#include <fmt/format.h>

#include <iterator>

#include "core/murmur_hash3.h"

namespace partplay {
namespace {

// SplitMix64: the per-item random suffix (seeded, reproducible, the same in every build).
uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

bool AppendSyntheticComponentText(KeyKind kind, double number, std::string_view text,
                                  std::string& out) {
  switch (kind) {
    case KeyKind::kUndefined:
      return false;
    case KeyKind::kNull:
      out += "null";
      return true;
    case KeyKind::kFalse:
      out += "false";
      return true;
    case KeyKind::kTrue:
      out += "true";
      return true;
    case KeyKind::kNumber:
      fmt::format_to(std::back_inserter(out), "{}", number);
      return true;
    case KeyKind::kString:
      out.append(text);
      return true;
  }
  return false;
}

uint64_t RandomSuffixBucket(uint64_t seed, uint32_t buckets, int64_t item_index) {
  return SplitMix64(seed ^ SplitMix64(static_cast<uint64_t>(item_index))) % buckets + 1;
}

uint64_t HashSuffixBucket(std::string_view suffix_text, uint32_t buckets) {
  return internal::MurmurHash3X86_32(suffix_text, 0) % buckets + 1;
}

}  // namespace partplay
