// A table's rows, held the way Cassandra orders them: partitions in a map ordered by (token,
// partition key bytes), and inside each partition rows in a map ordered by the clustering columns
// (each column by its type's order, DESC columns reversed). Inserting is O(log n); nothing
// scans all rows to write one.
//
// Upsert semantics are Cassandra's: writing a primary key that exists overwrites the columns
// written; a row exists while it was INSERTed (a row marker) or has a non-null column; static
// columns live once per partition.
//
//   Table t(schema);
//   Partition& p = t.Upsert(key_components);
//   t.WriteRow(p, clustering, {column_index}, {value}, /*marker=*/true, /*ttl=*/0);
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "partplay/cassandra/cells.h"
#include "partplay/cassandra/clustering.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql {


struct ClusteringLess {
  const TableSchema* schema = nullptr;
  bool operator()(const Clustering& a, const Clustering& b) const;
};

// When a cell was written and until when it lives: Cassandra's cell timestamp (microseconds,
// USING TIMESTAMP or the session's write clock) and, for an expiring cell, its TTL and local
// deletion time (seconds since the epoch, an int as in Cassandra). A null value with a
// timestamp is a tombstone.
inline constexpr int64_t kNoTimestamp = INT64_MIN;
struct CellTime {
  int64_t timestamp = kNoTimestamp;
  int32_t ttl = 0;      // 0: none
  int32_t expires = 0;  // 0: never
};

// A row's cell times, one a cell, or none (Row::time then stands for them): one block holding
// the count first, 8 bytes in the row where a vector took 24.
class CellTimes {
 public:
  using value_type = CellTime;
  CellTimes() = default;
  CellTimes(const CellTimes& other) { CopyFrom(other); }
  CellTimes(CellTimes&& other) noexcept = default;
  CellTimes& operator=(const CellTimes& other) {
    if (this != &other) CopyFrom(other);
    return *this;
  }
  CellTimes& operator=(CellTimes&& other) noexcept = default;

  size_t size() const { return block_ ? static_cast<size_t>(block_[0].timestamp) : 0; }
  bool empty() const { return block_ == nullptr; }
  CellTime& operator[](size_t i) { return block_[1 + i]; }
  const CellTime& operator[](size_t i) const { return block_[1 + i]; }
  // `n` times, each none (n == 0: no block).
  void resize(size_t n) {
    block_.reset();
    if (n == 0) return;
    block_ = std::make_unique<CellTime[]>(n + 1);
    block_[0].timestamp = static_cast<int64_t>(n);
  }
  void clear() { block_.reset(); }
  void assign(const std::vector<CellTime>& times) {
    resize(times.size());
    for (size_t i = 0; i < times.size(); ++i) (*this)[i] = times[i];
  }

 private:
  void CopyFrom(const CellTimes& other) {
    resize(other.size());
    for (size_t i = 0; i < other.size(); ++i) (*this)[i] = other[i];
  }
  std::unique_ptr<CellTime[]> block_;  // [0].timestamp: the count
};

struct Row {
  Cells cells;               // regular columns, by ColumnSpec::position (one block: cells.h)
  bool marker = false;       // written by INSERT: the row exists even with every column null
  int32_t ttl = 0;           // the marker's TTL
  CellTime marker_time;
  // The cells' times: while `times` is empty (a row one write made, the common case: 16 bytes a
  // row instead of 16 a cell), every cell holding a value was written at `time` and the others
  // never were; a write that makes them differ (a later UPDATE, a null written) fills `times`.
  CellTime time;
  CellTimes times;

  bool live() const;
  CellTime TimeOf(size_t pos) const {
    if (!times.empty()) return times[pos];
    return cells.has(pos) ? time : CellTime();
  }
  void MaterializeTimes() {
    if (!times.empty()) return;
    times.resize(cells.size());
    for (size_t i = 0; i < cells.size(); ++i) times[i] = cells.has(i) ? time : CellTime();
  }
};

struct PartitionKey {
  int64_t token = 0;
  Bytes key;  // the serialized partition key
  friend bool operator<(const PartitionKey& a, const PartitionKey& b) {
    return a.token != b.token ? a.token < b.token : a.key < b.key;
  }
};

struct Partition {
  explicit Partition(const TableSchema* schema);

  std::vector<Bytes> key;      // the partition key components
  std::vector<Value> statics;  // static columns, by ColumnSpec::position
  std::vector<CellTime> static_times;
  std::map<Clustering, Row, ClusteringLess> rows;
  int64_t key_bytes = 0;
  int64_t static_bytes = 0;
  int64_t row_bytes = 0;  // clustering and regular values of every row

