// The evaluator of a Cosmos DB for NoSQL query's FROM, JOIN and WHERE clauses over one item at a
// time (query.h). The query is compiled once into a tree of nodes (parameters and constant
// arrays and objects folded, paths bound to alias slots, LIKE patterns and constant IN lists
// prepared), then each item is walked straight from its simdjson DOM. Semantics, from
// learn.microsoft.com/azure/cosmos-db/nosql/query/:
// - logical-operators: AND is false if either side is false, true if both are true, else
//   undefined; OR is true if either side is true, false if both are false, else undefined; NOT
//   reverses a boolean and leaves anything else undefined. A non-boolean operand counts as
//   undefined.
// - equality-comparison-operators: comparing different types gives undefined, as does ordering
//   arrays or objects; a WHERE that is not exactly true drops the row.
// - ternary-coalesce-operators: c ? a : b is undefined unless c is a boolean; a ?? b is b when a
//   is undefined. query/keywords: BETWEEN is inclusive and follows the comparison rules; IN is true
//   when the value equals one of the list; LIKE's % _ [a-f] [^a-f] and ESCAPE.
// - bitwise-operators: numbers become 32-bit signed integers first, as in JavaScript.
// - query/from, query/join: a source that is undefined gives no row; `x IN expr` iterates an array
// and
//   ignores anything else; each JOIN multiplies the rows (inner join).
// Arithmetic is IEEE double (query/is-finite-number: 8.9 / 0.0 is a number, not finite); an
// operand of the wrong type gives undefined. Two choices the docs do not settle: IN is undefined
// only when its left side is undefined, else true or false (NOT IN of a value of another type
// is true); a query without FROM reads no item, so Rows is 0 for every item.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>

#include "cosmos/query_internal.h"
#include "partplay/core/limits.h"
#include "partplay/core/utf8.h"
#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {
namespace {

// ---- LIKE ----

struct LikeItem {
  enum class Kind : uint8_t { kAny, kOne, kChar, kSet };
  Kind kind = Kind::kChar;
  bool negated = false;
  uint32_t cp = 0;
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // kSet: inclusive code point ranges
};
using LikePattern = std::vector<LikeItem>;

std::vector<uint32_t> CodePoints(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    size_t len = 0;
    out.push_back(CodePointAt(s, i, len));
    i += len;
  }
  return out;
}

// query/keywords "LIKE": % any run, _ any one character, [set] or [a-f] one of them, [^...] one not
// of them, ESCAPE c makes the next character literal. A '[' with no ']' after it is literal.
LikePattern CompileLike(std::string_view pattern, std::optional<uint32_t> escape) {
  std::vector<uint32_t> p = CodePoints(pattern);
  LikePattern out;
  for (size_t i = 0; i < p.size(); ++i) {
    LikeItem item;
    uint32_t c = p[i];
    if (escape && c == *escape) {
      item.cp = i + 1 < p.size() ? p[++i] : c;
    } else if (c == '%') {
      if (!out.empty() && out.back().kind == LikeItem::Kind::kAny) continue;
      item.kind = LikeItem::Kind::kAny;
    } else if (c == '_') {
      item.kind = LikeItem::Kind::kOne;
    } else if (c == '[') {
      size_t j = i + 1;
      bool negated = j < p.size() && p[j] == '^';
      if (negated) ++j;
      size_t close = j;
      while (close < p.size() && p[close] != ']') ++close;
      if (close >= p.size() || close == j) {
        item.cp = c;
      } else {
        item.kind = LikeItem::Kind::kSet;
        item.negated = negated;
        for (size_t k = j; k < close; ++k) {
          if (k + 2 < close && p[k + 1] == '-') {
            item.ranges.emplace_back(std::min(p[k], p[k + 2]), std::max(p[k], p[k + 2]));
            k += 2;
          } else {
            item.ranges.emplace_back(p[k], p[k]);
          }
        }
        i = close;
      }
    } else {
      item.cp = c;
    }
    out.push_back(std::move(item));
  }
  return out;
}

