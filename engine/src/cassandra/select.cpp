#include "partplay/cassandra/select.h"

#include <fmt/format.h>

#include <algorithm>

#include "cassandra/aggregates.h"
#include "cassandra/json_out.h"
#include "cassandra/restrictions.h"
#include "cassandra/write_time_selectors.h"
#include "partplay/cassandra/token.h"

namespace partplay::cql {
namespace {

using internal::ColumnRestriction;
using internal::Restrictions;

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

// One output column: a table column, the token of the partition, COUNT or another aggregate.
struct OutputColumn {
  enum class Kind : uint8_t { kColumn, kToken, kCount, kAggregate } kind = Kind::kColumn;
  int column = -1;  // kColumn; kCount of a column (-1 for COUNT(*)); kAggregate's argument
  std::vector<size_t> fields;  // the user type field indexes selected in turn
  internal::AggregateFn fn = internal::AggregateFn::kCount;  // kCount (of a column), kAggregate
  CqlType arg_type;                                          // kCount (of a column), kAggregate
  bool to_json = false;  // kColumn: toJson(), the value as JSON text of `arg_type`
  Selector::Time time = Selector::Time::kNone;  // kColumn: WRITETIME() or TTL() of the cell
};

// A plain column's output value: itself, or toJson()'s text of it.
Value Output(const OutputColumn& oc, Value v) {
  if (!oc.to_json) return v;
  return Value(internal::ToJsonText(oc.arg_type, v));
}

// The field a selection like addr.city reads out of the column's value: null when the value is
// null or was written before the field was added (ALTER TYPE ... ADD).
Value SelectFields(const std::vector<size_t>& fields, Value v) {
  for (size_t f : fields) {
    if (!v) return v;
    std::vector<Value> parts;
    if (!CompositeComponents(*v, parts) || f >= parts.size()) return Value();
    v = std::move(parts[f]);
  }
  return v;
}

StatusOr<int64_t> PositiveLimit(const Literal& lit, std::string_view receiver,
                                std::string_view what, ValueGenerator& gen) {
  PARTPLAY_ASSIGN_OR_RETURN(Value v,
                            LiteralToValue(CqlType::Native(TypeKind::kInt), lit, receiver, gen));
  if (!v) return Invalid(fmt::format("Invalid null value of {}", what), lit.where);
  int64_t n = DecodeSigned(*v);
  if (n <= 0) return Invalid(fmt::format("{} must be strictly positive", what), lit.where);
  return n;
}

class SelectRun {
 public:
  SelectRun(const SelectStatement& s, const Table& table, ValueGenerator& gen, SourceLocation where)
      : s_(s), table_(table), t_(table.schema()), gen_(gen), where_(where) {}

