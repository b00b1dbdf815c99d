#include "partplay/cassandra/bulk_load.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "cassandra/json_doc.h"
#include "ingest/item_stream.h"
#include "partplay/cassandra/modify.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/json_writer.h"

namespace partplay::cql {

// The sink of the ingest stream: each framed item's simdjson document becomes a JsonNode
// (json_doc.h: numbers keep their text; INSERT JSON's rules then read them as Cassandra's
// Jackson does) and is inserted into the table.
class BulkLoad::Rows : public partplay::internal::ItemSink {
 public:
  Rows() : stream_(this) {}

  Status OnItem(simdjson::ondemand::document_reference doc,
                const partplay::internal::ItemContext& item) override {
    // Line and column are counted only for an error: counting them for every row would re-scan
    // the buffer up to each row (quadratic in the chunk size).
    auto located = [&](const Status& s) {
      return Status(s.code(), s.message(), stream_.Locate(item.byte_offset, item.index));
    };
    if (item.text.size() > kMaxRowJsonBytes) {
      return located(Status(ErrorCode::kItemTooLarge,
                            fmt::format("row {} is {} bytes of JSON; a row is at most {} bytes",
                                        item.index, item.text.size(), kMaxRowJsonBytes)));
    }
    internal::JsonNode object;
    std::string error;
    if (!internal::JsonNodeOf(doc, object, error)) {
      // Unlocated: the stream's strict checker names the exact byte.
      return Status(ErrorCode::kMalformedJson, error);
    }
    SourceLocation at;
    at.byte_offset = static_cast<int64_t>(item.byte_offset);
    at.item_index = item.index;
    Status inserted = InsertJsonObject(object, *table_, *generator_, at);
    if (!inserted.ok()) return located(inserted);
    ++rows_;
    return Status::Ok();
  }

