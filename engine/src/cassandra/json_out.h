// Internal: values as Cassandra 4.1 writes them in JSON (AbstractType.toJSONString), for
// SELECT JSON and toJson(): numbers bare (float and double as Java's Float.toString and
// Double.toString), text JSON-quoted, blobs "0x...", times as strings, collections and tuples as
// arrays, maps and user types as objects (a map key that is not a JSON string is quoted), and a
// SELECT JSON row as one object by column name (names with upper case quoted: "\"Foo\"").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/types.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql::internal {

// Java's Double.toString / Float.toString (before JDK 19): "123123.0", "9.8712312E7",
// "1.0E-4", "NaN", "Infinity".
std::string JavaDoubleString(double d);
std::string JavaFloatString(float f);

// toJSONString of a non-null value.
void AppendCassandraJson(const CqlType& type, std::string_view bytes, std::string& out);
// toJson(): the JSON of the value, "null" for null.
std::string ToJsonText(const CqlType& type, const Value& value);
// Selection.rowToJson: {"k": 0, "\"Foo\"": "x", "v": null}.
std::string RowToJson(const std::vector<std::string>& names, const std::vector<CqlType>& types,
                      const std::vector<Value>& row);

}  // namespace partplay::cql::internal