  StatusOr<ResultSet> Run(std::vector<std::string>* warnings, bool paged, SelectAccess* access) {
    PARTPLAY_RETURN_IF_ERROR(ResolveSelection());
    PARTPLAY_ASSIGN_OR_RETURN(
        r_, internal::BuildRestrictions(t_, s_.where, internal::StatementKind::kSelect,
                                        s_.allow_filtering, false, gen_, where_));
    PARTPLAY_RETURN_IF_ERROR(ResolveOrderingColumns());
    // SelectStatement.RawStatement.prepare, in its order: DISTINCT, aggregates, ORDER BY,
    // filtering.
    if (s_.distinct) {
      if (s_.per_partition_limit) {
        return Invalid("PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries",
                       s_.per_partition_limit->where);
      }
      PARTPLAY_RETURN_IF_ERROR(ValidateDistinct());
    }
    PARTPLAY_RETURN_IF_ERROR(ResolveGroupBy());
    if (aggregate_ && s_.group_by.empty() && s_.per_partition_limit) {
      return Invalid("PER PARTITION LIMIT is not allowed with aggregate queries.",
                     s_.per_partition_limit->where);
    }
    PARTPLAY_RETURN_IF_ERROR(ResolveOrdering());
    // checkNeedsFiltering: a scan restricted on clustering columns filters.
    if (!s_.allow_filtering && !r_.index_query && r_.key_range && r_.has_clustering()) {
      return Invalid(internal::kAllowFilteringMessage, where_);
    }
    if (s_.limit) {
      PARTPLAY_ASSIGN_OR_RETURN(limit_, PositiveLimit(*s_.limit, "[limit]", "LIMIT", gen_));
    }
    if (s_.per_partition_limit) {
      PARTPLAY_ASSIGN_OR_RETURN(per_partition_limit_,
                                PositiveLimit(*s_.per_partition_limit, "[per_partition_limit]",
                                              "PER PARTITION LIMIT", gen_));
    }
    if (!r_.key_range) keys_ = internal::PartitionKeys(t_, r_);
    // Found while building the read (getSliceCommands): the row filter's nulls, then empty keys.
    if (!r_.null_filter_column.empty() && (r_.key_range || !keys_.empty())) {
      return Invalid(fmt::format("Unsupported null value for column {}", r_.null_filter_column),
                     r_.null_filter_where);
    }
    if (t_.partition_key.size() == 1) {
      for (const std::vector<Bytes>& key : keys_) {
        if (key[0].empty()) return Invalid("Key may not be empty", where_);
      }
    }
    // A paging client (cqlsh, the drivers) gets this for every ORDER BY with IN on the partition
    // key: the rows must be sorted across partitions after the read, and Cassandra reads such a
    // query without its LIMIT, so it never fits a single page. (Unpaged, Cassandra sorts them.)
    if (!s_.order_by.empty() && r_.has_partition_in()) {
      if (paged) {
        return Invalid(
            "Cannot page queries with both ORDER BY and a IN restriction on the "
            "partition key; you must either remove the ORDER BY or the IN and sort "
            "client side, or disable paging for this query",
            where_);
      }
      sort_across_partitions_ = true;
    }
    if (access != nullptr) {
      access->scan = r_.key_range || r_.index_query;
      access->key_in = r_.has_partition_in();
      access->aggregate = grouped_;
      access->limit = sort_across_partitions_ ? std::nullopt : limit_;
      for (const std::vector<Bytes>& key : keys_) {
        access->tokens.push_back(Table::KeyOf(key).token);
      }
    }
    std::optional<int64_t> limit = limit_;
    if (sort_across_partitions_) limit_.reset();  // read whole, sorted, then trimmed
    Execute();
    if (sort_across_partitions_) SortAcrossPartitions(limit);
    if (warnings != nullptr) Warn(*warnings);
    if (s_.json) ToJsonRows();
    return std::move(out_);
  }

