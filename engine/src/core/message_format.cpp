#include "core/message_format.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

namespace partplay::internal {

std::string GroupThousands(uint64_t n) {
  std::string digits = fmt::format("{}", n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// "1,234.5": one decimal, thousands grouped.
std::string OneDecimal(double x) {
  const double tenths = std::round(x * 10);
  const uint64_t whole = static_cast<uint64_t>(tenths / 10);
  const int frac = static_cast<int>(tenths - static_cast<double>(whole) * 10);
  return fmt::format("{}.{}", GroupThousands(whole), frac);
}

// "21.5 GB" (units of 1024, as the quotas count them), "512 bytes" below 1 KB.
std::string FormatSize(double bytes) {
  if (bytes < 1024) return fmt::format("{} bytes", GroupThousands(static_cast<uint64_t>(bytes)));
  static constexpr const char* kUnits[] = {"KB", "MB", "GB", "TB"};
  double value = bytes / 1024;
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && value >= 1024) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{} {}", OneDecimal(value), kUnits[unit]);
}

// A size compared with a limit: exact bytes are added when one decimal would show the limit.
std::string FormatSizeOver(double bytes, double limit) {
  std::string text = FormatSize(bytes);
  if (text != FormatSize(limit)) return text;
  return fmt::format("{} ({} bytes)", text, GroupThousands(static_cast<uint64_t>(bytes)));
}

// "3,333 RU/s" from 100 up, "12.5 RU/s" below.
std::string FormatRate(double ru) {
  if (ru >= 100) {
    return fmt::format("{} RU/s", GroupThousands(static_cast<uint64_t>(std::llround(ru))));
  }
  std::string text = fmt::format("{:.2f}", ru);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text + " RU/s";
}

// "12.5%", with one significant digit below 0.05% ("0.02%").
std::string FormatPercent(double fraction) {
  const double percent = fraction * 100;
  if (percent > 0 && percent < 0.05) return fmt::format("{:.1g}%", percent);
  return fmt::format("{:.1f}%", percent);
}


}  // namespace partplay::internal
