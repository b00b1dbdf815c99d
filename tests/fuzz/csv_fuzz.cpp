// The CSV reader of COPY FROM (cassandra/csv.h), then COPY FROM itself: the input's first byte
// picks the delimiter, quote and escape characters; the rest is the file. Every field must be
// located inside the input, records must come out the same on a second read and through the
// resumable reader fed in chunks drawn from a seed (the first byte and the size), and a COPY of
// the same bytes into a table of many types must finish with a summary (rows loaded + failed)
// that the CSV bulk load fed in those chunks gives too, with the same listed failures.
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "partplay/cassandra/bulk_load.h"
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

  // The chunks: tiny ones (every boundary case) or larger, drawn from a seed.
  fuzz::Choices choices(static_cast<uint64_t>(pick) * 0x9E3779B97F4A7C15ull + size);
  std::vector<size_t> cuts;
  uint64_t most = choices.Between(0, 1) ? 4 : 64;
  for (size_t at = choices.Between(0, most); at < input.size(); at += choices.Between(1, most)) {
    cuts.push_back(at);
  }
  // The located records of the one-shot reader and of the resumable one fed at `cuts`.
  auto describe = [](const std::vector<cql::CsvField>& fields) {
    std::string out;
    for (const cql::CsvField& f : fields) {
      out += fmt::format("{}:{}@{}{}[{}]", f.where.line, f.where.column, f.where.byte_offset,
                         f.quoted ? "q" : "", f.text);
    }
    return out;
  };
  std::vector<std::string> whole, pieces;
  Status whole_status, pieces_status;
  {
    cql::CsvReader reader(input, options);
    std::vector<cql::CsvField> fields;
    while (true) {
      StatusOr<bool> more = reader.Next(fields);
      if (!more.ok()) whole_status = more.status();
      if (!more.ok() || !more.value()) break;
      whole.push_back(describe(fields));
    }
  }
  {
    cql::CsvReader reader(options);
    std::vector<cql::CsvField> fields;
    size_t at = 0;
    for (size_t i = 0; i <= cuts.size() && pieces_status.ok(); ++i) {
      size_t end = i < cuts.size() ? cuts[i] : input.size();
      reader.Append(input.substr(at, end - at));
      at = end;
      if (i == cuts.size()) reader.Finish();
      while (true) {
        StatusOr<cql::CsvReader::Step> step = reader.Read(fields);
        if (!step.ok()) pieces_status = step.status();
        if (!step.ok() || step.value() != cql::CsvReader::Step::kRecord) {
          fuzz::Check(
              !step.ok() || step.value() != cql::CsvReader::Step::kNeedMore || i < cuts.size(),
              "a finished input never needs more");
          break;
        }
        pieces.push_back(describe(fields));
      }
    }
  }
  fuzz::Check(fuzz::SameStatus(whole_status, pieces_status) && whole == pieces,
              "the resumable reader fed in chunks reads the one-shot reader's records");

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
  // The escape too: COPY's default ('\\') is not the reader's when the escape is the quote.
  script += "' AND ESCAPE = '";
  script += options.escape == '\'' ? std::string("''") : std::string(1, options.escape);
  script += "' AND HEADER = false;";
  std::vector<cql::StatementResult> results = session.Execute(script);
  fuzz::Check(!results.empty() && results.back().verb == "COPY", "COPY runs");

  // The CSV bulk load of the same bytes in the chunks: COPY's summary and listed failures.
  cql::BulkLoadOptions load_options;
  load_options.format = cql::BulkLoadOptions::Format::kCsv;
  load_options.csv.csv = options;
  load_options.csv.columns = {"k", "c", "ts", "b", "l", "m", "u", "tu", "d"};
  session.Execute("TRUNCATE t;");
  StatusOr<std::unique_ptr<cql::BulkLoad>> started =
      cql::BulkLoad::Start(session, "ks.t", load_options);
  fuzz::Check(started.ok(), "the CSV bulk load starts");
  cql::BulkLoad& load = *started.value();
  Status loaded;
  size_t at = 0;
  for (size_t i = 0; i <= cuts.size() && loaded.ok(); ++i) {
    size_t end = i < cuts.size() ? cuts[i] : input.size();
    loaded = load.Append(input.substr(at, end - at));
    at = end;
  }
  if (loaded.ok()) loaded = load.Finish();
  if (results.back().kind == cql::StatementResult::Kind::kVoid) {
    std::string summary =
        fmt::format("{} row{} imported from f.csv into ks.t; {} row{} failed", load.rows(),
                    load.rows() == 1 ? "" : "s", load.failed(), load.failed() == 1 ? "" : "s");
    fuzz::Check(summary == results.back().message, "the bulk load counts what COPY counts",
                summary + " / " + results.back().message);
    for (size_t i = 0; i < load.failures().size(); ++i) {
      const cql::CsvLoadFailure& f = load.failures()[i];
      fuzz::Check(
          i < results.back().warnings.size() &&
              results.back().warnings[i] == fmt::format("f.csv line {}, column {}: {}",
                                                        f.where.line, f.where.column, f.message),
          "the bulk load lists COPY's failures",
          fmt::format("load: line {}, column {}: {} / COPY: {}", f.where.line, f.where.column,
                      f.message,
                      i < results.back().warnings.size() ? results.back().warnings[i] : "none"));
    }
    fuzz::Check(loaded.ok() == whole_status.ok(), "the bulk load stops where COPY stops");
  }
  return 0;
}