 private:
  Status ResolveSelection() {
    if (s_.star) {
      for (int i : t_.select_order) {
        outputs_.push_back({OutputColumn::Kind::kColumn, i, {}, internal::AggregateFn::kCount, {}});
        out_.columns.push_back(t_.columns[static_cast<size_t>(i)].name);
        out_.types.push_back(t_.columns[static_cast<size_t>(i)].type);
      }
    }
    for (const Selector& sel : s_.selectors) {
      std::string name;
      CqlType type = CqlType::Native(TypeKind::kBigint);
      OutputColumn oc;
      if (sel.kind == Selector::Kind::kColumn) {
        int i = t_.IndexOf(sel.columns[0].text);
        if (i < 0) {
          return Status(ErrorCode::kCqlUnknown, "Undefined column name " + sel.columns[0].text,
                        sel.columns[0].where);
        }
        oc = {OutputColumn::Kind::kColumn, i, {}, internal::AggregateFn::kCount, {}};
        name = sel.columns[0].text;
        type = t_.columns[static_cast<size_t>(i)].type;
        // Selectable.WithFieldSelection: each step on a user type, named "selected.field".
        for (const Name& field : sel.fields) {
          if (type.kind != TypeKind::kUdt) {
            return Invalid(fmt::format("Invalid field selection: {} of type {} is not a user type",
                                       name, type.ToCql()),
                           field.where);
          }
          size_t f = 0;
          while (f < type.field_names.size() && type.field_names[f] != field.text) ++f;
          if (f == type.field_names.size()) {
            return Invalid(
                fmt::format("{} of type {} has no field {}", name, type.ToCql(), field.text),
                field.where);
          }
          oc.fields.push_back(f);
          name += "." + field.text;
          CqlType next = type.params[f];
          type = std::move(next);
        }
        if (sel.time != Selector::Time::kNone) {
          const ColumnSpec& col = t_.columns[static_cast<size_t>(i)];
          const bool ttl = sel.time == Selector::Time::kTtl;
          PARTPLAY_RETURN_IF_ERROR(internal::CheckWriteTimeSelector(col, sel.time, sel.where));
          oc.time = sel.time;
          name = fmt::format("{}({})", ttl ? "ttl" : "writetime", col.name);
          type = CqlType::Native(ttl ? TypeKind::kInt : TypeKind::kBigint);
        }
        if (sel.to_json) {
          oc.to_json = true;
          oc.arg_type = type;
          name = "system.tojson(" + name + ")";
          type = CqlType::Native(TypeKind::kText);
        }
      } else if (sel.kind == Selector::Kind::kToken) {
        bool matches = sel.columns.size() == t_.partition_key.size();
        for (size_t k = 0; matches && k < sel.columns.size(); ++k) {
          matches = sel.columns[k].text == t_.partition_column(k).name;
        }
        for (const Name& n : sel.columns) {
          if (t_.IndexOf(n.text) < 0) {
            return Status(ErrorCode::kCqlUnknown, "Undefined column name " + n.text, n.where);
          }
        }
        if (!matches) {
          std::string pk;
          for (size_t k = 0; k < t_.partition_key.size(); ++k) {
            pk += (k ? ", " : "") + t_.partition_column(k).name;
          }
          return Invalid(fmt::format("The token() function takes the partition key columns in "
                                     "order: token({})",
                                     pk),
                         sel.where);
        }
        oc.kind = OutputColumn::Kind::kToken;
        name = "system.token(";
        for (size_t k = 0; k < sel.columns.size(); ++k)
          name += (k ? ", " : "") + sel.columns[k].text;
        name += ")";
      } else {
        // count(*), count(1), count(column), min/max/sum/avg(column): named system.f(column).
        aggregate_ = true;
        oc.kind = sel.kind == Selector::Kind::kCount ? OutputColumn::Kind::kCount
                                                     : OutputColumn::Kind::kAggregate;
        if (sel.kind == Selector::Kind::kAggregate) {
          internal::AggregateFnFromName(sel.function, oc.fn);
        }
        name = "count";
        if (!sel.columns.empty()) {
          int i = t_.IndexOf(sel.columns[0].text);
          if (i < 0) {
            return Status(ErrorCode::kCqlUnknown, "Undefined column name " + sel.columns[0].text,
                          sel.columns[0].where);
          }
          oc.column = i;
          std::string arg = sel.columns[0].text;
          CqlType arg_type = t_.columns[static_cast<size_t>(i)].type;
          for (const Name& field : sel.fields) {
            if (arg_type.kind != TypeKind::kUdt) {
              return Invalid(fmt::format("Invalid field selection: {} of type {} is not a user type",
                                         arg, arg_type.ToCql()),
                             field.where);
            }
            size_t f = 0;
            while (f < arg_type.field_names.size() && arg_type.field_names[f] != field.text) ++f;
            if (f == arg_type.field_names.size()) {
              return Invalid(fmt::format("{} of type {} has no field {}", arg, arg_type.ToCql(),
                                         field.text),
                             field.where);
            }
            oc.fields.push_back(f);
            arg += "." + field.text;
            CqlType next = arg_type.params[f];
            arg_type = std::move(next);
          }
          PARTPLAY_RETURN_IF_ERROR(internal::CheckAggregateArgument(oc.fn, arg_type, sel.where));
          oc.arg_type = arg_type;
          type = internal::AggregateResultType(oc.fn, arg_type);
          name = fmt::format("system.{}({})", internal::AggregateFnName(oc.fn), arg);
        }
        if (!sel.result_fields.empty()) {  // max(b).x: an aggregate's result is never a user type
          return Invalid(fmt::format("Invalid field selection: {} of type {} is not a user type",
                                     name, type.ToCql()),
                         sel.result_fields[0].where);
        }
      }
      outputs_.push_back(oc);
      out_.columns.push_back(sel.alias.empty() ? name : sel.alias);
      out_.types.push_back(type);
    }
    for (int pk : t_.partition_key) {
      out_.partition_key_names.push_back(t_.columns[static_cast<size_t>(pk)].name);
      out_.partition_key_types.push_back(t_.columns[static_cast<size_t>(pk)].type);
    }
    return Status::Ok();
  }

