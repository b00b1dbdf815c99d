#include "partplay/cassandra/store.h"

#include <algorithm>

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

bool Row::live() const { return marker || cells.any(); }

Partition::Partition(const TableSchema* schema)
    : statics(schema->statics.size()),
      static_times(schema->statics.size()),
      rows(ClusteringLess{schema}) {}

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
  KeyOf(components, k);
  return k;
}

void Table::KeyOf(const std::vector<Bytes>& components, PartitionKey& key) {
  PartitionKeyBytesInto(components, key.key);
  key.token = Murmur3Token(key.key);
}

Partition& Table::Upsert(const std::vector<Bytes>& components) {
  return Upsert(KeyOf(components), components);
}

Partition& Table::Upsert(const PartitionKey& k, const std::vector<Bytes>& components) {
  Touch(k);
  if (journaling_) Save(k);
  if (upsert_cache_ == nullptr) {
    upsert_cache_ = std::make_unique<std::map<PartitionKey, Partition>::value_type*[]>(
        kUpsertCacheSlots);
  }
  auto*& slot = upsert_cache_[static_cast<uint64_t>(k.token) & (kUpsertCacheSlots - 1)];
  if (slot != nullptr && slot->first.token == k.token && slot->first.key == k.key) {
    return slot->second;
  }
  auto it = partitions_.lower_bound(k);
  if (it == partitions_.end() || k < it->first) {
    it = partitions_.emplace_hint(it, k, Partition(schema_.get()));
    Partition& p = it->second;
    p.key = components;
    for (const Bytes& c : components) p.key_bytes += static_cast<int64_t>(c.size());
  }
  slot = &*it;
  return it->second;
}

void Table::ErasePartitionAt(std::map<PartitionKey, Partition>::iterator it) {
  if (upsert_cache_ != nullptr) {
    auto*& slot = upsert_cache_[static_cast<uint64_t>(it->first.token) & (kUpsertCacheSlots - 1)];
    if (slot == &*it) slot = nullptr;
  }
  partitions_.erase(it);
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
  return n + static_cast<int64_t>(r.cells.value_bytes());
}

Deletions& Table::DeletionsFor(const PartitionKey& key) {
  auto it = deletions_.find(key);
  if (it == deletions_.end()) it = deletions_.emplace(key, Deletions(schema_.get())).first;
  return it->second;
}

const Deletions* Table::DeletionsOf(const PartitionKey& key) const {
  auto it = deletions_.find(key);
  return it == deletions_.end() ? nullptr : &it->second;
}

bool Table::ReconcileCell(Value& value, CellTime& time, const Value& written,
                          const CellTime& write_time, int64_t shadow, const PartitionKey& key) {
  if (write_time.timestamp != kNoTimestamp && write_time.timestamp <= shadow) return false;
  bool wins = true;
  if (time.timestamp != kNoTimestamp && write_time.timestamp != kNoTimestamp) {
    // Cells.resolveRegular.
    if (time.timestamp != write_time.timestamp) {
      wins = write_time.timestamp > time.timestamp;
    } else {
      bool old_dying = time.expires != 0 || !value;
      bool new_dying = write_time.expires != 0 || !written;
      if (old_dying || new_dying) {
        if (old_dying != new_dying) {
          return new_dying ? (value = written, time = write_time, true) : false;
        }
        bool old_tombstone = !value, new_tombstone = !written;
        if (old_tombstone != new_tombstone) {
          wins = new_tombstone;
          if (wins) {
            value = written;
            time = write_time;
          }
          return wins;
        }
        if (time.expires != write_time.expires) {
          wins = write_time.expires > time.expires;
          if (wins) {
            value = written;
            time = write_time;
          }
          return wins;
        }
      }
      std::string_view a = value ? std::string_view(*value) : std::string_view();
      std::string_view b = written ? std::string_view(*written) : std::string_view();
      wins = b > a;  // the greater value; on a tie they are the same cell
    }
  }
  if (!wins) return false;
  if (!written && write_time.timestamp != kNoTimestamp) ++DeletionsFor(key).tombstones;
  value = written;
  time = write_time;
  return true;
}

void Table::WriteRow(Partition& p, const Clustering& clustering, const std::vector<int>& columns,
                     std::vector<Value> values, bool marker, const CellTime& time) {
  Write(p, clustering, nullptr, columns, values, marker, time);
}

