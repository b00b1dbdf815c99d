// Internal: Cassandra's native aggregate functions (cql3/functions/AggregateFcts.java, 4.1) over
// serialized values: count, min, max, sum and avg with Cassandra's result types and arithmetic —
// sums of tinyint, smallint, int, bigint and counter wrap as Java's do; avg of the integer types
// sums in a long and falls back to a big integer when that overflows, then truncates; float and
// double sum with Kahan's compensation (avg falls back to exact decimals past the double range);
// varint and decimal are exact (decimal avg as avg + (x - avg) / n, rounded half-even at the
// scale of x - avg). An aggregate of no value is 0 for sum and avg, null for min and max.
//
//   Aggregator a(AggregateFn::kAvg, CqlType::Native(TypeKind::kInt));
//   a.Add(EncodeInt32(1)); a.Add(EncodeInt32(2));
//   a.Result();   // EncodeInt32(1)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "partplay/cassandra/types.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/status.h"

namespace partplay::cql::internal {

enum class AggregateFn : uint8_t { kCount, kMin, kMax, kSum, kAvg };

// The function named `name` (lower case), if it is one of the native aggregates.
bool AggregateFnFromName(std::string_view name, AggregateFn& out);
std::string_view AggregateFnName(AggregateFn fn);

// Whether the function takes a value of `type`; Cassandra's message (FunctionResolver) otherwise.
Status CheckAggregateArgument(AggregateFn fn, const CqlType& type, const SourceLocation& where);
// The type of the function's result on a value of `type`.
CqlType AggregateResultType(AggregateFn fn, const CqlType& type);

class Aggregator {
 public:
  Aggregator(AggregateFn fn, CqlType type);
  ~Aggregator();
  Aggregator(Aggregator&&) noexcept;
  Aggregator& operator=(Aggregator&&) noexcept;

  void Add(const Value& value);  // null values are skipped, as Cassandra's aggregates skip them
  Value Result() const;
  void Reset();

 private:
  struct State;
  AggregateFn fn_;
  CqlType type_;
  std::unique_ptr<State> s_;
};

}  // namespace partplay::cql::internal
