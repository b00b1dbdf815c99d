// Test helper: a rows result as one line per row, each value as cqlsh prints it, joined by `sep`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/session.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql {

inline std::vector<std::string> CqlshLines(const StatementResult& r, std::string_view sep) {
  std::vector<std::string> out;
  for (const std::vector<Value>& row : r.rows.rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) line += sep;
      line += FormatCqlshValue(r.rows.types[i], row[i]);
    }
    out.push_back(line);
  }
  return out;
}

}  // namespace partplay::cql
