// The canonical text of a parsed Cosmos DB for NoSQL query (query.h): what the page shows back
// and what the tests and the fuzz target parse again (printing is idempotent: the text reparses
// to a query that prints the same). Also the JSON pointer of a property path, for the targeting
// code that maps a WHERE clause onto partition key paths.
#include <fmt/format.h>

#include <string>

#include "cosmos/query_internal.h"
#include "cosmos/query_lexer.h"
#include "partplay/core/json_writer.h"
#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {
namespace {

// Precedence levels, loosest first; an operand printed below its required level gets
// parentheses (query_parser.cpp reads the same levels).
constexpr int kTernary = 1, kCoalesceLevel = 2, kOr = 3, kAnd = 4, kPredicate = 5, kBinaryBase = 6,
              kUnaryLevel = 15, kPrimary = 16;

int BinaryLevelOf(Op op) {
  switch (op) {
    case Op::kOr:
      return kOr;
    case Op::kAnd:
      return kAnd;
    case Op::kConcat:
      return kBinaryBase;
    case Op::kBitOr:
      return kBinaryBase + 1;
    case Op::kBitXor:
      return kBinaryBase + 2;
    case Op::kBitAnd:
      return kBinaryBase + 3;
    case Op::kEqual:
    case Op::kNotEqual:
      return kBinaryBase + 4;
    case Op::kLess:
    case Op::kLessEqual:
    case Op::kGreater:
    case Op::kGreaterEqual:
      return kBinaryBase + 5;
    case Op::kLeftShift:
    case Op::kRightShift:
    case Op::kZeroFillRightShift:
      return kBinaryBase + 6;
    case Op::kAdd:
    case Op::kSubtract:
      return kBinaryBase + 7;
    default:
      return kBinaryBase + 8;  // * / %
  }
}

int Level(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kTernary:
      return kTernary;
    case ExprKind::kCoalesce:
      return kCoalesceLevel;
    case ExprKind::kBinary:
      return BinaryLevelOf(e.op);
    case ExprKind::kIn:
    case ExprKind::kBetween:
    case ExprKind::kLike:
      return kPredicate;
    case ExprKind::kUnary:
      return kUnaryLevel;
    case ExprKind::kLiteral:
      // -1 prints with its sign, which binds like a unary operator.
      return e.literal.kind() == ValueKind::kNumber && std::signbit(e.literal.number())
                 ? kUnaryLevel
                 : kPrimary;
    default:
      return kPrimary;
  }
}

void AppendQuery(const Query& q, std::string& out);
void AppendExpr(const Expr& e, std::string& out);

void AppendAt(const Expr& e, int min_level, std::string& out) {
  if (Level(e) >= min_level) {
    AppendExpr(e, out);
    return;
  }
  out += '(';
  AppendExpr(e, out);
  out += ')';
}

void AppendList(const std::vector<Expr>& list, size_t from, std::string& out) {
  for (size_t k = from; k < list.size(); ++k) {
    if (k > from) out += ", ";
    AppendAt(list[k], kTernary, out);
  }
}

void AppendSteps(const Expr& path, std::string& out) {
  out += path.name;
  for (const PathStep& s : path.steps) {
    if (s.kind == PathStep::Kind::kIndex) {
      fmt::format_to(std::back_inserter(out), "[{}]", s.index);
    } else if (IsPlainIdentifier(s.name)) {
      out += '.';
      out += s.name;
    } else {
      out += '[';
      AppendJsonString(s.name, out);
      out += ']';
    }
  }
}

void AppendSubquery(const Expr& e, std::string& out) {
  out += '(';
  AppendQuery(*e.subquery, out);
  out += ')';
}

