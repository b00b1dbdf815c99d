// Multi-column relations on clustering columns, (c1, c2) = (1, 2), (c1, c2) IN ((1, 2), (3, 4)),
// (c1, c2) > (1, 2), with the checks and messages of Cassandra 4.1's MultiColumnRelation,
// MultiColumnRestriction and ClusteringColumnRestrictions.mergeWith.
#include <fmt/format.h>

#include "cassandra/restrictions.h"

namespace partplay::cql::internal {

namespace {

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

// Term.Raw.getText: strings quoted, tuples in parentheses.
std::string TermText(const Literal& l) {
  switch (l.kind) {
    case LiteralKind::kString:
      return "'" + l.text + "'";
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kTuple: {
      std::string out = "(";
      for (size_t i = 0; i < l.elements.size(); ++i) {
        out += (i ? ", " : "") + TermText(l.elements[i]);
      }
      return out + ")";
    }
    default:
      return l.Describe();
  }
}

// MultiColumnRelation.toCQLString: "(b, c) > (1, 2)", "(b, c) IN ((1, 2), (3, 4))".
std::string RelationText(const Relation& rel) {
  std::string out = "(";
  for (size_t i = 0; i < rel.columns.size(); ++i) out += (i ? ", " : "") + rel.columns[i].text;
  out += ")";
  if (rel.op == Operator::kIn) {
    out += " IN (";
    for (size_t i = 0; i < rel.values.size(); ++i) {
      out += (i ? ", " : "") + TermText(rel.values[i]);
    }
    return out + ")";
  }
  return out + " " + std::string(OperatorText(rel.op)) + " " + TermText(rel.values[0]);
}

const std::string& ClusteringName(const TableSchema& t, size_t position) {
  return t.clustering_column(position).name;
}

// The first clustering position of the restriction that covers `position`.
size_t StartOf(const Restrictions& r, size_t position) {
  int tuple = r.clustering[position].tuple;
  return tuple >= 0 ? r.tuples[static_cast<size_t>(tuple)].first : position;
}

// Adds one bound to a slice (SliceRestriction.mergeWith: one start and one end at most).
Status AddBound(TupleRestriction& slice, Operator op, std::vector<Bytes> values,
                const std::string& commons, const SourceLocation& where) {
  bool start = op == Operator::kGt || op == Operator::kGe;
  std::optional<TupleBound>& bound = start ? slice.lower : slice.upper;
  if (bound) {
    return Invalid(fmt::format("More than one restriction was found for the {} bound on {}",
                               start ? "start" : "end", commons),
                   where);
  }
  slice.size = std::max(slice.size, values.size());
  bound = TupleBound{std::move(values), op == Operator::kGe || op == Operator::kLe};
  return Status::Ok();
}

// A single-column slice (b > 1) as the one-column bounds of a multi-column slice.
TupleRestriction FromSingleSlice(const ColumnRestriction& c, size_t position) {
  TupleRestriction t;
  t.first = position;
  t.size = 1;
  t.where = c.where;
  if (c.lower) t.lower = TupleBound{{c.lower->value}, c.lower->inclusive};
  if (c.upper) t.upper = TupleBound{{c.upper->value}, c.upper->inclusive};
  return t;
}

}  // namespace

Status AddMultiColumnRelation(const TableSchema& t, const Relation& rel, bool allow_filtering,
                              Restrictions& r, ValueGenerator& gen) {
  if (rel.op == Operator::kNotEq) {
    return Invalid(fmt::format("Unsupported \"!=\" relation: {}", RelationText(rel)), rel.where);
  }
  // MultiColumnRelation.receivers: clustering columns, once each, consecutive, in key order.
  std::vector<size_t> positions;
  for (const Name& n : rel.columns) {
    const ColumnSpec* c = t.Find(n.text);
    if (c == nullptr) {
      return Status(ErrorCode::kCqlUnknown, "Undefined column name " + n.text, n.where);
    }
    if (c->kind != ColumnKind::kClustering) {
      return Invalid(fmt::format("Multi-column relations can only be applied to clustering "
                                 "columns but was applied to: {}",
                                 n.text),
                     n.where);
    }
    size_t position = static_cast<size_t>(c->position);
    for (size_t p : positions) {
      if (p == position) {
        return Invalid(
            fmt::format("Column \"{}\" appeared twice in a relation: {}", n.text, RelationText(rel)),
            n.where);
      }
    }
    if (!positions.empty() && position != positions.back() + 1) {
      return Invalid(fmt::format("Clustering columns must appear in the PRIMARY KEY order in "
                                 "multi-column relations: {}",
                                 RelationText(rel)),
                     rel.where);
    }
    positions.push_back(position);
  }
  const size_t first = positions[0];
  const size_t n = positions.size();

  // Tuples.Literal.prepare: as many elements as columns, each of its column's type.
  std::vector<std::vector<Bytes>> tuples;
  for (const Literal& tuple : rel.values) {
    if (tuple.elements.size() != n) {
      return Invalid(fmt::format("Expected {} elements in value tuple, but got {}: {}", n,
                                 tuple.elements.size(), TermText(tuple)),
                     tuple.where);
    }
    std::vector<Bytes> values;
    for (size_t i = 0; i < n; ++i) {
      const ColumnSpec& c = t.clustering_column(first + i);
      PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(c.type, tuple.elements[i], c.name, gen));
      if (!v && r.null_tuple_message.empty()) {
        r.null_tuple_where = tuple.elements[i].where;
        if (rel.op == Operator::kEq || (rel.op == Operator::kIn && rel.values.size() == 1)) {
          r.null_tuple_message = "Invalid null value for column " + c.name;
        } else if (rel.op == Operator::kIn) {
          std::string names;
          for (size_t j = 0; j < n; ++j) names += (j ? ", " : "") + ClusteringName(t, first + j);
          r.null_tuple_message = fmt::format("Invalid null value in condition for columns: [{}]",
                                             names);
        } else {
          r.null_tuple_message = "Invalid null value in condition for column " + c.name;
        }
      }
      values.push_back(v ? std::move(*v) : Bytes());
    }
    tuples.push_back(std::move(values));
  }
  // An IN of one tuple is an = (MultiColumnRelation.newINRestriction).
  const bool is_eq = rel.op == Operator::kEq || (rel.op == Operator::kIn && tuples.size() == 1);
  const bool is_in = rel.op == Operator::kIn && !is_eq;
  const bool is_slice = !is_eq && !is_in;

