// COPY t (c1, c2, ...) FROM 'file.csv' WITH HEADER = true AND DELIMITER = ',' ...: cqlsh's CSV
// load, with the options people use (HEADER, DELIMITER, QUOTE, ESCAPE, NULL, DATETIMEFORMAT).
// Values are read as cqlsh COPY TO and dsbulk unload write them: text as it is, collections,
// tuples and user-defined types as CQL literals, blobs as 0x..., timestamps as cqlsh's
// "2024-01-31 13:45:00.000000+0000" or ISO 8601, booleans in any case. A bad row is counted and
// listed with its line and column; the good rows are loaded.
#include <fmt/format.h>

#include <algorithm>

#include "partplay/cassandra/csv.h"
#include "partplay/cassandra/modify.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// One CSV field as a value of `type`.
StatusOr<Value> FieldValue(const ColumnSpec& c, const CsvField& f, ValueGenerator& gen) {
  if (c.type.is_collection() || c.type.is_composite()) {
    // cqlsh writes a CQL literal (['a', 'b'], {x: 1}); dsbulk writes JSON (["a","b"], {"x":1}).
    StatusOr<Literal> lit = ParseLiteral(f.text);
    StatusOr<Value> cql =
        lit.ok() ? LiteralToValue(c.type, lit.value(), c.name, gen) : StatusOr<Value>(lit.status());
    if (cql.ok()) return cql;
    StatusOr<Value> json = JsonTextToValue(c.type, f.text, c.name, f.where);
    if (json.ok()) return json;
    return cql.status();
  }
  std::string text = f.text;
  if (c.type.kind == TypeKind::kTimestamp) {
    // cqlsh writes microseconds (.678000); a timestamp holds milliseconds, as cqlsh reads it.
    size_t dot = text.find('.');
    if (dot != std::string::npos) {
      size_t end = dot + 1;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      if (end - dot - 1 > 3) text.erase(dot + 4, end - dot - 4);
    }
  }
  PARTPLAY_ASSIGN_OR_RETURN(Bytes b, ValueFromString(c.type, text, f.where));
  return Value(std::move(b));
}

}  // namespace

