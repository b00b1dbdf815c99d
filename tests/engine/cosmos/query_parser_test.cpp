// The Cosmos DB for NoSQL query parser (cosmos/query.h): every construct with its canonical
// print (and the print parsed again prints the same), each precedence level, every error with
// its message and location, every parse limit, and PathAsPointer. Queries marked "docs" are the
// examples of learn.microsoft.com/azure/cosmos-db/nosql/query/ (the page named beside them);
// the expected error texts of SC2005, SC2050 and SC2101 are the service's own answers recorded in
// the .NET SDK's QueryPartitionProviderTest.Negative.xml, SC1001 near '/' is microsoft/
// vscode-cosmosdb issue 2414, SC1010 for ';' a public error report; the rest is authored.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "partplay/core/limits.h"
#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {
namespace {

// The canonical print of `text`, checked to be a fixed point of parse-then-print.
std::string Canon(std::string_view text) {
  StatusOr<Query> q = ParseQuery(text);
  EXPECT_TRUE(q.ok()) << text << ": " << q.status().ToString();
  if (!q.ok()) return "<error>";
  std::string printed = ToString(q.value());
  StatusOr<Query> again = ParseQuery(printed);
  EXPECT_TRUE(again.ok()) << printed << ": " << again.status().ToString();
  if (again.ok()) EXPECT_EQ(ToString(again.value()), printed);
  return printed;
}

// The WHERE expression of `SELECT * FROM c WHERE <where>`.
Expr Where(std::string_view where) {
  StatusOr<Query> q = ParseQuery("SELECT * FROM c WHERE " + std::string(where));
  EXPECT_TRUE(q.ok()) << where << ": " << q.status().ToString();
  return q.ok() ? *q.value().where_clause : Expr();
}

struct ErrorCase {
  std::string_view query;
  std::string_view message;
  int64_t line, column, byte_offset;
};

void ExpectError(const ErrorCase& c) {
  StatusOr<Query> q = ParseQuery(c.query);
  ASSERT_FALSE(q.ok()) << c.query;
  EXPECT_EQ(q.status().code(), ErrorCode::kQuerySyntax);
  EXPECT_EQ(q.status().message(), c.message) << c.query;
  EXPECT_EQ(q.status().where().line, c.line) << c.query;
  EXPECT_EQ(q.status().where().column, c.column) << c.query;
  EXPECT_EQ(q.status().where().byte_offset, c.byte_offset) << c.query;
}

TEST(QueryParser, SelectForms) {
  EXPECT_EQ(Canon("SELECT * FROM c"), "SELECT * FROM c");
  EXPECT_EQ(Canon("select value c.id from c"), "SELECT VALUE c.id FROM c");
  EXPECT_EQ(Canon("SELECT c.id, c.name AS n FROM c"), "SELECT c.id, c.name AS n FROM c");
  EXPECT_EQ(Canon("SELECT DISTINCT VALUE p.category FROM products p"),  // docs: keywords
            "SELECT DISTINCT VALUE p.category FROM products AS p");
  EXPECT_EQ(Canon("SELECT TOP 10 * FROM products p ORDER BY p.price ASC"),  // docs: keywords
            "SELECT TOP 10 * FROM products AS p ORDER BY p.price ASC");
  EXPECT_EQ(Canon("SELECT TOP @n * FROM c"), "SELECT TOP @n * FROM c");
  EXPECT_EQ(Canon("SELECT 1"), "SELECT 1");
  EXPECT_EQ(Canon("SELECT VALUE {a: 1, \"b c\": [1, 'x']}"),
            "SELECT VALUE {\"a\": 1, \"b c\": [1, \"x\"]}");
  StatusOr<Query> q = ParseQuery("SELECT DISTINCT TOP 5 VALUE c.a FROM c");
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->distinct);
  EXPECT_EQ(q->top->value, 5u);
  EXPECT_EQ(q->select, Query::Select::kValue);
}