  // getAggregationSpecFactory: the GROUP BY columns follow the primary key's order from its first
  // column (skipping columns restricted by =), cover the whole partition key, and give the number
  // of clustering columns in the group key.
  Status ResolveGroupBy() {
    grouped_ = aggregate_ || !s_.group_by.empty();
    if (s_.group_by.empty()) return Status::Ok();
    group_by_ = true;
    std::vector<int> pk_columns = t_.partition_key;
    pk_columns.insert(pk_columns.end(), t_.clustering.begin(), t_.clustering.end());
    size_t next = 0;
    size_t prefix = 0;
    auto restricted_by_eq = [&](int column) {
      const ColumnSpec& c = t_.columns[static_cast<size_t>(column)];
      const std::vector<ColumnRestriction>& list =
          c.kind == ColumnKind::kPartitionKey ? r_.partition : r_.clustering;
      const ColumnRestriction& r = list[static_cast<size_t>(c.position)];
      return r.column >= 0 && r.has_eq;
    };
    constexpr std::string_view kOrder =
        "Group by currently only support groups of columns following their declared order in the "
        "PRIMARY KEY";
    for (const Name& g : s_.group_by) {
      const ColumnSpec* def = t_.Find(g.text);
      if (def == nullptr) {
        return Status(ErrorCode::kCqlUnknown, "Undefined column name " + g.text, g.where);
      }
      if (!def->is_primary_key()) {
        return Invalid(fmt::format("Group by is currently only supported on the columns of the "
                                   "PRIMARY KEY, got {}",
                                   g.text),
                       g.where);
      }
      while (true) {
        if (next >= pk_columns.size()) return Invalid(std::string(kOrder), g.where);
        int column = pk_columns[next++];
        if (t_.columns[static_cast<size_t>(column)].kind == ColumnKind::kClustering) ++prefix;
        if (&t_.columns[static_cast<size_t>(column)] == def) break;
        if (!restricted_by_eq(column)) return Invalid(std::string(kOrder), g.where);
      }
    }
    if (next < pk_columns.size() &&
        t_.columns[static_cast<size_t>(pk_columns[next])].kind == ColumnKind::kPartitionKey) {
      return Invalid("Group by is not supported on only a part of the partition key",
                     s_.group_by[0].where);
    }
    if (prefix > 0 && s_.distinct) {
      return Invalid("Grouping on clustering columns is not allowed for SELECT DISTINCT queries",
                     s_.group_by[0].where);
    }
    group_prefix_ = prefix;
    return Status::Ok();
  }

  // validateDistinctSelection: restrictions on the partition key and static columns only; the
  // selection of partition key and static columns; all of the partition key when scanning.
  Status ValidateDistinct() const {
    bool non_static = false;
    for (const ColumnRestriction& c : r_.others) {
      non_static =
          non_static || t_.columns[static_cast<size_t>(c.column)].kind != ColumnKind::kStatic;
    }
    if (r_.has_clustering() || non_static) {
      return Invalid(
          "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or "
          "static columns.",
          where_);
    }
    for (const OutputColumn& oc : outputs_) {
      if (oc.kind != OutputColumn::Kind::kColumn) continue;
      const ColumnSpec& c = t_.columns[static_cast<size_t>(oc.column)];
      if (c.kind != ColumnKind::kPartitionKey && c.kind != ColumnKind::kStatic) {
        return Invalid(fmt::format("SELECT DISTINCT queries must only request partition key "
                                   "columns and/or static columns (not {})",
                                   c.name),
                       where_);
      }
    }
    if (!r_.key_range) return Status::Ok();
    for (int pk : t_.partition_key) {
      bool found = false;
      for (const OutputColumn& oc : outputs_) {
        found = found || (oc.kind == OutputColumn::Kind::kColumn && oc.column == pk);
      }
      if (!found) {
        return Invalid(fmt::format("SELECT DISTINCT queries must request all the partition key "
                                   "columns (missing {})",
                                   t_.columns[static_cast<size_t>(pk)].name),
                       where_);
      }
    }
    return Status::Ok();
  }

