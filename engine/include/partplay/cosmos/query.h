// The Azure Cosmos DB for NoSQL query language: a parser for the whole SELECT statement and an
// evaluator of what decides which rows an item produces (FROM, JOIN, WHERE), with the service's
// semantics for undefined, mixed types and three-valued logic. The targeting code reads the AST
// (the WHERE tree, the FROM alias, each JOIN, TOP/OFFSET/LIMIT, DISTINCT, GROUP BY, aggregates).
//
//   StatusOr<Query> q = ParseQuery("SELECT * FROM c WHERE c.userId = @u AND c.n > 2");
//   StatusOr<QueryEvaluator> ev = QueryEvaluator::Create(q.value(), {{"@u", Value::String("a")}});
//   StatusOr<uint64_t> rows = ev->Rows(item_element, item_index);  // 0 or 1 without JOINs
//   PathAsPointer(q->where_clause->children[0].children[0], q.value());  // "/userId"
//
// Sources: the pages of learn.microsoft.com/azure/cosmos-db/nosql/query/ (the MicrosoftDocs
// azure-databases-docs repository, articles/cosmos-db/nosql/query/<page>.md): constants
// (literals, escapes, hex numbers, unquoted object keys), from (sources, aliases, IN iteration),
// join, keywords (BETWEEN, LIKE and its wildcards, IN, TOP), equality-comparison-operators (a
// comparison across types is undefined), logical-operators (the AND/OR/NOT tables),
// ternary-coalesce-operators, bitwise-operators (JavaScript's 32-bit rules), the system function
// pages, and articles/cosmos-db/concepts-limits.md "SQL query limits". The grammar's shape,
// keywords and precedence follow the service grammar the .NET SDK carries
// (Azure/azure-cosmos-dotnet-v3, Microsoft.Azure.Cosmos/src/Query/Core/Parser/sql.g4): true,
// false, null, undefined and udf are lower-case only; keywords cannot be identifiers (write
// c["value"], not c.value); NOT is a unary operator as tight as '-' (NOT a = b reads
// (NOT a) = b); '||' is the loosest binary operator ('a' || 'b' = 'ab' reads 'a' || ('b' = 'ab')).
// Two choices of ours where that grammar and C# differ or say nothing: '??' binds tighter than
// '?:', and '<<', '>>', '>>>' (bitwise-operators) sit between '+' and '<'.
//
// Error messages carry the service's code and wording where a public error report or the SDK's
// baselines show them (QueryPartitionProviderTest.Negative.xml in the SDK's tests):
//   SC1001 "Syntax error, incorrect syntax near 'x'."   SC1002 "Syntax error, unexpected
//   end-of-file."   SC1010 "Syntax error, invalid token 'x'."   SC2001 "Identifier 'x' could not
//   be resolved."   SC2005 "'X' is not a recognized built-in function name."   SC2050 "The X
//   function requires N argument(s)." (N may read "2 to 3" or "at least 2": ours)   SC2101
//   "Cannot perform an aggregate function on an expression containing an aggregate or a
//   subquery."
// Every other message is the playground's own and carries no SC code. All errors are
// ErrorCode::kQuerySyntax, located at the offending token (byte offset, line, column).
//
// What is parsed but not evaluated (QueryEvaluator::Create answers a located kQuerySyntax error
// instead of a wrong count, and only when the construct is in FROM, JOIN or WHERE): user-defined
// functions (udf.name(...)), subqueries ((SELECT ...), EXISTS(...), ARRAY(...), FROM (SELECT ...)),
// the aggregates (COUNT, SUM, AVG, MIN, MAX: SELECT only) and the real built-ins of
// kNotEvaluatedFunctions below (spatial, vector, full-text, date and time, the INT* 64-bit
// integer functions, regular expressions, RAND and the rest of that list). NaN and Infinity are
// not literals of the grammar; they arise from arithmetic only.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cosmosql {

// ---- Values -------------------------------------------------------------------------------------

enum class ValueKind : uint8_t { kUndefined, kNull, kBool, kNumber, kString, kArray, kObject };
// "undefined", "null", "boolean", "number", "string", "array", "object".
std::string_view ValueKindName(ValueKind kind);

struct ObjectMember;