TEST(QueryParser, FromSourcesAndAliases) {
  EXPECT_EQ(Canon("SELECT r.id FROM root r"), "SELECT r.id FROM root AS r");
  EXPECT_EQ(Canon("SELECT f.id FROM Families AS f"), "SELECT f.id FROM Families AS f");
  EXPECT_EQ(Canon("SELECT Families.id FROM Families"), "SELECT Families.id FROM Families");
  EXPECT_EQ(Canon("SELECT * FROM Families.children[0] c WHERE c.grade BETWEEN 1 AND 5"),
            "SELECT * FROM Families.children[0] AS c WHERE c.grade BETWEEN 1 AND 5");
  EXPECT_EQ(Canon("SELECT * FROM c IN Families.children"), "SELECT * FROM c IN Families.children");
  EXPECT_EQ(Canon("SELECT children.x FROM c.children"), "SELECT children.x FROM c.children");
  EXPECT_EQ(Canon("SELECT * FROM c[\"a b\"] AS x"), "SELECT * FROM c[\"a b\"] AS x");
  EXPECT_EQ(Canon("SELECT f.id, c.givenName FROM Families f JOIN c IN f.children JOIN p IN "
                  "c.pets"),
            "SELECT f.id, c.givenName FROM Families AS f JOIN c IN f.children JOIN p IN c.pets");
  // The inferred alias of c.tags is tags.
  EXPECT_EQ(Canon("SELECT tags FROM c JOIN c.tags"), "SELECT tags FROM c JOIN c.tags");
  ExpectError(
      {"SELECT t FROM c JOIN c.tags", "SC2001: Identifier 't' could not be resolved.", 1, 8, 7});
}

TEST(QueryParser, FromSourceFields) {
  StatusOr<Query> q = ParseQuery("SELECT * FROM root r JOIN t IN r.tags JOIN r.owner");
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  EXPECT_EQ(q->from->alias, "r");
  EXPECT_TRUE(q->from->alias_written);
  EXPECT_EQ(q->from->kind, FromSource::Kind::kAliased);
  EXPECT_EQ(q->from->expr.name, "root");
  ASSERT_EQ(q->joins.size(), 2u);
  EXPECT_EQ(q->joins[0].kind, FromSource::Kind::kIn);
  EXPECT_EQ(q->joins[0].alias, "t");
  EXPECT_EQ(ExprToString(q->joins[0].expr), "r.tags");
  EXPECT_EQ(q->joins[1].alias, "owner");
  EXPECT_FALSE(q->joins[1].alias_written);
}

TEST(QueryParser, Clauses) {
  EXPECT_EQ(Canon("SELECT c.a, COUNT(1) AS n FROM c WHERE c.x > 1 GROUP BY c.a, c.b"),
            "SELECT c.a, COUNT(1) AS n FROM c WHERE c.x > 1 GROUP BY c.a, c.b");
  EXPECT_EQ(Canon("SELECT * FROM c ORDER BY c.a DESC, c.b, c.c asc"),
            "SELECT * FROM c ORDER BY c.a DESC, c.b, c.c ASC");
  EXPECT_EQ(Canon("SELECT * FROM c ORDER BY RANK FullTextScore(c.text, 'a')"),
            "SELECT * FROM c ORDER BY RANK FULLTEXTSCORE(c.text, \"a\")");
  // RANK is read only as ORDER BY RANK before a function: c.rank and an alias rank are names.
  EXPECT_EQ(Canon("SELECT c.rank FROM c ORDER BY c.rank"), "SELECT c.rank FROM c ORDER BY c.rank");
  EXPECT_EQ(Canon("SELECT * FROM rank ORDER BY rank.x"), "SELECT * FROM rank ORDER BY rank.x");
  EXPECT_TRUE(ParseQuery("SELECT * FROM c ORDER BY RANK RRF(VectorDistance(c.v, [1]), "
                         "FullTextScore(c.t, 'x'))")
                  ->order_by_rank);
  EXPECT_EQ(Canon("SELECT * FROM c OFFSET 10 LIMIT 20"), "SELECT * FROM c OFFSET 10 LIMIT 20");
  EXPECT_EQ(Canon("SELECT * FROM c OFFSET @o LIMIT @l"), "SELECT * FROM c OFFSET @o LIMIT @l");
  StatusOr<Query> q = ParseQuery("SELECT VALUE COUNT(1) FROM c GROUP BY c.k OFFSET 1 LIMIT @l");
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->has_aggregates);
  EXPECT_EQ(q->group_by.size(), 1u);
  EXPECT_EQ(q->offset->value, 1u);
  EXPECT_EQ(q->limit->parameter, "@l");
  EXPECT_FALSE(ParseQuery("SELECT c.a FROM c")->has_aggregates);
  // An aggregate inside a subquery is the subquery's.
  EXPECT_FALSE(
      ParseQuery("SELECT (SELECT VALUE COUNT(1) FROM t IN c.tags) FROM c")->has_aggregates);
}

