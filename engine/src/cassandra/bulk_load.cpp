#include "partplay/cassandra/bulk_load.h"

#include <fmt/format.h>

#include <cstring>

#include "cassandra/json_doc.h"
#include "ingest/item_stream.h"
#include "partplay/cassandra/modify.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {

// The sink of the ingest stream: each framed item's simdjson document becomes a JsonNode
// (json_doc.h: numbers keep every digit, so varint and decimal values lose nothing) and is
// inserted into the table.
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
    Status inserted = InsertJsonObject(object, *table_, at);
    if (!inserted.ok()) return located(inserted);
    ++rows_;
    return Status::Ok();
  }

  partplay::internal::ItemStream stream_;
  Table* table_ = nullptr;
  int64_t rows_ = 0;
};

BulkLoad::BulkLoad(Session& session, std::string table)
    : session_(&session), table_(std::move(table)), rows_(std::make_unique<Rows>()) {}

BulkLoad::~BulkLoad() = default;

StatusOr<std::unique_ptr<BulkLoad>> BulkLoad::Start(Session& session,
                                                    std::string_view qualified_table) {
  PARTPLAY_ASSIGN_OR_RETURN(Table * table, session.FindTable(qualified_table));
  if (table->schema().is_view()) {
    return Status(ErrorCode::kCqlInvalidRequest, "Cannot directly modify a materialized view");
  }
  return std::unique_ptr<BulkLoad>(new BulkLoad(session, table->schema().QualifiedName()));
}

Status BulkLoad::Bind() {
  StatusOr<Table*> table = session_->FindTable(table_);
  if (!table.ok()) {
    return Status(table.status().code(), fmt::format("{} (the table was dropped during the load)",
                                                     table.status().message()));
  }
  rows_->table_ = table.value();
  return Status::Ok();
}

Status BulkLoad::Explain(Status s) const {
  if (s.ok() || !count_rows_in_errors_) return s;
  int64_t n = rows_->rows_;
  return Status(
      s.code(),
      fmt::format("{} ({} row{} loaded before it)", s.message(), n, n == 1 ? " was" : "s were"),
      s.where());
}

uint8_t* BulkLoad::WritableChunk(size_t n) { return rows_->stream_.WritableChunk(n); }

Status BulkLoad::CommitChunk(size_t n) {
  PARTPLAY_RETURN_IF_ERROR(Bind());
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
  Status s = rows_->stream_.Finish();
  session_->SyncViews(*rows_->table_);
  return Explain(std::move(s));
}

int64_t BulkLoad::rows() const { return rows_->rows_; }
uint64_t BulkLoad::bytes_consumed() const { return rows_->stream_.bytes_consumed(); }

}  // namespace partplay::cql
