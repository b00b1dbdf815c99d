// CSV as cqlsh's COPY and dsbulk write it: fields separated by a delimiter (','), optionally in
// quotes ('"') with the quote doubled or escaped ('\') inside, records ending at a newline (LF or
// CRLF) outside quotes, so a quoted field may hold newlines. Every field knows where it starts
// (line and column, 1-based, columns in bytes) so a bad value is reported where it is; the
// reader's own errors (an unterminated quote, text after a closing quote, a field or record over
// the limits of core/limits.h) are located the same way.
//
//   CsvReader r(text, CsvOptions{});
//   std::vector<CsvField> record;
//   while (true) { StatusOr<bool> more = r.Next(record); if (!more.ok() || !*more) break; ... }
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cql {

struct CsvOptions {
  char delimiter = ',';
  char quote = '"';
  char escape = '\\';
};

struct CsvField {
  std::string text;     // unquoted and unescaped
  bool quoted = false;  // written in quotes ("" is an empty string, nothing is null)
  SourceLocation where;
};

class CsvReader {
 public:
  CsvReader(std::string_view data, CsvOptions options);
  // The next record into `fields`; false at the end of the data (a last empty line is no record).
  StatusOr<bool> Next(std::vector<CsvField>& fields);
  // The line the next record starts on.
  int64_t line() const { return line_; }

 private:
  SourceLocation Here() const;
  std::string_view data_;
  CsvOptions options_;
  size_t at_ = 0;
  int64_t line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace partplay::cql
