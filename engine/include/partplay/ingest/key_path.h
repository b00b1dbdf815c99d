// A partition key path, written as a JSON pointer (RFC 6901): "/userId", "/address/city".
// A segment containing '/' or '~' is escaped as "~1" / "~0" ("/a~1b" names the property "a/b").
// Cosmos DB partition key paths name properties of objects only, so a path never indexes into an
// array: a path that meets an array, or a missing property, yields "undefined".
//
//   StatusOr<KeyPath> path = KeyPath::Parse("/address/city");  // segments {"address", "city"}
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay {

class KeyPath {
 public:
  // Fails with kBadKeyPath (location: column = the 1-based character of the problem) when `text`
  // is empty, does not start with '/', or has a '~' not followed by '0' or '1'.
  static StatusOr<KeyPath> Parse(std::string_view text);

  // The pointer as written by the user (escaped).
  const std::string& text() const { return text_; }
  // The unescaped property names, outermost first.
  const std::vector<std::string>& segments() const { return segments_; }

  // Escapes one property name for use in a pointer ("a/b" -> "a~1b").
  static std::string EscapeSegment(std::string_view name);
  // Appends '/' and the escaped name to `pointer` (no allocation when it has room).
  static void AppendSegment(std::string_view name, std::string& pointer);

 private:
  std::string text_;
  std::vector<std::string> segments_;
};

}  // namespace partplay