  bool has_static() const;
  bool live() const { return !rows.empty() || has_static(); }
};

// A column's value in a row of the partition: its key component, clustering value (null without
// a clustering), static value, or the row's cell (null without a row).
Value CellValue(const ColumnSpec& column, const Partition& p, const Clustering* clustering,
                const Row* row);

// Sizes per the partition sizing formulas (cassandra-partition-sizing.md): cells
// Nv = Nr (Nc - Npk - Ns) + Ns, and bytes St = partition key + static values + rows' clustering
// and regular values + Nv x 8 bytes of cell metadata.
struct PartitionSize {
  int64_t rows = 0;
  int64_t cells = 0;
  int64_t bytes = 0;
  int64_t tombstones = 0;  // written since the partition was created (never purged here)
};

// What deletions left in a partition: the partition deletion's and each deleted row's
// timestamp (a write at or before them is shadowed, as Cassandra's tombstones shadow it) and the
// tombstones written (partition, row, range and cell deletions, nulls written, expired cells).
struct Deletions {
  int64_t partition = kNoTimestamp;
  std::map<Clustering, int64_t, ClusteringLess> rows;
  int64_t tombstones = 0;
  explicit Deletions(const TableSchema* schema) : rows(ClusteringLess{schema}) {}
};

class Table {
 public:
  explicit Table(TableSchema schema);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const TableSchema& schema() const { return *schema_; }
  // For schema changes that keep the rows valid (indexes).
  TableSchema& mutable_schema() { return *schema_; }
  const std::map<PartitionKey, Partition>& partitions() const { return partitions_; }
  int64_t row_count() const { return row_count_; }

  // The partition of the given key components (created empty if absent); `key` is
  // KeyOf(key_components) when the caller has it already.
  Partition& Upsert(const std::vector<Bytes>& key_components);
  Partition& Upsert(const PartitionKey& key, const std::vector<Bytes>& key_components);
  Partition* Find(const PartitionKey& key);
  const Partition* Find(const PartitionKey& key) const;

  // Writes `values` into the regular `columns` (indexes into the schema's columns) of one row,
  // creating it if needed and erasing it if it no longer exists. Each cell keeps the value
  // Cassandra's reconciliation keeps (Cells.resolveRegular: the later timestamp; at the same one
  // a tombstone or expiring cell, then the later expiry, then the greater value); a write at or
  // before a deletion of its row or partition is shadowed. A null written is a tombstone.
  // `values` is taken by value: a caller done with its values moves them into the row's cells.
  void WriteRow(Partition& p, const Clustering& clustering, const std::vector<int>& columns,
                std::vector<Value> values, bool marker, const CellTime& time);
  // The same, the clustering moved into the row if the row is new (a caller done with it).
  void WriteRow(Partition& p, Clustering&& clustering, const std::vector<int>& columns,
                std::vector<Value> values, bool marker, const CellTime& time);
  // The same, `values` the caller's own (a load's, reused from row to row): read where the row
  // copies them (a new row written whole), moved from otherwise (left unspecified).
  void WriteRowFrom(Partition& p, Clustering&& clustering, const std::vector<int>& columns,
                    std::vector<Value>& values, bool marker, const CellTime& time);
  // Static rows have no liveness marker: a partition of static columns all null holds nothing.
  void WriteStatics(Partition& p, const std::vector<int>& columns, const std::vector<Value>& values,
                    const CellTime& time);
  // A row (or the static row) as it was, times included (ALTER TABLE's rebuild).
  void RestoreRow(Partition& p, const Clustering& clustering, const Row& row);
  void RestoreStatics(Partition& p, const std::vector<Value>& values,
                      const std::vector<CellTime>& times);
  // Removes rows that no longer exist and the partition if it became empty.
  void EraseRow(Partition& p, std::map<Clustering, Row, ClusteringLess>::iterator row);
  void DropIfDead(const PartitionKey& key);
  void ErasePartition(const PartitionKey& key);
  // DELETE of a row or a partition at `timestamp`: what was written at or before it goes, what
  // was written after it stays; a tombstone is counted (a range of rows counts one, as a range
  // tombstone: `count` false for the rows after the first).
  void DeleteRow(Partition& p, std::map<Clustering, Row, ClusteringLess>::iterator row,
                 int64_t timestamp, bool count = true);
  void DeletePartition(const PartitionKey& key, int64_t timestamp);
  // Expiring cells (and row markers) whose time has come at `now_seconds` become tombstones;
  // rows and partitions left with nothing go (the console's ADVANCE CLOCK).
  void Expire(int64_t now_seconds);
  const Deletions* DeletionsOf(const PartitionKey& key) const;
  void Clear();