TEST(QueryParser, PathsAndMembers) {
  EXPECT_EQ(ExprToString(Where("c.a.b")), "c.a.b");
  EXPECT_EQ(ExprToString(Where("c[\"a\"][\"b\"]")), "c.a.b");
  EXPECT_EQ(ExprToString(Where("c['a b'].x")), "c[\"a b\"].x");
  EXPECT_EQ(ExprToString(Where("c.arr[0].y")), "c.arr[0].y");
  EXPECT_EQ(ExprToString(Where("c[\"value\"]")), "c[\"value\"]");
  Expr p = Where("c.a[\"b\"][2]");
  EXPECT_EQ(p.kind, ExprKind::kPath);
  EXPECT_EQ(p.name, "c");
  ASSERT_EQ(p.steps.size(), 3u);
  EXPECT_EQ(p.steps[1].name, "b");
  EXPECT_EQ(p.steps[2].kind, PathStep::Kind::kIndex);
  EXPECT_EQ(p.steps[2].index, 2u);
  Expr m = Where("c[c.key]");
  EXPECT_EQ(m.kind, ExprKind::kMember);
  EXPECT_EQ(ExprToString(m), "c[c.key]");
  EXPECT_EQ(ExprToString(Where("c.a[-1]")), "c.a[-1]");
  EXPECT_EQ(ExprToString(Where("[1, 2][0] = 1")), "[1, 2][0] = 1");
  EXPECT_EQ(ExprToString(Where("{\"a\": 1}.a = 1")), "{\"a\": 1}.a = 1");
  // A number before '.' is parenthesized: 0.c would lex as the number 0. (fuzz-found).
  EXPECT_EQ(Canon("SELECT * FROM c WHERE c.a = 0 .c = 3"),
            "SELECT * FROM c WHERE c.a = (0).c = 3");
  EXPECT_EQ(ExprToString(Where("1e300[0]")), "(1e+300)[0]");
  EXPECT_EQ(ExprToString(Where("{\"a b\": 1}[\"a b\"] = 1")), "{\"a b\": 1}[\"a b\"] = 1");
}

TEST(QueryParser, Literals) {
  EXPECT_EQ(ExprToString(Where("1.5e3 = 1500")), "1500 = 1500");
  EXPECT_EQ(ExprToString(Where(".5 = 0x1F")), "0.5 = 31");
  EXPECT_EQ(ExprToString(Where("-1 = - 2.25")), "-1 = -2.25");
  EXPECT_EQ(ExprToString(Where("c.a = 1e300")), "c.a = 1e+300");
  EXPECT_EQ(ExprToString(Where("'it\\'s' = \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\"")),
            "\"it's\" = \"q\\\"\\\\/\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(ExprToString(Where("'\\u00e9\\uD83D\\uDE00' = 'é😀'")), "\"é😀\" = \"é😀\"");
  EXPECT_EQ(ExprToString(Where("[true, false, null, undefined] = {}")),
            "[true, false, null, undefined] = {}");
  Expr lit = Where("-0x10");
  EXPECT_EQ(lit.kind, ExprKind::kLiteral);
  EXPECT_EQ(lit.literal.number(), -16);
}

TEST(QueryParser, ParametersAndFunctions) {
  EXPECT_EQ(ExprToString(Where("c.userId = @userId")), "c.userId = @userId");
  EXPECT_EQ(ExprToString(Where("startswith(c.a, 'x', true)")), "STARTSWITH(c.a, \"x\", true)");
  EXPECT_EQ(ExprToString(Where("left(c.a, 2) = right(c.b, 2)")), "LEFT(c.a, 2) = RIGHT(c.b, 2)");
  EXPECT_EQ(ExprToString(Where("udf.myFn(c.a, 1)")), "udf.myFn(c.a, 1)");
  EXPECT_EQ(ExprToString(Where("Pi() > 3")), "PI() > 3");
  Expr call = Where("Array_Contains(c.tags, 'a')");
  EXPECT_EQ(call.kind, ExprKind::kCall);
  EXPECT_EQ(call.name, "ARRAY_CONTAINS");
  EXPECT_FALSE(call.udf);
  EXPECT_TRUE(IsBuiltinFunction("st_distance"));
  EXPECT_FALSE(IsBuiltinFunction("BADFUNC"));
}

