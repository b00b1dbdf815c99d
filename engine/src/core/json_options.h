// Internal: reading an options object given as JSON text, the one way every domain does it
// (report/options_json.cpp for analyses and containers, cassandra/options_json.cpp for rings and
// layouts): a located error for bad JSON, kBadOption naming the field for a bad or unknown one.
#pragma once

#include <simdjson.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "partplay/core/status.h"

namespace partplay::internal {

// kBadOption: "option <field>: <what>".
Status BadOptionField(std::string_view field, std::string_view what);

// Parses `json` as one object; a located kMalformedJson for bad JSON, kBadOption for a non-object.
StatusOr<simdjson::dom::object> ParseOptionsObject(simdjson::dom::parser& parser,
                                                   std::string_view json, std::string_view what);

using OptionFieldReader = std::function<Status(simdjson::dom::element)>;

// Calls the reader of every field of `object`; an unknown field is an error naming it and the
// known ones.
Status ReadOptionFields(simdjson::dom::object object, std::string_view what,
                        const std::map<std::string, OptionFieldReader, std::less<>>& readers);

}  // namespace partplay::internal
