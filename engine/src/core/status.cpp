#include "partplay/core/status.h"

#include <fmt/format.h>

namespace partplay {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
#define PARTPLAY_X(name, number, short_name, description) \
  case ErrorCode::name:                                   \
    return short_name;
    PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  }
  return "unknown";
}

std::string_view ErrorCodeDescription(ErrorCode code) {
  switch (code) {
#define PARTPLAY_X(name, number, short_name, description) \
  case ErrorCode::name:                                   \
    return description;
    PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  }
  return "unknown error code";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out(ErrorCodeName(code_));
  if (where_.line > 0) out += fmt::format(" at line {}, column {}", where_.line, where_.column);
  if (where_.byte_offset >= 0 || where_.item_index >= 0) {
    out += " (";
    if (where_.byte_offset >= 0) out += fmt::format("byte {}", where_.byte_offset);
    if (where_.byte_offset >= 0 && where_.item_index >= 0) out += ", ";
    if (where_.item_index >= 0) out += fmt::format("item {}", where_.item_index);
    out += ")";
  }
  out += ": ";
  out += message_;
  return out;
}

}  // namespace partplay