bool Accepts(const LikeItem& item, uint32_t cp) {
  switch (item.kind) {
    case LikeItem::Kind::kOne:
      return true;
    case LikeItem::Kind::kChar:
      return item.cp == cp;
    case LikeItem::Kind::kSet: {
      bool in = false;
      for (const auto& [lo, hi] : item.ranges) in = in || (cp >= lo && cp <= hi);
      return in != item.negated;
    }
    case LikeItem::Kind::kAny:
      return false;
  }
  return false;
}

// The greedy wildcard match with one backtrack point per '%' (the last one seen suffices).
bool MatchLike(const LikePattern& p, std::string_view s) {
  size_t si = 0, pi = 0, star = SIZE_MAX, star_si = 0;
  while (si < s.size()) {
    size_t len = 0;
    uint32_t cp = CodePointAt(s, si, len);
    if (pi < p.size() && p[pi].kind == LikeItem::Kind::kAny) {
      star = pi++;
      star_si = si;
    } else if (pi < p.size() && Accepts(p[pi], cp)) {
      si += len;
      ++pi;
    } else if (star != SIZE_MAX) {
      pi = star + 1;
      CodePointAt(s, star_si, len);
      si = star_si += len;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi].kind == LikeItem::Kind::kAny) ++pi;
  return pi == p.size();
}

// ---- compiled nodes ----

enum class NodeKind : uint8_t {
  kConst,
  kPath,
  kMember,
  kArray,
  kObject,
  kUnary,
  kBinary,
  kAnd,
  kOr,
  kBetween,
  kIn,
  kLike,
  kTernary,
  kCoalesce,
  kCall,
};

struct Node {
  NodeKind kind = NodeKind::kConst;
  Op op = Op::kNone;
  bool negated = false;
  Val constant;
  size_t slot = 0;
  const std::vector<PathStep>* steps = nullptr;
  const std::vector<std::string>* keys = nullptr;
  BuiltinFn fn = nullptr;
  std::vector<Node> kids;
  // kIn: constant numbers and strings of the list, sorted; the rest stay in kids.
  std::vector<double> in_numbers;
  std::vector<std::string_view> in_strings;
  // kLike: the pattern when it is a constant string.
  std::optional<LikePattern> pattern;
  std::optional<uint32_t> escape;
};

Status NotEvaluated(const Expr& e, std::string what) {
  return Status(ErrorCode::kQuerySyntax,
                fmt::format("{} not evaluated by the playground (the query parses; its rows "
                            "cannot be counted).",
                            what),
                e.where);
}

int32_t ToInt32(double n) {
  if (!std::isfinite(n)) return 0;
  double m = std::fmod(std::trunc(n), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<int32_t>(static_cast<uint32_t>(m));
}

}  // namespace

struct QueryEvaluator::Impl {
  std::shared_ptr<const Query> query;
  std::deque<Value> owned;  // parameter values and folded constants (stable addresses)
  std::vector<std::pair<std::string, size_t>> slots;  // alias -> slot (0 is the item)
  Parameters parameters;
  size_t unbound_slot = 0;  // never bound: a path whose root is no alias of the query
  Node from;
  std::vector<Node> joins;
  std::optional<Node> where;
  Scratch scratch;
  std::vector<Val> bound;
  uint64_t enumerated = 0;
  int64_t item_index = -1;
  Status failure;

  // ---- compiling ----

