// The CQL lexer: a script's bytes become tokens with their positions (byte offset, 1-based line
// and column). Unquoted identifiers and keywords are case-insensitive (kept lower-cased in
// `text`); "quoted identifiers" keep their case. Comments (-- and // to the end of the line,
// /* ... */) and whitespace are skipped. Constants follow Cassandra's lexer: 'strings' with ''
// for a quote, $$strings$$, integers and floats with an optional leading '-', 0x hex blobs,
// UUIDs, durations (1h30m, P1DT2H), NaN and Infinity.
//
//   StatusOr<std::vector<Token>> tokens = Lex("SELECT * FROM t; -- all rows");
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cql {

enum class TokenKind : uint8_t {
  kIdentifier,        // text: lower-cased
  kQuotedIdentifier,  // text: as written, "" unescaped
  kString,            // text: the content
  kInteger,
  kFloat,  // also NaN, Infinity, -NaN, -Infinity
  kUuid,
  kHex,
  kDuration,  // text: as written: 1h30m, -2d, 12mo, P1DT2H, P3W (Cassandra's DURATION token)
  kSymbol,    // text: ( ) [ ] { } , ; . * = < > <= >= != : + - ?
  kError,     // text: what is wrong (an unterminated string, a character CQL does not use)
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::string_view source;  // the token as written in the script
  SourceLocation where;
};

// Positions of byte offsets in a script: line and column (1-based; columns count bytes).
SourceLocation LocationAt(std::string_view script, size_t offset);

// All tokens of the script, ending with one kEnd token. A lexical error (an unterminated string
// or comment, a character CQL does not use) becomes a kError token in its place, so the
// statements around it still parse.
std::vector<Token> Lex(std::string_view script);

class Lexer;

// Lexes a script one statement at a time (so a script of a million INSERTs never holds all its
// tokens at once): each call gives the tokens up to and including the next top-level ';', or up
// to the final kEnd token.
class StatementLexer {
 public:
  explicit StatementLexer(std::string_view script);
  ~StatementLexer();
  // False once the whole script has been returned.
  bool Next(std::vector<Token>& tokens);

 private:
  std::unique_ptr<Lexer> lexer_;
  bool done_ = false;
  std::optional<Token> pending_;  // the first token after a cqlsh command ended by its line
};

// How a token reads in an error message: its source text, or "<EOF>".
std::string TokenDisplay(const Token& token);

}  // namespace partplay::cql
