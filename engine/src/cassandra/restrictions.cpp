#include "cassandra/restrictions.h"

#include <fmt/format.h>

#include <algorithm>

#include "partplay/cassandra/token.h"
#include "partplay/core/limits.h"

namespace partplay::cql::internal {

const char kAllowFilteringMessage[] =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

// The keys the = and IN restrictions multiply out to, on the partition key, the clustering
// columns and both, at most kCqlMaxInCartesianProduct each (Cassandra 4.1's guardrail
// in_select_cartesian_product, with its message); the error points at the IN list that passes it.
Status CheckInCartesianProduct(const Restrictions& r) {
  double product = 1;
  // The values a restriction multiplies by: a multi-column IN counts its tuples once.
  auto count = [&](const ColumnRestriction& c) {
    if (c.tuple < 0) return static_cast<double>(c.values.size());
    const TupleRestriction& tr = r.tuples[static_cast<size_t>(c.tuple)];
    bool first = &c == &r.clustering[tr.first];
    return first ? static_cast<double>(tr.in.size()) : 1.0;
  };
  auto check = [&](const std::vector<ColumnRestriction>& columns, std::string_view what) {
    for (const ColumnRestriction& c : columns) {
      if (c.column < 0 || !c.is_eq_or_in()) continue;
      product *= count(c);
      if (product > kCqlMaxInCartesianProduct) {
        for (const ColumnRestriction& rest : columns) {
          if (&rest > &c && rest.column >= 0 && rest.is_eq_or_in()) product *= count(rest);
        }
        return Invalid(fmt::format("Guardrail in_select_cartesian_product violated: Aborting "
                                   "query because the cartesian product of the IN restrictions "
                                   "on {} produces {:.0f} values, this exceeds fail threshold of "
                                   "{:.0f}",
                                   what, product, kCqlMaxInCartesianProduct),
                       c.where);
      }
    }
    return Status::Ok();
  };
  PARTPLAY_RETURN_IF_ERROR(check(r.partition, "partition key"));
  double partition_keys = product;
  product = 1;
  PARTPLAY_RETURN_IF_ERROR(check(r.clustering, "clustering key"));
  product *= partition_keys;  // the rows one statement reads or writes
  if (product > kCqlMaxInCartesianProduct) {
    product = partition_keys;
    return check(r.clustering, "primary key");
  }
  return Status::Ok();
}

std::string_view KindName(StatementKind k) {
  switch (k) {
    case StatementKind::kSelect:
      return "SELECT";
    case StatementKind::kUpdate:
      return "UPDATE";
    case StatementKind::kDelete:
      return "DELETE";
  }
  return "?";
}

std::string JoinNames(const TableSchema& t, const std::vector<int>& columns) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    out += (i ? ", " : "") + t.columns[static_cast<size_t>(columns[i])].name;
  }
  return out;
}

Status MergeToken(TokenBounds& tb, const Relation& rel, int64_t v, const std::string& name) {
  bool start = rel.op == Operator::kGt || rel.op == Operator::kGe;
  bool end = rel.op == Operator::kLt || rel.op == Operator::kLe;
  if (rel.op == Operator::kEq) {
    if (tb.present) {
      return Invalid(fmt::format("{} cannot be restricted by more than one relation if it "
                                 "includes an Equal",
                                 name),
                     rel.where);
    }
    tb.lower = v;
    tb.upper = v;
  } else if (start) {
    if (tb.lower) {
      return Invalid(
          fmt::format("More than one restriction was found for the start bound on {}", name),
          rel.where);
    }
    if (rel.op == Operator::kGt) {
      if (v == kMaxToken) tb.empty = true;
      tb.lower = v == kMaxToken ? v : v + 1;
    } else {
      tb.lower = v;
    }
  } else if (end) {
    if (tb.upper) {
      return Invalid(
          fmt::format("More than one restriction was found for the end bound on {}", name),
          rel.where);
    }
    if (rel.op == Operator::kLt) {
      if (v == kMinToken) tb.empty = true;
      tb.upper = v == kMinToken ? v : v - 1;
    } else {
      tb.upper = v;
    }
  }
  tb.present = true;
  tb.where = rel.where;
  return Status::Ok();
}