void AppendExpr(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      out += e.literal.ToJson();
      return;
    case ExprKind::kParameter:
      out += e.name;
      return;
    case ExprKind::kPath:
      AppendSteps(e, out);
      return;
    case ExprKind::kMember: {
      const Expr& base = e.children[0];
      // A number before '.' or '[' would read on as one token (0.c is "0." then c): parenthesize.
      if (base.kind == ExprKind::kLiteral && base.literal.kind() == ValueKind::kNumber) {
        out += '(';
        AppendExpr(base, out);
        out += ')';
      } else {
        AppendAt(base, kPrimary, out);
      }
      const Expr& index = e.children[1];
      if (index.kind == ExprKind::kLiteral && index.literal.kind() == ValueKind::kString &&
          IsPlainIdentifier(index.literal.string())) {
        out += '.';
        out += index.literal.string();
      } else {
        out += '[';
        AppendAt(index, kTernary, out);
        out += ']';
      }
      return;
    }
    case ExprKind::kArray:
      out += '[';
      AppendList(e.children, 0, out);
      out += ']';
      return;
    case ExprKind::kObject:
      out += '{';
      for (size_t k = 0; k < e.children.size(); ++k) {
        if (k > 0) out += ", ";
        AppendJsonString(e.keys[k], out);
        out += ": ";
        AppendAt(e.children[k], kTernary, out);
      }
      out += '}';
      return;
    case ExprKind::kUnary: {
      out += OpText(e.op);
      if (e.op == Op::kNot) out += ' ';
      std::string operand;
      AppendAt(e.children[0], kUnaryLevel, operand);
      // Two signs in a row would read as a comment (--): a space keeps them apart without the
      // parentheses that would nest each sign one level deeper than the text it came from.
      if (!operand.empty() && (operand[0] == '-' || operand[0] == '+') && e.op != Op::kNot) {
        out += ' ';
      }
      out += operand;
      return;
    }
    case ExprKind::kBinary: {
      int level = BinaryLevelOf(e.op);
      for (size_t k = 0; k < e.children.size(); ++k) {
        if (k > 0) {
          out += ' ';
          out += OpText(e.op);
          out += ' ';
        }
        // Left to right: an operand after the first of the same level needs parentheses.
        AppendAt(e.children[k], k == 0 ? level : level + 1, out);
      }
      return;
    }
    case ExprKind::kBetween:
      AppendAt(e.children[0], kBinaryBase, out);
      out += e.negated ? " NOT BETWEEN " : " BETWEEN ";
      AppendAt(e.children[1], kBinaryBase, out);
      out += " AND ";
      AppendAt(e.children[2], kBinaryBase, out);
      return;
    case ExprKind::kIn:
      AppendAt(e.children[0], kBinaryBase, out);
      out += e.negated ? " NOT IN (" : " IN (";
      AppendList(e.children, 1, out);
      out += ')';
      return;
    case ExprKind::kLike:
      AppendAt(e.children[0], kBinaryBase, out);
      out += e.negated ? " NOT LIKE " : " LIKE ";
      AppendAt(e.children[1], kBinaryBase, out);
      if (e.escape) {
        out += " ESCAPE ";
        AppendJsonString(*e.escape, out);
      }
      return;
    case ExprKind::kTernary:
      AppendAt(e.children[0], kCoalesceLevel, out);
      out += " ? ";
      AppendAt(e.children[1], kTernary, out);
      out += " : ";
      AppendAt(e.children[2], kTernary, out);
      return;
    case ExprKind::kCoalesce:
      for (size_t k = 0; k < e.children.size(); ++k) {
        if (k > 0) out += " ?? ";
        AppendAt(e.children[k], k == 0 ? kCoalesceLevel : kOr, out);
      }
      return;
    case ExprKind::kCall:
      if (e.udf) out += "udf.";
      out += e.name;
      out += '(';
      AppendList(e.children, 0, out);
      out += ')';
      return;
    case ExprKind::kSubquery:
      AppendSubquery(e, out);
      return;
    case ExprKind::kExists:
      out += "EXISTS";
      AppendSubquery(e, out);
      return;
    case ExprKind::kArraySubquery:
      out += "ARRAY";
      AppendSubquery(e, out);
      return;
  }
}

void AppendCount(const QueryCount& c, std::string& out) {
  if (c.value) {
    fmt::format_to(std::back_inserter(out), "{}", *c.value);
  } else {
    out += c.parameter;
  }
}

void AppendSource(const FromSource& s, std::string& out) {
  if (s.kind == FromSource::Kind::kIn) {
    out += s.alias;
    out += " IN ";
  }
  if (s.expr.kind == ExprKind::kSubquery) {
    AppendSubquery(s.expr, out);
  } else {
    AppendSteps(s.expr, out);
  }
  if (s.kind == FromSource::Kind::kAliased && s.alias_written) {
    out += " AS ";
    out += s.alias;
  }
}