  // ClusteringColumnRestrictions.mergeWith's order checks, on the restrictions before this one.
  Status order = Status::Ok();
  int last = -1;
  for (size_t i = 0; i < r.clustering.size(); ++i) {
    if (r.clustering[i].column >= 0) last = static_cast<int>(i);
  }
  if (last >= 0 && !allow_filtering) {
    size_t last_start = StartOf(r, static_cast<size_t>(last));
    if (r.clustering[last_start].is_slice() && first > last_start) {
      order = Invalid(fmt::format("Clustering column \"{}\" cannot be restricted (preceding column "
                                  "\"{}\" is restricted by a non-EQ relation)",
                                  ClusteringName(t, first), ClusteringName(t, last_start)),
                      rel.where);
    } else if (first < last_start && is_slice) {
      size_t next = first + 1;
      while (next < r.clustering.size() && r.clustering[next].column < 0) ++next;
      order = Invalid(fmt::format("PRIMARY KEY column \"{}\" cannot be restricted (preceding "
                                  "column \"{}\" is restricted by a non-EQ relation)",
                                  ClusteringName(t, next), ClusteringName(t, first)),
                      rel.where);
    }
  }

  // RestrictionSet.addRestriction: each restriction already on these columns merges with it.
  int merged = -1;  // the multi-column slice this one joins
  for (size_t i = 0; i < n; ++i) {
    const ColumnRestriction& existing = r.clustering[first + i];
    if (existing.column < 0) continue;
    size_t start = StartOf(r, first + i);
    // getColumnsInCommons: the columns both cover (Cassandra joins them with " ,").
    std::string commons;
    for (size_t j = 0; j < n; ++j) {
      const ColumnRestriction& c = r.clustering[first + j];
      bool shared = existing.tuple >= 0 ? c.tuple == existing.tuple : j == i;
      if (c.column >= 0 && shared) commons += (commons.empty() ? "" : " ,") + ClusteringName(t, first + j);
    }
    if (existing.has_eq) {
      return Invalid(fmt::format("{} cannot be restricted by more than one relation if it "
                                 "includes an Equal",
                                 commons),
                     rel.where);
    }
    if (existing.has_in) {
      return Invalid(fmt::format("{} cannot be restricted by more than one relation if it "
                                 "includes a IN",
                                 commons),
                     rel.where);
    }
    if (existing.has_contains()) {
      return Invalid(fmt::format("Collection column {} can only be restricted by CONTAINS, "
                                 "CONTAINS KEY, or map-entry equality",
                                 commons),
                     rel.where);
    }
    if (!is_slice) {
      return Invalid(fmt::format("Column \"{}\" cannot be restricted by both an equality and an "
                                 "inequality relation",
                                 commons),
                     rel.where);
    }
    if (start != first) {
      return Invalid(fmt::format("Column \"{}\" cannot be restricted by two inequalities not "
                                 "starting with the same column",
                                 ClusteringName(t, std::max(start, first))),
                     rel.where);
    }
    if (merged < 0) {
      if (existing.tuple >= 0) {
        merged = existing.tuple;
      } else {
        r.tuples.push_back(FromSingleSlice(existing, first));
        merged = static_cast<int>(r.tuples.size() - 1);
      }
    }
    PARTPLAY_RETURN_IF_ERROR(
        AddBound(r.tuples[static_cast<size_t>(merged)], rel.op, tuples[0], commons, rel.where));
    break;  // one slice starts at `first`: the others covered are the same restriction
  }
  PARTPLAY_RETURN_IF_ERROR(order);

