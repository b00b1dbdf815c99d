// Synthetic key rules shared by the analyzer and the later passes (ingest/synthetic_key.h).
#include "partplay/ingest/synthetic_key.h"

#include <fmt/format.h>

#include <charconv>
#include <algorithm>
#include <iterator>
#include <utility>

#include "core/murmur_hash3.h"
#include "partplay/core/iso_time.h"
#include "partplay/core/utf8.h"

namespace partplay {
namespace {

// SplitMix64: the per-item random suffix (seeded, reproducible, the same in every build).
uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr std::string_view kPartGrammar =
    "is /PATH, year(/PATH), month(/PATH), day(/PATH), hour(/PATH), left(/PATH, N) or "
    "substring(/PATH, START, N), with N 1 to 1000 and START 0 to 1000";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool ReadCount(std::string_view text, uint32_t min, uint32_t& out) {
  text = Trim(text);
  uint32_t n = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || n < min ||
      n > kMaxKeyPartLength) {
    return false;
  }
  out = n;
  return true;
}

// Splits the last comma-separated argument off `args`; false when there is no comma.
bool PopLast(std::string_view& args, std::string_view& last) {
  const size_t comma = args.rfind(',');
  if (comma == std::string_view::npos) return false;
  last = args.substr(comma + 1);
  args = args.substr(0, comma);
  return true;
}

bool EqualsLower(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
    if (c != lower[i]) return false;
  }
  return true;
}

bool ReadPart(std::string_view text, KeyPart& part) {
  text = Trim(text);
  const size_t open = text.find('(');
  if (text.empty() || text.front() == '/' || open == std::string_view::npos) {
    part.path = std::string(text);  // a path: the analyzer checks it is a JSON pointer
    return !text.empty();
  }
  if (text.back() != ')') return false;
  const std::string_view name = Trim(text.substr(0, open));
  std::string_view args = text.substr(open + 1, text.size() - open - 2);
  using Fn = KeyPart::Fn;
  static constexpr std::pair<std::string_view, Fn> kNames[] = {
      {"year", Fn::kYear}, {"month", Fn::kMonth}, {"day", Fn::kDay},
      {"hour", Fn::kHour}, {"left", Fn::kLeft},   {"substring", Fn::kSubstring}};
  bool known = false;
  for (const auto& [n, fn] : kNames) {
    if (EqualsLower(name, n)) {
      part.fn = fn;
      known = true;
    }
  }
  if (!known) return false;
  // The counts are the last arguments, so a path may hold a comma.
  std::string_view last;
  if (part.fn == Fn::kLeft || part.fn == Fn::kSubstring) {
    if (!PopLast(args, last) || !ReadCount(last, 1, part.length)) return false;
  }
  if (part.fn == Fn::kSubstring) {
    if (!PopLast(args, last) || !ReadCount(last, 0, part.start)) return false;
  }
  args = Trim(args);
  if (args.empty() || args.front() != '/') return false;
  part.path = std::string(args);
  return true;
}

// Appends `count` characters of `s` from character `start` (code points; past the end: fewer).
void AppendCharacters(std::string_view s, uint32_t start, uint32_t count, std::string& out) {
  size_t i = 0;
  for (uint32_t n = 0; n < start && i < s.size(); ++n) i += std::max<size_t>(1, Utf8CharLength(s, i));
  size_t end = i;
  for (uint32_t n = 0; n < count && end < s.size(); ++n) {
    end += std::max<size_t>(1, Utf8CharLength(s, end));
  }
  out.append(s.substr(i, std::min(end, s.size()) - i));
}

}  // namespace

StatusOr<KeyPart> ParseKeyPart(std::string_view text) {
  KeyPart part;
  if (text.size() > kMaxKeyPartText || !ReadPart(text, part)) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("key part \"{}\": a part {}",
                              text.size() > 80 ? fmt::format("{}...", text.substr(0, 80)) : std::string(text),
                              kPartGrammar));
  }
  return part;
}

bool IsKeyPartFunction(std::string_view text) {
  text = Trim(text);
  return !text.empty() && text.front() != '/' && text.find('(') != std::string_view::npos;
}

bool AppendKeyPartText(const KeyPart& part, KeyKind kind, double number, std::string_view text,
                       std::string& out) {
  using Fn = KeyPart::Fn;
  switch (part.fn) {
    case Fn::kWhole:
      return AppendSyntheticComponentText(kind, number, text, out);
    case Fn::kLeft:
    case Fn::kSubstring:
      if (kind != KeyKind::kString) return false;
      AppendCharacters(text, part.start, part.length, out);
      return true;
    case Fn::kYear:
    case Fn::kMonth:
    case Fn::kDay:
    case Fn::kHour:
      break;
  }
  int64_t ms = 0;
  if (kind == KeyKind::kString ? !ParseIsoTimeMillis(text, ms)
                               : kind != KeyKind::kNumber || !EpochNumberMillis(number, ms)) {
    return false;
  }
  const CivilTime t = CivilFromMillis(ms);
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{:04}", t.year);
  if (part.fn == Fn::kYear) return true;
  fmt::format_to(it, "-{:02}", t.month);
  if (part.fn == Fn::kMonth) return true;
  fmt::format_to(it, "-{:02}", t.day);
  if (part.fn == Fn::kDay) return true;
  fmt::format_to(it, "T{:02}", t.hour);
  return true;
}

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