  // getOrderingColumns: the ORDER BY names, resolved right after the WHERE clause.
  Status ResolveOrderingColumns() {
    for (const OrderingTerm& o : s_.order_by) {
      const ColumnSpec* c = t_.Find(o.column.text);
      if (c == nullptr) {
        return Status(ErrorCode::kCqlUnknown, "Undefined column name " + o.column.text,
                      o.column.where);
      }
      ordering_.push_back(c);
    }
    return Status::Ok();
  }

  // verifyOrderingIsAllowed and isReversed.
  Status ResolveOrdering() {
    if (s_.order_by.empty()) return Status::Ok();
    if (r_.key_range) {
      return Invalid(
          "ORDER BY is only supported when the partition key is restricted by an EQ "
          "or an IN.",
          s_.order_by[0].column.where);
    }
    std::vector<std::optional<bool>> reversed_at(t_.clustering.size());
    size_t next_position = 0;
    for (size_t i = 0; i < s_.order_by.size(); ++i) {
      const OrderingTerm& o = s_.order_by[i];
      const ColumnSpec* c = ordering_[i];
      if (c->kind != ColumnKind::kClustering) {
        return Invalid(fmt::format("Order by is currently only supported on the clustered "
                                   "columns of the PRIMARY KEY, got {}",
                                   o.column.text),
                       o.column.where);
      }
      // Clustering columns before it may be skipped when restricted by = (CASSANDRA-10271).
      size_t position = static_cast<size_t>(c->position);
      while (next_position != position) {
        if (next_position > position || r_.clustering[next_position].column < 0 ||
            !r_.clustering[next_position].has_eq) {
          return Invalid(
              "Order by currently only supports the ordering of columns following "
              "their declared order in the PRIMARY KEY",
              o.column.where);
        }
        ++next_position;
      }
      ++next_position;
      reversed_at[position] = o.descending != c->descending;
    }
    // Every ordered column must agree on the direction, in clustering order.
    std::optional<bool> reversed;
    for (const std::optional<bool>& r : reversed_at) {
      if (!r) continue;
      if (reversed && *reversed != *r) {
        return Invalid("Unsupported order by relation", s_.order_by[0].column.where);
      }
      reversed = r;
    }
    reversed_ = reversed.value_or(false);
    return Status::Ok();
  }

  bool TokenInRange(int64_t token) const {
    if (!r_.token.present) return true;
    if (r_.token.empty) return false;
    if (r_.token.lower && token < *r_.token.lower) return false;
    if (r_.token.upper && token > *r_.token.upper) return false;
    return true;
  }

  bool PartitionMatches(const Partition& p) const {
    if (!r_.partition_filtering) return true;
    for (const ColumnRestriction& c : r_.partition) {
      if (c.column < 0) continue;
      const ColumnSpec& spec = t_.columns[static_cast<size_t>(c.column)];
      if (!internal::Matches(spec.type, p.key[static_cast<size_t>(spec.position)], c)) return false;
    }
    return true;
  }

  // A column's value in a row (row == nullptr: the static-only row of a partition).
  Value ValueOf(int column, const Partition& p, const Clustering* clustering,
                const Row* row) const {
    return CellValue(t_.columns[static_cast<size_t>(column)], p, clustering, row);
  }

  // A plain column's output: the value (or a field of it), its WRITETIME or TTL, or toJson() of
  // either.
  Value ColumnOutput(const OutputColumn& oc, const Partition& p, const Clustering* clustering,
                     const Row* row) const {
    Value v = SelectFields(oc.fields, ValueOf(oc.column, p, clustering, row));
    if (oc.time != Selector::Time::kNone) {
      const ColumnSpec& c = t_.columns[static_cast<size_t>(oc.column)];
      size_t pos = static_cast<size_t>(c.position);
      CellTime time;
      if (c.kind == ColumnKind::kStatic && pos < p.static_times.size()) {
        time = p.static_times[pos];
      } else if (c.kind == ColumnKind::kRegular && row != nullptr && pos < row->cells.size()) {
        time = row->TimeOf(pos);
      }
      v = internal::WriteTimeValue(oc.time, v, time, gen_.NowSeconds());
    }
    return Output(oc, std::move(v));
  }

