#include "cassandra/write_time_selectors.h"

#include <fmt/format.h>

namespace partplay::cql::internal {

Status CheckWriteTimeSelector(const ColumnSpec& col, Selector::Time time,
                              const SourceLocation& where) {
  const char* fn = time == Selector::Time::kTtl ? "ttl" : "writeTime";
  if (col.is_primary_key()) {
    return Status(ErrorCode::kCqlInvalidRequest,
                  fmt::format("Cannot use selection function {} on PRIMARY KEY part {}", fn,
                              col.name),
                  where);
  }
  if (col.type.is_multi_cell()) {
    return Status(ErrorCode::kCqlInvalidRequest,
                  fmt::format("Cannot use selection function {} on non-frozen {} {}", fn,
                              col.type.kind == TypeKind::kUdt ? "UDT" : "collection", col.name),
                  where);
  }
  return Status::Ok();
}

Value WriteTimeValue(Selector::Time time, const Value& value, const CellTime& cell,
                     int64_t now_seconds) {
  if (!value || cell.timestamp == kNoTimestamp) return Value();
  if (time == Selector::Time::kWritetime) return EncodeInt64(cell.timestamp);
  int64_t left = cell.expires == 0 ? 0 : cell.expires - now_seconds;
  return left > 0 ? Value(EncodeInt32(static_cast<int32_t>(left))) : Value();
}

}  // namespace partplay::cql::internal