  // Re-computes the byte accounting of a row after its cells changed in place.
  void Reaccount(Partition& p, const Clustering& clustering, const Row& before, const Row& after);

  PartitionSize SizeOf(const Partition& p) const;

  static PartitionKey KeyOf(const std::vector<Bytes>& components);
  // The same, written over `key` (its buffer reused: a load makes a key a row).
  static void KeyOf(const std::vector<Bytes>& components, PartitionKey& key);

  // While on, every partition written or deleted is remembered (for the table's materialized
  // views); TakeTouched hands them over and forgets them. `cleared`: TRUNCATE ran since.
  void set_track_writes(bool on) { track_writes_ = on; }
  bool track_writes() const { return track_writes_; }
  std::set<PartitionKey> TakeTouched(bool& cleared);

  // A table of the same schema holding copies of the given partitions (those that exist): where a
  // statement can run to be checked without touching this one.
  std::unique_ptr<Table> CopyOf(const std::vector<PartitionKey>& keys) const;

  // A journal of the partitions changed since BeginJournal (each saved whole before its first
  // change): Rollback puts them back as they were, so a statement or a batch that fails leaves
  // nothing of itself behind; EndJournal forgets them. TRUNCATE (Clear) is not journaled.
  void BeginJournal();
  void Rollback();
  void EndJournal();
  // The partitions changed (or looked up by a writer) since BeginJournal.
  std::vector<PartitionKey> JournalKeys() const;

  // While on, the writes are those of one batch, at one timestamp: a regular or static cell (not
  // a counter, not a non-frozen collection) written again keeps Cassandra's winner at equal
  // timestamps (Conflicts.resolveRegular: a tombstone, else the greater value, bytes compared
  // unsigned) instead of the last value written.
  void set_same_timestamp(bool on) {
    same_timestamp_ = on;
    batch_cells_.clear();
  }

 private:
  void Save(const PartitionKey& key);
  // WriteRow: `take`, when given, is `clustering` itself, movable into a new row.
  void Write(Partition& p, const Clustering& clustering, Clustering* take,
             const std::vector<int>& columns, std::vector<Value>& values, bool marker,
             const CellTime& time);
  // The value a batch's write leaves in a cell (see set_same_timestamp).
  const Value& Reconcile(const Partition& p, const Clustering* clustering, int column,
                         const Value& value);
  Deletions& DeletionsFor(const PartitionKey& key);
  // Removes a row's cells written at or before `timestamp`, and the row if nothing is left
  // (true then).
  bool ShadowRow(Partition& p, std::map<Clustering, Row, ClusteringLess>::iterator row,
                 int64_t timestamp);
  // Reconciles one cell with a write (see WriteRow); true if the write won.
  bool ReconcileCell(Value& value, CellTime& time, const Value& written,
                     const CellTime& write_time, int64_t shadow, const PartitionKey& key);
  bool journaling_ = false;
  std::map<PartitionKey, std::optional<Partition>> journal_;
  std::map<PartitionKey, std::optional<Deletions>> journal_deletions_;
  std::map<PartitionKey, Deletions> deletions_;
  int64_t journal_row_count_ = 0;
  bool same_timestamp_ = false;
  std::map<std::tuple<std::vector<Bytes>, bool, Clustering, int>, Value> batch_cells_;

  void Touch(const PartitionKey& key) {
    if (track_writes_) touched_.insert(key);
  }
  void Touch(const Partition& p) {
    if (track_writes_) touched_.insert(KeyOf(p.key));
  }
  bool track_writes_ = false;
  bool cleared_ = false;
  std::set<PartitionKey> touched_;
  int64_t RowBytes(const Clustering& c, const Row& r) const;
  // Every partition erased goes through here (its cache slot forgotten).
  void ErasePartitionAt(std::map<PartitionKey, Partition>::iterator it);
  std::unique_ptr<TableSchema> schema_;
  std::map<PartitionKey, Partition> partitions_;
  // Upsert's cache of the partitions it found, a slot per token's low bits: a load writing to
  // a few thousand partitions in turn (a time series) finds each by one key comparison instead
  // of a walk down the map. A map's nodes never move; an erased one is forgotten.
  static constexpr size_t kUpsertCacheSlots = 4096;
  std::unique_ptr<std::map<PartitionKey, Partition>::value_type*[]> upsert_cache_;
  int64_t row_count_ = 0;
};

}  // namespace partplay::cql