  StatusOr<Node> Compile(const Expr& e) {
    Node n;
    switch (e.kind) {
      case ExprKind::kLiteral:
        n.constant = ValOf(e.literal);
        return n;
      case ExprKind::kParameter: {
        auto it = parameters.find(e.name);
        if (it == parameters.end()) {
          return Status(ErrorCode::kQuerySyntax,
                        fmt::format("Parameter '{}' is not given a value.", e.name), e.where);
        }
        n.constant = ValOf(owned.emplace_back(it->second));
        return n;
      }
      case ExprKind::kPath:
        n.kind = NodeKind::kPath;
        n.steps = &e.steps;
        n.slot = unbound_slot;
        for (const auto& [alias, slot] : slots) {
          if (alias == e.name) n.slot = slot;
        }
        return n;
      case ExprKind::kSubquery:
      case ExprKind::kExists:
      case ExprKind::kArraySubquery:
        return NotEvaluated(e, "A subquery is");
      case ExprKind::kCall:
        if (e.udf)
          return NotEvaluated(e, fmt::format("udf.{}: user-defined functions are", e.name));
        if (const BuiltinInfo* f = FindBuiltin(e.name); f != nullptr && f->fn != nullptr) {
          n.kind = NodeKind::kCall;
          n.fn = f->fn;
          break;
        }
        return NotEvaluated(e, fmt::format("{} is", e.name));
      case ExprKind::kMember:
        n.kind = NodeKind::kMember;
        break;
      case ExprKind::kArray:
        n.kind = NodeKind::kArray;
        break;
      case ExprKind::kObject:
        n.kind = NodeKind::kObject;
        n.keys = &e.keys;
        break;
      case ExprKind::kUnary:
        n.kind = NodeKind::kUnary;
        break;
      case ExprKind::kBinary:
        n.kind = e.op == Op::kAnd  ? NodeKind::kAnd
                 : e.op == Op::kOr ? NodeKind::kOr
                                   : NodeKind::kBinary;
        break;
      case ExprKind::kBetween:
        n.kind = NodeKind::kBetween;
        break;
      case ExprKind::kIn:
        n.kind = NodeKind::kIn;
        break;
      case ExprKind::kLike:
        n.kind = NodeKind::kLike;
        break;
      case ExprKind::kTernary:
        n.kind = NodeKind::kTernary;
        break;
      case ExprKind::kCoalesce:
        n.kind = NodeKind::kCoalesce;
        break;
    }
    n.op = e.op;
    n.negated = e.negated;
    for (const Expr& c : e.children) {
      PARTPLAY_ASSIGN_OR_RETURN(Node k, Compile(c));
      n.kids.push_back(std::move(k));
    }
    bool constant_kids = std::all_of(n.kids.begin(), n.kids.end(),
                                     [](const Node& k) { return k.kind == NodeKind::kConst; });
    if ((n.kind == NodeKind::kArray || n.kind == NodeKind::kObject) && constant_kids) {
      Node c;
      c.constant = Build(n, nullptr);
      return c;
    }
    if (n.kind == NodeKind::kIn) PrepareIn(n);
    if (n.kind == NodeKind::kLike) {
      if (e.escape) {
        size_t len = 0;
        n.escape = CodePointAt(*e.escape, 0, len);
      }
      const Node& p = n.kids[1];
      if (p.kind == NodeKind::kConst && p.constant.is(ValueKind::kString)) {
        n.pattern = CompileLike(p.constant.s, n.escape);
      }
    }
    return n;
  }

  static void PrepareIn(Node& n) {
    std::vector<Node> rest;
    rest.push_back(std::move(n.kids[0]));
    for (size_t k = 1; k < n.kids.size(); ++k) {
      Node& item = n.kids[k];
      if (item.kind == NodeKind::kConst && item.constant.is(ValueKind::kNumber) &&
          !std::isnan(item.constant.n)) {
        n.in_numbers.push_back(item.constant.n);
      } else if (item.kind == NodeKind::kConst && item.constant.is(ValueKind::kString)) {
        n.in_strings.push_back(item.constant.s);
      } else {
        rest.push_back(std::move(item));
      }
    }
    n.kids = std::move(rest);
    std::sort(n.in_numbers.begin(), n.in_numbers.end());
    std::sort(n.in_strings.begin(), n.in_strings.end());
  }

  // ---- evaluating ----

  // An array or object node's value; `scratch` null while folding constants.
  Val Build(const Node& n, Scratch* s) {
    Value built;
    if (n.kind == NodeKind::kArray) {
      std::vector<Value> elements;
      for (const Node& k : n.kids) {
        Val v = Eval(k);
        // query/constants: an array element or object value is never undefined; it is left out.
        if (!v.is(ValueKind::kUndefined)) elements.push_back(ToValue(v));
      }
      built = Value::Array(std::move(elements));
    } else {
      std::vector<ObjectMember> members;
      for (size_t k = 0; k < n.kids.size(); ++k) {
        Val v = Eval(n.kids[k]);
        if (!v.is(ValueKind::kUndefined)) members.push_back({(*n.keys)[k], ToValue(v)});
      }
      built = Value::Object(std::move(members));
    }
    Value& home = s != nullptr ? s->NewValue() : owned.emplace_back();
    home = std::move(built);
    return ValOf(home);
  }

