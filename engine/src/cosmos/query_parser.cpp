// The Cosmos DB for NoSQL query parser: tokens (query_lexer.cpp) to the AST of query.h, with
// the checks made while reading: built-in names and their number of arguments (SC2005, SC2050)
// and the limits of core/limits.h; query_resolve.cpp then resolves identifiers. The grammar is
// the service's as the .NET SDK's sql.g4 writes it (query.h says where this departs from it).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "cosmos/query_internal.h"
#include "cosmos/query_lexer.h"
#include "partplay/core/limits.h"
#include "partplay/core/utf8.h"
#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {
namespace {

// The binary operator levels, loosest first (sql.g4's binary_scalar_expression, with the shifts
// of query/bitwise-operators between the additive and relational levels).
constexpr int kBinaryLevels = 9;
int BinaryLevel(Op op) {
  switch (op) {
    case Op::kConcat:
      return 0;
    case Op::kBitOr:
      return 1;
    case Op::kBitXor:
      return 2;
    case Op::kBitAnd:
      return 3;
    case Op::kEqual:
    case Op::kNotEqual:
      return 4;
    case Op::kLess:
    case Op::kLessEqual:
    case Op::kGreater:
    case Op::kGreaterEqual:
      return 5;
    case Op::kLeftShift:
    case Op::kRightShift:
    case Op::kZeroFillRightShift:
      return 6;
    case Op::kAdd:
    case Op::kSubtract:
      return 7;
    case Op::kMultiply:
    case Op::kDivide:
    case Op::kModulo:
      return 8;
    default:
      return -1;
  }
}

Op BinaryOpOf(const QueryToken& t) {
  if (t.kind != TokenKind::kSymbol) return Op::kNone;
  static constexpr std::pair<std::string_view, Op> kOps[] = {
      {"||", Op::kConcat},       {"|", Op::kBitOr},
      {"^", Op::kBitXor},        {"&", Op::kBitAnd},
      {"=", Op::kEqual},         {"!=", Op::kNotEqual},
      {"<>", Op::kNotEqual},     {"<", Op::kLess},
      {"<=", Op::kLessEqual},    {">", Op::kGreater},
      {">=", Op::kGreaterEqual}, {"<<", Op::kLeftShift},
      {">>", Op::kRightShift},   {">>>", Op::kZeroFillRightShift},
      {"+", Op::kAdd},           {"-", Op::kSubtract},
      {"*", Op::kMultiply},      {"/", Op::kDivide},
      {"%", Op::kModulo}};
  for (const auto& [text, op] : kOps) {
    if (t.text == text) return op;
  }
  return Op::kNone;
}

class Parser {
 public:
  explicit Parser(std::vector<QueryToken> tokens) : t_(std::move(tokens)) {}

  StatusOr<Query> Run() {
    Query q;
    PARTPLAY_RETURN_IF_ERROR(ParseBody(q));
    if (Cur().kind != TokenKind::kEnd) return Unexpected();
    return q;
  }

 private:
  // ---- tokens ----
  const QueryToken& Cur() const { return t_[pos_]; }
  const QueryToken& Ahead(size_t k) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  void Next() {
    if (pos_ + 1 < t_.size()) ++pos_;
  }
  bool IsSymbol(std::string_view s, size_t k = 0) const {
    const QueryToken& t = Ahead(k);
    return t.kind == TokenKind::kSymbol && t.text == s;
  }
  bool IsKeyword(Keyword kw, size_t k = 0) const {
    const QueryToken& t = Ahead(k);
    return t.kind == TokenKind::kKeyword && t.keyword == kw;
  }
  bool AcceptSymbol(std::string_view s) {
    if (!IsSymbol(s)) return false;
    Next();
    return true;
  }
  bool AcceptKeyword(Keyword kw) {
    if (!IsKeyword(kw)) return false;
    Next();
    return true;
  }
  Status ExpectSymbol(std::string_view s) { return AcceptSymbol(s) ? Status::Ok() : Unexpected(); }
  Status ExpectKeyword(Keyword kw) { return AcceptKeyword(kw) ? Status::Ok() : Unexpected(); }

