// Test helpers for CQL sessions: a keyspace to start from, a script's last result (every earlier
// statement must succeed), a statement's error with its line and column, and rows as cqlsh
// prints them, bytes as hex.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "cqlsh_lines.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {

inline constexpr char kKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "USE ks;";

// Runs the script and returns its last result, checking every earlier statement succeeded.
inline StatementResult Last(Session& s, std::string_view script) {
  std::vector<StatementResult> r = s.Execute(script);
  for (size_t i = 0; i + 1 < r.size(); ++i) {
    EXPECT_NE(r[i].kind, StatementResult::Kind::kError)
        << r[i].statement << ": " << r[i].status.message();
  }
  return r.back();
}

// The error of the script's last statement, with its line and column.
struct Located {
  std::string message;
  int line = 0, column = 0;
};
inline Located ErrorAt(Session& s, std::string_view statement) {
  std::vector<StatementResult> r = s.Execute(statement);
  EXPECT_EQ(r.back().kind, StatementResult::Kind::kError) << statement;
  return {r.back().status.message(), static_cast<int>(r.back().status.where().line),
          static_cast<int>(r.back().status.where().column)};
}

// Bytes as lower-case hex.
inline std::string Hex(std::string_view b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (char c : b) {
    out += kDigits[static_cast<unsigned char>(c) >> 4];
    out += kDigits[static_cast<unsigned char>(c) & 15];
  }
  return out;
}

// The rows as cqlsh prints each value, one string per row ("a | b").
inline std::vector<std::string> Rows(const StatementResult& r) {
  EXPECT_EQ(r.kind, StatementResult::Kind::kRows) << r.status.message();
  return CqlshLines(r, " | ");
}

}  // namespace partplay::cql
