// Internal: arbitrary-precision integers and decimals as CQL serializes them. A varint is the
// minimal big-endian two's complement of the number (Java's BigInteger.toByteArray); a decimal is
// a 4-byte big-endian scale followed by the varint of the unscaled value (value = unscaled x
// 10^-scale, Java's BigDecimal).
//
//   Bytes b;  VarintFromDecimal("-129", b);   // b == "\xFF\x7F"
//   VarintToDecimal(b);                        // "-129"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace partplay::cql::internal {

// `text` is [+-]?[0-9]+; false otherwise.
bool VarintFromDecimal(std::string_view text, std::string& out);
std::string VarintToDecimal(std::string_view bytes);
// Numeric order of two varints.
int CompareVarint(std::string_view a, std::string_view b);
// The varint's value if it fits in 64 bits.
bool VarintToInt64(std::string_view bytes, int64_t& out);

// `text` as Java's new BigDecimal(text): [+-]? digits [. digits] [(e|E) [+-]? digits], at least
// one digit in the mantissa. False if malformed or the scale overflows 32 bits.
bool DecimalFromText(std::string_view text, std::string& out);
// Whether DecimalFromText would take `text` (one linear pass, nothing converted).
bool IsDecimalText(std::string_view text);
// Java's BigDecimal.toString (also what Python's Decimal prints): plain notation unless the
// scale is negative or the adjusted exponent is below -6, then d.dddE+n.
std::string DecimalToText(std::string_view bytes);
int CompareDecimal(std::string_view a, std::string_view b);

}  // namespace partplay::cql::internal