  Status Error(SourceLocation where, std::string message) const {
    return Status(ErrorCode::kQuerySyntax, std::move(message), where);
  }
  // The service's answer to a token the grammar does not allow here.
  Status Unexpected() const {
    const QueryToken& t = Cur();
    if (t.kind == TokenKind::kEnd) {
      return Error(t.where, "SC1002: Syntax error, unexpected end-of-file.");
    }
    return Error(t.where, fmt::format("SC1001: Syntax error, incorrect syntax near '{}'.",
                                      PrintableText(t.source)));
  }

  StatusOr<std::string> Identifier() {
    if (Cur().kind != TokenKind::kIdentifier) return Unexpected();
    std::string name = Cur().text;
    Next();
    return name;
  }

  // ---- nodes ----
  Status Deeper() {
    if (++depth_ <= kCosmosQueryMaxNestingDepth) return Status::Ok();
    return TooDeep(Cur().where);
  }
  Status TooDeep(SourceLocation where) const {
    return Error(where, fmt::format("The query nests expressions more than {} deep "
                                    "(cosmos_query_max_nesting_depth).",
                                    kCosmosQueryMaxNestingDepth));
  }
  // Sets e.depth from its children and checks the bound.
  Status Seal(Expr& e) const {
    int depth = 1;
    for (const Expr& c : e.children) depth = std::max(depth, c.depth + 1);
    if (e.subquery) depth = std::max(depth, MaxDepth(*e.subquery) + 1);
    if (depth > kCosmosQueryMaxNestingDepth) return TooDeep(e.where);
    e.depth = static_cast<uint16_t>(depth);
    return Status::Ok();
  }
  static int MaxDepth(const Query& q) {
    int d = 0;
    auto see = [&](const Expr& e) { d = std::max<int>(d, e.depth); };
    for (const SelectItem& i : q.items) see(i.expr);
    if (q.from) see(q.from->expr);
    for (const FromSource& j : q.joins) see(j.expr);
    if (q.where_clause) see(*q.where_clause);
    for (const Expr& g : q.group_by) see(g);
    for (const OrderByItem& o : q.order_by) see(o.expr);
    return d;
  }

  // ---- the query ----
  Status ParseBody(Query& q) {
    q.where = Cur().where;
    PARTPLAY_RETURN_IF_ERROR(ExpectKeyword(Keyword::kSelect));
    q.distinct = AcceptKeyword(Keyword::kDistinct);
    if (IsKeyword(Keyword::kTop)) {
      Next();
      PARTPLAY_ASSIGN_OR_RETURN(q.top, Count("TOP"));
    }
    if (AcceptSymbol("*")) {
      q.select = Query::Select::kStar;
    } else if (AcceptKeyword(Keyword::kValue)) {
      q.select = Query::Select::kValue;
      SelectItem item;
      PARTPLAY_ASSIGN_OR_RETURN(item.expr, Scalar());
      q.items.push_back(std::move(item));
    } else {
      q.select = Query::Select::kList;
      do {
        SelectItem item;
        PARTPLAY_ASSIGN_OR_RETURN(item.expr, Scalar());
        if (AcceptKeyword(Keyword::kAs)) {
          PARTPLAY_ASSIGN_OR_RETURN(item.alias, Identifier());
        }
        q.items.push_back(std::move(item));
      } while (AcceptSymbol(","));
    }
    for (const SelectItem& i : q.items) q.has_aggregates = q.has_aggregates || HasAggregate(i.expr);
    if (AcceptKeyword(Keyword::kFrom)) {
      PARTPLAY_ASSIGN_OR_RETURN(q.from, Source());
      while (IsKeyword(Keyword::kJoin)) {
        if (++joins_ > kCosmosQueryMaxJoins) {
          return Error(Cur().where, fmt::format("The query has more than {} JOINs, the most "
                                                "Cosmos DB allows (cosmos_query_max_joins).",
                                                kCosmosQueryMaxJoins));
        }
        Next();
        PARTPLAY_ASSIGN_OR_RETURN(FromSource join, Source());
        q.joins.push_back(std::move(join));
      }
    }
    if (AcceptKeyword(Keyword::kWhere)) {
      PARTPLAY_ASSIGN_OR_RETURN(q.where_clause, Scalar());
    }
    if (AcceptKeyword(Keyword::kGroup)) {
      PARTPLAY_RETURN_IF_ERROR(ExpectKeyword(Keyword::kBy));
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Expr e, Scalar());
        q.group_by.push_back(std::move(e));
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword(Keyword::kOrder)) {
      PARTPLAY_RETURN_IF_ERROR(ExpectKeyword(Keyword::kBy));
      // ORDER BY RANK f(...): RANK followed by a function name (an alias would be followed by
      // '.', '[', ',' or the end).
      const QueryToken& next = Ahead(1);
      if (Cur().kind == TokenKind::kIdentifier && IsRankWord(Cur().text) &&
          (next.kind == TokenKind::kIdentifier || IsKeyword(Keyword::kLeft, 1) ||
           IsKeyword(Keyword::kRight, 1) || IsKeyword(Keyword::kUdf, 1))) {
        q.order_by_rank = true;
        Next();
      }
      do {
        OrderByItem item;
        PARTPLAY_ASSIGN_OR_RETURN(item.expr, Scalar());
        if (AcceptKeyword(Keyword::kAsc)) {
          item.written = true;
        } else if (AcceptKeyword(Keyword::kDesc)) {
          item.written = item.descending = true;
        }
        q.order_by.push_back(std::move(item));
      } while (AcceptSymbol(","));
    }
    if (AcceptKeyword(Keyword::kOffset)) {
      PARTPLAY_ASSIGN_OR_RETURN(q.offset, Count("OFFSET"));
      PARTPLAY_RETURN_IF_ERROR(ExpectKeyword(Keyword::kLimit));
      PARTPLAY_ASSIGN_OR_RETURN(q.limit, Count("LIMIT"));
    }
    return Status::Ok();
  }