void AppendQuery(const Query& q, std::string& out) {
  out += "SELECT ";
  if (q.distinct) out += "DISTINCT ";
  if (q.top) {
    out += "TOP ";
    AppendCount(*q.top, out);
    out += ' ';
  }
  switch (q.select) {
    case Query::Select::kStar:
      out += '*';
      break;
    case Query::Select::kValue:
      out += "VALUE ";
      AppendAt(q.items[0].expr, kTernary, out);
      break;
    case Query::Select::kList:
      for (size_t k = 0; k < q.items.size(); ++k) {
        if (k > 0) out += ", ";
        AppendAt(q.items[k].expr, kTernary, out);
        if (!q.items[k].alias.empty()) {
          out += " AS ";
          out += q.items[k].alias;
        }
      }
      break;
  }
  if (q.from) {
    out += " FROM ";
    AppendSource(*q.from, out);
  }
  for (const FromSource& j : q.joins) {
    out += " JOIN ";
    AppendSource(j, out);
  }
  if (q.where_clause) {
    out += " WHERE ";
    AppendAt(*q.where_clause, kTernary, out);
  }
  if (!q.group_by.empty()) {
    out += " GROUP BY ";
    AppendList(q.group_by, 0, out);
  }
  if (!q.order_by.empty()) {
    out += q.order_by_rank ? " ORDER BY RANK " : " ORDER BY ";
    for (size_t k = 0; k < q.order_by.size(); ++k) {
      if (k > 0) out += ", ";
      AppendAt(q.order_by[k].expr, kTernary, out);
      if (q.order_by[k].written) out += q.order_by[k].descending ? " DESC" : " ASC";
    }
  }
  if (q.offset) {
    out += " OFFSET ";
    AppendCount(*q.offset, out);
    out += " LIMIT ";
    AppendCount(*q.limit, out);
  }
}

}  // namespace

std::string_view OpText(Op op) {
  switch (op) {
    case Op::kNone:
      return "";
    case Op::kNegate:
      return "-";
    case Op::kPlus:
      return "+";
    case Op::kNot:
      return "NOT";
    case Op::kBitNot:
      return "~";
    case Op::kMultiply:
      return "*";
    case Op::kDivide:
      return "/";
    case Op::kModulo:
      return "%";
    case Op::kAdd:
      return "+";
    case Op::kSubtract:
      return "-";
    case Op::kLeftShift:
      return "<<";
    case Op::kRightShift:
      return ">>";
    case Op::kZeroFillRightShift:
      return ">>>";
    case Op::kLess:
      return "<";
    case Op::kLessEqual:
      return "<=";
    case Op::kGreater:
      return ">";
    case Op::kGreaterEqual:
      return ">=";
    case Op::kEqual:
      return "=";
    case Op::kNotEqual:
      return "!=";
    case Op::kBitAnd:
      return "&";
    case Op::kBitXor:
      return "^";
    case Op::kBitOr:
      return "|";
    case Op::kConcat:
      return "||";
    case Op::kAnd:
      return "AND";
    case Op::kOr:
      return "OR";
  }
  return "";
}

std::string ToString(const Query& query) {
  std::string out;
  AppendQuery(query, out);
  return out;
}

std::string ExprToString(const Expr& expr) {
  std::string out;
  AppendExpr(expr, out);
  return out;
}

std::optional<std::string> PathAsPointer(const Expr& expr, const Query& query) {
  if (expr.kind != ExprKind::kPath || !query.from ||
      query.from->kind != FromSource::Kind::kAliased || query.from->expr.kind != ExprKind::kPath ||
      expr.name != query.from->alias) {
    return std::nullopt;
  }
  std::string pointer;
  for (const std::vector<PathStep>* steps : {&query.from->expr.steps, &expr.steps}) {
    for (const PathStep& s : *steps) {
      pointer += '/';
      if (s.kind == PathStep::Kind::kIndex) {
        pointer += std::to_string(s.index);
        continue;
      }
      for (char c : s.name) {
        if (c == '~') {
          pointer += "~0";
        } else if (c == '/') {
          pointer += "~1";
        } else {
          pointer += c;
        }
      }
    }
  }
  return pointer;
}

}  // namespace partplay::cosmosql
