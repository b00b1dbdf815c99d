// Internal: the text forms of CQL's temporal types. Dates use the proleptic Gregorian calendar
// (as Java's LocalDate and Python's datetime); times without a zone are UTC.
//
//   int64_t ms;  ParseTimestamp("2021-03-04 05:06:07.8+0100", ms);   // kOk, 1614830767800
//   FormatTimestampCqlsh(ms);     // "2021-03-04 04:06:07.800000+0000"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace partplay::cql::internal {

int64_t DaysFromCivil(int64_t year, int month, int day);
void CivilFromDays(int64_t days, int64_t& year, int& month, int& day);

// Cassandra's accepted timestamp strings: an integer (milliseconds since the epoch), or
// yyyy-mm-dd, optionally followed by (' ' | 'T') HH:MM[:SS[.f{1,3}]], optionally followed by a
// zone: Z, +hh, +hhmm, +hh:mm (also after a space), UTC or GMT. No zone means UTC. kOutOfRange
// when the instant does not fit 64-bit milliseconds (e.g. the year 999999999).
enum class TemporalParse : uint8_t { kOk, kMalformed, kOutOfRange };
TemporalParse ParseTimestamp(std::string_view text, int64_t& millis);
// A date: yyyy-mm-dd (year may be negative or longer), as days since 1970-01-01.
bool ParseDate(std::string_view text, int64_t& days);
// A time of day: HH:MM:SS[.f{1,9}], as nanoseconds since midnight.
bool ParseTime(std::string_view text, int64_t& nanos);

// cqlsh's forms: "2021-03-04 04:06:07.800000+0000" (the milliseconds as a number when the year is
// outside 1..9999, as cqlsh falls back), "2021-03-04", "04:06:07.800000000".
std::string FormatTimestampCqlsh(int64_t millis);
// SELECT JSON's form: "2021-03-04 04:06:07.800Z".
std::string FormatTimestampJson(int64_t millis);
std::string FormatDate(int64_t days);
std::string FormatTime(int64_t nanos);

}  // namespace partplay::cql::internal