  Val Eval(const Node& n) {
    switch (n.kind) {
      case NodeKind::kConst:
        return n.constant;
      case NodeKind::kPath: {
        Val v = bound[n.slot];
        for (const PathStep& s : *n.steps) {
          if (v.is(ValueKind::kUndefined)) break;
          v = s.kind == PathStep::Kind::kName ? MemberOf(v, s.name) : ElementOf(v, s.index);
        }
        return v;
      }
      case NodeKind::kMember: {
        Val base = Eval(n.kids[0]);
        Val index = Eval(n.kids[1]);
        if (index.is(ValueKind::kString)) return MemberOf(base, index.s);
        if (index.is(ValueKind::kNumber) && index.n >= 0 && index.n == std::trunc(index.n) &&
            index.n < 4294967296.0) {
          return ElementOf(base, static_cast<uint64_t>(index.n));
        }
        return Val();
      }
      case NodeKind::kArray:
      case NodeKind::kObject:
        return Build(n, &scratch);
      case NodeKind::kUnary:
        return Unary(n.op, Eval(n.kids[0]));
      case NodeKind::kBinary: {
        Val acc = Eval(n.kids[0]);
        for (size_t k = 1; k < n.kids.size(); ++k) acc = Binary(n.op, acc, Eval(n.kids[k]));
        return acc;
      }
      case NodeKind::kAnd:
      case NodeKind::kOr: {
        // AND: a false decides; OR: a true decides. Anything not a boolean is undefined.
        bool decisive = n.kind == NodeKind::kOr;
        bool undefined = false;
        for (const Node& k : n.kids) {
          Val v = Eval(k);
          if (!v.is(ValueKind::kBool)) {
            undefined = true;
          } else if (v.b == decisive) {
            return Val::Bool(decisive);
          }
        }
        return undefined ? Val() : Val::Bool(!decisive);
      }
      case NodeKind::kBetween: {
        Val x = Eval(n.kids[0]);
        std::optional<int> low = CompareOrder(x, Eval(n.kids[1]));
        std::optional<int> high = CompareOrder(x, Eval(n.kids[2]));
        if (!low || !high) return Val();
        bool in = *low != kUnordered && *high != kUnordered && *low >= 0 && *high <= 0;
        return Val::Bool(in != n.negated);
      }
      case NodeKind::kIn: {
        Val x = Eval(n.kids[0]);
        if (x.is(ValueKind::kUndefined)) return Val();
        bool found = false;
        if (x.is(ValueKind::kNumber) && !std::isnan(x.n)) {
          found = std::binary_search(n.in_numbers.begin(), n.in_numbers.end(), x.n);
        } else if (x.is(ValueKind::kString)) {
          found = std::binary_search(n.in_strings.begin(), n.in_strings.end(), x.s);
        }
        for (size_t k = 1; !found && k < n.kids.size(); ++k) {
          found = EqualsTri(x, Eval(n.kids[k])) == Tri::kTrue;
        }
        return Val::Bool(found != n.negated);
      }
      case NodeKind::kLike: {
        Val s = Eval(n.kids[0]);
        Val p = n.pattern ? Val() : Eval(n.kids[1]);
        if (!s.is(ValueKind::kString) || (!n.pattern && !p.is(ValueKind::kString))) return Val();
        bool match =
            n.pattern ? MatchLike(*n.pattern, s.s) : MatchLike(CompileLike(p.s, n.escape), s.s);
        return Val::Bool(match != n.negated);
      }
      case NodeKind::kTernary: {
        Val c = Eval(n.kids[0]);
        if (!c.is(ValueKind::kBool)) return Val();
        return Eval(n.kids[c.b ? 1 : 2]);
      }
      case NodeKind::kCoalesce:
        for (const Node& k : n.kids) {
          Val v = Eval(k);
          if (!v.is(ValueKind::kUndefined)) return v;
        }
        return Val();
      case NodeKind::kCall: {
        Val small[8];
        std::vector<Val> many;
        Val* args = small;
        if (n.kids.size() > 8) {
          many.resize(n.kids.size());
          args = many.data();
        }
        for (size_t k = 0; k < n.kids.size(); ++k) args[k] = Eval(n.kids[k]);
        return n.fn(scratch, args, n.kids.size());
      }
    }
    return Val();
  }