  bool RowMatches(const Partition& p, const Clustering* clustering, const Row* row) const {
    if (clustering != nullptr && !internal::ClusteringMatches(t_, r_, *clustering)) return false;
    for (const ColumnRestriction& c : r_.others) {
      const ColumnSpec& spec = t_.columns[static_cast<size_t>(c.column)];
      if (!internal::Matches(spec.type, ValueOf(c.column, p, clustering, row), c)) return false;
    }
    return true;
  }

  int32_t PartitionIndex(const PartitionKey& key, const Partition& p) {
    if (current_partition_ >= 0 &&
        out_.partitions[static_cast<size_t>(current_partition_)].token == key.token &&
        out_.partitions[static_cast<size_t>(current_partition_)].key == p.key) {
      return current_partition_;
    }
    out_.partitions.push_back(ResultPartition{key.token, p.key, {}, {}});
    current_partition_ = static_cast<int32_t>(out_.partitions.size() - 1);
    return current_partition_;
  }

  // Emits one row; false once LIMIT is reached.
  bool Emit(const PartitionKey& key, const Partition& p, const Clustering* clustering,
            const Row* row) {
    if (grouped_) {
      if (group_.open && group_by_ && !SameGroup(key, p, clustering)) {
        if (!FlushGroup()) return false;
      }
      if (!group_.open) OpenGroup(key, &p, clustering, row);
      ++group_.rows;
      for (size_t i = 0; i < outputs_.size(); ++i) {
        const OutputColumn& oc = outputs_[i];
        if (oc.kind == OutputColumn::Kind::kCount && oc.column < 0) continue;
        if (oc.kind == OutputColumn::Kind::kCount || oc.kind == OutputColumn::Kind::kAggregate) {
          group_.aggregates[i].Add(SelectFields(oc.fields, ValueOf(oc.column, p, clustering, row)));
        }
      }
      return true;
    }
    std::vector<Value> values;
    values.reserve(outputs_.size());
    for (const OutputColumn& oc : outputs_) {
      if (oc.kind == OutputColumn::Kind::kToken) {
        values.push_back(EncodeInt64(key.token));
      } else {
        values.push_back(ColumnOutput(oc, p, clustering, row));
      }
    }
    out_.rows.push_back(std::move(values));
    out_.row_partition.push_back(PartitionIndex(key, p));
    if (sort_across_partitions_) sort_keys_.push_back(clustering ? *clustering : Clustering());
    return !limit_ || static_cast<int64_t>(out_.rows.size()) < *limit_;
  }

  // SELECT JSON: one text column, [json], each row an object by output column name.
  void ToJsonRows() {
    for (std::vector<Value>& row : out_.rows) {
      row = {Value(internal::RowToJson(out_.columns, out_.types, row))};
    }
    out_.columns = {"[json]"};
    out_.types = {CqlType::Native(TypeKind::kText)};
  }

  // SelectStatement.orderResults (unpaged IN with ORDER BY): the rows of every partition sorted
  // by the ORDER BY columns, each in its direction, then the LIMIT.
  void SortAcrossPartitions(std::optional<int64_t> limit) {
    std::vector<size_t> order(out_.rows.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      for (size_t i = 0; i < ordering_.size(); ++i) {
        const ColumnSpec& c = *ordering_[i];
        size_t pos = static_cast<size_t>(c.position);
        // A static-only row has no clustering: null, first in ascending order (ColumnComparator).
        bool a_null = pos >= sort_keys_[a].size(), b_null = pos >= sort_keys_[b].size();
        int cmp = a_null || b_null ? (a_null == b_null ? 0 : (a_null ? -1 : 1))
                                   : Compare(c.type, sort_keys_[a][pos], sort_keys_[b][pos]);
        if (cmp != 0) return s_.order_by[i].descending ? cmp > 0 : cmp < 0;
      }
      return false;
    });
    std::vector<std::vector<Value>> rows;
    std::vector<int32_t> partitions;
    for (size_t i : order) {
      if (limit && static_cast<int64_t>(rows.size()) >= *limit) break;
      rows.push_back(std::move(out_.rows[i]));
      partitions.push_back(out_.row_partition[i]);
    }
    out_.rows = std::move(rows);
    out_.row_partition = std::move(partitions);
  }

  // --- groups (aggregates, GROUP BY): the rows folded into one output row each.
  struct Group {
    bool open = false;
    int64_t rows = 0;
    PartitionKey key;  // the first row's, whose plain columns the output row shows
    const Partition* partition = nullptr;
    Clustering clustering;
    bool has_clustering = false;
    const Row* row = nullptr;
    std::vector<internal::Aggregator> aggregates;  // per output (used by kCount, kAggregate)
  };

