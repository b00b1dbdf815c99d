#include "cosmos/measure_paths.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "core/message_format.h"
#include "partplay/ingest/partition_key.h"

namespace partplay::internal {
namespace {

// Last segments that name a quantity (compared lower-case, as a suffix: "orderTotal").
constexpr std::string_view kMeasureWords[] = {
    "total",    "amount",    "price",  "cost",   "sum",    "balance", "quantity", "qty",
    "count",    "score",     "rating", "weight", "height", "width",   "length",   "temperature",
    "latitude", "longitude", "lat",    "lng",    "lon",    "percent", "ratio"};

bool NamesAQuantity(std::string_view path) {
  const size_t slash = path.rfind('/');
  std::string last(slash == std::string_view::npos ? path : path.substr(slash + 1));
  for (char& c : last) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (std::string_view w : kMeasureWords) {
    if (last.size() >= w.size() && last.compare(last.size() - w.size(), w.size(), w) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

size_t TallyCanonicalComponent(std::string_view canonical, uint64_t items, MeasureEvidence& e) {
  if (canonical.empty()) return 0;
  const auto kind = static_cast<KeyKind>(static_cast<uint8_t>(canonical[0]));
  if (kind != KeyKind::kUndefined) e.valued += items;
  if (kind == KeyKind::kNumber) {
    if (canonical.size() < 9) return 0;
    uint64_t bits = 0;
    for (int b = 8; b >= 1; --b) bits = (bits << 8) | static_cast<uint8_t>(canonical[b]);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    e.numbers += items;
    if (std::isfinite(d) && d != std::floor(d)) {
      if (e.fractional == 0) e.example = d;
      e.fractional += items;
    }
    return 9;
  }
  if (kind == KeyKind::kString) {
    if (canonical.size() < 5) return 0;
    uint32_t n = 0;
    for (int b = 4; b >= 1; --b) n = (n << 8) | static_cast<uint8_t>(canonical[b]);
    return canonical.size() - 5 < n ? 0 : 5 + n;
  }
  return 1;
}

std::string MeasureReason(std::string_view path, const MeasureEvidence& e) {
  if (e.valued == 0 || e.numbers * 2 < e.valued) return {};
  if (e.fractions_known && e.fractional > 0) {
    return fmt::format(
        "{} holds numbers with fractions ({} of its items, e.g. {}): it looks like a measure, "
        "not an identifier, and a measure changes with the item while a key value cannot",
        path, GroupThousands(e.fractional), e.example);
  }
  if (NamesAQuantity(path)) {
    return fmt::format(
        "{} holds numbers and is named like a quantity: it looks like a measure, not an "
        "identifier, and a measure changes with the item while a key value cannot",
        path);
  }
  return {};
}

std::string SystemPropertyReason(std::string_view path) {
  static constexpr std::string_view kSystem[] = {"_rid", "_self", "_etag", "_attachments", "_ts"};
  if (path.size() < 2 || path[0] != '/') return "";
  std::string_view rest = path.substr(1);
  std::string_view first = rest.substr(0, rest.find('/'));
  for (std::string_view name : kSystem) {
    if (first == name) {
      return fmt::format(
          "/{} is a system property Cosmos DB writes when it stores an item, so an item being "
          "created has no value there and it cannot be a partition key",
          name);
    }
  }
  return "";
}

}  // namespace partplay::internal
