// The CSV reader of COPY FROM (cassandra/csv.h), then COPY FROM itself: the input's first byte
// picks the delimiter, quote and escape characters; the rest is the file. Every field must be
// located inside the input, records must come out the same on a second read, and a COPY of the
// same bytes into a table of many types must finish with a summary (rows loaded + failed).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "partplay/cassandra/csv.h"
#include "partplay/cassandra/session.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  if (size == 0) return 0;
  uint8_t pick = data[0];
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  cql::CsvOptions options;
  options.delimiter = ",;|\t"[pick & 3];
  options.quote = (pick & 4) ? '\'' : '"';
  options.escape = (pick & 8) ? options.quote : '\\';

  auto read_all = [&](std::vector<std::vector<std::string>>& records) -> Status {
    cql::CsvReader reader(input, options);
    std::vector<cql::CsvField> fields;
    while (true) {
      StatusOr<bool> more = reader.Next(fields);
      if (!more.ok()) return more.status();
      if (!more.value()) return Status::Ok();
      std::vector<std::string> texts;
      for (const cql::CsvField& f : fields) {
        fuzz::Check(f.where.byte_offset >= 0 && static_cast<size_t>(f.where.byte_offset) <= size,
                    "a field starts inside the input");
        fuzz::Check(f.where.line >= 1 && f.where.column >= 1, "a field has a line and column");
        texts.push_back(f.text);
      }
      records.push_back(std::move(texts));
    }
  };
  std::vector<std::vector<std::string>> first, second;
  Status a = read_all(first), b = read_all(second);
  fuzz::Check(fuzz::SameStatus(a, b) && first == second, "reading twice gives the same records");

  cql::SessionOptions session_options;
  session_options.now_millis = 1700000000000;
  session_options.read_file = [&](const std::string&) -> StatusOr<std::string> {
    return std::string(input);
  };
  cql::Session session(session_options);
  std::string script =
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
      "USE ks; CREATE TYPE p (x int, y text);"
      "CREATE TABLE t (k text, c int, ts timestamp, b blob, l list<int>, m map<text, int>, "
      "u frozen<p>, tu tuple<int, text>, d duration, PRIMARY KEY (k, c));"
      "COPY t (k, c, ts, b, l, m, u, tu, d) FROM 'f.csv' WITH DELIMITER = '";
  script += options.delimiter == '\'' ? std::string("''") : std::string(1, options.delimiter);
  script += "' AND QUOTE = '";
  script += options.quote == '\'' ? std::string("''") : std::string(1, options.quote);
  script += "' AND HEADER = false;";
  std::vector<cql::StatementResult> results = session.Execute(script);
  fuzz::Check(!results.empty() && results.back().verb == "COPY", "COPY runs");
  return 0;
}
