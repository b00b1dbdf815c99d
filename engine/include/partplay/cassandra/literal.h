// CQL literals as written in a statement ('text', 42, -1.5e3, 0xCAFE, a UUID, true, null, NaN,
// [list], {set}, {map: ...}, now()) and their conversion to a column's value. The conversion
// follows Cassandra's rules for which literal fits which type and reports the same messages:
//
//   Invalid STRING constant (abc) for "id" of type int
//   Unable to make int from '99999999999'
//   Unable to coerce '2021-13-01' to a formatted date (long)
//
// each located at the literal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/types.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/status.h"

namespace partplay::cql {

enum class LiteralKind : uint8_t {
  kString,   // text: the content, quotes removed and '' unescaped
  kInteger,  // text: as written, sign included
  kFloat,    // text: as written; also NaN, Infinity, -Infinity
  kUuid,     // text: 8-4-4-4-12 hex
  kHex,      // text: "0x..." as written
  kBoolean,  // text: "true" or "false"
  kNull,
  kList,      // elements
  kSet,       // elements; "{}" is an empty kMap
  kMap,       // elements: key, value, key, value ...
  kFunction,  // text: the lower-case name; elements: arguments (now(), uuid(), toTimestamp(now()))
  kTuple,     // elements: the components, (1, 'a')
  kUdt,       // elements: field name (a kString literal), value, name, value ... {street: 'x'}
  kDuration,  // text: as written, 1h30m, P1DT2H
};

struct Literal {
  LiteralKind kind = LiteralKind::kNull;
  std::string text;
  std::vector<Literal> elements;
  SourceLocation where;

  // How the literal reads in messages: the text of constants, "[...]" for collections.
  std::string Describe() const;
};

// Where now(), uuid() and the current* functions take their values. With a fixed clock and
// seed, a script gives the same values on every run.
class ValueGenerator {
 public:
  // now_millis < 0: read the system clock.
  explicit ValueGenerator(int64_t now_millis = -1, uint64_t seed = 0x5EED5EED5EEDull)
      : fixed_now_(now_millis), state_(seed) {}
  // The wall clock (or the fixed one), moved on by AdvanceClock.
  int64_t NowMillis() const;
  // A version 1 UUID for now(): each call a later timestamp (100 ns apart within one millisecond).
  Bytes TimeUuid();
  // A random version 4 UUID (splitmix64 from the seed).
  Bytes RandomUuid();

  // The session's write clock (ClientState.getTimestamp): microseconds, each write's one after
  // the last one's. It stands still from the session's start and moves only by AdvanceClock (the
  // console's ADVANCE CLOCK), so writes, TTL() and expiry are reproducible.
  int64_t NextWriteTimestamp();
  int64_t ClockMicros() const;
  int64_t NowSeconds() const { return ClockMicros() / 1000000; }  // TTL's clock
  void AdvanceClock(int64_t micros) { advanced_micros_ += micros; }
  // While set (a batch), every write has this timestamp.
  void PinTimestamp(std::optional<int64_t> timestamp) { pinned_ = timestamp; }

 private:
  uint64_t Next();
  int64_t fixed_now_;
  mutable int64_t start_micros_ = -1;  // the write clock's start, read once
  int64_t advanced_micros_ = 0;
  int64_t last_write_ = INT64_MIN;
  std::optional<int64_t> pinned_;
  uint64_t state_;
  int64_t last_ticks_ = 0;
  uint64_t node_ = 0;
};

// The value of `literal` for a receiver of `type` named `receiver` (the column, or
// "value(col)" / "key(col)" inside collections). Null gives a null Value. Elements of a set are
// sorted and deduplicated, map entries sorted by key (the last duplicate wins), as Cassandra does.
StatusOr<Value> LiteralToValue(const CqlType& type, const Literal& literal,
                               std::string_view receiver, ValueGenerator& generator);

// The value of a constant given as text (as in INSERT JSON strings, or the CLI): the text is read
// as Cassandra's fromString of the type (int: digits, uuid: 8-4-4-4-12, blob: 0x..., timestamp:
// a date string or milliseconds). Not for collections.
StatusOr<Bytes> ValueFromString(const CqlType& type, std::string_view text,
                                SourceLocation where = {});
// The same into `out` (a text or ascii value written over its bytes, their buffer reused: a
// load reads a value a field); `out` is unspecified after an error.
Status ValueFromStringInto(const CqlType& type, std::string_view text, SourceLocation where,
                           Value& out);

}  // namespace partplay::cql