StatementResult Session::CopyFrom(const CopyStatement& s, StatementResult result) {
  auto fail = [&](Status status) {
    result.kind = StatementResult::Kind::kError;
    result.status = std::move(status);
    return result;
  };
  StatusOr<Table*> found = ResolveTable(s.table);
  if (!found.ok()) return fail(found.status());
  Table& table = *found.value();
  const TableSchema& t = table.schema();
  if (t.is_view())
    return fail(Invalid("Cannot directly modify a materialized view", s.table.where));
  CsvOptions csv;
  bool header = false;
  std::string null_text;
  std::vector<std::string> unknown;
  for (const Property& p : s.options) {
    const std::string& name = p.name.text;
    const std::string& v = p.value.text;
    auto one_char = [&](char& into) -> Status {
      if (v.size() != 1) {
        return Invalid(fmt::format("{} must be one character, not '{}'", name, v), p.value.where);
      }
      into = v[0];
      return Status::Ok();
    };
    Status ok;
    if (name == "header") {
      std::string b = Lower(v);
      if (b != "true" && b != "false") {
        return fail(Invalid(fmt::format("HEADER is true or false, not '{}'", v), p.value.where));
      }
      header = b == "true";
    } else if (name == "delimiter") {
      ok = one_char(csv.delimiter);
    } else if (name == "quote") {
      ok = one_char(csv.quote);
    } else if (name == "escape") {
      ok = one_char(csv.escape);
    } else if (name == "null") {
      null_text = v;
    } else if (name == "datetimeformat") {
      // Timestamps are read in cqlsh's default format and ISO 8601 whatever this says.
      if (v != "%Y-%m-%d %H:%M:%S.%f%z" && v != "%Y-%m-%d %H:%M:%S%z" &&
          v != "%Y-%m-%dT%H:%M:%S.%fZ" && v != "%Y-%m-%dT%H:%M:%SZ") {
        return fail(Invalid(fmt::format("DATETIMEFORMAT '{}' is not read by Partition "
                                        "Playground: timestamps are read in cqlsh's default "
                                        "format (%Y-%m-%d %H:%M:%S.%f%z) and ISO 8601",
                                        v),
                            p.value.where));
      }
    } else {
      unknown.push_back(name);
    }
    if (!ok.ok()) return fail(ok);
  }
  if (!unknown.empty()) {
    std::string names;
    for (const std::string& n : unknown) names += (names.empty() ? "" : ", ") + n;
    return fail(Invalid(fmt::format("Unrecognized COPY FROM options: {}", names), s.table.where));
  }
  std::vector<int> columns;
  if (s.columns.empty()) {
    columns = t.select_order;
  } else {
    for (const Name& n : s.columns) {
      int i = t.IndexOf(n.text);
      if (i < 0) {
        return fail(Status(ErrorCode::kCqlUnknown, "Undefined column name " + n.text, n.where));
      }
      columns.push_back(i);
    }
  }
  if (!options_.read_file) {
    return fail(
        Invalid("COPY FROM reads a file, which `partplay cql` does; on the page, load "
                "the CSV with the bulk load",
                s.file_where));
  }
  StatusOr<std::string> data = options_.read_file(s.file);
  if (!data.ok()) return fail(Status(data.status().code(), data.status().message(), s.file_where));
  CsvReader reader(data.value(), csv);
  std::vector<CsvField> fields;
  int64_t loaded = 0, failed = 0;
  std::vector<std::string> failures;
  auto failure = [&](const SourceLocation& at, const std::string& message) {
    ++failed;
    if (failures.size() < static_cast<size_t>(kCsvMaxListedFailures)) {
      failures.push_back(
          fmt::format("{} line {}, column {}: {}", s.file, at.line, at.column, message));
    }
  };
  bool first = true;
  while (true) {
    StatusOr<bool> more = reader.Next(fields);
    if (!more.ok()) {
      // The rest of the file cannot be split into records reliably: stop here, keep what loaded.
      failure(more.status().where(), more.status().message() + " (the load stopped here)");
      break;
    }
    if (!more.value()) break;
    if (first && header) {
      first = false;
      continue;
    }
    first = false;
    if (fields.size() == 1 && fields[0].text.empty() && !fields[0].quoted) continue;  // blank
    if (fields.size() != columns.size()) {
      failure(fields[0].where,
              fmt::format("{} fields for {} columns", fields.size(), columns.size()));
      continue;
    }
    std::vector<Value> values;
    bool ok = true;
    for (size_t i = 0; i < fields.size() && ok; ++i) {
      const ColumnSpec& c = t.columns[static_cast<size_t>(columns[i])];
      if (!fields[i].quoted && fields[i].text == null_text) {
        values.emplace_back();
        continue;
      }
      StatusOr<Value> v = FieldValue(c, fields[i], generator_);
      if (!v.ok()) {
        failure(fields[i].where, fmt::format("{}: {}", c.name, v.status().message()));
        ok = false;
        break;
      }
      values.push_back(std::move(v).value());
    }
    if (!ok) continue;
    Status inserted = InsertRow(table, columns, std::move(values), fields[0].where);
    if (!inserted.ok()) {
      failure(fields[0].where, inserted.message());
      continue;
    }
    ++loaded;
  }
  SyncViews(table);
  result.kind = StatementResult::Kind::kVoid;
  result.message = fmt::format("{} row{} imported from {} into {}; {} row{} failed", loaded,
                               loaded == 1 ? "" : "s", s.file, t.QualifiedName(), failed,
                               failed == 1 ? "" : "s");
  result.warnings = std::move(failures);
  if (failed > static_cast<int64_t>(result.warnings.size())) {
    result.warnings.push_back(fmt::format("... and {} more failed rows",
                                          failed - static_cast<int64_t>(kCsvMaxListedFailures)));
  }
  return result;
}

}  // namespace partplay::cql
