#include "partplay/cassandra/csv_load.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "partplay/cassandra/modify.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// One CSV field as a value of the column's type, into `out` (a text value written over its
// bytes: the loader's values are reused from record to record).
Status FieldValue(const ColumnSpec& c, const CsvField& f, ValueGenerator& gen, Value& out) {
  if (c.type.is_collection() || c.type.is_composite() || c.type.is_vector()) {
    // cqlsh writes a CQL literal (['a', 'b'], {x: 1}); dsbulk writes JSON (["a","b"], {"x":1}).
    StatusOr<Literal> lit = ParseLiteral(f.text);
    StatusOr<Value> cql =
        lit.ok() ? LiteralToValue(c.type, lit.value(), c.name, gen) : StatusOr<Value>(lit.status());
    if (cql.ok()) {
      out = std::move(cql).value();
      return Status::Ok();
    }
    StatusOr<Value> json = JsonTextToValue(c.type, f.text, c.name, f.where);
    if (json.ok()) {
      out = std::move(json).value();
      return Status::Ok();
    }
    return cql.status();
  }
  std::string_view text = f.text;
  std::string trimmed;  // a timestamp's text without its digits beyond milliseconds
  if (c.type.kind == TypeKind::kTimestamp) {
    // cqlsh writes microseconds (.678000); a timestamp holds milliseconds, as cqlsh reads it.
    size_t dot = text.find('.');
    if (dot != std::string::npos) {
      size_t end = dot + 1;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      if (end - dot - 1 > 3) {
        trimmed = std::string(text);
        trimmed.erase(dot + 4, end - dot - 4);
        text = trimmed;
      }
    }
  }
  return ValueFromStringInto(c.type, text, f.where, out);
}

}  // namespace

StatusOr<bool> SetCsvLoadOption(CsvLoadOptions& options, std::string_view name,
                                std::string_view value, const SourceLocation& where) {
  auto one_char = [&](char& into) -> StatusOr<bool> {
    if (value.size() != 1) {
      return Invalid(fmt::format("{} must be one character, not '{}'", name, value), where);
    }
    into = value[0];
    return true;
  };
  if (name == "header") {
    std::string b = Lower(value);
    if (b != "true" && b != "false") {
      return Invalid(fmt::format("HEADER is true or false, not '{}'", value), where);
    }
    options.header = b == "true";
    return true;
  }
  if (name == "delimiter") return one_char(options.csv.delimiter);
  if (name == "quote") return one_char(options.csv.quote);
  if (name == "escape") return one_char(options.csv.escape);
  if (name == "null") {
    options.null_text = std::string(value);
    return true;
  }
  if (name == "datetimeformat") {
    // Timestamps are read in cqlsh's default format and ISO 8601 whatever this says.
    if (value != "%Y-%m-%d %H:%M:%S.%f%z" && value != "%Y-%m-%d %H:%M:%S%z" &&
        value != "%Y-%m-%dT%H:%M:%S.%fZ" && value != "%Y-%m-%dT%H:%M:%SZ") {
      return Invalid(fmt::format("DATETIMEFORMAT '{}' is not read by Partition Playground: "
                                 "timestamps are read in cqlsh's default format "
                                 "(%Y-%m-%d %H:%M:%S.%f%z) and ISO 8601",
                                 value),
                     where);
    }
    return true;
  }
  return false;
}

StatusOr<std::vector<int>> ResolveCsvColumns(const TableSchema& table,
                                             const std::vector<std::string>& names,
                                             const std::vector<SourceLocation>& where) {
  if (names.empty()) return table.select_order;
  std::vector<int> columns;
  for (size_t i = 0; i < names.size(); ++i) {
    int index = table.IndexOf(names[i]);
    if (index < 0) {
      return Status(ErrorCode::kCqlUnknown, "Undefined column name " + names[i],
                    i < where.size() ? where[i] : SourceLocation{});
    }
    columns.push_back(index);
  }
  return columns;
}

CsvRowLoader::CsvRowLoader(const CsvLoadOptions& options, std::vector<int> columns)
    : options_(options), columns_(std::move(columns)), insert_(std::make_unique<InsertScratch>()) {}