TEST(QueryParser, Subqueries) {
  EXPECT_EQ(Canon("SELECT * FROM c WHERE (SELECT VALUE COUNT(1) FROM t IN c.tags) > 1"),
            "SELECT * FROM c WHERE (SELECT VALUE COUNT(1) FROM t IN c.tags) > 1");
  EXPECT_EQ(Canon("SELECT * FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags WHERE t = 'a')"),
            "SELECT * FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags WHERE t = \"a\")");
  // docs: keywords ("DISTINCT can also be used in the projection within a subquery").
  EXPECT_EQ(Canon("SELECT f.id, ARRAY(SELECT DISTINCT VALUE c.givenName FROM c IN f.children) "
                  "as ChildNames FROM f"),
            "SELECT f.id, ARRAY(SELECT DISTINCT VALUE c.givenName FROM c IN f.children) AS "
            "ChildNames FROM f");
  EXPECT_EQ(Canon("SELECT x.n FROM (SELECT VALUE {n: 1}) AS x"),
            "SELECT x.n FROM (SELECT VALUE {\"n\": 1}) AS x");
  Expr e = Where("EXISTS(SELECT 1)");
  EXPECT_EQ(e.kind, ExprKind::kExists);
  ASSERT_TRUE(e.subquery);
  EXPECT_EQ(e.subquery->items.size(), 1u);
}

TEST(QueryParser, CommentsAndWhitespace) {
  EXPECT_EQ(Canon("SELECT * -- every item\r\n\tFROM c -- done"), "SELECT * FROM c");
  EXPECT_EQ(ExprToString(Where("c.a - -1")), "c.a - -1");
  EXPECT_EQ(ExprToString(Where("c.a --1\n = 2")), "c.a = 2");
}

// Each level of the grammar against the next, in both orders.
TEST(QueryParser, Precedence) {
  struct Case {
    std::string_view where, printed;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"1 + 2 * 3", "1 + 2 * 3"},
           {"(1 + 2) * 3", "(1 + 2) * 3"},
           {"c.a - c.b - c.c", "c.a - c.b - c.c"},
           {"c.a - (c.b - c.c)", "c.a - (c.b - c.c)"},
           {"(c.a - c.b) - c.c", "c.a - c.b - c.c"},
           {"c.a * 2 % 3 / 4", "c.a * 2 % 3 / 4"},
           {"1 << 2 + 3", "1 << 2 + 3"},
           {"(1 << 2) + 3", "(1 << 2) + 3"},
           {"1 < 2 >> 1", "1 < 2 >> 1"},
           {"c.a = c.b < c.c", "c.a = c.b < c.c"},
           {"(c.a = c.b) < c.c", "(c.a = c.b) < c.c"},
           {"1 & 2 = 2", "1 & 2 = 2"},
           {"1 ^ 2 & 3", "1 ^ 2 & 3"},
           {"1 | 2 ^ 3", "1 | 2 ^ 3"},
           {"'a' || 'b' | 'c'", "\"a\" || \"b\" | \"c\""},
           {"('a' || 'b') | 'c'", "(\"a\" || \"b\") | \"c\""},
           {"c.a || 'x' IN ('ax')", "c.a || \"x\" IN (\"ax\")"},
           {"(c.a IN (1)) = true", "(c.a IN (1)) = true"},
           {"c.a = 1 AND c.b = 2 OR c.c = 3", "c.a = 1 AND c.b = 2 OR c.c = 3"},
           {"c.a = 1 AND (c.b = 2 OR c.c = 3)", "c.a = 1 AND (c.b = 2 OR c.c = 3)"},
           {"c.a BETWEEN 1 AND 2 AND c.b", "c.a BETWEEN 1 AND 2 AND c.b"},
           {"c.a ?? c.b OR c.c", "c.a ?? c.b OR c.c"},
           {"(c.a ?? c.b) OR c.c", "(c.a ?? c.b) OR c.c"},
           {"c.a ?? c.b ? 1 : 2", "c.a ?? c.b ? 1 : 2"},
           {"c.a ?? (c.b ? 1 : 2)", "c.a ?? (c.b ? 1 : 2)"},
           {"c.a ? 1 : c.b ? 2 : 3", "c.a ? 1 : c.b ? 2 : 3"},
           {"(c.a ? 1 : c.b) ? 2 : 3", "(c.a ? 1 : c.b) ? 2 : 3"},
           {"c.a ?? c.b ?? c.c", "c.a ?? c.b ?? c.c"},
           {"c.a ?? (c.b ?? c.c)", "c.a ?? (c.b ?? c.c)"},
           {"NOT c.a = 1", "NOT c.a = 1"},
           {"NOT (c.a = 1)", "NOT (c.a = 1)"},
           {"- -c.a", "- -c.a"},
           {"-(-c.a)", "- -c.a"},
           {"+ -c.a", "+ -c.a"},
           {"~c.a & 1", "~c.a & 1"},
           {"c.a NOT IN (1, 2) AND c.b NOT LIKE 'x%' ESCAPE '!'",
            "c.a NOT IN (1, 2) AND c.b NOT LIKE \"x%\" ESCAPE \"!\""},
           {"c.a NOT BETWEEN 1 + 1 AND 3 * 2", "c.a NOT BETWEEN 1 + 1 AND 3 * 2"},
       }) {
    EXPECT_EQ(ExprToString(Where(c.where)), c.printed) << c.where;
    EXPECT_EQ(Canon("SELECT * FROM c WHERE " + std::string(c.where)),
              "SELECT * FROM c WHERE " + std::string(c.printed));
  }
  // The shapes behind the prints.
  Expr e = Where("1 + 2 * 3");
  EXPECT_EQ(e.op, Op::kAdd);
  EXPECT_EQ(e.children[1].op, Op::kMultiply);
  Expr chain = Where("c.a AND c.b AND c.c AND c.d");
  EXPECT_EQ(chain.op, Op::kAnd);
  EXPECT_EQ(chain.children.size(), 4u);
  EXPECT_EQ(chain.depth, 2);
  Expr not_equal = Where("NOT c.a = 1");  // sql.g4: NOT is unary, as tight as '-'
  EXPECT_EQ(not_equal.op, Op::kEqual);
  EXPECT_EQ(not_equal.children[0].kind, ExprKind::kUnary);
  Expr ne = Where("c.a <> 1");
  EXPECT_EQ(ne.op, Op::kNotEqual);
  Expr coalesce = Where("c.a ?? c.b ? 1 : 2");
  EXPECT_EQ(coalesce.kind, ExprKind::kTernary);
  EXPECT_EQ(coalesce.children[0].kind, ExprKind::kCoalesce);
  Expr in = Where("c.a NOT IN (1, 2)");
  EXPECT_EQ(in.kind, ExprKind::kIn);
  EXPECT_TRUE(in.negated);
  EXPECT_EQ(in.children.size(), 3u);
}

