#include "cassandra/datetime.h"

#include <fmt/format.h>

#include <cctype>

#include "partplay/core/numbers.h"

namespace partplay::cql::internal {
namespace {

// Howard Hinnant's days_from_civil / civil_from_days (public domain), 64-bit.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// Reads exactly `n` digits (n > 0) or, with n == 0, one or more digits.
bool Digits(std::string_view s, size_t& i, size_t n, int64_t& out) {
  size_t start = i;
  out = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) &&
         (n == 0 || i - start < n)) {
    out = out * 10 + (s[i] - '0');
    if (out > (int64_t{1} << 50)) return false;
    ++i;
  }
  return n == 0 ? i > start : i - start == n;
}

// Digits, with an optional '-': milliseconds (out of range when they do not fit 64 bits).
bool IsInteger(std::string_view s) {
  size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

bool ParseDateAt(std::string_view s, size_t& i, int64_t& days) {
  bool negative = i < s.size() && s[i] == '-';
  if (negative) ++i;
  int64_t year, month, day;
  if (!Digits(s, i, 0, year)) return false;
  if (i >= s.size() || s[i] != '-') return false;
  ++i;
  if (!Digits(s, i, 2, month) || i >= s.size() || s[i] != '-') return false;
  ++i;
  if (!Digits(s, i, 2, day)) return false;
  if (negative) year = -year;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  return true;
}

// A zone offset in minutes, from i to the end of s.
bool ParseZone(std::string_view s, size_t i, int64_t& offset_minutes) {
  offset_minutes = 0;
  if (i < s.size() && s[i] == ' ') ++i;
  std::string_view z = s.substr(i);
  if (z == "Z" || z == "UTC" || z == "GMT") return true;
  if (z.empty() || (z[0] != '+' && z[0] != '-')) return false;
  int sign = z[0] == '-' ? -1 : 1;
  size_t j = 1;
  int64_t hh, mm = 0;
  if (!Digits(z, j, 2, hh)) return false;
  if (j < z.size()) {
    if (z[j] == ':') ++j;
    if (!Digits(z, j, 2, mm)) return false;
  }
  if (j != z.size() || hh > 23 || mm > 59) return false;
  offset_minutes = sign * (hh * 60 + mm);
  return true;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t z, int64_t& year, int& month, int& day) {
  z += 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  year = yoe + era * 400 + (month <= 2);
}

TemporalParse ParseTimestamp(std::string_view s, int64_t& millis) {
  if (IsInteger(s)) {
    return ParseInt64(s, millis) ? TemporalParse::kOk : TemporalParse::kOutOfRange;
  }
  size_t i = 0;
  int64_t days;
  if (!ParseDateAt(s, i, days)) return TemporalParse::kMalformed;
  int64_t hh = 0, mm = 0, ss = 0, frac_ms = 0;
  if (i < s.size() && (s[i] == ' ' || s[i] == 'T') && i + 1 < s.size() &&
      std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
    ++i;
    constexpr TemporalParse kBad = TemporalParse::kMalformed;
    if (!Digits(s, i, 2, hh) || i >= s.size() || s[i] != ':') return kBad;
    ++i;
    if (!Digits(s, i, 2, mm)) return kBad;
    if (i < s.size() && s[i] == ':') {
      ++i;
      if (!Digits(s, i, 2, ss)) return kBad;
      if (i < s.size() && s[i] == '.') {
        ++i;
        size_t start = i;
        int64_t f;
        if (!Digits(s, i, 0, f) || i - start > 3) return kBad;
        for (size_t k = i - start; k < 3; ++k) f *= 10;  // ".8" is 800 ms
        frac_ms = f;
      }
    }
    if (hh > 23 || mm > 59 || ss > 59) return kBad;
  }
  int64_t offset_minutes = 0;
  if (i < s.size() && !ParseZone(s, i, offset_minutes)) return TemporalParse::kMalformed;
  // ((days * 24 + hh) * 60 + mm - offset) * 60000 + ss * 1000 + ms, each step checked: a year
  // past about 292 million does not fit 64-bit milliseconds.
  int64_t minutes, ms;
  if (__builtin_mul_overflow(days, int64_t{1440}, &minutes) ||
      __builtin_add_overflow(minutes, hh * 60 + mm - offset_minutes, &minutes) ||
      __builtin_mul_overflow(minutes, int64_t{60000}, &ms) ||
      __builtin_add_overflow(ms, ss * 1000 + frac_ms, &ms)) {
    return TemporalParse::kOutOfRange;
  }
  millis = ms;
  return TemporalParse::kOk;
}

bool ParseDate(std::string_view s, int64_t& days) {
  size_t i = 0;
  return ParseDateAt(s, i, days) && i == s.size();
}

bool ParseTime(std::string_view s, int64_t& nanos) {
  size_t i = 0;
  int64_t hh, mm, ss, frac = 0;
  if (!Digits(s, i, 0, hh) || i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!Digits(s, i, 0, mm) || i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!Digits(s, i, 0, ss)) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t start = i;
    if (!Digits(s, i, 0, frac) || i - start > 9) return false;
    for (size_t k = i - start; k < 9; ++k) frac *= 10;
  }
  if (i != s.size() || hh > 23 || mm > 59 || ss > 59) return false;
  nanos = ((hh * 60 + mm) * 60 + ss) * 1000000000 + frac;
  return true;
}

namespace {
struct Civil {
  int64_t year;
  int month, day, hour, minute, second, millis;
};
Civil Split(int64_t millis) {
  Civil c{};
  int64_t days = FloorDiv(millis, 86400000);
  int64_t rest = millis - days * 86400000;
  CivilFromDays(days, c.year, c.month, c.day);
  c.hour = static_cast<int>(rest / 3600000);
  c.minute = static_cast<int>(rest / 60000 % 60);
  c.second = static_cast<int>(rest / 1000 % 60);
  c.millis = static_cast<int>(rest % 1000);
  return c;
}
}  // namespace

std::string FormatTimestampCqlsh(int64_t millis) {
  Civil c = Split(millis);
  if (c.year < 1 || c.year > 9999) return std::to_string(millis);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03}000+0000", c.year, c.month, c.day,
                     c.hour, c.minute, c.second, c.millis);
}

std::string FormatTimestampJson(int64_t millis) {
  Civil c = Split(millis);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03}Z", c.year, c.month, c.day, c.hour,
                     c.minute, c.second, c.millis);
}

std::string FormatDate(int64_t days) {
  int64_t year;
  int month, day;
  CivilFromDays(days, year, month, day);
  if (year < 1 || year > 9999) return std::to_string(days);  // cqlsh prints the day number
  return fmt::format("{:04}-{:02}-{:02}", year, month, day);
}

std::string FormatTime(int64_t nanos) {
  int64_t s = nanos / 1000000000;
  return fmt::format("{:02}:{:02}:{:02}.{:09}", s / 3600, s / 60 % 60, s % 60, nanos % 1000000000);
}

}  // namespace partplay::cql::internal
