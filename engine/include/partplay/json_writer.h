// Minimal JSON text output used by the report writer and the CLI: string escaping (RFC 8259,
// control characters as \u00XX, everything else UTF-8 as is) and doubles in the shortest form that
// reads back to the same double ({fmt}'s Dragonbox), with integral values written without ".0".
#pragma once

#include <string>
#include <string_view>

namespace partplay {

void AppendJsonString(std::string_view text, std::string& out);
void AppendJsonNumber(double value, std::string& out);

}  // namespace partplay