// A JSON value or undefined: a literal of the query, a parameter's value. Numbers are doubles, as
// the service reads them.
class Value {
 public:
  Value() = default;  // undefined
  static Value Null();
  static Value Bool(bool b);
  static Value Number(double n);
  static Value String(std::string s);
  static Value Array(std::vector<Value> elements);
  static Value Object(std::vector<ObjectMember> members);

  ValueKind kind() const { return kind_; }
  bool is_defined() const { return kind_ != ValueKind::kUndefined; }
  bool boolean() const { return bool_; }
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  const std::vector<Value>& array() const { return array_; }
  const std::vector<ObjectMember>& object() const { return object_; }
  // The member named `key` of an object, or nullptr.
  const Value* Find(std::string_view key) const;

  // JSON text ("undefined" for undefined), numbers in the shortest form that reads back.
  std::string ToJson() const;
  // Deep equality as the query language's '=' sees it (undefined equals nothing).
  friend bool operator==(const Value& a, const Value& b);

 private:
  ValueKind kind_ = ValueKind::kUndefined;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Value> array_;
  std::vector<ObjectMember> object_;
};

struct ObjectMember {
  std::string key;
  Value value;
};

// A JSON value read from text (one value, strict JSON) or from a simdjson element.
StatusOr<Value> ParseValueJson(std::string_view json);
Value ValueFromElement(simdjson::dom::element element);

// ---- The AST ------------------------------------------------------------------------------------

enum class ExprKind : uint8_t {
  kLiteral,        // literal: a number, string, true, false, null or undefined
  kParameter,      // name: "@p"
  kPath,           // name: the root alias; steps: .name, ["name"], [0] (literal steps only)
  kMember,         // children[0][children[1]] where it is not a path (c[c.k], [1,2][0], f(x).a)
  kArray,          // [children...]
  kObject,         // {keys[i]: children[i], ...}
  kUnary,          // op children[0]
  kBinary,         // children[0] op children[1] op ... (2 or more, applied left to right)
  kBetween,        // children[0] [NOT] BETWEEN children[1] AND children[2]
  kIn,             // children[0] [NOT] IN (children[1], ...)
  kLike,           // children[0] [NOT] LIKE children[1] [ESCAPE escape]
  kTernary,        // children[0] ? children[1] : children[2]
  kCoalesce,       // children[0] ?? children[1] ?? ... (2 or more: the first that is defined)
  kCall,           // name(children...): a built-in (name upper-cased) or udf.name (udf true)
  kSubquery,       // (SELECT ...): subquery
  kExists,         // EXISTS(SELECT ...): subquery
  kArraySubquery,  // ARRAY(SELECT ...): subquery
};

enum class Op : uint8_t {
  kNone,
  // unary
  kNegate,  // -
  kPlus,    // +
  kNot,     // NOT
  kBitNot,  // ~
  // binary, tightest first
  kMultiply,            // *
  kDivide,              // /
  kModulo,              // %
  kAdd,                 // +
  kSubtract,            // -
  kLeftShift,           // <<
  kRightShift,          // >>
  kZeroFillRightShift,  // >>>
  kLess,                // <
  kLessEqual,           // <=
  kGreater,             // >
  kGreaterEqual,        // >=
  kEqual,               // =
  kNotEqual,            // != (also written <>)
  kBitAnd,              // &
  kBitXor,              // ^
  kBitOr,               // |
  kConcat,              // ||
  kAnd,                 // AND
  kOr,                  // OR
};
// The operator as the printer writes it: "-", "NOT", "<=", "AND", ...
std::string_view OpText(Op op);

struct PathStep {
  enum class Kind : uint8_t { kName, kIndex };
  Kind kind = Kind::kName;
  std::string name;    // kName
  uint64_t index = 0;  // kIndex: a non-negative integer literal
};

struct Query;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  Op op = Op::kNone;              // kUnary, kBinary
  bool negated = false;           // NOT BETWEEN, NOT IN, NOT LIKE
  bool udf = false;               // kCall: udf.name(...)
  Value literal;                  // kLiteral
  std::string name;               // kParameter, kPath (root alias), kCall
  std::vector<PathStep> steps;    // kPath
  std::vector<std::string> keys;  // kObject
  std::vector<Expr> children;
  std::optional<std::string> escape;      // kLike: the ESCAPE string
  std::shared_ptr<const Query> subquery;  // kSubquery, kExists, kArraySubquery
  SourceLocation where;                   // the expression's first token
  uint16_t depth = 1;                     // nesting depth of this expression (a leaf is 1)
};

