// UTF-8 as the engine checks it everywhere (RFC 3629): no overlong forms, no surrogates, nothing
// past U+10FFFF.
//
//   Utf8CharLength("h\xC3\xA9", 1);   // 2 (é)
//   Utf8CharLength("\xFF", 0);        // 0: not UTF-8
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace partplay {

// The length (1 to 4) of the valid UTF-8 character starting at s[i], or 0 if the bytes there are
// not one.
size_t Utf8CharLength(std::string_view s, size_t i);
// The code point of the character starting at s[i], which must be valid UTF-8, and its length in
// `len` (1 for a byte that does not start one).
uint32_t CodePointAt(std::string_view s, size_t i, size_t& len);
// Appends code point `cp` (at most U+10FFFF) as UTF-8.
void AppendUtf8(uint32_t cp, std::string& out);
// Whether all of `s` is UTF-8.
bool IsValidUtf8(std::string_view s);
// The first index at or after `i` where fewer than 8 bytes are left or the next 8 are not all
// ASCII: the run before it is whole characters, skipped a word at a time by a validating loop.
size_t SkipAsciiWords(std::string_view s, size_t i);
// `s` for a message: valid characters as they are, each byte that is not UTF-8 or is a control
// character (below U+0020, or U+007F) as \xNN, so no raw invalid byte reaches the output.
std::string PrintableText(std::string_view s);

}  // namespace partplay
