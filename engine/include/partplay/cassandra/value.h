// CQL values as Cassandra holds them: the bytes of the native protocol serialization of their
// type (int: 4 bytes big-endian, text: UTF-8, list: count then length-prefixed elements, ...).
// A null is an absent Value. On those bytes: Cassandra's order for the type (the order of
// clustering columns and of IN keys), cqlsh's rendering, and SELECT JSON's rendering.
//
//   Bytes v = EncodeInt32(42);
//   Compare(CqlType::Native(TypeKind::kInt), v, EncodeInt32(-1));   // > 0
//   FormatCqlsh(CqlType::Native(TypeKind::kInt), v);                // "42"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/types.h"

namespace partplay::cql {

using Bytes = std::string;
using Value = std::optional<Bytes>;  // nullopt is CQL null

// Negative, zero or positive as `a` sorts before, with or after `b` for a column of `type`
// (ascending). Follows each Cassandra AbstractType: signed integers, varint and decimal by
// numeric value, float/double as Java's Float.compare (-0.0 < 0.0, NaN last), text, ascii, blob
// and inet by unsigned bytes, boolean false < true, date/time/timestamp by time, uuid by version
// then (version 1) timestamp then unsigned bytes, timeuuid by timestamp then signed bytes,
// frozen collections element by element then by size. An empty value sorts first.
int Compare(const CqlType& type, std::string_view a, std::string_view b);

// How cqlsh prints the value (with its default settings: float and double with 5 significant
// digits after the integral part, timestamps as "2021-01-31 13:45:00.000000+0000" in UTC,
// booleans True/False, text inside collections in single quotes). FormatCqlshValue(null) is "null".
std::string FormatCqlsh(const CqlType& type, std::string_view bytes);
std::string FormatCqlshValue(const CqlType& type, const Value& value);

// The value as Cassandra's SELECT JSON writes it: integers and decimals as JSON numbers with all
// their digits, float/double as numbers (NaN and infinities as null: JSON has neither), booleans,
// text and uuid/inet/date/time as strings, timestamps as "2021-01-31 13:45:00.000Z", blobs as
// "0x...", lists and sets as arrays, maps as objects (non-text keys as their JSON text in a
// string).
void AppendJson(const CqlType& type, const Value& value, std::string& out);

// The value written as a CQL literal (text quoted, blobs 0x..., collections in brackets).
std::string FormatCqlLiteral(const CqlType& type, std::string_view bytes);

// --- fixed-width encodings (big-endian, as the native protocol)
// -----------------------------------
Bytes EncodeInt8(int8_t v);
Bytes EncodeInt16(int16_t v);
Bytes EncodeInt32(int32_t v);
Bytes EncodeInt64(int64_t v);
Bytes EncodeFloat(float v);
Bytes EncodeDouble(double v);
Bytes EncodeBoolean(bool v);
// date: days since 1970-01-01 plus 2^31, as an unsigned 32-bit number.
Bytes EncodeDate(int64_t days_since_epoch);

// Readers of the same; the bytes must have the type's size.
int64_t DecodeSigned(std::string_view bytes);  // 1, 2, 4 or 8 bytes, sign-extended
uint64_t DecodeUnsigned(std::string_view bytes);
float DecodeFloat(std::string_view bytes);
double DecodeDouble(std::string_view bytes);

// Collections: a count, then each element as a 4-byte length and its bytes (maps: key then
// value). Encode takes the elements already in order (sets and maps sorted by key, no duplicates).
Bytes EncodeCollection(const std::vector<Bytes>& elements, size_t count);
// A collection of `type` from its elements (maps: key, value, key, value ...) in any order: sets
// are sorted by the element type and deduplicated, map entries sorted by key with the last of
// equal keys kept, lists kept as given.
Bytes EncodeCollectionOf(const CqlType& type, const std::vector<Bytes>& flat);
// The elements (maps: key, value, key, value ...); empty for malformed bytes.
std::vector<std::string_view> CollectionElements(std::string_view bytes);

// Tuples and user-defined types: each component as a 4-byte length and its bytes (-1: null).
Bytes EncodeComposite(const std::vector<Value>& components);
// The components written (a UDT value may hold fewer than its type's fields); false for
// malformed bytes.
bool CompositeComponents(std::string_view bytes, std::vector<Value>& out);

// Vectors (Cassandra 5.0, VectorType): exactly `dimension` elements, none null, with no count in
// front. Elements of a fixed-length type (VectorElementFixedSize) are concatenated as they are;
// any other element is preceded by its length as an unsigned vint.
Bytes EncodeVector(const CqlType& type, const std::vector<Bytes>& elements);
// The elements of a vector value of `type`; false for malformed bytes (a wrong length, a vint
// running past the end, bytes left over).
bool VectorElements(const CqlType& type, std::string_view bytes,
                    std::vector<std::string_view>& out);

// A duration: months, days and nanoseconds, all of one sign, as Cassandra's Duration.
struct Duration {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanos = 0;
};
// Three signed vints (zig-zag, then VIntCoding's length-in-the-first-byte form).
Bytes EncodeDuration(const Duration& d);
bool DecodeDuration(std::string_view bytes, Duration& out);
// Duration.toString and cqlsh: "1y2mo3d4h5m6s7ms8us9ns", largest units first, "-" in front.
std::string FormatDuration(const Duration& d);

// Unsigned lexicographic byte order (text, blob, and the tie-break of partition keys).
inline int CompareBytes(std::string_view a, std::string_view b) { return a.compare(b); }

}  // namespace partplay::cql