struct SelectItem {
  Expr expr;
  std::string alias;  // AS alias; empty when none
};

// A FROM source or a JOIN: `expr [AS] alias` (kAliased: one row per defined value) or
// `alias IN expr` (kIn: one row per element of an array).
struct FromSource {
  enum class Kind : uint8_t { kAliased, kIn };
  Kind kind = Kind::kAliased;
  std::string alias;  // as written, or inferred (the container name, the last property)
  bool alias_written = false;
  // A kPath (rooted at the container name for the FROM source of the outermost query, at an
  // alias in scope otherwise) or a kSubquery.
  Expr expr;
  SourceLocation where;
};

struct OrderByItem {
  Expr expr;
  bool descending = false;
  bool written = false;  // ASC or DESC was written
};

// TOP n, OFFSET n, LIMIT n: a literal non-negative integer or a parameter.
struct QueryCount {
  std::optional<uint64_t> value;  // the literal
  std::string parameter;          // "@p" when a parameter
  SourceLocation where;
};

struct Query {
  enum class Select : uint8_t { kStar, kValue, kList };
  bool distinct = false;
  std::optional<QueryCount> top;
  Select select = Select::kStar;
  std::vector<SelectItem> items;  // kValue: one item; kList: one or more
  bool has_aggregates = false;    // COUNT, SUM, AVG, MIN or MAX in the SELECT clause
  std::optional<FromSource> from;
  std::vector<FromSource> joins;
  std::optional<Expr> where_clause;
  std::vector<Expr> group_by;
  std::vector<OrderByItem> order_by;
  bool order_by_rank = false;  // ORDER BY RANK
  std::optional<QueryCount> offset;
  std::optional<QueryCount> limit;
  SourceLocation where;
};

// ---- Parsing and printing -----------------------------------------------------------------------

// The query, or a located kQuerySyntax error. Identifiers are resolved (a path's root is an alias
// of the FROM clause or of an enclosing query), function names checked against the built-ins
// with their number of arguments, and the limits of core/limits.h enforced
// (kCosmosQueryMaxTextBytes, kCosmosQueryMaxNestingDepth, kCosmosQueryMaxInItems,
// kCosmosQueryMaxJoins, kCosmosQueryMaxParameters, kCosmosQueryMaxNumericDigits).
StatusOr<Query> ParseQuery(std::string_view text);

// The canonical text: keywords and built-in names upper-case, one space between tokens, strings
// in double quotes, numbers in their shortest form, parentheses only where precedence needs them.
// ParseQuery(ToString(q)) prints back the same text.
std::string ToString(const Query& query);
std::string ExprToString(const Expr& expr);

// The JSON pointer into the item of a property path rooted at the alias of the query's FROM
// source, when that source is the item or a fixed path into it (`FROM c`, `FROM root r`,
// `FROM c.employment e`; not `x IN c.arr`, which iterates): c.userId -> "/userId",
// c["a/b"].x[0] -> "/a~1b/x/0", e.team with FROM c.employment e -> "/employment/team", c -> "".
// nullopt for anything else (a JOIN alias, a computed member, a subquery source).
std::optional<std::string> PathAsPointer(const Expr& expr, const Query& query);

// ---- Built-in functions -------------------------------------------------------------------------

