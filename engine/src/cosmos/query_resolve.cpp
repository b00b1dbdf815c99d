// Identifier resolution and aggregate placement of a parsed Cosmos DB for NoSQL query (query.h):
// a path's root must be an alias of the FROM clause, of a JOIN before it, or of an enclosing query
// (learn.microsoft.com/azure/cosmos-db/nosql/query/from: once aliased, the container name can't
// be bound, and every property is qualified by an alias; otherwise SC2001 "Identifier 'x' could
// not be resolved."); aliases are unique; aggregates stand only in SELECT and never around another
// aggregate or a subquery (SC2101, the service's wording in the .NET SDK's
// QueryPartitionProviderTest.Negative.xml baseline).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "cosmos/query_internal.h"
#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {
namespace {

struct Scope {
  const Scope* outer = nullptr;
  std::vector<std::string> aliases;
  bool Has(std::string_view name) const {
    for (const Scope* s = this; s != nullptr; s = s->outer) {
      for (const std::string& a : s->aliases) {
        if (a == name) return true;
      }
    }
    return false;
  }
};

Status Unresolved(const Expr& e) {
  return Status(ErrorCode::kQuerySyntax,
                fmt::format("SC2001: Identifier '{}' could not be resolved.", e.name), e.where);
}

Status ResolveQuery(const Query& q, const Scope* outer, bool outermost);

// Checks every path root and call of `e`. `aggregate` is where an aggregate may stand (the
// SELECT clause, outside any aggregate); `enclosing` the aggregate call `e` is inside, if any.
Status ResolveExpr(const Expr& e, const Scope& scope, bool aggregate, const Expr* enclosing) {
  switch (e.kind) {
    case ExprKind::kPath:
      if (!scope.Has(e.name)) return Unresolved(e);
      return Status::Ok();
    case ExprKind::kSubquery:
    case ExprKind::kExists:
    case ExprKind::kArraySubquery:
      if (enclosing != nullptr) break;
      return ResolveQuery(*e.subquery, &scope, false);
    case ExprKind::kCall:
      if (!e.udf) {
        const BuiltinInfo* f = FindBuiltin(e.name);
        if (f != nullptr && f->cls == FunctionClass::kAggregate) {
          if (enclosing != nullptr) break;
          if (!aggregate) {
            return Status(ErrorCode::kQuerySyntax,
                          fmt::format("The aggregate function {} may appear only in the SELECT "
                                      "clause.",
                                      e.name),
                          e.where);
          }
          enclosing = &e;
        }
      }
      [[fallthrough]];
    default:
      for (const Expr& c : e.children) {
        PARTPLAY_RETURN_IF_ERROR(ResolveExpr(c, scope, aggregate, enclosing));
      }
      return Status::Ok();
  }
  return Status(ErrorCode::kQuerySyntax,
                "SC2101: Cannot perform an aggregate function on an expression containing an "
                "aggregate or a subquery.",
                enclosing->where);
}

Status AddAlias(Scope& scope, const FromSource& s) {
  if (s.alias.empty()) return Status::Ok();  // an unnamed subquery source: nothing refers to it
  for (const std::string& a : scope.aliases) {
    if (a == s.alias) {
      return Status(ErrorCode::kQuerySyntax,
                    fmt::format("The alias '{}' is given to two FROM or JOIN sources; each needs "
                                "its own.",
                                s.alias),
                    s.where);
    }
  }
  scope.aliases.push_back(s.alias);
  return Status::Ok();
}

Status ResolveSource(const FromSource& s, const Scope& scope, bool container) {
  if (s.expr.kind == ExprKind::kSubquery) return ResolveQuery(*s.expr.subquery, &scope, false);
  // The outermost FROM names the container (any name, or ROOT); every other source starts at an
  // alias in scope.
  if (!container && !scope.Has(s.expr.name)) return Unresolved(s.expr);
  return Status::Ok();
}

Status ResolveQuery(const Query& q, const Scope* outer, bool outermost) {
  Scope scope;
  scope.outer = outer;
  if (q.from) {
    PARTPLAY_RETURN_IF_ERROR(ResolveSource(*q.from, scope, outermost));
    PARTPLAY_RETURN_IF_ERROR(AddAlias(scope, *q.from));
  }
  for (const FromSource& j : q.joins) {
    PARTPLAY_RETURN_IF_ERROR(ResolveSource(j, scope, false));
    PARTPLAY_RETURN_IF_ERROR(AddAlias(scope, j));
  }
  for (const SelectItem& i : q.items) {
    PARTPLAY_RETURN_IF_ERROR(ResolveExpr(i.expr, scope, true, nullptr));
  }
  if (q.where_clause) PARTPLAY_RETURN_IF_ERROR(ResolveExpr(*q.where_clause, scope, false, nullptr));
  for (const Expr& g : q.group_by) PARTPLAY_RETURN_IF_ERROR(ResolveExpr(g, scope, false, nullptr));
  for (const OrderByItem& o : q.order_by) {
    PARTPLAY_RETURN_IF_ERROR(ResolveExpr(o.expr, scope, false, nullptr));
  }
  return Status::Ok();
}

}  // namespace

Status ResolveQuery(const Query& query) { return ResolveQuery(query, nullptr, true); }

}  // namespace partplay::cosmosql