  static Val Unary(Op op, const Val& v) {
    switch (op) {
      case Op::kNot:
        return v.is(ValueKind::kBool) ? Val::Bool(!v.b) : Val();
      case Op::kNegate:
        return v.is(ValueKind::kNumber) ? Val::Number(-v.n) : Val();
      case Op::kPlus:
        return v.is(ValueKind::kNumber) ? v : Val();
      case Op::kBitNot:
        return v.is(ValueKind::kNumber) ? Val::Number(~ToInt32(v.n)) : Val();
      default:
        return Val();
    }
  }

  Val Binary(Op op, const Val& a, const Val& b) {
    switch (op) {
      case Op::kEqual:
      case Op::kNotEqual: {
        Tri t = EqualsTri(a, b);
        if (t == Tri::kUndefined) return Val();
        return Val::Bool((t == Tri::kTrue) == (op == Op::kEqual));
      }
      case Op::kLess:
      case Op::kLessEqual:
      case Op::kGreater:
      case Op::kGreaterEqual: {
        std::optional<int> c = CompareOrder(a, b);
        if (!c) return Val();
        if (*c == kUnordered) return Val::Bool(false);
        bool r = op == Op::kLess        ? *c < 0
                 : op == Op::kLessEqual ? *c <= 0
                 : op == Op::kGreater   ? *c > 0
                                        : *c >= 0;
        return Val::Bool(r);
      }
      case Op::kConcat: {
        if (!a.is(ValueKind::kString) || !b.is(ValueKind::kString)) return Val();
        std::string& out = scratch.NewString();
        out.append(a.s);
        out.append(b.s);
        return Val::String(out);
      }
      default:
        break;
    }
    if (!a.is(ValueKind::kNumber) || !b.is(ValueKind::kNumber)) return Val();
    double x = a.n, y = b.n;
    switch (op) {
      case Op::kAdd:
        return Val::Number(x + y);
      case Op::kSubtract:
        return Val::Number(x - y);
      case Op::kMultiply:
        return Val::Number(x * y);
      case Op::kDivide:
        return Val::Number(x / y);
      case Op::kModulo:
        return Val::Number(std::fmod(x, y));
      case Op::kBitAnd:
        return Val::Number(ToInt32(x) & ToInt32(y));
      case Op::kBitOr:
        return Val::Number(ToInt32(x) | ToInt32(y));
      case Op::kBitXor:
        return Val::Number(ToInt32(x) ^ ToInt32(y));
      case Op::kLeftShift:
        return Val::Number(static_cast<int32_t>(static_cast<uint32_t>(ToInt32(x))
                                                << (static_cast<uint32_t>(ToInt32(y)) & 31)));
      case Op::kRightShift:
        return Val::Number(ToInt32(x) >> (static_cast<uint32_t>(ToInt32(y)) & 31));
      case Op::kZeroFillRightShift:
        return Val::Number(static_cast<uint32_t>(ToInt32(x)) >>
                           (static_cast<uint32_t>(ToInt32(y)) & 31));
      default:
        return Val();
    }
  }

  // ---- rows ----

  bool Bind(size_t slot, const Val& v) {
    if (++enumerated > static_cast<uint64_t>(kCosmosQueryMaxJoinRowsPerItem)) {
      SourceLocation where;
      where.item_index = item_index;
      failure = Status(ErrorCode::kQuerySyntax,
                       fmt::format("Item {} gives more than {:.0f} rows through the query's FROM "
                                   "and JOINs (cosmos_query_max_join_rows_per_item).",
                                   item_index, kCosmosQueryMaxJoinRowsPerItem),
                       where);
      return false;
    }
    bound[slot] = v;
    return true;
  }

  // Calls f for each row `source` gives (one per defined value, or one per element behind IN);
  // false when a bound was passed.
  template <typename F>
  bool EachRow(const FromSource& source, const Node& node, size_t slot, F f) {
    Val v = Eval(node);
    if (source.kind == FromSource::Kind::kAliased) {
      if (v.is(ValueKind::kUndefined)) return true;
      return Bind(slot, v) && f();
    }
    bool ok = true;
    ForEachElement(v, [&](const Val& e) {
      ok = Bind(slot, e) && f();
      return ok;
    });
    return ok;
  }