// The token a token() restriction compares with: a bigint, or token(values...) of the partition
// key's types (`token(k1, k2) >= token(0, 1)`).
StatusOr<int64_t> TokenBound(const TableSchema& t, const Literal& lit, ValueGenerator& gen) {
  if (lit.kind == LiteralKind::kFunction && lit.text == "token") {
    if (lit.elements.size() != t.partition_key.size()) {
      return Invalid(fmt::format("Invalid number of arguments in call to function system.token: "
                                 "{} required but {} provided",
                                 t.partition_key.size(), lit.elements.size()),
                     lit.where);
    }
    std::vector<std::string> components;
    for (size_t i = 0; i < lit.elements.size(); ++i) {
      const ColumnSpec& c = t.partition_column(i);
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(c.type, lit.elements[i], c.name, gen));
      if (!v) {
        return Invalid(fmt::format("Invalid null value for partition key part {}", c.name),
                       lit.elements[i].where);
      }
      components.push_back(std::move(*v));
    }
    return Murmur3Token(PartitionKeyBytes(components));
  }
  PARTPLAY_ASSIGN_OR_RETURN(
      Value v, LiteralToValue(CqlType::Native(TypeKind::kBigint), lit, "partition key token", gen));
  if (!v) return Invalid("Invalid null value for partition key token", lit.where);
  return DecodeSigned(*v);
}

// The clustering restrictions (each by its first column) the slice does not answer, so rows are
// filtered on them (ClusteringColumnRestrictions.handleInFilter); `visit(c, tuple)` returns true
// to stop.
template <typename Visit>
void ForEachFilteringRestriction(const Restrictions& r, Visit visit) {
  size_t position = 0;
  for (size_t i = 0; i < r.clustering.size(); ++i) {
    const ColumnRestriction& c = r.clustering[i];
    if (c.column < 0) continue;
    const TupleRestriction* tuple =
        c.tuple >= 0 ? &r.tuples[static_cast<size_t>(c.tuple)] : nullptr;
    if (tuple != nullptr && tuple->first != i) continue;
    if (c.has_contains() || i != position) {
      if (visit(c, tuple)) return;
      continue;
    }
    if (!c.is_slice()) position = tuple != nullptr ? tuple->first + tuple->size : i + 1;
  }
}

// ClusteringColumnRestrictions.needFiltering.
bool ClusteringNeedsFiltering(const Restrictions& r) {
  bool any = false;
  ForEachFilteringRestriction(r, [&](const ColumnRestriction&, const TupleRestriction*) {
    return any = true;
  });
  return any;
}

// ClusteringColumnRestrictions.addRowFilterTo: multi-column IN and slices cannot filter.
Status MultiColumnFilterError(const Restrictions& r) {
  Status error = Status::Ok();
  ForEachFilteringRestriction(r, [&](const ColumnRestriction& c, const TupleRestriction* tuple) {
    if (tuple != nullptr && tuple->is_slice()) {
      error = Invalid("Multi-column slice restrictions cannot be used for filtering.", c.where);
    } else if (tuple != nullptr && c.has_in && tuple->size > 1) {
      error = Invalid("Multicolumn IN filters are not supported", c.where);
    }
    return !error.ok();
  });
  return error;
}

}  // namespace

bool Restrictions::partition_fully_eq_in() const {
  for (const ColumnRestriction& c : partition) {
    if (c.column < 0 || !c.is_eq_or_in() || c.has_contains()) return false;
  }
  return !partition.empty();
}

bool Restrictions::has_partition_in() const {
  for (const ColumnRestriction& c : partition) {
    if (c.has_in) return true;
  }
  return false;
}

bool Restrictions::has_clustering() const {
  for (const ColumnRestriction& c : clustering) {
    if (c.column >= 0) return true;
  }
  return false;
}