TEST(QueryParser, SyntaxErrors) {
  for (const ErrorCase& c : std::initializer_list<ErrorCase>{
           {"SELECT * FROM", "SC1002: Syntax error, unexpected end-of-file.", 1, 14, 13},
           {"", "SC1002: Syntax error, unexpected end-of-file.", 1, 1, 0},
           {"SELECT * FROM c WHERE", "SC1002: Syntax error, unexpected end-of-file.", 1, 22, 21},
           {"SELECT FROM c", "SC1001: Syntax error, incorrect syntax near 'FROM'.", 1, 8, 7},
           {"SELECT distinct * FROM c ORDER", "SC1002: Syntax error, unexpected end-of-file.", 1,
            31, 30},
           {"SELECT *\nFROM c\nWHERE c.a = = 1", "SC1001: Syntax error, incorrect syntax near '='.",
            3, 13, 28},
           {"SELECT * FROM c;", "SC1010: Syntax error, invalid token ';'.", 1, 16, 15},
           {"SELECT * FROM c WHERE c.$a = 1", "SC1010: Syntax error, invalid token '$'.", 1, 25,
            24},
           {"SELECT * FROM c WHERE c.a = @", "SC1010: Syntax error, invalid token '@'.", 1, 29, 28},
           {"/* SELECT TOP 10 * FROM c */ SELECT * FROM c",
            "SC1001: Syntax error, incorrect syntax near '/'.", 1, 1, 0},
           {"SELECT c.value FROM c", "SC1001: Syntax error, incorrect syntax near 'value'.", 1, 10,
            9},
           {"SELECT c.name AS Value FROM c", "SC1001: Syntax error, incorrect syntax near 'Value'.",
            1, 18, 17},
           {"SELECT * FROM c WHERE c.a IN (1) IN (2)",
            "SC1001: Syntax error, incorrect syntax near 'IN'.", 1, 34, 33},
           {"SELECT VALUE * FROM c", "SC1001: Syntax error, incorrect syntax near '*'.", 1, 14, 13},
           {"SELECT * FROM c OFFSET 1", "SC1002: Syntax error, unexpected end-of-file.", 1, 25, 24},
           {"SELECT * FROM c WHERE ARRAY(1)", "SC1001: Syntax error, incorrect syntax near '1'.", 1,
            29, 28},
           {"SELECT TOP 1.5 * FROM c", "TOP takes a non-negative integer or a parameter, not 1.5.",
            1, 12, 11},
           {"SELECT * FROM c WHERE c.a LIKE 'x' ESCAPE 'ab'",
            "The ESCAPE string of LIKE must be one character.", 1, 43, 42},
           {"SELECT * FROM c[0]",
            "This FROM or JOIN source needs an alias (AS name): it ends in an array index.",
            1, 15, 14},
       }) {
    ExpectError(c);
  }
}