CsvRowLoader::~CsvRowLoader() = default;

void CsvRowLoader::Fail(const SourceLocation& where, std::string message) {
  ++failed_;
  if (failures_.size() < static_cast<size_t>(kCsvMaxListedFailures)) {
    failures_.push_back(CsvLoadFailure{where, std::move(message)});
  }
}

Status CsvRowLoader::LoadAvailable(CsvReader& reader, Table& table, ValueGenerator& generator) {
  if (stopped_) return Status::Ok();
  for (int c : columns_) {
    if (c < 0 || static_cast<size_t>(c) >= table.schema().columns.size()) {
      // The table was dropped and created again with fewer columns between two chunks.
      return Status(ErrorCode::kCqlInvalidRequest, "the table changed during the load");
    }
  }
  while (true) {
    StatusOr<CsvReader::Step> step = reader.Read(fields_);
    if (!step.ok()) {
      // The rest of the input cannot be split into records reliably: stop here, keep what loaded.
      stopped_ = true;
      Fail(step.status().where(), step.status().message() + " (the load stopped here)");
      return step.status();
    }
    if (step.value() != CsvReader::Step::kRecord) return Status::Ok();
    LoadRecord(fields_, table, generator);
    if (stopped_) return stop_error_;
  }
}

Status CsvRowLoader::MapHeader(const std::vector<CsvField>& fields, const TableSchema& t) {
  std::vector<int> columns;
  for (const CsvField& f : fields) {
    int index = t.IndexOf(f.text);
    if (index < 0) {  // a column name written in another case (unless it needs quotes)
      for (size_t i = 0; i < t.columns.size() && index < 0; ++i) {
        const std::string& name = t.columns[i].name;
        if (name.size() == f.text.size() &&
            std::equal(name.begin(), name.end(), f.text.begin(), [](char a, char b) {
              return std::tolower(static_cast<unsigned char>(a)) ==
                     std::tolower(static_cast<unsigned char>(b));
            })) {
          index = static_cast<int>(i);
        }
      }
    }
    if (index < 0) {
      return Status(ErrorCode::kCqlUnknown,
                    fmt::format("the header names {}, which is not a column of {} (the header's "
                                "names map the fields to columns, as dsbulk maps them)",
                                f.text, t.QualifiedName()),
                    f.where);
    }
    if (std::find(columns.begin(), columns.end(), index) != columns.end()) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("the header names {} twice", f.text), f.where);
    }
    columns.push_back(index);
  }
  columns_ = std::move(columns);
  return Status::Ok();
}

void CsvRowLoader::LoadRecord(const std::vector<CsvField>& fields, Table& table,
                              ValueGenerator& generator) {
  bool first = first_;
  first_ = false;
  if (first && options_.header) {
    if (!options_.columns_from_header) return;
    Status mapped = MapHeader(fields, table.schema());
    if (!mapped.ok()) {
      Fail(mapped.where(), mapped.message() + " (the load stopped here)");
      stopped_ = true;
      stop_error_ = mapped;
    }
    return;
  }
  if (fields.size() == 1 && fields[0].text.empty() && !fields[0].quoted) return;  // blank line
  if (fields.size() != columns_.size()) {
    Fail(fields[0].where, fmt::format("{} fields for {} columns", fields.size(), columns_.size()));
    return;
  }
  const TableSchema& t = table.schema();
  std::vector<Value>& values = values_;
  values.resize(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    const ColumnSpec& c = t.columns[static_cast<size_t>(columns_[i])];
    if (!fields[i].quoted && fields[i].text == options_.null_text) {
      values[i].reset();
      continue;
    }
    Status v = FieldValue(c, fields[i], generator, values[i]);
    if (!v.ok()) {
      Fail(fields[i].where, fmt::format("{}: {}", c.name, v.message()));
      return;
    }
  }
  Status inserted = InsertRow(table, columns_, values, generator, fields[0].where, *insert_);
  if (!inserted.ok()) {
    Fail(fields[0].where, inserted.message());
    return;
  }
  ++rows_;
}

}  // namespace partplay::cql
