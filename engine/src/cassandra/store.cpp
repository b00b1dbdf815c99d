#include "partplay/cassandra/store.h"

#include "partplay/cassandra/token.h"

namespace partplay::cql {

bool ClusteringLess::operator()(const Clustering& a, const Clustering& b) const {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const ColumnSpec& c = schema->clustering_column(i);
    int cmp = Compare(c.type, a[i], b[i]);
    if (cmp != 0) return c.descending ? cmp > 0 : cmp < 0;
  }
  return a.size() < b.size();
}

bool Row::live() const {
  if (marker) return true;
  for (const Value& v : cells) {
    if (v) return true;
  }
  return false;
}

Partition::Partition(const TableSchema* schema)
    : statics(schema->statics.size()), rows(ClusteringLess{schema}) {}

bool Partition::has_static() const {
  // Static rows carry no liveness marker: with every static column null, nothing is left.
  for (const Value& v : statics) {
    if (v) return true;
  }
  return false;
}

Value CellValue(const ColumnSpec& column, const Partition& p, const Clustering* clustering,
                const Row* row) {
  size_t pos = static_cast<size_t>(column.position);
  switch (column.kind) {
    case ColumnKind::kPartitionKey:
      return p.key[pos];
    case ColumnKind::kClustering:
      return clustering ? Value((*clustering)[pos]) : Value();
    case ColumnKind::kStatic:
      return p.statics[pos];
    case ColumnKind::kRegular:
      return row ? row->cells[pos] : Value();
  }
  return Value();
}

Table::Table(TableSchema schema) : schema_(std::make_unique<TableSchema>(std::move(schema))) {}

PartitionKey Table::KeyOf(const std::vector<Bytes>& components) {
  PartitionKey k;
  k.key = PartitionKeyBytes(components);
  k.token = Murmur3Token(k.key);
  return k;
}

Partition& Table::Upsert(const std::vector<Bytes>& components) {
  PartitionKey k = KeyOf(components);
  Touch(k);
  if (journaling_) Save(k);
  auto it = partitions_.find(k);
  if (it != partitions_.end()) return it->second;
  auto [inserted, ok] = partitions_.emplace(std::move(k), Partition(schema_.get()));
  Partition& p = inserted->second;
  p.key = components;
  for (const Bytes& c : components) p.key_bytes += static_cast<int64_t>(c.size());
  return p;
}

Partition* Table::Find(const PartitionKey& key) {
  if (journaling_) Save(key);  // a writer finds its partition here or through Upsert
  auto it = partitions_.find(key);
  return it == partitions_.end() ? nullptr : &it->second;
}

const Partition* Table::Find(const PartitionKey& key) const {
  auto it = partitions_.find(key);
  return it == partitions_.end() ? nullptr : &it->second;
}

int64_t Table::RowBytes(const Clustering& c, const Row& r) const {
  int64_t n = 0;
  for (const Bytes& b : c) n += static_cast<int64_t>(b.size());
  for (const Value& v : r.cells) {
    if (v) n += static_cast<int64_t>(v->size());
  }
  return n;
}

void Table::WriteRow(Partition& p, const Clustering& clustering, const std::vector<int>& columns,
                     const std::vector<Value>& values, bool marker, int32_t ttl) {
  Touch(p);
  auto [it, created] = p.rows.try_emplace(clustering);
  Row& row = it->second;
  if (created) {
    row.cells.resize(schema_->regular.size());
    ++row_count_;
  } else {
    p.row_bytes -= RowBytes(clustering, row);
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    row.cells[static_cast<size_t>(schema_->columns[static_cast<size_t>(columns[i])].position)] =
        same_timestamp_ ? Reconcile(p, &clustering, columns[i], values[i]) : values[i];
  }
  row.marker = row.marker || marker;
  if (ttl > 0 || marker) row.ttl = ttl;
  if (!row.live()) {
    p.rows.erase(it);
    --row_count_;
    return;
  }
  p.row_bytes += RowBytes(clustering, row);
}

void Table::WriteStatics(Partition& p, const std::vector<int>& columns,
                         const std::vector<Value>& values) {
  Touch(p);
  for (size_t i = 0; i < columns.size(); ++i) {
    size_t slot = static_cast<size_t>(schema_->columns[static_cast<size_t>(columns[i])].position);
    if (p.statics[slot]) p.static_bytes -= static_cast<int64_t>(p.statics[slot]->size());
    p.statics[slot] = same_timestamp_ ? Reconcile(p, nullptr, columns[i], values[i]) : values[i];
    if (p.statics[slot]) p.static_bytes += static_cast<int64_t>(p.statics[slot]->size());
  }
}

