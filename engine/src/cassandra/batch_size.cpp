// MeasureBatch (batch_size.h): the statements' updates rebuilt as Cassandra's PartitionUpdates
// (rows merged per table and partition key, a cell written twice counted once) and measured.
#include "partplay/cassandra/batch_size.h"

#include <map>
#include <string>
#include <utility>
#include <variant>

#include "cassandra/json_doc.h"
#include "cassandra/json_values.h"
#include "cassandra/restrictions.h"

namespace partplay::cql {
namespace {

using internal::ColumnRestriction;
using internal::Restrictions;

constexpr int64_t kCell = 8 + 4 + 4;        // timestamp, ttl, local deletion time (AbstractCell)
constexpr int64_t kLiveness = 8;            // LivenessInfo: its timestamp
constexpr int64_t kExpiringLiveness = 16;   // ExpiringLivenessInfo: + ttl, local expiration time
constexpr int64_t kDeletionTime = 8 + 4;    // DeletionTime: marked-for-delete-at, local time
constexpr int64_t kRowDeletion = kDeletionTime + 1;  // Row.Deletion: + its shadowable flag
constexpr int64_t kListPath = 16;           // a list element's timeuuid
constexpr int64_t kUdtFieldPath = 2;        // a UDT field's position, as a short
constexpr int64_t kCounterUpdateValue = 36;  // CounterContext.createUpdate: a header and 1 shard

struct Complex {
  std::map<Bytes, int64_t> cells;  // by path: the cell's size
};

struct RowUpdate {
  bool expiring = false;
  bool deleted = false;
  std::map<int, int64_t> simple;  // by column: the cell's size
  std::map<int, Complex> complex;

  int64_t Size(int64_t clustering_bytes) const {
    int64_t n = clustering_bytes + (expiring ? kExpiringLiveness : kLiveness) + kRowDeletion;
    if (deleted) return n;
    for (const auto& [c, size] : simple) n += size;
    for (const auto& [c, cx] : complex) {
      n += kDeletionTime;
      for (const auto& [path, size] : cx.cells) n += size;
    }
    return n;
  }
};

struct Update {
  RowUpdate statics;
  std::map<Clustering, RowUpdate> rows;
  int64_t range_bytes = 0;
  int ranges = 0;

  int64_t Size() const {
    int64_t n = statics.Size(0) + kLiveness;  // the deletion info's partition deletion timestamp
    if (ranges > 0) n += 4 + range_bytes;
    for (const auto& [c, row] : rows) {
      int64_t cb = 0;
      for (const Bytes& b : c) cb += static_cast<int64_t>(b.size());
      n += row.Size(cb);
    }
    return n;
  }
};

int64_t Bytes0(const Value& v) { return v ? static_cast<int64_t>(v->size()) : 0; }

// The cells of a whole value of a non-frozen collection or UDT column.
void AddElements(Complex& cx, const CqlType& type, const Value& v) {
  if (!v) return;
  if (type.kind == TypeKind::kUdt) {
    std::vector<Value> fields;
    if (!CompositeComponents(*v, fields)) return;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i]) cx.cells[Bytes(1, static_cast<char>(i))] = kCell + kUdtFieldPath + Bytes0(fields[i]);
    }
    return;
  }
  std::vector<std::string_view> items = CollectionElements(*v);
  if (type.kind == TypeKind::kMap) {
    for (size_t i = 0; i + 1 < items.size(); i += 2) {
      cx.cells[Bytes(items[i])] = kCell + static_cast<int64_t>(items[i].size() + items[i + 1].size());
    }
  } else if (type.kind == TypeKind::kSet) {
    for (std::string_view e : items) cx.cells[Bytes(e)] = kCell + static_cast<int64_t>(e.size());
  } else {
    // Each list element gets its own timeuuid path: distinct cells.
    for (std::string_view e : items) {
      cx.cells["list" + std::to_string(cx.cells.size())] =
          kCell + kListPath + static_cast<int64_t>(e.size());
    }
  }
}