TEST(QueryParser, LexicalErrors) {
  for (const ErrorCase& c : std::initializer_list<ErrorCase>{
           {"SELECT * FROM c WHERE c.a = 'abc",
            "The string starting here has no closing ' before the end of the query.", 1, 29, 28},
           {"SELECT * FROM c WHERE c.a = \"a\\qb\"", "Invalid escape sequence \\q in a string.", 1,
            31, 30},
           {"SELECT * FROM c WHERE c.a = 'a\\u12'",
            "Invalid escape sequence in a string: \\u takes four hex digits.", 1, 31, 30},
           {"SELECT * FROM c WHERE c.a = 'a\\uD800b'",
            "The escape \\uD800 is half of a UTF-16 surrogate pair; a string holds whole "
            "characters.",
            1, 31, 30},
           {"SELECT * FROM c WHERE c.a = 'a\tb'",
            "A string may not hold the control character U+0009; write it as an escape (\\n, \\t, "
            "\\u0001).",
            1, 31, 30},
           {"SELECT * FROM c WHERE c.a = 'a\xff'",
            "The query is not UTF-8: byte 0xFF at offset 30.", 1, 31, 30},
           {"SELECT * FROM c WHERE c.a = 0xFFFFFFFFFFFFFFFFF",
            "The hexadecimal number 0xFFFFFFFFFFFFFFFFF is larger than 64 bits.", 1, 29, 28},
           {"SELECT * FROM c WHERE c.a = 1e999",
            "The number 1e999 is outside the range of a double.", 1, 29, 28},
           {"SELECT * FROM c WHERE c.a = é", "SC1010: Syntax error, invalid token 'é'.", 1, 29, 28},
       }) {
    ExpectError(c);
  }
}

TEST(QueryParser, ResolutionErrors) {
  for (const ErrorCase& c : std::initializer_list<ErrorCase>{
           // query/from: once aliased, the container name can't be bound; properties are qualified.
           {"SELECT products.id FROM products p",
            "SC2001: Identifier 'products' could not be resolved.", 1, 8, 7},
           {"SELECT id FROM products p", "SC2001: Identifier 'id' could not be resolved.", 1, 8, 7},
           {"SELECT * FROM root r WHERE\n  root.id = 1",
            "SC2001: Identifier 'root' could not be resolved.", 2, 3, 29},
           {"SELECT c.id", "SC2001: Identifier 'c' could not be resolved.", 1, 8, 7},
           {"SELECT * FROM c WHERE c.ok = TRUE", "SC2001: Identifier 'TRUE' could not be resolved.",
            1, 30, 29},
           {"SELECT * FROM f JOIN c IN Families.children",
            "SC2001: Identifier 'Families' could not be resolved.", 1, 27, 26},
           {"SELECT * FROM f JOIN c IN c.children", "SC2001: Identifier 'c' could not be resolved.",
            1, 27, 26},
           {"SELECT * FROM c WHERE EXISTS(SELECT VALUE t FROM t IN d.tags)",
            "SC2001: Identifier 'd' could not be resolved.", 1, 55, 54},
           {"SELECT * FROM c JOIN c IN c.children",
            "The alias 'c' is given to two FROM or JOIN sources; each needs its own.", 1, 22, 21},
           {"SELECT BADFUNC(r.age) FROM Root r",
            "SC2005: 'BADFUNC' is not a recognized built-in function name.", 1, 8, 7},
           {"SELECT * FROM Root r WHERE STARTSWITH(r.key, 'a', true, 'c')",
            "SC2050: The STARTSWITH function requires 2 to 3 argument(s).", 1, 28, 27},
           {"SELECT ABS() FROM c", "SC2050: The ABS function requires 1 argument(s).", 1, 8, 7},
           {"SELECT CONCAT('a') FROM c",
            "SC2050: The CONCAT function requires at least 2 argument(s).", 1, 8, 7},
           {"SELECT VALUE MAX(MIN(r)) From r",
            "SC2101: Cannot perform an aggregate function on an expression containing an "
            "aggregate or a subquery.",
            1, 14, 13},
           {"SELECT VALUE COUNT((SELECT 1)) From r",
            "SC2101: Cannot perform an aggregate function on an expression containing an "
            "aggregate or a subquery.",
            1, 14, 13},
           {"SELECT * FROM c WHERE COUNT(c.a) > 1",
            "The aggregate function COUNT may appear only in the SELECT clause.", 1, 23, 22},
       }) {
    ExpectError(c);
  }
}