void Table::Reaccount(Partition& p, const Clustering& clustering, const Row& before,
                      const Row& after) {
  Touch(p);
  p.row_bytes += RowBytes(clustering, after) - RowBytes(clustering, before);
}

void Table::EraseRow(Partition& p, std::map<Clustering, Row, ClusteringLess>::iterator row) {
  Touch(p);
  p.row_bytes -= RowBytes(row->first, row->second);
  p.rows.erase(row);
  --row_count_;
}

void Table::DropIfDead(const PartitionKey& key) {
  auto it = partitions_.find(key);
  if (it != partitions_.end() && !it->second.live()) partitions_.erase(it);
}

void Table::ErasePartition(const PartitionKey& key) {
  Touch(key);
  auto it = partitions_.find(key);
  if (it == partitions_.end()) return;
  row_count_ -= static_cast<int64_t>(it->second.rows.size());
  partitions_.erase(it);
}

std::unique_ptr<Table> Table::CopyOf(const std::vector<PartitionKey>& keys) const {
  auto out = std::make_unique<Table>(*schema_);
  for (const PartitionKey& k : keys) {
    auto it = partitions_.find(k);
    if (it == partitions_.end()) continue;
    Partition copy = it->second;
    copy.rows = std::map<Clustering, Row, ClusteringLess>(it->second.rows.begin(),
                                                          it->second.rows.end(),
                                                          ClusteringLess{out->schema_.get()});
    out->row_count_ += static_cast<int64_t>(copy.rows.size());
    out->partitions_.emplace(k, std::move(copy));
  }
  return out;
}

void Table::Save(const PartitionKey& key) {
  if (journal_.count(key)) return;
  auto it = partitions_.find(key);
  journal_.emplace(key, it == partitions_.end() ? std::nullopt
                                                : std::optional<Partition>(it->second));
}

void Table::BeginJournal() {
  journal_.clear();
  journal_row_count_ = row_count_;
  journaling_ = true;
}

void Table::Rollback() {
  for (auto& [key, saved] : journal_) {
    auto it = partitions_.find(key);
    if (!saved) {
      if (it != partitions_.end()) partitions_.erase(it);
    } else if (it != partitions_.end()) {
      it->second = std::move(*saved);
    } else {
      partitions_.emplace(key, std::move(*saved));
    }
  }
  row_count_ = journal_row_count_;
  EndJournal();
}

std::vector<PartitionKey> Table::JournalKeys() const {
  std::vector<PartitionKey> out;
  out.reserve(journal_.size());
  for (const auto& [key, saved] : journal_) out.push_back(key);
  return out;
}

void Table::EndJournal() {
  journal_.clear();
  journaling_ = false;
}

const Value& Table::Reconcile(const Partition& p, const Clustering* clustering, int column,
                              const Value& value) {
  const CqlType& type = schema_->columns[static_cast<size_t>(column)].type;
  if (type.kind == TypeKind::kCounter || type.is_multi_cell()) return value;
  auto key = std::make_tuple(p.key, clustering == nullptr,
                             clustering ? *clustering : Clustering{}, column);
  auto [it, first] = batch_cells_.try_emplace(std::move(key), value);
  if (first) return it->second;
  Value& kept = it->second;
  // A tombstone wins over a value; of two values the greater, compared as unsigned bytes.
  if (kept && (!value || std::string_view(*value) > std::string_view(*kept))) kept = value;
  return kept;
}

void Table::Clear() {
  if (track_writes_) {
    cleared_ = true;
    touched_.clear();
  }
  partitions_.clear();
  row_count_ = 0;
}

std::set<PartitionKey> Table::TakeTouched(bool& cleared) {
  cleared = cleared_;
  cleared_ = false;
  std::set<PartitionKey> out;
  out.swap(touched_);
  return out;
}

PartitionSize Table::SizeOf(const Partition& p) const {
  PartitionSize s;
  s.rows = static_cast<int64_t>(p.rows.size());
  const TableSchema& t = *schema_;
  int64_t per_row = static_cast<int64_t>(t.columns.size() - t.partition_key.size() -
                                         t.clustering.size() - t.statics.size());
  int64_t statics = static_cast<int64_t>(t.statics.size());
  s.cells = s.rows * per_row + statics;
  s.bytes = p.key_bytes + p.static_bytes + p.row_bytes + s.cells * 8;
  return s;
}

}  // namespace partplay::cql