  int index = merged;
  if (index < 0) {
    TupleRestriction tr;
    tr.first = first;
    tr.size = n;
    tr.where = rel.where;
    if (is_slice) {
      PARTPLAY_RETURN_IF_ERROR(AddBound(tr, rel.op, tuples[0], "", rel.where));
    } else {
      tr.in = tuples;
    }
    r.tuples.push_back(std::move(tr));
    index = static_cast<int>(r.tuples.size() - 1);
  }
  const TupleRestriction& tr = r.tuples[static_cast<size_t>(index)];
  for (size_t i = 0; i < tr.size; ++i) {
    ColumnRestriction& c = r.clustering[tr.first + i];
    if (c.column < 0) c.where = rel.where;
    c.column = t.clustering[tr.first + i];
    c.tuple = index;
    c.tuple_slice = is_slice && i == 0;
    if (is_eq) {
      c.has_eq = true;
      c.values = {tuples[0][i]};
    }
    c.has_in = is_in;
  }
  return Status::Ok();
}

Status MergeIntoTuple(const TableSchema& t, const Relation& rel, std::vector<Bytes> values,
                      Restrictions& r) {
  const ColumnSpec* spec = t.Find(rel.columns[0].text);
  size_t position = static_cast<size_t>(spec->position);
  TupleRestriction& tr =
      r.tuples[static_cast<size_t>(r.clustering[position].tuple)];
  const std::string& name = spec->name;
  if (!IsSlice(rel.op)) {
    return Invalid(fmt::format("Column \"{}\" cannot be restricted by both an equality and an "
                               "inequality relation",
                               name),
                   rel.where);
  }
  if (position != tr.first) {
    return Invalid(fmt::format("Column \"{}\" cannot be restricted by two inequalities not "
                               "starting with the same column",
                               name),
                   rel.where);
  }
  return AddBound(tr, rel.op, {std::move(values[0])}, name, rel.where);
}

bool ClusteringMatches(const TableSchema& t, const Restrictions& r,
                       const std::vector<Bytes>& clustering) {
  for (const ColumnRestriction& c : r.clustering) {
    if (c.column < 0 || c.tuple >= 0) continue;
    const ColumnSpec& spec = t.columns[static_cast<size_t>(c.column)];
    if (!Matches(spec.type, clustering[static_cast<size_t>(spec.position)], c)) return false;
  }
  // Component by component, in each type's own order, on the bound's length.
  auto compare = [&](const TupleRestriction& tr, const std::vector<Bytes>& bound) {
    for (size_t i = 0; i < bound.size(); ++i) {
      int c = Compare(t.clustering_column(tr.first + i).type, clustering[tr.first + i], bound[i]);
      if (c != 0) return c;
    }
    return 0;
  };
  for (const TupleRestriction& tr : r.tuples) {
    if (tr.is_slice()) {
      if (tr.lower) {
        int c = compare(tr, tr.lower->values);
        if (c < 0 || (c == 0 && !tr.lower->inclusive)) return false;
      }
      if (tr.upper) {
        int c = compare(tr, tr.upper->values);
        if (c > 0 || (c == 0 && !tr.upper->inclusive)) return false;
      }
      continue;
    }
    bool any = false;
    for (const std::vector<Bytes>& tuple : tr.in) any = any || compare(tr, tuple) == 0;
    if (!any) return false;
  }
  return true;
}

}  // namespace partplay::cql::internal
