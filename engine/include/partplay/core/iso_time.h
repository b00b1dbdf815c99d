// Times written in JSON: ISO-8601 strings and Unix epoch numbers, read as milliseconds since
// 1970-01-01T00:00:00Z, and the UTC calendar date back from them. Shared by the synthetic key's
// date buckets (ingest/synthetic_key.h) and the comparison's write-time pass (report/key_traffic.h).
//
//   int64_t ms;
//   ParseIsoTimeMillis("2024-06-11T10:30:00+02:00", ms);  // true, 1718094600000
//   EpochNumberMillis(1718094600, ms);                      // true: seconds, 1718094600000
//   CivilTime t = CivilFromMillis(ms);                      // {2024, 6, 11, 8}
#pragma once

#include <cstdint>
#include <string_view>

namespace partplay {

// An epoch number is seconds in [1e9, 1e11) (2001 to 5138) and milliseconds in [1e12, 1e14)
// (2001 to 5138); outside both it is not read as a time (a count, an id, a year).
inline constexpr double kEpochSecondsMin = 1e9, kEpochSecondsEnd = 1e11;
inline constexpr double kEpochMillisMin = 1e12, kEpochMillisEnd = 1e14;

// An ISO-8601 date or date-time ("2024-06-11", "2024-06-11T08:30:00Z", "2024-06-11 08:30:00.123",
// "...+02:00", "...-0530") as milliseconds since 1970-01-01T00:00:00Z (no zone: UTC). False when
// it is not one (a month 13, February 29 of a common year, "T24:00", text after it).
bool ParseIsoTimeMillis(std::string_view text, int64_t& millis);

// A number in one of the epoch ranges above as milliseconds (fractions floored); false outside.
bool EpochNumberMillis(double number, int64_t& millis);

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

bool LeapYear(int64_t year);

// The UTC calendar date and hour of a time in milliseconds since 1970 (civil_from_days).
struct CivilTime {
  int64_t year = 1970;
  unsigned month = 1, day = 1, hour = 0;
};
CivilTime CivilFromMillis(int64_t millis);

}  // namespace partplay
