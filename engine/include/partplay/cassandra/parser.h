// The CQL parser: a script is split at its top-level ';' (a BEGIN BATCH ... APPLY BATCH is one
// statement across the ';' inside it) and each statement parsed on its own, so
// one statement's syntax error does not stop the others. Errors name the line, the column and
// the offending token, in ANTLR's (Cassandra's) wording:
//
//   mismatched input 'WHERE' expecting FROM
//   no viable alternative at input 'x'
//
//   std::vector<StatusOr<Statement>> script = ParseScript("USE ks; SELECT * FROM t;");
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/lexer.h"
#include "partplay/core/status.h"

namespace partplay::cql {

// Reads a script's statements one by one (lexing each only when it is reached).
class StatementReader {
 public:
  explicit StatementReader(std::string_view script);
  // The next statement or its syntax error; nullopt at the end of the script.
  std::optional<StatusOr<Statement>> Next();
  // The bytes of the statement Next returned, [begin, end): its first token to the end of its
  // last one before ';' (a batch's spans the ';' between its statements).
  int64_t extent_begin() const { return extent_begin_; }
  int64_t extent_end() const { return extent_end_; }

 private:
  int64_t extent_begin_ = -1;
  int64_t extent_end_ = -1;
  std::string_view script_;
  StatementLexer lexer_;
  std::vector<Token> tokens_;
};

// One entry per statement (empty statements skipped). Statements refer to the script's bytes
// (Statement::text), which must outlive them.
std::vector<StatusOr<Statement>> ParseScript(std::string_view script);

// Exactly one statement (an optional trailing ';').
StatusOr<Statement> ParseStatement(std::string_view text);

// Parses a CQL type ("map<text, frozen<list<int>>>"), e.g. for the CLI's --types.
StatusOr<CqlType> ParseType(std::string_view text);

// Parses one CQL literal ("'hello'", "42", "[1, 2]", "now()").
StatusOr<Literal> ParseLiteral(std::string_view text);

}  // namespace partplay::cql