// The real Cosmos DB functions the playground parses but does not evaluate; a query that calls
// one in FROM, JOIN or WHERE is refused by QueryEvaluator::Create with a located error.
// clang-format off
inline constexpr std::string_view kNotEvaluatedFunctions[] = {
    "ARRAY_AVG", "ARRAY_CONCAT", "ARRAY_CONTAINS_ALL", "ARRAY_CONTAINS_ANY", "ARRAY_MAX",
    "ARRAY_MEDIAN", "ARRAY_MIN", "ARRAY_SLICE", "ARRAY_SUM", "CHOOSE", "DATETIMEADD", "DATETIMEBIN",
    "DATETIMEDIFF", "DATETIMEFORMAT", "DATETIMEFROMPARTS", "DATETIMEPART", "DATETIMETOTICKS",
    "DATETIMETOTIMESTAMP", "DOCUMENTID", "FULLTEXTCONTAINS", "FULLTEXTCONTAINSALL",
    "FULLTEXTCONTAINSANY", "FULLTEXTSCORE", "GETCURRENTDATETIME", "GETCURRENTDATETIMESTATIC",
    "GETCURRENTTICKS", "GETCURRENTTICKSSTATIC", "GETCURRENTTIMESTAMP", "GETCURRENTTIMESTAMPSTATIC",
    "INTADD", "INTBITAND", "INTBITLEFTSHIFT", "INTBITNOT", "INTBITOR", "INTBITRIGHTSHIFT",
    "INTBITXOR", "INTDIV", "INTMOD", "INTMUL", "INTSUB", "IS_DATETIME", "LASTINDEXOF", "NUMBERBIN",
    "OBJECTTOARRAY", "RAND", "REGEXMATCH", "REPLICATE", "RRF", "SETINTERSECT", "SETUNION",
    "STRINGJOIN", "STRINGSPLIT", "STRINGTOARRAY", "STRINGTOBOOLEAN", "STRINGTONULL",
    "STRINGTONUMBER", "STRINGTOOBJECT", "ST_AREA", "ST_DISTANCE", "ST_INTERSECTS", "ST_ISVALID",
    "ST_ISVALIDDETAILED", "ST_WITHIN", "TICKSTODATETIME", "TIMESTAMPTODATETIME", "VECTORDISTANCE",
};
// clang-format on
// Whether `name` (any case) is a built-in function the service knows.
bool IsBuiltinFunction(std::string_view name);

// ---- Evaluation ---------------------------------------------------------------------------------

// Parameter values by name, "@" included.
using Parameters = std::map<std::string, Value, std::less<>>;

// [{"name": "@p", "value": ...}, ...] (the REST API's and the SDKs' shape), at most
// kCosmosQueryMaxParameters entries, each name "@" + an identifier, none twice.
StatusOr<Parameters> ParseParametersJson(std::string_view json);

class QueryEvaluator {
 public:
  // Prepares the FROM, JOIN and WHERE clauses of `query` with `parameters`. A parameter those
  // clauses use but `parameters` lacks ("Parameter '@x' is not given a value."), or a construct
  // the playground does not evaluate, is a located kQuerySyntax error here, once.
  static StatusOr<QueryEvaluator> Create(const Query& query, const Parameters& parameters);

  QueryEvaluator(QueryEvaluator&&) noexcept;
  QueryEvaluator& operator=(QueryEvaluator&&) noexcept;
  ~QueryEvaluator();

  // How many rows `item` produces before projection: the combinations of its FROM source and
  // JOINs (an undefined source, or a non-array behind IN, gives none) whose WHERE is exactly true.
  // A query without FROM reads no item: 0. (SELECT VALUE of an undefined value drops a row the
  // service would not return; that, DISTINCT, TOP, OFFSET/LIMIT, GROUP BY and aggregates act
  // across items and are the caller's.)
  // An item whose JOINs enumerate more than kCosmosQueryMaxJoinRowsPerItem rows is a kQuerySyntax
  // error with `item_index` as its location. Reuses its scratch space: no allocation per item
  // unless the query builds strings, arrays or objects. Not thread-safe (one evaluator a thread).
  StatusOr<uint64_t> Rows(simdjson::dom::element item, int64_t item_index = -1);

  // The value of `expr` (an expression of this query, such as a SELECT item, or of none that
  // uses only literals and parameters) with the FROM alias and each JOIN alias bound to its first
  // row of `item` (an alias with no row is undefined). For tests and "what does this evaluate
  // to"; it compiles `expr` on every call.
  StatusOr<Value> Evaluate(const Expr& expr, simdjson::dom::element item);

 private:
  struct Impl;
  explicit QueryEvaluator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Once-off convenience: Create then Rows.
StatusOr<uint64_t> Rows(const Query& query, const Parameters& parameters,
                        simdjson::dom::element item);

}  // namespace partplay::cosmosql
