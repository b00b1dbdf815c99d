// The tokens of the Cosmos DB for NoSQL query language (query.h has the sources). Keywords are
// case-insensitive except the lower-case-only true, false, null, undefined and udf (the SDK's
// sql.g4 spells those with plain letters and the others with case fragments); identifiers are
// ASCII letters, digits and '_' not starting with a digit; numbers are decimal with an optional
// fraction and exponent, or 0x hex (query/constants); strings are single- or double-quoted with the
// escapes of query/constants; '--' starts a comment to the end of the line. RANK is a keyword of
// sql.g4 but not here: the parser reads it only as ORDER BY RANK, so a property may be c.rank.
// The service has no '/* */' comment: it answers SC1001 "incorrect syntax near '/'"
// (microsoft/vscode-cosmosdb issue 2414), and so does this lexer, which makes '/' and '*' two
// tokens there.
//
//   StatusOr<std::vector<QueryToken>> t = LexQuery("SELECT * FROM c -- all");
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cosmosql {

enum class TokenKind : uint8_t {
  kIdentifier,  // text: the name
  kKeyword,     // keyword
  kParameter,   // text: "@name"
  kNumber,      // number
  kString,      // text: the decoded string
  kSymbol,      // text: ( ) [ ] { } , . : ? ?? = != <> < <= << > >= >> >>> + - * / % | || & ^ ~
  kEnd,
};

enum class Keyword : uint8_t {
  kNone,
  kAnd,
  kArray,
  kAs,
  kAsc,
  kBetween,
  kBy,
  kDesc,
  kDistinct,
  kEscape,
  kExists,
  kFalse,
  kFrom,
  kGroup,
  kIn,
  kJoin,
  kLeft,
  kLike,
  kLimit,
  kNot,
  kNull,
  kOffset,
  kOr,
  kOrder,
  kRight,
  kSelect,
  kTop,
  kTrue,
  kUdf,
  kUndefined,
  kValue,
  kWhere,
};

struct QueryToken {
  TokenKind kind = TokenKind::kEnd;
  Keyword keyword = Keyword::kNone;
  std::string text;
  double number = 0;
  std::string_view source;  // as written
  SourceLocation where;
};

// The keyword `word` spells (any case, or lower case for the literal words), or kNone.
Keyword KeywordOf(std::string_view word);
// Whether `name` reads as one identifier token: [A-Za-z_][A-Za-z0-9_]* and no keyword.
bool IsPlainIdentifier(std::string_view name);

// Every token of `text` and a final kEnd, or the first lexical error (kQuerySyntax, located).
StatusOr<std::vector<QueryToken>> LexQuery(std::string_view text);

// The location of byte `offset` of `text`: line and column (1-based, columns in bytes).
SourceLocation LocationIn(std::string_view text, size_t offset);

}  // namespace partplay::cosmosql
