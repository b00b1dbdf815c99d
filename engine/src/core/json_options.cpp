#include "core/json_options.h"

#include <fmt/format.h>

#include "partplay/core/json_diagnostics.h"

namespace partplay::internal {

namespace dom = simdjson::dom;

Status BadOptionField(std::string_view field, std::string_view what) {
  return Status(ErrorCode::kBadOption, fmt::format("option {}: {}", field, what));
}

StatusOr<dom::object> ParseOptionsObject(dom::parser& parser, std::string_view json,
                                         std::string_view what) {
  JsonDiagnosis d = DiagnoseJsonValue(json);
  if (d.found) {
    SourceLocation at;
    at.byte_offset = static_cast<int64_t>(d.offset);
    return Status(ErrorCode::kMalformedJson, fmt::format("{}: {}", what, d.message), at);
  }
  dom::element root;
  if (parser.parse(json.data(), json.size()).get(root)) {
    return Status(ErrorCode::kMalformedJson, fmt::format("{}: not valid JSON", what));
  }
  dom::object object;
  if (root.get_object().get(object)) return BadOptionField(what, "must be a JSON object");
  return object;
}

Status ReadOptionFields(dom::object object, std::string_view what,
                        const std::map<std::string, OptionFieldReader, std::less<>>& readers) {
  for (dom::key_value_pair field : object) {
    auto it = readers.find(field.key);
    if (it == readers.end()) {
      std::string known;
      for (const auto& [name, reader] : readers) known += (known.empty() ? "" : ", ") + name;
      return BadOptionField(fmt::format("{}.{}", what, field.key),
                            fmt::format("unknown (known: {})", known));
    }
    PARTPLAY_RETURN_IF_ERROR(it->second(field.value));
  }
  return Status::Ok();
}

}  // namespace partplay::internal