StatusOr<Restrictions> BuildRestrictions(const TableSchema& t, const std::vector<Relation>& where,
                                         StatementKind kind, bool allow_filtering,
                                         bool statics_only, ValueGenerator& gen,
                                         SourceLocation statement_where) {
  Restrictions r;
  r.partition.resize(t.partition_key.size());
  r.clustering.resize(t.clustering.size());
  // hasQueriableIndex: some relation is answered by an index on its column; then what would need
  // ALLOW FILTERING goes to the index query instead (checked by count below).
  std::vector<int> indexed_columns;
  bool all_sai = true;
  for (const Relation& rel : where) {
    if (rel.on_token || rel.columns.empty()) continue;
    if (rel.multi_column) {
      // MultiColumnRestriction.hasSupportingIndex: an index on any of its columns.
      Operator op = rel.op == Operator::kIn && rel.values.size() == 1 ? Operator::kEq : rel.op;
      for (const Name& n : rel.columns) {
        int column = t.IndexOf(n.text);
        if (column < 0 || kind != StatementKind::kSelect) continue;
        for (const IndexSpec* index : t.IndexesOn(column)) {
          if (!index->Supports(op)) continue;
          if (std::find(indexed_columns.begin(), indexed_columns.end(), column) ==
              indexed_columns.end()) {
            indexed_columns.push_back(column);
          }
          all_sai = all_sai && index->sai();
        }
      }
      continue;
    }
    if (rel.op == Operator::kIsNotNull) {
      return Invalid(fmt::format("Unsupported restriction: {} IS NOT NULL", rel.columns[0].text),
                     rel.where);
    }
    int column = t.IndexOf(rel.columns[0].text);
    if (column < 0 || kind != StatementKind::kSelect) continue;
    Operator op = rel.op == Operator::kIn && rel.values.size() == 1 ? Operator::kEq : rel.op;
    for (const IndexSpec* index : t.IndexesOn(column)) {
      if (!index->Supports(op)) continue;
      if (std::find(indexed_columns.begin(), indexed_columns.end(), column) ==
          indexed_columns.end()) {
        indexed_columns.push_back(column);
      }
      all_sai = all_sai && index->sai();
    }
  }
  r.index_query = !indexed_columns.empty();
  bool may_filter = allow_filtering || r.index_query;
  for (const Relation& written : where) {
    if (written.multi_column) {
      PARTPLAY_RETURN_IF_ERROR(AddMultiColumnRelation(t, written, allow_filtering, r, gen));
      continue;
    }
    // An IN of one value is an = (SingleColumnRelation: "the same than an EQ restriction").
    Relation single;
    if (!written.on_token && written.op == Operator::kIn && written.values.size() == 1) {
      single = written;
      single.op = Operator::kEq;
    }
    const Relation& rel = single.columns.empty() ? written : single;
    if (rel.on_token) {
      std::string token_name = "token(";
      for (size_t i = 0; i < rel.columns.size(); ++i) {
        const Name& n = rel.columns[i];
        token_name += (i ? ", " : "") + n.text;
        const ColumnSpec* c = t.Find(n.text);
        if (c == nullptr)
          return Status(ErrorCode::kCqlUnknown, "Undefined column name " + n.text, n.where);
        if (c->kind != ColumnKind::kPartitionKey) {
          return Invalid(fmt::format("The token() function is only supported on the partition "
                                     "key, found on {}",
                                     n.text),
                         n.where);
        }
      }
      token_name += ")";
      if (rel.columns.size() != t.partition_key.size()) {
        return Invalid(
            "The token() function must be applied to all partition key components or "
            "none of them",
            rel.where);
      }
      for (size_t i = 0; i < rel.columns.size(); ++i) {
        if (rel.columns[i].text != t.partition_column(i).name) {
          return Invalid(fmt::format("The token function arguments must be in the partition key "
                                     "order: {}",
                                     JoinNames(t, t.partition_key)),
                         rel.where);
        }
      }
      if (kind != StatementKind::kSelect) {
        return Invalid(fmt::format("The token function cannot be used in WHERE clauses for {} "
                                   "statements",
                                   KindName(kind)),
                       rel.where);
      }
      if (rel.op == Operator::kIn || rel.op == Operator::kContains ||
          rel.op == Operator::kContainsKey) {
        return Invalid(
            fmt::format("{} cannot be used with the token function", OperatorText(rel.op)),
            rel.where);
      }
      if (rel.op == Operator::kNotEq) {
        return Invalid(fmt::format("Unsupported \"!=\" relation: {} != {}", token_name,
                                   rel.values[0].Describe()),
                       rel.where);
      }
      PARTPLAY_ASSIGN_OR_RETURN(int64_t bound, TokenBound(t, rel.values[0], gen));
      PARTPLAY_RETURN_IF_ERROR(MergeToken(r.token, rel, bound, token_name));
      continue;
    }

    const Name& name = rel.columns[0];
    int index = t.IndexOf(name.text);
    if (index < 0) {
      return Status(ErrorCode::kCqlUnknown, "Undefined column name " + name.text, name.where);
    }
    const ColumnSpec& spec = t.columns[static_cast<size_t>(index)];
    if (rel.op == Operator::kNotEq) {
      return Invalid(
          fmt::format("Unsupported \"!=\" relation: {} != {}", name.text, rel.values[0].Describe()),
          rel.where);
    }
    bool contains = rel.op == Operator::kContains || rel.op == Operator::kContainsKey;
    if (contains) {
      if (!spec.type.is_collection()) {
        return Invalid(fmt::format("Cannot use {} on non-collection column {}",
                                   OperatorText(rel.op), name.text),
                       rel.where);
      }
      if (rel.op == Operator::kContainsKey && spec.type.kind != TypeKind::kMap) {
        return Invalid(fmt::format("Cannot use CONTAINS KEY on non-map column {}", name.text),
                       rel.where);
      }
    } else if (spec.type.is_multi_cell()) {
      return Invalid(fmt::format("Collection column '{}' ({}) cannot be restricted by a '{}' "
                                 "relation",
                                 name.text, spec.type.ToCql(), OperatorText(written.op)),
                     rel.where);
    }
    std::vector<Bytes> values;
    for (const Literal& lit : rel.values) {
      const CqlType* type = &spec.type;
      std::string receiver = name.text;
      if (rel.op == Operator::kContains) {
        type = spec.type.kind == TypeKind::kMap ? &spec.type.value() : &spec.type.element();
        receiver = fmt::format("value({})", name.text);
      } else if (rel.op == Operator::kContainsKey) {
        type = &spec.type.element();
        receiver = fmt::format("key({})", name.text);
      }
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(*type, lit, receiver, gen));
      if (!v && spec.is_primary_key()) {
        return Invalid(fmt::format("Invalid null value in condition for column {}", name.text),
                       lit.where);
      }
      if (!v && r.null_filter_column.empty()) {
        r.null_filter_column = name.text;
        r.null_filter_where = lit.where;
      }
      values.push_back(v ? std::move(*v) : Bytes());
    }

    ColumnRestriction* slot = nullptr;
    if (spec.kind == ColumnKind::kPartitionKey) {
      slot = &r.partition[static_cast<size_t>(spec.position)];
    } else if (spec.kind == ColumnKind::kClustering) {
      slot = &r.clustering[static_cast<size_t>(spec.position)];
      // Merged into the multi-column slice covering it, before the order checks (as Cassandra).
      if (slot->tuple >= 0 && r.tuples[static_cast<size_t>(slot->tuple)].is_slice()) {
        PARTPLAY_RETURN_IF_ERROR(MergeIntoTuple(t, rel, std::move(values), r));
        continue;
      }
      // ClusteringColumnRestrictions.mergeWith: the order of clustering relations.
      const ColumnRestriction* last = nullptr;
      for (const ColumnRestriction& c : r.clustering) {
        if (c.column >= 0) last = &c;
      }
      // A Storage-Attached Index that answers the relation takes it out of the clustering
      // slice (Cassandra 5.0's SAI AllowFilteringTest: `c2 > 0 AND c4 = 0`, both indexed, runs).
      bool sai_answers = false;
      if (kind == StatementKind::kSelect) {
        for (const IndexSpec* index : t.IndexesOn(t.IndexOf(name.text))) {
          sai_answers = sai_answers || (index->sai() && index->Supports(rel.op));
        }
      }
      if (last != nullptr && !allow_filtering && !sai_answers) {
        // The restriction the last restricted column belongs to starts at last_pos.
        int last_pos = last->tuple >= 0
                           ? static_cast<int>(r.tuples[static_cast<size_t>(last->tuple)].first)
                           : t.columns[static_cast<size_t>(last->column)].position;
        bool new_slice = IsSlice(rel.op);
        if (r.clustering[static_cast<size_t>(last_pos)].is_slice() && spec.position > last_pos) {
          return Invalid(fmt::format("Clustering column \"{}\" cannot be restricted (preceding "
                                     "column \"{}\" is restricted by a non-EQ relation)",
                                     name.text,
                                     t.clustering_column(static_cast<size_t>(last_pos)).name),
                         rel.where);
        }
        if (spec.position < last_pos && new_slice) {
          return Invalid(
              fmt::format("PRIMARY KEY column \"{}\" cannot be restricted (preceding "
                          "column \"{}\" is restricted by a non-EQ relation)",
                          t.clustering_column(static_cast<size_t>(spec.position) + 1).name,
                          name.text),
              rel.where);
        }
      }
    } else {
      for (ColumnRestriction& c : r.others) {
        if (c.column == index) slot = &c;
      }
      if (slot == nullptr) {
        r.others.emplace_back();
        slot = &r.others.back();
      }
    }

    ColumnRestriction& c = *slot;
    if (c.column >= 0 && !contains) {
      if (c.has_eq) {
        return Invalid(fmt::format("{} cannot be restricted by more than one relation if it "
                                   "includes an Equal",
                                   name.text),
                       rel.where);
      }
      if (c.has_in) {
        return Invalid(fmt::format("{} cannot be restricted by more than one relation if it "
                                   "includes a IN",
                                   name.text),
                       rel.where);
      }
      if (c.is_slice() && !IsSlice(rel.op)) {
        return Invalid(fmt::format("Column \"{}\" cannot be restricted by both an equality and "
                                   "an inequality relation",
                                   name.text),
                       rel.where);
      }
    }
    if (c.column < 0) c.where = rel.where;
    c.column = index;
    switch (rel.op) {
      case Operator::kEq:
        if (c.is_slice()) {
          return Invalid(fmt::format("Column \"{}\" cannot be restricted by both an equality and "
                                     "an inequality relation",
                                     name.text),
                         rel.where);
        }
        c.has_eq = true;
        c.values = std::move(values);
        break;
      case Operator::kIn:
        c.has_in = true;
        c.values = std::move(values);
        break;
      case Operator::kGt:
      case Operator::kGe:
        if (c.lower) {
          return Invalid(fmt::format("More than one restriction was found for the start bound "
                                     "on {}",
                                     name.text),
                         rel.where);
        }
        c.lower = Bound{std::move(values[0]), rel.op == Operator::kGe};
        break;
      case Operator::kLt:
      case Operator::kLe:
        if (c.upper) {
          return Invalid(fmt::format("More than one restriction was found for the end bound on "
                                     "{}",
                                     name.text),
                         rel.where);
        }
        c.upper = Bound{std::move(values[0]), rel.op == Operator::kLe};
        break;
      case Operator::kContains:
        c.contains.push_back(std::move(values[0]));
        break;
      case Operator::kContainsKey:
        c.contains_key.push_back(std::move(values[0]));
        break;
      default:
        break;
    }
  }

  // --- the partition key (processPartitionKeyRestrictions) ---------------------------------------
  std::vector<int> unrestricted_pk;
  bool pk_any = false, pk_slice = false, pk_contains = false;
  for (size_t i = 0; i < r.partition.size(); ++i) {
    const ColumnRestriction& c = r.partition[i];
    if (c.column < 0) {
      unrestricted_pk.push_back(t.partition_key[i]);
      continue;
    }
    pk_any = true;
    pk_slice = pk_slice || c.is_slice();
    pk_contains = pk_contains || c.has_contains();
  }
  if (kind == StatementKind::kSelect) {
    if (pk_any && (!unrestricted_pk.empty() || pk_slice || pk_contains)) {
      if (!may_filter) return Invalid(kAllowFilteringMessage, statement_where);
      r.key_range = true;
      r.partition_filtering = true;
    } else if (!pk_any) {
      r.key_range = true;
    }
  } else {
    if (!unrestricted_pk.empty()) {
      return Invalid(
          fmt::format("Some partition key parts are missing: {}", JoinNames(t, unrestricted_pk)),
          statement_where);
    }
    if (pk_slice) {
      return Invalid(fmt::format("Only EQ and IN relation are supported on the partition key "
                                 "(unless you use the token() function) for {} statements",
                                 KindName(kind)),
                     statement_where);
    }
  }

  // --- clustering columns (processClusteringColumnsRestrictions) ---------------------------------
  bool has_clustering = r.has_clustering();
  Status filter_error = Status::Ok();  // found when the query runs, after every check
  if (statics_only && has_clustering && kind != StatementKind::kSelect) {
    return Invalid(fmt::format("Invalid restrictions on clustering columns since the {} statement "
                               "modifies only static columns",
                               KindName(kind)),
                   statement_where);
  }
  if (kind == StatementKind::kUpdate) {
    std::vector<int> missing;
    for (size_t i = 0; i < r.clustering.size(); ++i) {
      const ColumnRestriction& c = r.clustering[i];
      if (c.column >= 0 && c.is_slice()) {
        return Invalid(
            "Slice restrictions are not supported on the clustering columns in UPDATE "
            "statements",
            c.where);
      }
      if (c.column < 0) missing.push_back(t.clustering[i]);
    }
    if (!statics_only && !missing.empty()) {
      return Invalid(fmt::format("Some clustering keys are missing: {}", JoinNames(t, missing)),
                     statement_where);
    }
  } else {
    bool clustering_contains = false;
    for (const ColumnRestriction& c : r.clustering) {
      clustering_contains = clustering_contains || (c.column >= 0 && c.has_contains());
    }
    if (clustering_contains && !may_filter) {
      return Invalid(
          "Clustering columns can only be restricted with CONTAINS with a secondary "
          "index or filtering",
          statement_where);
    }
    if (has_clustering && ClusteringNeedsFiltering(r)) {
      if (!may_filter) {
        std::vector<int> restricted;
        for (const ColumnRestriction& c : r.clustering) {
          if (c.column >= 0) restricted.push_back(c.column);
        }
        for (size_t i = 0; i < restricted.size(); ++i) {
          if (restricted[i] != t.clustering[i]) {
            const ColumnRestriction& bad = r.clustering[static_cast<size_t>(
                t.columns[static_cast<size_t>(restricted[i])].position)];
            return Invalid(fmt::format("PRIMARY KEY column \"{}\" cannot be restricted as "
                                       "preceding column \"{}\" is not restricted",
                                       t.columns[static_cast<size_t>(restricted[i])].name,
                                       t.clustering_column(i).name),
                           bad.where);
          }
        }
      }
      r.clustering_filtering = true;
      if (kind == StatementKind::kSelect) {
        filter_error = MultiColumnFilterError(r);
      }
    }
  }

  // --- other columns -----------------------------------------------------------------------------
  if (!r.others.empty()) {
    if (kind != StatementKind::kSelect) {
      std::vector<int> cols;
      for (const ColumnRestriction& c : r.others) cols.push_back(c.column);
      return Invalid(
          fmt::format("Non PRIMARY KEY columns found in where clause: {}", JoinNames(t, cols)),
          r.others[0].where);
    }
    if (!may_filter) return Invalid(kAllowFilteringMessage, statement_where);
  }
  // SelectStatement.checkNeedsFiltering with an index: the index answers one column; more
  // restricted columns filter (Storage-Attached Indexes answer all of theirs together). Which
  // restrictions count is StatementRestrictions' order: the partition key's join when the index
  // is used by then (no partition key restriction, or one that filters); the clustering columns'
  // when it is used by then (also once they filter, or a key range meets an index on one of
  // them). So `WHERE v = 5 AND c = 2` (v indexed, c clustering) asks for ALLOW FILTERING, and
  // `WHERE k = 1 AND c = 2 AND v = 5` does not.
  if (r.index_query && !allow_filtering) {
    bool uses_index = !pk_any && !r.token.present;
    uses_index = uses_index || r.partition_filtering;
    const bool count_partition = uses_index;
    const bool clustering_index =
        std::any_of(indexed_columns.begin(), indexed_columns.end(), [&](int column) {
          return t.columns[static_cast<size_t>(column)].kind == ColumnKind::kClustering;
        });
    uses_index = uses_index || r.clustering_filtering || (r.key_range && clustering_index);
    const bool count_clustering = uses_index;
    // The restricted columns the row filter holds, and those an index answers.
    size_t restricted = 0, unindexed = 0;
    const auto count = [&](const ColumnRestriction& c) {
      if (c.column < 0) return;
      ++restricted;
      unindexed += std::find(indexed_columns.begin(), indexed_columns.end(), c.column) ==
                   indexed_columns.end();
    };
    for (const ColumnRestriction& c : r.others) count(c);
    if (count_partition) {
      for (const ColumnRestriction& c : r.partition) count(c);
    }
    if (count_clustering) {
      for (const ColumnRestriction& c : r.clustering) count(c);
    }
    // Legacy indexes answer one column: more filter. Storage-Attached Indexes (5.0) answer all of
    // theirs together, and any column none of them answers filters.
    if (all_sai ? unindexed > 0 : restricted > 1) {
      return Invalid(kAllowFilteringMessage, statement_where);
    }
  }
  if (!r.null_tuple_message.empty()) return Invalid(r.null_tuple_message, r.null_tuple_where);
  PARTPLAY_RETURN_IF_ERROR(filter_error);
  PARTPLAY_RETURN_IF_ERROR(CheckInCartesianProduct(r));
  return r;
}