TEST(QueryParser, Limits) {
  // The text: 512 KiB passes, one byte more does not.
  std::string text = "SELECT * FROM c WHERE c.s = '";
  text.append(static_cast<size_t>(kCosmosQueryMaxTextBytes) - text.size() - 1, 'x');
  text += '\'';
  EXPECT_TRUE(ParseQuery(text).ok());
  ExpectError({text + " ",
               "The query text is 524289 bytes; Cosmos DB takes at most 512 KB "
               "(524288 bytes, cosmos_query_max_text_bytes).",
               1, 524289, 524288});

  // Nesting: 64 levels of parentheses or operators, not 65.
  auto nested = [](int n, std::string_view open, std::string_view close) {
    std::string s = "SELECT VALUE ";
    for (int k = 0; k < n; ++k) s += open;
    s += "1";
    for (int k = 0; k < n; ++k) s += close;
    return s;
  };
  const std::string too_deep =
      "The query nests expressions more than 64 deep "
      "(cosmos_query_max_nesting_depth).";
  EXPECT_TRUE(ParseQuery(nested(63, "(", ")")).ok());
  ExpectError({nested(64, "(", ")"), too_deep, 1, 78, 77});
  EXPECT_TRUE(ParseQuery(nested(63, "[", "]")).ok());
  ExpectError({nested(64, "[", "]"), too_deep, 1, 78, 77});
  EXPECT_TRUE(ParseQuery(nested(63, "ABS(", ")")).ok());
  EXPECT_FALSE(ParseQuery(nested(64, "ABS(", ")")).ok());
  EXPECT_TRUE(ParseQuery(nested(63, "NOT ", "")).ok());
  ExpectError({nested(64, "NOT ", ""), too_deep, 1, 270, 269});
  // The canonical print of the deepest chain of signs parses again: it keeps signs apart with a
  // space, not parentheses that nest one level each (the fuzz pass found +(+(+(...)))'s 126
  // levels; tests/fuzz/corpus/query_fuzz/signs-deep holds its input).
  for (std::string_view sign : {"+", "- "}) {  // "--" would start a comment
    std::string signs = "SELECT * FROM c WHERE STARTSWITH(LOWER(c.s), ";
    for (int k = 0; k < 60; ++k) signs += sign;
    signs += "'h')";
    StatusOr<Query> q = ParseQuery(signs);
    ASSERT_TRUE(q.ok()) << q.status().ToString();
    std::string printed = ToString(q.value());
    StatusOr<Query> again = ParseQuery(printed);
    ASSERT_TRUE(again.ok()) << printed << "\n" << again.status().ToString();
    EXPECT_EQ(ToString(again.value()), printed);
  }
  // A chain of one operator is one level however long.
  std::string chain = "SELECT * FROM c WHERE c.a = 0";
  for (int k = 1; k < 5000; ++k) chain += " OR c.a = " + std::to_string(k);
  StatusOr<Query> long_chain = ParseQuery(chain);
  ASSERT_TRUE(long_chain.ok());
  EXPECT_EQ(long_chain->where_clause->children.size(), 5000u);

  // IN lists: 6,000 values.
  std::string in = "SELECT * FROM c WHERE c.a IN (0";
  for (int k = 1; k < kCosmosQueryMaxInItems; ++k) in += ",1";
  EXPECT_TRUE(ParseQuery(in + ")").ok());
  ExpectError({in + ",2)", "An IN list holds more than 6000 values (cosmos_query_max_in_items).", 1,
               static_cast<int64_t>(in.size()) + 2, static_cast<int64_t>(in.size()) + 1});

  // JOINs: 10 across the query.
  std::string joins = "SELECT * FROM c";
  for (int k = 0; k < kCosmosQueryMaxJoins; ++k) joins += " JOIN j" + std::to_string(k) + " IN c.a";
  EXPECT_TRUE(ParseQuery(joins).ok());
  ExpectError({joins + " JOIN z IN c.a",
               "The query has more than 10 JOINs, the most Cosmos DB "
               "allows (cosmos_query_max_joins).",
               1, static_cast<int64_t>(joins.size()) + 2, static_cast<int64_t>(joins.size()) + 1});

  // Parameters: 1,000 distinct names (a name used twice counts once).
  std::string params = "SELECT * FROM c WHERE c.a IN (@p0, @p0";
  for (int k = 1; k < kCosmosQueryMaxParameters; ++k) params += ", @p" + std::to_string(k);
  EXPECT_TRUE(ParseQuery(params + ")").ok());
  ExpectError({params + ", @z)",
               "The query uses more than 1000 parameters "
               "(cosmos_query_max_parameters).",
               1, static_cast<int64_t>(params.size()) + 3,
               static_cast<int64_t>(params.size()) + 2});

  // Numeric literals: 300 digits, mantissa and exponent together.
  std::string digits(299, '1');
  EXPECT_TRUE(ParseQuery("SELECT VALUE 0." + digits).ok());
  ExpectError({"SELECT VALUE 0." + digits + "e1",
               "A numeric literal has 301 digits; the playground reads at most 300 "
               "(cosmos_query_max_numeric_digits).",
               1, 14, 13});
}