void Table::WriteRow(Partition& p, Clustering&& clustering, const std::vector<int>& columns,
                     std::vector<Value> values, bool marker, const CellTime& time) {
  Write(p, clustering, &clustering, columns, values, marker, time);
}

void Table::WriteRowFrom(Partition& p, Clustering&& clustering, const std::vector<int>& columns,
                         std::vector<Value>& values, bool marker, const CellTime& time) {
  Write(p, clustering, &clustering, columns, values, marker, time);
}

void Table::Write(Partition& p, const Clustering& clustering, Clustering* take,
                  const std::vector<int>& columns, std::vector<Value>& values, bool marker,
                  const CellTime& time) {
  Touch(p);
  // The partition's key, computed once and only when a deletion or a tombstone needs it (a
  // table without deletions, as a bulk load's, never does).
  std::optional<PartitionKey> key_of;
  auto key = [&]() -> const PartitionKey& {
    if (!key_of) key_of = KeyOf(p.key);
    return *key_of;
  };
  int64_t shadow = kNoTimestamp;
  if (const Deletions* d = deletions_.empty() ? nullptr : DeletionsOf(key())) {
    shadow = d->partition;
    auto row = d->rows.find(clustering);
    if (row != d->rows.end()) shadow = std::max(shadow, row->second);
  }
  if (time.timestamp != kNoTimestamp && time.timestamp <= shadow) return;  // shadowed whole
  // Hinted at the end: rows that arrive in clustering order (a time series, a COPY of cqlsh's
  // COPY TO, which writes each partition's rows in order) are placed without a search; any
  // other row costs a comparison or two more than an unhinted insert.
  const size_t rows_before = p.rows.size();
  // A new row takes `take`'s vector (`clustering` is then empty: the row's key is `ck`).
  auto it = take != nullptr ? p.rows.try_emplace(p.rows.end(), std::move(*take))
                            : p.rows.try_emplace(p.rows.end(), clustering);
  const bool created = p.rows.size() != rows_before;
  const Clustering& ck = it->first;
  Row& row = it->second;
  if (created) {
    ++row_count_;  // its cells are made below, in one block
  } else {
    p.row_bytes -= RowBytes(ck, row);
  }
  // A new row written whole at one time keeps one time for its cells.
  bool compact = created && !same_timestamp_ &&
                 std::all_of(values.begin(), values.end(), [](const Value& v) { return v.has_value(); });
  if (compact) {
    row.time = time;
    // Every regular column written, in slot order (an INSERT or a load naming the columns in
    // the table's order): the values are the cells as they are, one block built from them.
    bool in_order = columns.size() == schema_->regular.size();
    for (size_t i = 0; i < columns.size() && in_order; ++i) {
      in_order = schema_->columns[static_cast<size_t>(columns[i])].position == static_cast<int>(i);
    }
    if (in_order) {
      row.cells.assign(values);
    } else {
      std::vector<Value> cells(schema_->regular.size());
      for (size_t i = 0; i < columns.size(); ++i) {
        cells[static_cast<size_t>(schema_->columns[static_cast<size_t>(columns[i])].position)] =
            std::move(values[i]);
      }
      row.cells.assign(cells);
    }
  } else {
    if (created) row.cells = Cells(schema_->regular.size());
    row.MaterializeTimes();
  }
  for (size_t i = 0; i < columns.size() && !compact; ++i) {
    size_t pos = static_cast<size_t>(schema_->columns[static_cast<size_t>(columns[i])].position);
    const Value& v = same_timestamp_ ? Reconcile(p, &ck, columns[i], values[i]) : values[i];
    if (same_timestamp_) {  // a batch's own writes: decided above, at the batch's one timestamp
      if (row.times[pos].timestamp > time.timestamp) continue;  // written later, it stays
      if (!v) ++DeletionsFor(key()).tombstones;
      row.cells.set(pos, v);
      row.times[pos] = time;
    } else {
      Value cell = row.cells[pos];
      if (ReconcileCell(cell, row.times[pos], v, time, shadow, key())) row.cells.set(pos, cell);
    }
  }
  if (marker && (time.timestamp == kNoTimestamp || time.timestamp >= row.marker_time.timestamp)) {
    row.marker = true;
    row.ttl = time.ttl;
    row.marker_time = time;
  }
  if (!row.live()) {
    p.rows.erase(it);
    --row_count_;
    return;
  }
  p.row_bytes += RowBytes(ck, row);
}