bool Matches(const CqlType& type, const Value& value, const ColumnRestriction& r) {
  if (!value) return false;
  const Bytes& v = *value;
  if (r.has_eq || r.has_in) {
    bool any = false;
    for (const Bytes& x : r.values) {
      if (Compare(type, v, x) == 0) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  if (r.lower) {
    int c = Compare(type, v, r.lower->value);
    if (c < 0 || (c == 0 && !r.lower->inclusive)) return false;
  }
  if (r.upper) {
    int c = Compare(type, v, r.upper->value);
    if (c > 0 || (c == 0 && !r.upper->inclusive)) return false;
  }
  if (!r.contains.empty() || !r.contains_key.empty()) {
    std::vector<std::string_view> e = CollectionElements(v);
    bool is_map = type.kind == TypeKind::kMap;
    const CqlType& value_type = is_map ? type.value() : type.element();
    for (const Bytes& want : r.contains) {
      bool found = false;
      for (size_t i = is_map ? 1 : 0; i < e.size(); i += is_map ? 2 : 1) {
        if (Compare(value_type, e[i], want) == 0) found = true;
      }
      if (!found) return false;
    }
    for (const Bytes& want : r.contains_key) {
      bool found = false;
      for (size_t i = 0; i < e.size(); i += 2) {
        if (Compare(type.element(), e[i], want) == 0) found = true;
      }
      if (!found) return false;
    }
  }
  return true;
}

namespace {
// The keys extended by each of the column's = / IN values in turn (one step of a product).
void ExtendEach(std::vector<std::vector<Bytes>>& keys, const ColumnRestriction& c) {
  std::vector<std::vector<Bytes>> next;
  for (const std::vector<Bytes>& prefix : keys) {
    for (const Bytes& v : c.values) {
      next.push_back(prefix);
      next.back().push_back(v);
    }
  }
  keys = std::move(next);
}
}  // namespace

std::vector<std::vector<Bytes>> ClusteringPrefixes(const Restrictions& r) {
  std::vector<std::vector<Bytes>> keys(1);
  for (size_t i = 0; i < r.clustering.size(); ++i) {
    const ColumnRestriction& c = r.clustering[i];
    if (c.column < 0 || !c.is_eq_or_in()) break;
    if (c.tuple < 0) {
      ExtendEach(keys, c);
      continue;
    }
    // A multi-column = or IN: each tuple extends the prefixes by all of its columns.
    const TupleRestriction& tr = r.tuples[static_cast<size_t>(c.tuple)];
    std::vector<std::vector<Bytes>> next;
    for (const std::vector<Bytes>& prefix : keys) {
      for (const std::vector<Bytes>& tuple : tr.in) {
        next.push_back(prefix);
        next.back().insert(next.back().end(), tuple.begin(), tuple.end());
      }
    }
    keys = std::move(next);
    i = tr.first + tr.size - 1;
  }
  return keys;
}

std::vector<std::vector<Bytes>> PartitionKeys(const TableSchema& t, const Restrictions& r) {
  std::vector<std::vector<Bytes>> keys(1);
  for (const ColumnRestriction& c : r.partition) ExtendEach(keys, c);
  auto less = [&](const std::vector<Bytes>& a, const std::vector<Bytes>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
      int c = Compare(t.partition_column(i).type, a[i], b[i]);
      if (c != 0) return c < 0;
    }
    return false;
  };
  std::stable_sort(keys.begin(), keys.end(), less);
  keys.erase(std::unique(keys.begin(), keys.end(),
                         [&](const auto& a, const auto& b) { return !less(a, b) && !less(b, a); }),
             keys.end());
  return keys;
}

}  // namespace partplay::cql::internal
