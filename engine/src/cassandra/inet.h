// Internal: inet addresses in text. IPv4 dotted quads and IPv6 in any RFC 4291 text form (with
// "::" and a trailing dotted quad) parse to 4 or 16 bytes; formatting is inet_ntop's (RFC 5952:
// the longest run of two or more zero groups becomes "::", lower-case hex, ::ffff:1.2.3.4), the
// form cqlsh prints through Python.
#pragma once

#include <string>
#include <string_view>

namespace partplay::cql::internal {

bool ParseInet(std::string_view text, std::string& bytes);
std::string FormatInet(std::string_view bytes);

}  // namespace partplay::cql::internal