void Table::WriteStatics(Partition& p, const std::vector<int>& columns,
                         const std::vector<Value>& values, const CellTime& time) {
  Touch(p);
  const PartitionKey key = KeyOf(p.key);
  const Deletions* d = DeletionsOf(key);
  const int64_t shadow = d != nullptr ? d->partition : kNoTimestamp;
  for (size_t i = 0; i < columns.size(); ++i) {
    size_t slot = static_cast<size_t>(schema_->columns[static_cast<size_t>(columns[i])].position);
    if (p.statics[slot]) p.static_bytes -= static_cast<int64_t>(p.statics[slot]->size());
    if (same_timestamp_) {
      if (p.static_times[slot].timestamp <= time.timestamp) {
        p.statics[slot] = Reconcile(p, nullptr, columns[i], values[i]);
        p.static_times[slot] = time;
      }
    } else {
      ReconcileCell(p.statics[slot], p.static_times[slot], values[i], time, shadow, key);
    }
    if (p.statics[slot]) p.static_bytes += static_cast<int64_t>(p.statics[slot]->size());
  }
}

void Table::RestoreRow(Partition& p, const Clustering& clustering, const Row& row) {
  Touch(p);
  if (!row.live()) return;
  auto [it, created] = p.rows.insert_or_assign(clustering, row);
  if (created) {
    ++row_count_;
  }
  p.row_bytes += RowBytes(clustering, it->second);
}

void Table::RestoreStatics(Partition& p, const std::vector<Value>& values,
                           const std::vector<CellTime>& times) {
  Touch(p);
  for (size_t i = 0; i < values.size() && i < p.statics.size(); ++i) {
    if (p.statics[i]) p.static_bytes -= static_cast<int64_t>(p.statics[i]->size());
    p.statics[i] = values[i];
    p.static_times[i] = i < times.size() ? times[i] : CellTime();
    if (p.statics[i]) p.static_bytes += static_cast<int64_t>(p.statics[i]->size());
  }
}

namespace {
// Nulls the cells written at or before `timestamp`; true if any value went.
bool ShadowCells(std::vector<Value>& cells, std::vector<CellTime>& times, int64_t timestamp) {
  bool any = false;
  for (size_t i = 0; i < cells.size() && i < times.size(); ++i) {
    if (cells[i] && times[i].timestamp <= timestamp) {
      cells[i].reset();
      times[i] = CellTime{timestamp, 0, 0};
      any = true;
    }
  }
  return any;
}
bool ShadowCells(Cells& cells, CellTimes& times, int64_t timestamp) {
  bool any = false;
  for (size_t i = 0; i < cells.size() && i < times.size(); ++i) {
    if (cells.has(i) && times[i].timestamp <= timestamp) {
      cells.reset(i);
      times[i] = CellTime{timestamp, 0, 0};
      any = true;
    }
  }
  return any;
}
}  // namespace

void Table::DeleteRow(Partition& p, std::map<Clustering, Row, ClusteringLess>::iterator row,
                      int64_t timestamp, bool count) {
  Touch(p);
  const PartitionKey key = KeyOf(p.key);
  Deletions& d = DeletionsFor(key);
  if (count) ++d.tombstones;
  int64_t& at = d.rows.try_emplace(row->first, kNoTimestamp).first->second;
  at = std::max(at, timestamp);
  ShadowRow(p, row, timestamp);
}

bool Table::ShadowRow(Partition& p, std::map<Clustering, Row, ClusteringLess>::iterator row,
                      int64_t timestamp) {
  Row& r = row->second;
  p.row_bytes -= RowBytes(row->first, r);
  r.MaterializeTimes();
  ShadowCells(r.cells, r.times, timestamp);
  if (r.marker && r.marker_time.timestamp <= timestamp) r.marker = false;
  if (!r.live()) {
    p.rows.erase(row);
    --row_count_;
    return true;
  }
  p.row_bytes += RowBytes(row->first, r);
  return false;
}

void Table::DeletePartition(const PartitionKey& key, int64_t timestamp) {
  Touch(key);
  if (journaling_) Save(key);
  Deletions& d = DeletionsFor(key);
  ++d.tombstones;
  d.partition = std::max(d.partition, timestamp);
  auto it = partitions_.find(key);
  if (it == partitions_.end()) return;
  Partition& p = it->second;
  for (auto row = p.rows.begin(); row != p.rows.end();) {
    auto next = std::next(row);
    ShadowRow(p, row, timestamp);
    row = next;
  }
  ShadowCells(p.statics, p.static_times, timestamp);
  p.static_bytes = 0;
  for (const Value& v : p.statics) p.static_bytes += v ? static_cast<int64_t>(v->size()) : 0;
  if (!p.live()) {
    row_count_ -= static_cast<int64_t>(p.rows.size());
    ErasePartitionAt(it);
  }
}

