// Internal: numbers in messages, the same way everywhere (findings, advisor reasons, sizing):
// "1,234", "21.5 GB" (units of 1024, as the quotas count them), "3,333 RU/s", "12.5%".
#pragma once

#include <cstdint>
#include <string>

namespace partplay::internal {

std::string GroupThousands(uint64_t n);
// "1,234.5": one decimal, thousands grouped.
std::string OneDecimal(double x);
// "21.5 GB", "512 bytes" below 1 KB.
std::string FormatSize(double bytes);
// A size compared with a limit: exact bytes are added when one decimal would show the limit.
std::string FormatSizeOver(double bytes, double limit);
// "3,333 RU/s" from 100 up, "12.5 RU/s" below.
std::string FormatRate(double ru);
std::string FormatPercent(double fraction);

}  // namespace partplay::internal