  // TOP, OFFSET and LIMIT: NUMERIC_LITERAL | PARAMETER in sql.g4; the number a non-negative
  // integer.
  StatusOr<QueryCount> Count(std::string_view clause) {
    QueryCount c;
    c.where = Cur().where;
    if (Cur().kind == TokenKind::kParameter) {
      PARTPLAY_RETURN_IF_ERROR(NoteParameter(Cur()));
      c.parameter = Cur().text;
      Next();
      return c;
    }
    if (Cur().kind != TokenKind::kNumber) return Unexpected();
    double n = Cur().number;
    if (n < 0 || n != std::floor(n) || n > 9007199254740992.0) {
      return Error(c.where, fmt::format("{} takes a non-negative integer or a parameter, not {}.",
                                        clause, Cur().source));
    }
    c.value = static_cast<uint64_t>(n);
    Next();
    return c;
  }

  // from_source: alias IN collection | collection [[AS] alias]; collection: identifier path |
  // '(' query ')'.
  StatusOr<FromSource> Source() {
    FromSource s;
    s.where = Cur().where;
    if (Cur().kind == TokenKind::kIdentifier && IsKeyword(Keyword::kIn, 1)) {
      s.kind = FromSource::Kind::kIn;
      s.alias = Cur().text;
      s.alias_written = true;
      Next();
      Next();
      PARTPLAY_ASSIGN_OR_RETURN(s.expr, Collection());
      return s;
    }
    PARTPLAY_ASSIGN_OR_RETURN(s.expr, Collection());
    if (AcceptKeyword(Keyword::kAs)) {
      PARTPLAY_ASSIGN_OR_RETURN(s.alias, Identifier());
      s.alias_written = true;
    } else if (Cur().kind == TokenKind::kIdentifier) {
      s.alias = Cur().text;
      s.alias_written = true;
      Next();
    } else if (s.expr.kind == ExprKind::kPath &&
               (s.expr.steps.empty() || s.expr.steps.back().kind == PathStep::Kind::kName)) {
      // query/from: the alias is the container name, or the last property name.
      s.alias = s.expr.steps.empty() ? s.expr.name : s.expr.steps.back().name;
    } else if (s.expr.kind == ExprKind::kSubquery) {
      // subquery.md joins unnamed subqueries (JOIN (SELECT VALUE t FROM t IN p.tags WHERE ...)):
      // their rows filter the join and nothing names them.
    } else {
      return Error(s.where,
                   "This FROM or JOIN source needs an alias (AS name): it ends in an "
                   "array index.");
    }
    return s;
  }

