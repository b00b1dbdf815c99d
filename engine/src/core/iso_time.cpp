// ISO-8601 and epoch times (core/iso_time.h).
#include "partplay/core/iso_time.h"

#include <cmath>

namespace partplay {
namespace {

bool Digits(std::string_view s, size_t at, size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

bool LeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

CivilTime CivilFromMillis(int64_t millis) {
  // Floor division: a time before 1970 falls on the day before, not after.
  int64_t days = millis / 86400000;
  int64_t rest = millis % 86400000;
  if (rest < 0) {
    rest += 86400000;
    --days;
  }
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  CivilTime t;
  t.day = doy - (153 * mp + 2) / 5 + 1;
  t.month = mp < 10 ? mp + 3 : mp - 9;
  t.year = static_cast<int64_t>(yoe) + era * 400 + (t.month <= 2 ? 1 : 0);
  t.hour = static_cast<unsigned>(rest / 3600000);
  return t;
}

bool EpochNumberMillis(double d, int64_t& millis) {
  if (!std::isfinite(d)) return false;
  if (d >= kEpochSecondsMin && d < kEpochSecondsEnd) {
    millis = static_cast<int64_t>(std::floor(d * 1000));
    return true;
  }
  if (d >= kEpochMillisMin && d < kEpochMillisEnd) {
    millis = static_cast<int64_t>(std::floor(d));
    return true;
  }
  return false;
}

bool ParseIsoTimeMillis(std::string_view s, int64_t& millis) {
  int year, month, day;
  if (!Digits(s, 0, 4, year) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2, month) ||
      s[7] != '-' || !Digits(s, 8, 2, day)) {
    return false;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 ||
      day > kDays[month - 1] + (month == 2 && LeapYear(year) ? 1 : 0)) {
    return false;
  }
  int64_t ms = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) *
               86400000;
  size_t at = 10;
  if (at < s.size()) {
    if (s[at] != 'T' && s[at] != 't' && s[at] != ' ') return false;
    int hour, minute, second = 0;
    if (!Digits(s, at + 1, 2, hour) || at + 3 >= s.size() || s[at + 3] != ':' ||
        !Digits(s, at + 4, 2, minute) || hour > 23 || minute > 59) {
      return false;
    }
    at += 6;
    if (at < s.size() && s[at] == ':') {
      if (!Digits(s, at + 1, 2, second) || second > 60) return false;
      at += 3;
      if (at < s.size() && (s[at] == '.' || s[at] == ',')) {
        size_t digits = 0;
        int64_t fraction_ms = 0;
        for (++at; at < s.size() && s[at] >= '0' && s[at] <= '9'; ++at, ++digits) {
          if (digits < 3) fraction_ms = fraction_ms * 10 + (s[at] - '0');
        }
        if (digits == 0) return false;
        for (size_t d = digits; d < 3; ++d) fraction_ms *= 10;
        ms += fraction_ms;
      }
    }
    ms += (hour * 3600 + minute * 60 + second) * int64_t{1000};
    if (at < s.size()) {
      if (s[at] == 'Z' || s[at] == 'z') {
        ++at;
      } else if (s[at] == '+' || s[at] == '-') {
        const int sign = s[at] == '+' ? 1 : -1;
        int oh, om;
        if (!Digits(s, at + 1, 2, oh) || oh > 23) return false;
        size_t m = at + 3;
        if (m < s.size() && s[m] == ':') ++m;
        if (!Digits(s, m, 2, om) || om > 59) return false;
        at = m + 2;
        ms -= sign * (oh * 60 + om) * int64_t{60000};
      } else {
        return false;
      }
    }
  }
  if (at != s.size()) return false;
  millis = ms;
  return true;
}

}  // namespace partplay