  void OpenGroup(const PartitionKey& key, const Partition* p, const Clustering* clustering,
                 const Row* row) {
    group_.open = true;
    group_.rows = 0;
    group_.key = key;
    group_.partition = p;
    group_.has_clustering = clustering != nullptr;
    group_.clustering = clustering ? *clustering : Clustering();
    group_.row = row;
    group_.aggregates.clear();
    for (const OutputColumn& oc : outputs_) {
      group_.aggregates.emplace_back(oc.fn, oc.arg_type);
    }
  }

  // GroupMaker of a primary key prefix: the same partition and the same first clustering values.
  bool SameGroup(const PartitionKey& key, const Partition& p, const Clustering* clustering) const {
    if (key.token != group_.key.token || p.key != group_.partition->key) return false;
    if (group_prefix_ == 0) return true;
    if ((clustering != nullptr) != group_.has_clustering) return false;
    if (clustering == nullptr) return true;
    for (size_t i = 0; i < group_prefix_ && i < clustering->size(); ++i) {
      if ((*clustering)[i] != group_.clustering[i]) return false;
    }
    return true;
  }

  // Writes the open group's row; false once LIMIT is reached. PER PARTITION LIMIT counts groups.
  bool FlushGroup() {
    group_.open = false;
    if (group_by_) {
      bool same_partition = groups_in_partition_ > 0 &&
                            last_group_key_.token == group_.key.token &&
                            last_group_key_.key == group_.key.key;
      groups_in_partition_ = same_partition ? groups_in_partition_ + 1 : 1;
      last_group_key_ = group_.key;
      if (per_partition_limit_ && groups_in_partition_ > *per_partition_limit_) return true;
    }
    std::vector<Value> values;
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const OutputColumn& oc = outputs_[i];
      if (oc.kind == OutputColumn::Kind::kCount && oc.column < 0) {
        values.push_back(EncodeInt64(group_.rows));
      } else if (oc.kind == OutputColumn::Kind::kCount ||
                 oc.kind == OutputColumn::Kind::kAggregate) {
        values.push_back(group_.aggregates[i].Result());
      } else if (group_.partition == nullptr) {
        values.push_back(Output(oc, Value()));
      } else if (oc.kind == OutputColumn::Kind::kToken) {
        values.push_back(EncodeInt64(group_.key.token));
      } else {
        values.push_back(ColumnOutput(oc, *group_.partition,
                                      group_.has_clustering ? &group_.clustering : nullptr,
                                      group_.row));
      }
    }
    if (sort_across_partitions_) {
      sort_keys_.push_back(group_.has_clustering ? group_.clustering : Clustering());
    }
    out_.rows.push_back(std::move(values));
    out_.row_partition.push_back(group_by_ && group_.partition != nullptr
                                     ? PartitionIndex(group_.key, *group_.partition)
                                     : -1);
    return !group_by_ || !limit_ || static_cast<int64_t>(out_.rows.size()) < *limit_;
  }

  // The rows of one partition; false once LIMIT is reached.
  bool VisitPartition(const PartitionKey& key, const Partition& p) {
    if (!TokenInRange(key.token) || !PartitionMatches(p)) return true;
    if (s_.distinct) {
      if (!p.live() || !RowMatches(p, nullptr, nullptr)) return true;
      return Emit(key, p, nullptr, nullptr);
    }
    int64_t emitted = 0;
    if (p.rows.empty()) {
      // Only static values: one row, unless clustering columns are restricted.
      if (!p.has_static() || r_.has_clustering() || !RowMatches(p, nullptr, nullptr)) return true;
      return Emit(key, p, nullptr, nullptr);
    }
    auto [begin, end] = RowRange(p);
    auto visit = [&](const Clustering& c, const Row& row) -> int {
      if (!RowMatches(p, &c, &row)) return 1;
      if (!Emit(key, p, &c, &row)) return 0;
      ++emitted;
      if (!grouped_ && per_partition_limit_ && emitted >= *per_partition_limit_) return 2;
      return 1;
    };
    if (reversed_) {
      for (auto it = end; it != begin;) {
        --it;
        int r = visit(it->first, it->second);
        if (r != 1) return r != 0;
      }
    } else {
      for (auto it = begin; it != end; ++it) {
        int r = visit(it->first, it->second);
        if (r != 1) return r != 0;
      }
    }
    return true;
  }