// A whole column written (INSERT, UPDATE ... SET c = v).
void SetColumn(RowUpdate& row, const ColumnSpec& c, const Value& v) {
  if (c.type.is_multi_cell()) {
    Complex& cx = row.complex[c.position];
    cx.cells.clear();  // the complex deletion shadows what came before at this timestamp
    AddElements(cx, c.type, v);
  } else if (c.type.kind == TypeKind::kCounter) {
    row.simple[c.position] = kCell + kCounterUpdateValue;
  } else {
    row.simple[c.position] = kCell + Bytes0(v);
  }
}

class Measure {
 public:
  explicit Measure(ValueGenerator& gen) : gen_(gen) {}

  Update& UpdateOf(const Table& t, const std::vector<Bytes>& key) {
    return updates_[{&t, Table::KeyOf(key).key}];
  }

  RowUpdate& RowOf(Update& u, const ColumnSpec& c, const Clustering& clustering) {
    return c.kind == ColumnKind::kStatic ? u.statics : u.rows[clustering];
  }

  Status Insert(const InsertStatement& s, const Table& table) {
    const TableSchema& t = table.schema();
    internal::InsertValues in;
    if (s.json) {
      internal::JsonNode object;
      size_t pos = 0;
      std::string error;
      if (!internal::ParseJson(s.json_value.text, pos, object, error)) return Status::Ok();
      PARTPLAY_ASSIGN_OR_RETURN(in, internal::JsonInsertValues(t, object, s.default_unset,
                                                               s.json_value.where));
    } else {
      for (size_t i = 0; i < s.columns.size() && i < s.values.size(); ++i) {
        int index = t.IndexOf(s.columns[i].text);
        if (index < 0) continue;
        const ColumnSpec& c = t.columns[static_cast<size_t>(index)];
        PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(c.type, s.values[i], c.name, gen_));
        in.columns.push_back(index);
        in.values.push_back(std::move(v));
      }
    }
    std::vector<Bytes> key(t.partition_key.size());
    Clustering clustering(t.clustering.size());
    bool regular = false;
    for (size_t i = 0; i < in.columns.size(); ++i) {
      const ColumnSpec& c = t.columns[static_cast<size_t>(in.columns[i])];
      if (c.kind == ColumnKind::kPartitionKey && in.values[i]) key[c.position] = *in.values[i];
      if (c.kind == ColumnKind::kClustering && in.values[i]) clustering[c.position] = *in.values[i];
      regular |= c.kind == ColumnKind::kRegular;
    }
    bool ttl = t.default_ttl > 0;
    if (s.using_clause.ttl) {
      StatusOr<Value> v = LiteralToValue(CqlType::Native(TypeKind::kInt), *s.using_clause.ttl,
                                         "[ttl]", gen_);
      ttl = v.ok() && v.value() && DecodeSigned(*v.value()) > 0;
    }
    Update& u = UpdateOf(table, key);
    // Only static columns: no clustering row (InsertStatement writes the static row alone).
    bool statics_only = !regular && t.clustering.size() > 0 &&
                        std::none_of(in.columns.begin(), in.columns.end(), [&](int c) {
                          return t.columns[static_cast<size_t>(c)].kind == ColumnKind::kClustering;
                        });
    if (!statics_only) {
      RowUpdate& row = u.rows[clustering];
      row.expiring = row.expiring || ttl;
    }
    for (size_t i = 0; i < in.columns.size(); ++i) {
      const ColumnSpec& c = t.columns[static_cast<size_t>(in.columns[i])];
      if (c.is_primary_key()) continue;
      SetColumn(RowOf(u, c, clustering), c, in.values[i]);
    }
    return Status::Ok();
  }

  Status Update_(const UpdateStatement& s, const Table& table) {
    const TableSchema& t = table.schema();
    bool statics_only = true;
    for (const Assignment& a : s.assignments) {
      const ColumnSpec* c = t.Find(a.column.text);
      statics_only = statics_only && c != nullptr && c->kind == ColumnKind::kStatic;
    }
    PARTPLAY_ASSIGN_OR_RETURN(
        Restrictions r, internal::BuildRestrictions(t, s.where, internal::StatementKind::kUpdate,
                                                    false, statics_only, gen_, SourceLocation{}));
    std::vector<Clustering> clusterings = statics_only ? std::vector<Clustering>{Clustering{}}
                                                       : ClusteringKeys(r);
    for (const std::vector<Bytes>& key : internal::PartitionKeys(t, r)) {
      Update& u = UpdateOf(table, key);
      for (const Clustering& clustering : clusterings) {
        for (const Assignment& a : s.assignments) {
          const ColumnSpec* c = t.Find(a.column.text);
          if (c == nullptr) continue;
          PARTPLAY_RETURN_IF_ERROR(Assign(RowOf(u, *c, clustering), *c, a));
        }
      }
    }
    return Status::Ok();
  }

  Status Assign(RowUpdate& row, const ColumnSpec& c, const Assignment& a) {
    using Op = Assignment::Op;
    const CqlType& type = c.type;
    if (a.op == Op::kSet || !type.is_multi_cell()) {
      if (type.kind == TypeKind::kCounter) {
        row.simple[c.position] = kCell + kCounterUpdateValue;
        return Status::Ok();
      }
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(type, a.value, c.name, gen_));
      SetColumn(row, c, v);
      return Status::Ok();
    }
    Complex& cx = row.complex[c.position];
    if (a.op == Op::kSetElement) {
      if (type.kind == TypeKind::kMap) {
        PARTPLAY_ASSIGN_OR_RETURN(Value k, LiteralToValue(type.element(), a.element, c.name, gen_));
        PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(type.value(), a.value, c.name, gen_));
        cx.cells[k.value_or(Bytes())] = kCell + Bytes0(k) + Bytes0(v);
      } else {
        PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(type.element(), a.value, c.name, gen_));
        cx.cells["index" + a.element.text] = kCell + kListPath + Bytes0(v);
      }
      return Status::Ok();
    }
    CqlType operand = type;
    if (type.kind == TypeKind::kMap && a.op == Op::kRemove) operand = CqlType::Set(type.element());
    PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(operand, a.value, c.name, gen_));
    if (a.op != Op::kRemove) {
      Complex added;
      AddElements(added, type, v);
      for (auto& [path, size] : added.cells) {
        cx.cells[type.kind == TypeKind::kList ? "list" + std::to_string(cx.cells.size()) : path] =
            size;
      }
      return Status::Ok();
    }
    // Removal: a tombstone per element (set), per key (map), per value given (list: an
    // approximation, Cassandra counts the matching elements it reads).
    if (v) {
      for (std::string_view e : CollectionElements(*v)) {
        int64_t path = type.kind == TypeKind::kList ? kListPath : static_cast<int64_t>(e.size());
        cx.cells["del" + std::string(e)] = kCell + path;
      }
    }
    return Status::Ok();
  }

  Status Delete(const DeleteStatement& s, const Table& table) {
    const TableSchema& t = table.schema();
    bool statics_only = !s.columns.empty();
    for (const Name& n : s.columns) {
      const ColumnSpec* c = t.Find(n.text);
      statics_only = statics_only && c != nullptr && c->kind == ColumnKind::kStatic;
    }
    PARTPLAY_ASSIGN_OR_RETURN(
        Restrictions r, internal::BuildRestrictions(t, s.where, internal::StatementKind::kDelete,
                                                    false, statics_only, gen_, SourceLocation{}));
    bool full = true;
    for (const ColumnRestriction& c : r.clustering) full = full && c.column >= 0 && c.is_eq_or_in();
    for (const std::vector<Bytes>& key : internal::PartitionKeys(t, r)) {
      Update& u = UpdateOf(table, key);
      if (s.columns.empty()) {
        if (!r.has_clustering()) continue;  // a partition deletion: the deletion info's 8 bytes
        if (full) {
          for (const Clustering& c : ClusteringKeys(r)) u.rows[c].deleted = true;
          continue;
        }
        // A range tombstone per prefix: its start and end bounds' values and 12 bytes.
        for (const Clustering& prefix : PrefixKeys(r)) {
          int64_t prefix_bytes = 0;
          for (const Bytes& b : prefix) prefix_bytes += static_cast<int64_t>(b.size());
          int64_t slice = 0;
          for (const ColumnRestriction& c : r.clustering) {
            if (c.column >= 0 && c.is_slice()) {
              if (c.lower) slice += static_cast<int64_t>(c.lower->value.size());
              if (c.upper) slice += static_cast<int64_t>(c.upper->value.size());
            }
          }
          u.range_bytes += 2 * prefix_bytes + slice + kDeletionTime;
          ++u.ranges;
        }
        continue;
      }
      std::vector<Clustering> clusterings =
          statics_only ? std::vector<Clustering>{Clustering{}} : ClusteringKeys(r);
      for (const Clustering& clustering : clusterings) {
        for (size_t i = 0; i < s.columns.size(); ++i) {
          const ColumnSpec* c = t.Find(s.columns[i].text);
          if (c == nullptr) continue;
          RowUpdate& row = RowOf(u, *c, clustering);
          const std::optional<Literal>& element =
              i < s.elements.size() ? s.elements[i] : std::optional<Literal>();
          if (!c->type.is_multi_cell()) {
            row.simple[c->position] = kCell;  // a tombstone
          } else if (!element) {
            row.complex[c->position].cells.clear();  // the complex deletion alone
          } else if (c->type.kind == TypeKind::kList) {
            row.complex[c->position].cells["index" + element->text] = kCell + kListPath;
          } else {
            PARTPLAY_ASSIGN_OR_RETURN(
                Value k, LiteralToValue(c->type.element(), *element, c->name, gen_));
            row.complex[c->position].cells[k.value_or(Bytes())] = kCell + Bytes0(k);
          }
        }
      }
    }
    return Status::Ok();
  }

  BatchDataSize Total() const {
    BatchDataSize out;
    for (const auto& [key, u] : updates_) out.bytes += u.Size();
    return out;
  }

 private:
  // Every clustering the = / IN restrictions name (a full clustering each, or none).
  static std::vector<Clustering> ClusteringKeys(const Restrictions& r) {
    std::vector<Clustering> keys = PrefixKeys(r);
    if (!keys.empty() && keys[0].size() != r.clustering.size()) return {};
    return keys;
  }
  // The = / IN prefix of the clustering columns (a range deletion's prefixes).
  static std::vector<Clustering> PrefixKeys(const Restrictions& r) {
    std::vector<Clustering> keys;
    for (const std::vector<Bytes>& k : internal::ClusteringPrefixes(r)) keys.emplace_back(k);
    return keys;
  }

  ValueGenerator& gen_;
  std::map<std::pair<const Table*, Bytes>, Update> updates_;
};

}  // namespace

StatusOr<BatchDataSize> MeasureBatch(const BatchStatement& batch, const std::vector<Table*>& tables,
                                     ValueGenerator& generator) {
  ValueGenerator gen = generator;  // re-reading now() or uuid() must not move the session's clock
  Measure m(gen);
  for (size_t i = 0; i < batch.statements.size() && i < tables.size(); ++i) {
    const Table& t = *tables[i];
    Status s = std::visit(
        [&](const auto& st) -> Status {
          using S = std::decay_t<decltype(st)>;
          if constexpr (std::is_same_v<S, InsertStatement>) {
            return m.Insert(st, t);
          } else if constexpr (std::is_same_v<S, UpdateStatement>) {
            return m.Update_(st, t);
          } else {
            return m.Delete(st, t);
          }
        },
        batch.statements[i].body);
    PARTPLAY_RETURN_IF_ERROR(s);
  }
  return m.Total();
}

}  // namespace partplay::cql