void Table::Expire(int64_t now) {
  for (auto it = partitions_.begin(); it != partitions_.end();) {
    Partition& p = it->second;
    int64_t expired = 0;
    auto expire = [&](std::vector<Value>& cells, std::vector<CellTime>& times) {
      for (size_t i = 0; i < cells.size() && i < times.size(); ++i) {
        if (cells[i] && times[i].expires != 0 && times[i].expires <= now) {
          cells[i].reset();  // an expired cell is a tombstone
          ++expired;
        }
      }
    };
    for (auto row = p.rows.begin(); row != p.rows.end();) {
      auto next = std::next(row);
      Row& r = row->second;
      p.row_bytes -= RowBytes(row->first, r);
      if (r.times.empty()) {  // one time for every cell: they expire together
        if (r.time.expires != 0 && r.time.expires <= now) {
          for (size_t i = 0; i < r.cells.size(); ++i) {
            if (r.cells.has(i)) ++expired;
          }
          r.cells = Cells(r.cells.size());
        }
      } else {
        for (size_t i = 0; i < r.cells.size() && i < r.times.size(); ++i) {
          if (r.cells.has(i) && r.times[i].expires != 0 && r.times[i].expires <= now) {
            r.cells.reset(i);  // an expired cell is a tombstone
            ++expired;
          }
        }
      }
      if (r.marker && r.marker_time.expires != 0 && r.marker_time.expires <= now) r.marker = false;
      if (!r.live()) {
        p.rows.erase(row);
        --row_count_;
      } else {
        p.row_bytes += RowBytes(row->first, r);
      }
      row = next;
    }
    expire(p.statics, p.static_times);
    p.static_bytes = 0;
    for (const Value& v : p.statics) p.static_bytes += v ? static_cast<int64_t>(v->size()) : 0;
    if (expired > 0) DeletionsFor(it->first).tombstones += expired;
    if (p.live()) {
      ++it;
    } else {
      ErasePartitionAt(it++);
    }
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
  if (it != partitions_.end() && !it->second.live()) ErasePartitionAt(it);
}

void Table::ErasePartition(const PartitionKey& key) {
  Touch(key);
  auto it = partitions_.find(key);
  if (it == partitions_.end()) return;
  row_count_ -= static_cast<int64_t>(it->second.rows.size());
  ErasePartitionAt(it);
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
  for (const PartitionKey& k : keys) {
    if (const Deletions* d = DeletionsOf(k)) {
      Deletions copy(out->schema_.get());
      copy.partition = d->partition;
      copy.tombstones = d->tombstones;
      for (const auto& [c, ts] : d->rows) copy.rows.emplace(c, ts);
      out->deletions_.emplace(k, std::move(copy));
    }
  }
  return out;
}

void Table::Save(const PartitionKey& key) {
  if (journal_.count(key)) return;
  auto it = partitions_.find(key);
  journal_.emplace(key, it == partitions_.end() ? std::nullopt
                                                : std::optional<Partition>(it->second));
  auto d = deletions_.find(key);
  journal_deletions_.emplace(key, d == deletions_.end() ? std::nullopt
                                                        : std::optional<Deletions>(d->second));
}

void Table::BeginJournal() {
  journal_.clear();
  journal_deletions_.clear();
  journal_row_count_ = row_count_;
  journaling_ = true;
}

void Table::Rollback() {
  for (auto& [key, saved] : journal_) {
    auto it = partitions_.find(key);
    if (!saved) {
      if (it != partitions_.end()) ErasePartitionAt(it);
    } else if (it != partitions_.end()) {
      it->second = std::move(*saved);
    } else {
      partitions_.emplace(key, std::move(*saved));
    }
  }
  for (auto& [key, saved] : journal_deletions_) {
    deletions_.erase(key);
    if (saved) deletions_.emplace(key, std::move(*saved));
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
  journal_deletions_.clear();
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
  upsert_cache_.reset();
  deletions_.clear();
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
  if (const Deletions* d = DeletionsOf(KeyOf(p.key))) s.tombstones = d->tombstones;
  return s;
}

}  // namespace partplay::cql