  bool Joins(size_t j, uint64_t& rows) {
    if (j == joins.size()) {
      if (!where) {
        ++rows;
        return true;
      }
      Val w = Eval(*where);
      rows += w.is(ValueKind::kBool) && w.b;
      return true;
    }
    return EachRow(query->joins[j], joins[j], j + 2, [&] { return Joins(j + 1, rows); });
  }
};

QueryEvaluator::QueryEvaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
QueryEvaluator::QueryEvaluator(QueryEvaluator&&) noexcept = default;
QueryEvaluator& QueryEvaluator::operator=(QueryEvaluator&&) noexcept = default;
QueryEvaluator::~QueryEvaluator() = default;

StatusOr<QueryEvaluator> QueryEvaluator::Create(const Query& query, const Parameters& parameters) {
  auto impl = std::make_unique<Impl>();
  impl->query = std::make_shared<const Query>(query);
  impl->parameters = parameters;
  const Query& q = *impl->query;
  impl->unbound_slot = q.joins.size() + 2;
  impl->bound.resize(q.joins.size() + 3);
  if (q.from) {
    if (q.from->expr.kind == ExprKind::kSubquery) {
      return NotEvaluated(q.from->expr, "A subquery in FROM is");
    }
    // The FROM source is a path from the item itself (slot 0); its alias is slot 1.
    PARTPLAY_ASSIGN_OR_RETURN(impl->from, impl->Compile(q.from->expr));
    impl->from.slot = 0;
    impl->slots.emplace_back(q.from->alias, 1);
    for (size_t j = 0; j < q.joins.size(); ++j) {
      if (q.joins[j].expr.kind == ExprKind::kSubquery) {
        return NotEvaluated(q.joins[j].expr, "A subquery in JOIN is");
      }
      PARTPLAY_ASSIGN_OR_RETURN(Node join, impl->Compile(q.joins[j].expr));
      impl->joins.push_back(std::move(join));
      impl->slots.emplace_back(q.joins[j].alias, j + 2);
    }
  }
  if (q.where_clause) {
    PARTPLAY_ASSIGN_OR_RETURN(impl->where, impl->Compile(*q.where_clause));
  }
  return QueryEvaluator(std::move(impl));
}

StatusOr<uint64_t> QueryEvaluator::Rows(simdjson::dom::element item, int64_t item_index) {
  Impl& m = *impl_;
  const Query& q = *m.query;
  if (!q.from) return uint64_t{0};
  m.scratch.Reset();
  m.enumerated = 0;
  m.item_index = item_index;
  m.bound[0] = ValOf(item);
  uint64_t rows = 0;
  if (!m.EachRow(*q.from, m.from, 1, [&] { return m.Joins(0, rows); })) return m.failure;
  return rows;
}

StatusOr<Value> QueryEvaluator::Evaluate(const Expr& expr, simdjson::dom::element item) {
  Impl& m = *impl_;
  PARTPLAY_ASSIGN_OR_RETURN(Node node, m.Compile(expr));
  m.scratch.Reset();
  std::fill(m.bound.begin(), m.bound.end(), Val());
  m.bound[0] = ValOf(item);
  const Query& q = *m.query;
  // Each alias is bound to its first row (an alias with none stays undefined).
  if (q.from) {
    auto first = [&](const FromSource& s, const Node& n, size_t slot) {
      Val v = m.Eval(n);
      m.bound[slot] = s.kind == FromSource::Kind::kAliased ? v : ElementOf(v, 0);
    };
    first(*q.from, m.from, 1);
    for (size_t j = 0; j < q.joins.size(); ++j) first(q.joins[j], m.joins[j], j + 2);
  }
  return ToValue(m.Eval(node));
}

StatusOr<uint64_t> Rows(const Query& query, const Parameters& parameters,
                        simdjson::dom::element item) {
  PARTPLAY_ASSIGN_OR_RETURN(QueryEvaluator evaluator, QueryEvaluator::Create(query, parameters));
  return evaluator.Rows(item);
}

}  // namespace partplay::cosmosql
