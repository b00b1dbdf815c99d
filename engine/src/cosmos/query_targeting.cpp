// The pins of a query's WHERE clause (cosmos/query_targeting.h): which properties a matching item
// must hold which values at, as the service's query plan reads them to route a query.
#include "partplay/cosmos/query_targeting.h"

#include <algorithm>
#include <optional>

namespace partplay {
namespace {

using cosmosql::Expr;
using cosmosql::ExprKind;
using cosmosql::Op;
using cosmosql::Query;
using cosmosql::Value;

void Conjuncts(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == ExprKind::kBinary && e.op == Op::kAnd) {
    for (const Expr& c : e.children) Conjuncts(c, out);
  } else {
    out.push_back(&e);
  }
}

// A path of the item (not the item itself), or nullopt.
std::optional<std::string> ItemPath(const Expr& e, const Query& q) {
  if (e.kind != ExprKind::kPath) return std::nullopt;
  std::optional<std::string> p = cosmosql::PathAsPointer(e, q);
  if (!p || p->empty()) return std::nullopt;
  return p;
}

void AddValue(std::vector<Value>& values, const Value& v) {
  if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
}

// A literal or parameter operand, added to `pin`; false for anything else. Undefined is not a
// value a property holds (`c.k = undefined` is never true): it adds nothing.
bool AddOperand(const Expr& e, const cosmosql::Parameters* bound, PinnedPath& pin) {
  if (e.kind == ExprKind::kLiteral) {
    if (e.literal.is_defined()) AddValue(pin.values, e.literal);
    return true;
  }
  if (e.kind == ExprKind::kParameter) {
    if (bound != nullptr) {
      auto it = bound->find(e.name);
      if (it != bound->end()) {
        if (it->second.is_defined()) AddValue(pin.values, it->second);
        return true;
      }
    }
    if (std::find(pin.parameters.begin(), pin.parameters.end(), e.name) == pin.parameters.end()) {
      pin.parameters.push_back(e.name);
    }
    return true;
  }
  return false;
}

// One condition that pins one path: `path = v`, `v = path`, `path IN (v, ...)`, or an OR of
// such on the same path.
std::optional<PinnedPath> Condition(const Expr& e, const Query& q,
                                    const cosmosql::Parameters* bound) {
  PinnedPath pin;
  if (e.kind == ExprKind::kBinary && e.op == Op::kEqual && e.children.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      std::optional<std::string> p = ItemPath(e.children[side], q);
      if (p && AddOperand(e.children[1 - side], bound, pin)) {
        pin.pointer = *p;
        return pin;
      }
      pin = PinnedPath{};
    }
    return std::nullopt;
  }
  if (e.kind == ExprKind::kIn && !e.negated && !e.children.empty()) {
    std::optional<std::string> p = ItemPath(e.children[0], q);
    if (!p) return std::nullopt;
    pin.pointer = *p;
    for (size_t i = 1; i < e.children.size(); ++i) {
      if (!AddOperand(e.children[i], bound, pin)) return std::nullopt;
    }
    return pin;
  }
  if (e.kind == ExprKind::kBinary && e.op == Op::kOr) {
    for (const Expr& c : e.children) {
      std::optional<PinnedPath> one = Condition(c, q, bound);
      if (!one || (!pin.pointer.empty() && one->pointer != pin.pointer)) return std::nullopt;
      pin.pointer = one->pointer;
      for (const Value& v : one->values) AddValue(pin.values, v);
      for (const std::string& name : one->parameters) {
        if (std::find(pin.parameters.begin(), pin.parameters.end(), name) ==
            pin.parameters.end()) {
          pin.parameters.push_back(name);
        }
      }
    }
    return pin.pointer.empty() ? std::nullopt : std::optional<PinnedPath>(pin);
  }
  return std::nullopt;
}

void CollectParameters(const Expr& e, std::vector<std::string>& names) {
  if (e.kind == ExprKind::kParameter &&
      std::find(names.begin(), names.end(), e.name) == names.end()) {
    names.push_back(e.name);
  }
  for (const Expr& c : e.children) CollectParameters(c, names);
}

// The path a parameter is compared with by '=' or IN anywhere in `e`.
void FindSources(const Expr& e, const Query& q, std::vector<ParameterSource>& sources) {
  const auto note = [&](const Expr& path, const Expr& operand) {
    if (operand.kind != ExprKind::kParameter) return;
    std::optional<std::string> p = ItemPath(path, q);
    if (!p) return;
    for (ParameterSource& s : sources) {
      if (s.name == operand.name && s.pointer.empty()) s.pointer = *p;
    }
  };
  if (e.kind == ExprKind::kBinary && e.op == Op::kEqual && e.children.size() == 2) {
    note(e.children[0], e.children[1]);
    note(e.children[1], e.children[0]);
  }
  if (e.kind == ExprKind::kIn && !e.children.empty()) {
    for (size_t i = 1; i < e.children.size(); ++i) note(e.children[0], e.children[i]);
  }
  for (const Expr& c : e.children) FindSources(c, q, sources);
}

}  // namespace

std::vector<PinnedPath> PinnedPaths(const Query& query, const cosmosql::Parameters* bound) {
  std::vector<PinnedPath> pins;
  if (!query.where_clause || !query.from || query.from->kind != cosmosql::FromSource::Kind::kAliased) {
    return pins;
  }
  std::vector<const Expr*> conjuncts;
  Conjuncts(*query.where_clause, conjuncts);
  for (const Expr* c : conjuncts) {
    std::optional<PinnedPath> pin = Condition(*c, query, bound);
    if (!pin) continue;
    auto same = std::find_if(pins.begin(), pins.end(),
                             [&](const PinnedPath& p) { return p.pointer == pin->pointer; });
    if (same == pins.end()) {
      pins.push_back(std::move(*pin));
      continue;
    }
    // Both literal: a value must satisfy both conditions.
    if (same->parameters.empty() && pin->parameters.empty()) {
      std::vector<Value> both;
      for (const Value& v : same->values) {
        if (std::find(pin->values.begin(), pin->values.end(), v) != pin->values.end()) {
          both.push_back(v);
        }
      }
      same->values = std::move(both);
    }
  }
  return pins;
}

std::vector<ParameterSource> QueryParameters(const Query& query) {
  std::vector<std::string> names;
  if (query.from) CollectParameters(query.from->expr, names);
  for (const cosmosql::FromSource& j : query.joins) CollectParameters(j.expr, names);
  if (query.where_clause) CollectParameters(*query.where_clause, names);
  const size_t filtering = names.size();
  for (const std::optional<cosmosql::QueryCount>* count : {&query.top, &query.offset, &query.limit}) {
    if (*count && !(*count)->parameter.empty() &&
        std::find(names.begin(), names.end(), (*count)->parameter) == names.end()) {
      names.push_back((*count)->parameter);
    }
  }
  std::vector<ParameterSource> sources;
  for (size_t i = 0; i < names.size(); ++i) {
    sources.push_back({std::move(names[i]), {}, i < filtering});
  }
  if (query.where_clause && query.from &&
      query.from->kind == cosmosql::FromSource::Kind::kAliased) {
    FindSources(*query.where_clause, query, sources);
  }
  return sources;
}

}  // namespace partplay