  partplay::internal::ItemStream stream_;
  Table* table_ = nullptr;
  ValueGenerator* generator_ = nullptr;  // the session's: write timestamps
  int64_t rows_ = 0;
};

// A CSV load: the streaming reader and COPY FROM's row loader.
struct BulkLoad::CsvRows {
  CsvRows(const CsvLoadOptions& options, std::vector<int> columns)
      : reader(options.csv), loader(options, std::move(columns)) {}
  CsvReader reader;
  CsvRowLoader loader;
  Status error;  // the reader error that stopped the load
};

BulkLoad::BulkLoad(Session& session, std::string table)
    : session_(&session), table_(std::move(table)), rows_(std::make_unique<Rows>()) {}

BulkLoad::~BulkLoad() = default;

StatusOr<std::unique_ptr<BulkLoad>> BulkLoad::Start(Session& session,
                                                    std::string_view qualified_table,
                                                    const BulkLoadOptions& options) {
  PARTPLAY_ASSIGN_OR_RETURN(Table * table, session.FindTable(qualified_table));
  if (table->schema().is_view()) {
    return Status(ErrorCode::kCqlInvalidRequest, "Cannot directly modify a materialized view");
  }
  std::unique_ptr<BulkLoad> load(new BulkLoad(session, table->schema().QualifiedName()));
  if (options.format == BulkLoadOptions::Format::kCsv) {
    PARTPLAY_ASSIGN_OR_RETURN(std::vector<int> columns,
                              ResolveCsvColumns(table->schema(), options.csv.columns, {}));
    CsvLoadOptions csv = options.csv;
    // Like dsbulk: a header names the columns unless a column list is given.
    csv.columns_from_header = csv.header && csv.columns.empty();
    load->csv_ = std::make_unique<CsvRows>(csv, std::move(columns));
  }
  return StatusOr<std::unique_ptr<BulkLoad>>(std::move(load));
}

Status BulkLoad::Bind() {
  StatusOr<Table*> table = session_->FindTable(table_);
  if (!table.ok()) {
    return Status(table.status().code(), fmt::format("{} (the table was dropped during the load)",
                                                     table.status().message()));
  }
  rows_->table_ = table.value();
  rows_->generator_ = &session_->generator();
  return Status::Ok();
}

Status BulkLoad::Explain(Status s) const {
  if (s.ok() || !count_rows_in_errors_) return s;
  int64_t n = rows();
  std::string failed;
  if (csv_) {
    int64_t f = csv_->loader.failed();
    failed = fmt::format(", {} row{} failed", f, f == 1 ? "" : "s");
  }
  return Status(s.code(),
                fmt::format("{} ({} row{} loaded before it{})", s.message(), n,
                            n == 1 ? " was" : "s were", failed),
                s.where());
}

uint8_t* BulkLoad::WritableChunk(size_t n) {
  if (csv_) return csv_->reader.WritableChunk(n);
  uint8_t* at = rows_->stream_.WritableChunk(n);
  json_chunk_ = at;
  return at;
}

Status BulkLoad::LoadCsv() {
  if (!csv_->error.ok()) return csv_->error;
  Status s = csv_->loader.LoadAvailable(csv_->reader, *rows_->table_, session_->generator());
  session_->SyncViews(*rows_->table_);
  if (!s.ok()) csv_->error = Explain(std::move(s));
  return csv_->error;
}

Status BulkLoad::CommitChunk(size_t n) {
  PARTPLAY_RETURN_IF_ERROR(Bind());
  if (csv_) {
    if (csv_->error.ok()) csv_->reader.CommitChunk(n);
    return LoadCsv();
  }
  if (json_chunk_ != nullptr && n > 0) {
    json_lines_ += std::count(json_chunk_, json_chunk_ + n, static_cast<uint8_t>('\n'));
    json_line_open_ = json_chunk_[n - 1] != '\n';
  }
  json_chunk_ = nullptr;
  Status s = rows_->stream_.CommitChunk(n);
  session_->SyncViews(*rows_->table_);
  return Explain(std::move(s));
}

Status BulkLoad::Append(std::string_view bytes) {
  uint8_t* at = WritableChunk(bytes.size());
  if (at == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input");
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return CommitChunk(bytes.size());
}

Status BulkLoad::Finish() {
  PARTPLAY_RETURN_IF_ERROR(Bind());
  if (csv_) {
    csv_->reader.Finish();
    return LoadCsv();
  }
  if (json_line_open_) {
    ++json_lines_;
    json_line_open_ = false;
  }
  Status s = rows_->stream_.Finish();
  session_->SyncViews(*rows_->table_);
  return Explain(std::move(s));
}

int64_t BulkLoad::rows() const { return csv_ ? csv_->loader.rows() : rows_->rows_; }
uint64_t BulkLoad::bytes_consumed() const {
  return csv_ ? csv_->reader.bytes_consumed() : rows_->stream_.bytes_consumed();
}
int64_t BulkLoad::failed() const { return csv_ ? csv_->loader.failed() : 0; }
const std::vector<CsvLoadFailure>& BulkLoad::failures() const {
  static const std::vector<CsvLoadFailure> kNone;
  return csv_ ? csv_->loader.failures() : kNone;
}
int64_t BulkLoad::lines() const { return csv_ ? csv_->reader.lines_read() : json_lines_; }

std::string BulkLoadProgressJson(const BulkLoad& load) {
  std::string s = "{";
  JsonMembers m{s};
  m.Int("rows", load.rows());
  m.Int("failed", load.failed());
  m.UInt("bytes_consumed", load.bytes_consumed());
  m.Int("lines", load.lines());
  m.Raw("failures", JsonArray(load.failures(), [](const CsvLoadFailure& f, std::string& out) {
          out += '{';
          JsonMembers fm{out};
          fm.Int("line", f.where.line);
          fm.Int("column", f.where.column);
          fm.Int("byte_offset", f.where.byte_offset);
          fm.Str("message", f.message);
          out += '}';
        }));
  s += '}';
  return s;
}

}  // namespace partplay::cql
