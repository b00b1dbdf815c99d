// Minimal JSON text output used by the report writer and the CLI: string escaping (RFC 8259,
// control characters as \u00XX, everything else UTF-8 as is) and doubles in the shortest form that
// reads back to the same double ({fmt}'s Dragonbox), with integral values written without ".0".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace partplay {

void AppendJsonString(std::string_view text, std::string& out);
void AppendJsonNumber(double value, std::string& out);
// Integers in decimal, as {fmt} writes them (a faster path for the listings' many numbers).
void AppendJsonUInt(uint64_t value, std::string& out);
// The same digits written backwards so that they end just before `end` (room for 20 before
// it); returns where they start.
char* FormatJsonUIntBackwards(uint64_t value, char* end);
void AppendJsonInt(int64_t value, std::string& out);

// A JSON array of `list`, each element written by `append_one(element, out)`.
template <typename T, typename AppendOne>
std::string JsonArray(const std::vector<T>& list, AppendOne append_one) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) s.push_back(',');
    append_one(list[i], s);
  }
  s.push_back(']');
  return s;
}

// Writes the `"name":value` members of one JSON object into `s`, commas included; the caller
// writes the braces. Raw() takes already-written JSON (an array, a nested object).
struct JsonMembers {
  std::string& s;
  bool first = true;
  void Key(std::string_view k) {
    if (!first) s.push_back(',');
    first = false;
    AppendJsonString(k, s);
    s.push_back(':');
  }
  void Int(std::string_view k, int64_t v);
  void UInt(std::string_view k, uint64_t v);
  void Num(std::string_view k, double v) { Key(k), AppendJsonNumber(v, s); }
  void Str(std::string_view k, std::string_view v) { Key(k), AppendJsonString(v, s); }
  void Bool(std::string_view k, bool v) { Key(k), s += v ? "true" : "false"; }
  void Raw(std::string_view k, std::string_view v) { Key(k), s += v; }
};

}  // namespace partplay