  // The rows sharing the prefix of clustering columns restricted by a single =, found by
  // seeking; every other restriction is checked row by row.
  using RowIt = std::map<Clustering, Row, ClusteringLess>::const_iterator;
  std::pair<RowIt, RowIt> RowRange(const Partition& p) const {
    Clustering prefix;
    for (const ColumnRestriction& c : r_.clustering) {
      if (c.column < 0 || !c.has_eq) break;
      prefix.push_back(c.values[0]);
    }
    if (prefix.empty()) return {p.rows.begin(), p.rows.end()};
    RowIt begin = p.rows.lower_bound(prefix);
    RowIt end = begin;
    while (end != p.rows.end()) {
      bool same = true;
      for (size_t i = 0; i < prefix.size() && same; ++i) {
        same = Compare(t_.clustering_column(i).type, end->first[i], prefix[i]) == 0;
      }
      if (!same) break;
      ++end;
    }
    return {begin, end};
  }

  void Execute() {
    const auto& parts = table_.partitions();
    bool more = true;
    if (!r_.key_range) {
      for (const std::vector<Bytes>& components : keys_) {
        PartitionKey key = Table::KeyOf(components);
        auto it = parts.find(key);
        if (it == parts.end()) continue;
        if (!VisitPartition(it->first, it->second)) {
          more = false;
          break;
        }
      }
    } else {
      auto it = parts.begin();
      if (r_.token.present && r_.token.lower)
        it = parts.lower_bound(PartitionKey{*r_.token.lower, {}});
      for (; it != parts.end(); ++it) {
        if (r_.token.present && r_.token.upper && it->first.token > *r_.token.upper) break;
        if (!VisitPartition(it->first, it->second)) {
          more = false;
          break;
        }
      }
    }
    if (!grouped_) return;
    if (group_.open) {
      if (more) FlushGroup();
    } else if (!group_by_) {
      // Aggregates over no row: one row, counts and sums 0, the rest null.
      OpenGroup(PartitionKey{}, nullptr, nullptr, nullptr);
      FlushGroup();
    }
  }

  // Cassandra's client warnings for aggregates and GROUP BY (SelectStatement.execute).
  void Warn(std::vector<std::string>& warnings) const {
    if (!grouped_) return;
    bool key_restricted = r_.token.present;
    for (const ColumnRestriction& c : r_.partition) key_restricted |= c.column >= 0;
    if (!key_restricted) {
      warnings.push_back("Aggregation query used without partition key");
    } else if (r_.has_partition_in()) {
      warnings.push_back("Aggregation query used on multiple partition keys (IN restriction)");
    }
  }

  const SelectStatement& s_;
  const Table& table_;
  const TableSchema& t_;
  ValueGenerator& gen_;
  SourceLocation where_;
  std::vector<OutputColumn> outputs_;
  std::vector<const ColumnSpec*> ordering_;  // the ORDER BY columns
  Restrictions r_;
  std::vector<std::vector<Bytes>> keys_;
  bool sort_across_partitions_ = false;
  std::vector<Clustering> sort_keys_;  // per output row, when sorting across partitions
  bool reversed_ = false;
  bool aggregate_ = false;
  std::optional<int64_t> limit_, per_partition_limit_;
  ResultSet out_;
  int32_t current_partition_ = -1;
  bool grouped_ = false;    // aggregates or GROUP BY: rows folded into groups
  bool group_by_ = false;
  size_t group_prefix_ = 0;  // clustering columns in a group's key
  Group group_;
  int64_t groups_in_partition_ = 0;
  PartitionKey last_group_key_;
};

}  // namespace

StatusOr<ResultSet> ExecuteSelect(const SelectStatement& statement, const Table& table,
                                  ValueGenerator& generator, SourceLocation where,
                                  std::vector<std::string>* warnings, bool paged,
                                  SelectAccess* access) {
  return SelectRun(statement, table, generator, where).Run(warnings, paged, access);
}

}  // namespace partplay::cql