TEST(QueryParser, PathAsPointer) {
  StatusOr<Query> q = ParseQuery(
      "SELECT * FROM c JOIN t IN c.tags WHERE c.userId = 1 AND c[\"a/b\"][\"m~n\"][0] = 2 AND "
      "t.x = 3 AND c[c.k] = 4 AND c = 5");
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  const std::vector<Expr>& terms = q->where_clause->children;
  EXPECT_EQ(PathAsPointer(terms[0].children[0], q.value()), "/userId");
  EXPECT_EQ(PathAsPointer(terms[1].children[0], q.value()), "/a~1b/m~0n/0");
  EXPECT_EQ(PathAsPointer(terms[2].children[0], q.value()), std::nullopt);  // a JOIN alias
  EXPECT_EQ(PathAsPointer(terms[3].children[0], q.value()), std::nullopt);  // computed
  EXPECT_EQ(PathAsPointer(terms[4].children[0], q.value()), "");
  StatusOr<Query> sub = ParseQuery("SELECT * FROM employees.employment e WHERE e.team = 'x'");
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(PathAsPointer(sub->where_clause->children[0], sub.value()), "/employment/team");
  StatusOr<Query> in = ParseQuery("SELECT * FROM x IN c.arr WHERE x.a = 1");
  EXPECT_EQ(PathAsPointer(in->where_clause->children[0], in.value()), std::nullopt);
}

// Queries from the docs print to a fixed point.
TEST(QueryParser, DocsQueriesRoundTrip) {
  for (std::string_view q : {
           "SELECT VALUE p.price FROM products p WHERE p.price BETWEEN 17.25 AND 25.50",
           "SELECT (p.price BETWEEN 0 AND 10) AS booleanLessThanTen, p.price FROM products p",
           "SELECT VALUE p.name FROM products p WHERE p.description LIKE \"%20^%%\" ESCAPE \"^\"",
           "SELECT * FROM products p WHERE p.category IN (\"Accessories\", \"Clothing\")",
           "SELECT p.name, p.price AS subtotal, p.onCloseout ? (p.price * 0.55) : p.onSale ? "
           "(p.price * 0.85) : p.price AS total FROM products p",
           "SELECT p.name, p.collapsible ?? false AS isCollapsible FROM products p",
           "SELECT (100 >> 2) AS rightShift, (100 << 2) AS leftShift, (100 >>> 0) AS "
           "zeroFillRightShift, (100 & 1000) AS logicalAnd, (100 | 1000) AS logicalOr, (100 ^ "
           "1000) AS logicalExclusiveOr",
           "SELECT VALUE { employeeName: e.name, isPartTime: e.partTime } FROM employees e WHERE "
           "e.partTime AND e.team = \"Facilities\"",
           "SELECT VALUE { sku: CONCAT(p.slug, \"-\", p.category, \"-\", p.model) } FROM products "
           "p WHERE p.category = \"heavy-coats\"",
       }) {
    std::string printed = Canon(q);
    EXPECT_NE(printed, "<error>") << q;
  }
}

}  // namespace
}  // namespace partplay::cosmosql
