// Hexadecimal text for bytes, the engine's one encoder: two digits per byte, high nibble first,
// in the case the caller's format wants (Cosmos DB writes effective partition keys in upper case;
// CQL blobs and UUIDs, JSON's \u escapes are lower case).
//
//   std::string out;  AppendHex("\x01\xAB", out, HexCase::kUpper);  // out == "01AB"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace partplay::internal {

enum class HexCase : uint8_t { kLower, kUpper };

// The digit for `nibble` (0-15).
inline char HexDigit(unsigned nibble, HexCase letter_case) {
  return (letter_case == HexCase::kUpper ? "0123456789ABCDEF" : "0123456789abcdef")[nibble & 15];
}

// Appends one byte's two digits.
inline void AppendHexByte(uint8_t byte, std::string& out, HexCase letter_case) {
  out.push_back(HexDigit(byte >> 4, letter_case));
  out.push_back(HexDigit(byte & 15, letter_case));
}

// Appends every byte's two digits.
inline void AppendHex(std::string_view bytes, std::string& out, HexCase letter_case) {
  out.reserve(out.size() + bytes.size() * 2);
  for (char c : bytes) AppendHexByte(static_cast<uint8_t>(c), out, letter_case);
}

}  // namespace partplay::internal