  StatusOr<Expr> Collection() {
    Expr e;
    e.where = Cur().where;
    if (IsSymbol("(") && IsKeyword(Keyword::kSelect, 1)) {
      Next();
      PARTPLAY_RETURN_IF_ERROR(Subquery(e, ExprKind::kSubquery));
      return e;
    }
    e.kind = ExprKind::kPath;
    PARTPLAY_ASSIGN_OR_RETURN(e.name, Identifier());
    while (true) {
      if (AcceptSymbol(".")) {
        PathStep step;
        PARTPLAY_ASSIGN_OR_RETURN(step.name, Identifier());
        e.steps.push_back(std::move(step));
      } else if (AcceptSymbol("[")) {
        PathStep step;
        if (Cur().kind == TokenKind::kString) {
          step.name = Cur().text;
        } else if (Cur().kind == TokenKind::kNumber && IsIndex(Cur().number)) {
          step.kind = PathStep::Kind::kIndex;
          step.index = static_cast<uint64_t>(Cur().number);
        } else {
          return Unexpected();
        }
        Next();
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("]"));
        e.steps.push_back(std::move(step));
      } else {
        break;
      }
    }
    return e;
  }

  static bool IsRankWord(std::string_view w) {
    return w.size() == 4 && (w[0] | 0x20) == 'r' && (w[1] | 0x20) == 'a' && (w[2] | 0x20) == 'n' &&
           (w[3] | 0x20) == 'k';
  }

  static bool IsIndex(double n) { return n >= 0 && n == std::floor(n) && n < 4294967296.0; }

  // Reads `SELECT ... )` after an opening '(' into e's subquery.
  Status Subquery(Expr& e, ExprKind kind) {
    auto q = std::make_shared<Query>();
    PARTPLAY_RETURN_IF_ERROR(ParseBody(*q));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    e.kind = kind;
    e.subquery = std::move(q);
    return Seal(e);
  }

  static bool HasAggregate(const Expr& e) {
    if (e.kind == ExprKind::kCall && !e.udf) {
      const BuiltinInfo* f = FindBuiltin(e.name);
      if (f != nullptr && f->cls == FunctionClass::kAggregate) return true;
    }
    for (const Expr& c : e.children) {
      if (HasAggregate(c)) return true;
    }
    return false;
  }

  Status NoteParameter(const QueryToken& t) {
    if (parameters_.insert(t.text).second &&
        parameters_.size() > static_cast<size_t>(kCosmosQueryMaxParameters)) {
      return Error(t.where, fmt::format("The query uses more than {} parameters "
                                        "(cosmos_query_max_parameters).",
                                        kCosmosQueryMaxParameters));
    }
    return Status::Ok();
  }

  // ---- expressions, loosest first ----
  StatusOr<Expr> Scalar() {
    PARTPLAY_RETURN_IF_ERROR(Deeper());
    PARTPLAY_ASSIGN_OR_RETURN(Expr cond, Coalesce());
    if (AcceptSymbol("?")) {
      Expr e;
      e.kind = ExprKind::kTernary;
      e.where = cond.where;
      e.children.push_back(std::move(cond));
      PARTPLAY_ASSIGN_OR_RETURN(Expr yes, Scalar());
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(":"));
      PARTPLAY_ASSIGN_OR_RETURN(Expr no, Scalar());
      e.children.push_back(std::move(yes));
      e.children.push_back(std::move(no));
      PARTPLAY_RETURN_IF_ERROR(Seal(e));
      cond = std::move(e);
    }
    --depth_;
    return cond;
  }

  // A chain `a op b op c` as one node with children [a, b, c] (a left operand of the same kind is
  // extended rather than nested: (a op b) op c reads the same).
  Status Chain(Expr& left, ExprKind kind, Op op, Expr right) {
    if (left.kind != kind || left.op != op) {
      Expr e;
      e.kind = kind;
      e.op = op;
      e.where = left.where;
      e.depth = static_cast<uint16_t>(left.depth + 1);
      e.children.push_back(std::move(left));
      left = std::move(e);
    }
    // The depth grows with the new operand only, so a long chain costs no rescans.
    int depth = std::max<int>(left.depth, right.depth + 1);
    left.children.push_back(std::move(right));
    if (depth > kCosmosQueryMaxNestingDepth) return TooDeep(left.where);
    left.depth = static_cast<uint16_t>(depth);
    return Status::Ok();
  }

  StatusOr<Expr> Coalesce() {
    PARTPLAY_ASSIGN_OR_RETURN(Expr left, Logical(Op::kOr));
    while (AcceptSymbol("??")) {
      PARTPLAY_ASSIGN_OR_RETURN(Expr right, Logical(Op::kOr));
      PARTPLAY_RETURN_IF_ERROR(Chain(left, ExprKind::kCoalesce, Op::kNone, std::move(right)));
    }
    return left;
  }

  StatusOr<Expr> Logical(Op op) {
    Keyword kw = op == Op::kOr ? Keyword::kOr : Keyword::kAnd;
    StatusOr<Expr> first = op == Op::kOr ? Logical(Op::kAnd) : Predicate();
    if (!first.ok()) return first.status();
    Expr left = std::move(first).value();
    while (AcceptKeyword(kw)) {
      StatusOr<Expr> next = op == Op::kOr ? Logical(Op::kAnd) : Predicate();
      if (!next.ok()) return next.status();
      PARTPLAY_RETURN_IF_ERROR(Chain(left, ExprKind::kBinary, op, std::move(next).value()));
    }
    return left;
  }

  // binary [NOT] IN (list) | binary [NOT] BETWEEN binary AND binary | binary [NOT] LIKE binary
  // [ESCAPE string] | binary
  StatusOr<Expr> Predicate() {
    PARTPLAY_ASSIGN_OR_RETURN(Expr left, Binary(0));
    bool negated = false;
    size_t k = 0;
    if (IsKeyword(Keyword::kNot) &&
        (IsKeyword(Keyword::kIn, 1) || IsKeyword(Keyword::kBetween, 1) ||
         IsKeyword(Keyword::kLike, 1))) {
      negated = true;
      k = 1;
    }
    Expr e;
    e.negated = negated;
    e.where = left.where;
    if (IsKeyword(Keyword::kIn, k)) {
      pos_ += k + 1;
      e.kind = ExprKind::kIn;
      e.children.push_back(std::move(left));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
      do {
        if (e.children.size() > static_cast<size_t>(kCosmosQueryMaxInItems)) {
          return Error(Cur().where, fmt::format("An IN list holds more than {} values "
                                                "(cosmos_query_max_in_items).",
                                                kCosmosQueryMaxInItems));
        }
        PARTPLAY_ASSIGN_OR_RETURN(Expr item, Scalar());
        e.children.push_back(std::move(item));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    } else if (IsKeyword(Keyword::kBetween, k)) {
      pos_ += k + 1;
      e.kind = ExprKind::kBetween;
      e.children.push_back(std::move(left));
      PARTPLAY_ASSIGN_OR_RETURN(Expr low, Binary(0));
      PARTPLAY_RETURN_IF_ERROR(ExpectKeyword(Keyword::kAnd));
      PARTPLAY_ASSIGN_OR_RETURN(Expr high, Binary(0));
      e.children.push_back(std::move(low));
      e.children.push_back(std::move(high));
    } else if (IsKeyword(Keyword::kLike, k)) {
      pos_ += k + 1;
      e.kind = ExprKind::kLike;
      e.children.push_back(std::move(left));
      PARTPLAY_ASSIGN_OR_RETURN(Expr pattern, Binary(0));
      e.children.push_back(std::move(pattern));
      if (AcceptKeyword(Keyword::kEscape)) {
        if (Cur().kind != TokenKind::kString) return Unexpected();
        const std::string& esc = Cur().text;
        if (esc.empty() || Utf8CharLength(esc, 0) != esc.size()) {
          return Error(Cur().where, "The ESCAPE string of LIKE must be one character.");
        }
        e.escape = esc;
        Next();
      }
    } else {
      return left;
    }
    PARTPLAY_RETURN_IF_ERROR(Seal(e));
    return e;
  }

  StatusOr<Expr> Binary(int level) {
    if (level >= kBinaryLevels) return Unary();
    PARTPLAY_ASSIGN_OR_RETURN(Expr left, Binary(level + 1));
    while (true) {
      Op op = BinaryOpOf(Cur());
      if (op == Op::kNone || BinaryLevel(op) != level) return left;
      Next();
      PARTPLAY_ASSIGN_OR_RETURN(Expr right, Binary(level + 1));
      PARTPLAY_RETURN_IF_ERROR(Chain(left, ExprKind::kBinary, op, std::move(right)));
    }
  }

  StatusOr<Expr> Unary() {
    Op op = Op::kNone;
    if (IsSymbol("-")) op = Op::kNegate;
    if (IsSymbol("+")) op = Op::kPlus;
    if (IsSymbol("~")) op = Op::kBitNot;
    if (IsKeyword(Keyword::kNot)) op = Op::kNot;
    if (op == Op::kNone) return Postfix();
    SourceLocation where = Cur().where;
    Next();
    PARTPLAY_RETURN_IF_ERROR(Deeper());
    PARTPLAY_ASSIGN_OR_RETURN(Expr operand, Unary());
    --depth_;
    // -1 is the number -1 (sql.g4 lexes the sign into NUMERIC_LITERAL).
    if ((op == Op::kNegate || op == Op::kPlus) && operand.kind == ExprKind::kLiteral &&
        operand.literal.kind() == ValueKind::kNumber) {
      double n = operand.literal.number();
      operand.literal = Value::Number(op == Op::kNegate ? -n : n);
      operand.where = where;
      return operand;
    }
    Expr e;
    e.kind = ExprKind::kUnary;
    e.op = op;
    e.where = where;
    e.children.push_back(std::move(operand));
    PARTPLAY_RETURN_IF_ERROR(Seal(e));
    return e;
  }

  // primary ('.' identifier | '[' scalar ']')*
  StatusOr<Expr> Postfix() {
    PARTPLAY_ASSIGN_OR_RETURN(Expr e, Primary());
    while (true) {
      Expr index;
      if (IsSymbol(".")) {
        Next();
        index.where = Cur().where;
        PARTPLAY_ASSIGN_OR_RETURN(std::string name, Identifier());
        index.literal = Value::String(std::move(name));
      } else if (IsSymbol("[")) {
        Next();
        PARTPLAY_ASSIGN_OR_RETURN(index, Scalar());
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("]"));
      } else {
        return e;
      }
      const Value& lit = index.literal;
      bool literal = index.kind == ExprKind::kLiteral;
      if (e.kind == ExprKind::kPath && literal && lit.kind() == ValueKind::kString) {
        e.steps.push_back(PathStep{PathStep::Kind::kName, lit.string(), 0});
      } else if (e.kind == ExprKind::kPath && literal && lit.kind() == ValueKind::kNumber &&
                 IsIndex(lit.number())) {
        e.steps.push_back(
            PathStep{PathStep::Kind::kIndex, {}, static_cast<uint64_t>(lit.number())});
      } else {
        Expr m;
        m.kind = ExprKind::kMember;
        m.where = e.where;
        m.children.push_back(std::move(e));
        m.children.push_back(std::move(index));
        PARTPLAY_RETURN_IF_ERROR(Seal(m));
        e = std::move(m);
      }
    }
  }

  StatusOr<Expr> Primary() {
    const QueryToken& t = Cur();
    Expr e;
    e.where = t.where;
    switch (t.kind) {
      case TokenKind::kIdentifier:
        if (IsSymbol("(", 1)) return Call(false);
        e.kind = ExprKind::kPath;
        e.name = t.text;
        Next();
        return e;
      case TokenKind::kParameter:
        PARTPLAY_RETURN_IF_ERROR(NoteParameter(t));
        e.kind = ExprKind::kParameter;
        e.name = t.text;
        Next();
        return e;
      case TokenKind::kNumber:
        e.literal = Value::Number(t.number);
        Next();
        return e;
      case TokenKind::kString:
        e.literal = Value::String(t.text);
        Next();
        return e;
      case TokenKind::kKeyword:
        return KeywordPrimary();
      case TokenKind::kSymbol:
        if (t.text == "[" || t.text == "{") return Constructor(t.text == "[");
        if (t.text == "(") {
          Next();
          if (IsKeyword(Keyword::kSelect)) {
            PARTPLAY_RETURN_IF_ERROR(Subquery(e, ExprKind::kSubquery));
            return e;
          }
          PARTPLAY_ASSIGN_OR_RETURN(Expr inner, Scalar());
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
          return inner;
        }
        return Unexpected();
      case TokenKind::kEnd:
        return Unexpected();
    }
    return Unexpected();
  }

  StatusOr<Expr> KeywordPrimary() {
    const QueryToken& t = Cur();
    Expr e;
    e.where = t.where;
    switch (t.keyword) {
      case Keyword::kTrue:
        e.literal = Value::Bool(true);
        break;
      case Keyword::kFalse:
        e.literal = Value::Bool(false);
        break;
      case Keyword::kNull:
        e.literal = Value::Null();
        break;
      case Keyword::kUndefined:
        break;
      case Keyword::kLeft:
      case Keyword::kRight:
        if (!IsSymbol("(", 1)) return Unexpected();
        return Call(false);
      case Keyword::kUdf:
        return Call(true);
      case Keyword::kExists:
      case Keyword::kArray:
        if (!IsSymbol("(", 1) || !IsKeyword(Keyword::kSelect, 2)) {
          // ARRAY and EXISTS take a subquery only.
          if (IsSymbol("(", 1)) {
            Next();
            Next();
          }
          return Unexpected();
        }
        Next();
        Next();
        PARTPLAY_RETURN_IF_ERROR(Subquery(
            e, t.keyword == Keyword::kExists ? ExprKind::kExists : ExprKind::kArraySubquery));
        return e;
      default:
        return Unexpected();
    }
    Next();
    return e;
  }

  // '[' list ']' or '{' "key" | key ':' scalar, ... '}'
  StatusOr<Expr> Constructor(bool array) {
    Expr e;
    e.where = Cur().where;
    e.kind = array ? ExprKind::kArray : ExprKind::kObject;
    Next();
    std::string_view close = array ? "]" : "}";
    if (!AcceptSymbol(close)) {
      do {
        if (!array) {
          if (Cur().kind != TokenKind::kString && Cur().kind != TokenKind::kIdentifier) {
            return Unexpected();
          }
          e.keys.push_back(Cur().text);
          Next();
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(":"));
        }
        PARTPLAY_ASSIGN_OR_RETURN(Expr item, Scalar());
        e.children.push_back(std::move(item));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(close));
    }
    PARTPLAY_RETURN_IF_ERROR(Seal(e));
    return e;
  }

  // NAME(args), LEFT(args), RIGHT(args) or udf.NAME(args).
  StatusOr<Expr> Call(bool udf) {
    Expr e;
    e.kind = ExprKind::kCall;
    e.udf = udf;
    e.where = Cur().where;
    if (udf) {
      Next();
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("."));
      PARTPLAY_ASSIGN_OR_RETURN(e.name, Identifier());
      if (!IsSymbol("(")) return Unexpected();
    } else {
      e.name = Cur().text;
      Next();
    }
    const BuiltinInfo* f = udf ? nullptr : FindBuiltin(e.name);
    if (!udf && f == nullptr) {
      return Error(e.where,
                   fmt::format("SC2005: '{}' is not a recognized built-in function name.", e.name));
    }
    if (f != nullptr) e.name = std::string(f->name);
    Next();  // (
    if (!AcceptSymbol(")")) {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Expr arg, Scalar());
        e.children.push_back(std::move(arg));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    if (f != nullptr) {
      size_t n = e.children.size();
      if (n < f->min_args || (f->max_args != kVariadic && n > f->max_args)) {
        std::string count = f->max_args == kVariadic ? fmt::format("at least {}", f->min_args)
                            : f->min_args == f->max_args
                                ? fmt::format("{}", f->min_args)
                                : fmt::format("{} to {}", f->min_args, f->max_args);
        return Error(e.where, fmt::format("SC2050: The {} function requires {} argument(s).",
                                          f->name, count));
      }
    }
    PARTPLAY_RETURN_IF_ERROR(Seal(e));
    return e;
  }

  std::vector<QueryToken> t_;
  size_t pos_ = 0;
  int depth_ = 0;
  int joins_ = 0;
  std::set<std::string, std::less<>> parameters_;
};

}  // namespace

StatusOr<Query> ParseQuery(std::string_view text) {
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<QueryToken> tokens, LexQuery(text));
  PARTPLAY_ASSIGN_OR_RETURN(Query q, Parser(std::move(tokens)).Run());
  PARTPLAY_RETURN_IF_ERROR(ResolveQuery(q));
  return q;
}

bool IsBuiltinFunction(std::string_view name) { return FindBuiltin(name) != nullptr; }

}  // namespace partplay::cosmosql
