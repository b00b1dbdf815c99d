// Errors as values, in the style of absl::Status / simdjson_result: a Status holds an ErrorCode
// from the single table in error_codes.h, a message, and where in the input the problem is.
// StatusOr<T> holds a T or a non-OK Status. The engine never throws.
//
//   StatusOr<KeyPath> path = KeyPath::Parse("/address/city");
//   if (!path.ok()) return path.status();
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "partplay/core/error_codes.h"

namespace partplay {

enum class ErrorCode : int {
#define PARTPLAY_X(name, number, short_name, description) name = number,
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
};

// The code's short name ("malformed_json"); "unknown" for a number outside the table.
std::string_view ErrorCodeName(ErrorCode code);
// One sentence on what the code means.
std::string_view ErrorCodeDescription(ErrorCode code);

// Where in the input. Offsets and indexes are 0-based; line and column are 1-based, the column
// counting bytes. A field that does not apply is -1 (offsets) or 0 (line/column).
struct SourceLocation {
  int64_t byte_offset = -1;
  int64_t line = 0;
  int64_t column = 0;
  int64_t item_index = -1;

  bool known() const { return byte_offset >= 0 || item_index >= 0 || line > 0; }
};

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(ErrorCode code, std::string message, SourceLocation where = {})
      : code_(code), message_(std::move(message)), where_(where) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const SourceLocation& where() const { return where_; }
  // Which field of a structured request the error is about, as a JSON pointer into that request
  // ("/rows_per_partition", "/avg_sizes/comment"), so callers never read it out of the message;
  // empty when the error is not about one field.
  const std::string& field() const { return field_; }
  Status&& WithField(std::string field) && {
    field_ = std::move(field);
    return std::move(*this);
  }

  // "malformed_json at line 3, column 7 (byte 41, item 2): ..." — for logs and the CLI.
  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  SourceLocation where_;
  std::string field_;
};

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}           // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: must not be OK

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace partplay

#define PARTPLAY_CONCAT_INNER(a, b) a##b
#define PARTPLAY_CONCAT(a, b) PARTPLAY_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define PARTPLAY_RETURN_IF_ERROR(expr)          \
  do {                                          \
    ::partplay::Status _pp_status = (expr);     \
    if (!_pp_status.ok()) return _pp_status;    \
  } while (0)

// `lhs` = the value of the StatusOr `expr`, or return its Status.
#define PARTPLAY_ASSIGN_OR_RETURN(lhs, expr)                                  \
  auto PARTPLAY_CONCAT(_pp_or_, __LINE__) = (expr);                           \
  if (!PARTPLAY_CONCAT(_pp_or_, __LINE__).ok())                               \
    return PARTPLAY_CONCAT(_pp_or_, __LINE__).status();                       \
  lhs = std::move(PARTPLAY_CONCAT(_pp_or_, __LINE__)).value()
