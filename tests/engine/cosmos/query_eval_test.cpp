// The Cosmos DB for NoSQL query evaluator (cosmos/query.h): every operator and built-in over
// small items parsed with simdjson, the three-valued logic tables, the comparison rules across
// types, LIKE patterns, row counts through FROM and JOINs, parameters, and what is refused.
// Cases marked "docs" take their expected values from learn.microsoft.com/azure/cosmos-db/nosql/
// query/<page> (the examples' results are in github.com/Azure-Samples/
// cosmos-db-nosql-query-samples, scripts/<name>/result.json); the rest are authored.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cosmos/query_internal.h"
#include "partplay/core/limits.h"
#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {
namespace {

// Rows of `query` over the item `json` with `params`, or the error's message.
struct Outcome {
  uint64_t rows = 0;
  std::string error;
  SourceLocation where;
};
Outcome RunQuery(std::string_view query, std::string_view json, const Parameters& params = {},
                 int64_t item_index = 7) {
  Outcome out;
  StatusOr<Query> q = ParseQuery(query);
  if (!q.ok()) {
    out.error = "parse: " + q.status().message();
    return out;
  }
  StatusOr<QueryEvaluator> ev = QueryEvaluator::Create(q.value(), params);
  if (!ev.ok()) {
    out.error = ev.status().message();
    out.where = ev.status().where();
    return out;
  }
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element item;
  EXPECT_EQ(parser.parse(padded).get(item), simdjson::SUCCESS) << json;
  StatusOr<uint64_t> rows = ev->Rows(item, item_index);
  if (!rows.ok()) {
    out.error = rows.status().message();
    out.where = rows.status().where();
    return out;
  }
  out.rows = rows.value();
  return out;
}

uint64_t Rows(std::string_view query, std::string_view json, const Parameters& params = {}) {
  Outcome o = RunQuery(query, json, params);
  EXPECT_EQ(o.error, "") << query;
  return o.rows;
}

// The JSON of `SELECT VALUE <expr> FROM c` evaluated over `item` ("undefined" when undefined).
std::string Eval(std::string_view expr, std::string_view item = "{}",
                 const Parameters& params = {}) {
  StatusOr<Query> q = ParseQuery("SELECT VALUE " + std::string(expr) + " FROM c");
  if (!q.ok()) return "parse: " + q.status().message();
  StatusOr<QueryEvaluator> ev = QueryEvaluator::Create(q.value(), params);
  if (!ev.ok()) return "create: " + ev.status().message();
  simdjson::dom::parser parser;
  simdjson::padded_string padded(item);
  simdjson::dom::element element;
  EXPECT_EQ(parser.parse(padded).get(element), simdjson::SUCCESS);
  StatusOr<Value> v = ev->Evaluate(q->items[0].expr, element);
  if (!v.ok()) return "eval: " + v.status().message();
  return v->ToJson();
}

// docs: logical-operators (the OR, AND and NOT tables).
TEST(QueryEval, ThreeValuedLogic) {
  const char* values[] = {"true", "false", "undefined"};
  const char* and_table[3][3] = {{"true", "false", "undefined"},
                                 {"false", "false", "false"},
                                 {"undefined", "false", "undefined"}};
  const char* or_table[3][3] = {
      {"true", "true", "true"}, {"true", "false", "undefined"}, {"true", "undefined", "undefined"}};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      std::string l = values[a], r = values[b];
      EXPECT_EQ(Eval("(" + l + " AND " + r + ")"), and_table[a][b]) << l << " AND " << r;
      EXPECT_EQ(Eval("(" + l + " OR " + r + ")"), or_table[a][b]) << l << " OR " << r;
    }
  }
  EXPECT_EQ(Eval("NOT true"), "false");
  EXPECT_EQ(Eval("NOT false"), "true");
  EXPECT_EQ(Eval("NOT undefined"), "undefined");
  // A non-boolean operand counts as undefined (authored).
  EXPECT_EQ(Eval("(1 AND true)"), "undefined");
  EXPECT_EQ(Eval("(1 AND false)"), "false");
  EXPECT_EQ(Eval("('x' OR true)"), "true");
  EXPECT_EQ(Eval("NOT 'x'"), "undefined");
  EXPECT_EQ(Eval("(true AND true AND c.missing)"), "undefined");
  // Row filtering: only exactly true keeps the row.
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.flag", R"({"flag": true})"), 1u);
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.flag", R"({"flag": 1})"), 0u);
  EXPECT_EQ(Rows("SELECT * FROM c WHERE NOT c.flag", R"({})"), 0u);
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.a = 1 OR NOT IS_DEFINED(c.a)", R"({})"), 1u);
  EXPECT_EQ(Rows("SELECT * FROM c", R"({})"), 1u);
}

// docs: equality-comparison-operators (the equality table: undefined across types).
TEST(QueryEval, EqualityAcrossTypes) {
  const char* samples[] = {"undefined", "null", "true", "1", "'a'", "{\"k\": 1}", "[1]"};
  for (int a = 0; a < 7; ++a) {
    for (int b = 0; b < 7; ++b) {
      std::string expr = std::string("(") + samples[a] + " = " + samples[b] + ")";
      std::string want = a == 0 || b == 0 ? "undefined" : a == b ? "true" : "undefined";
      EXPECT_EQ(Eval(expr), want) << expr;
    }
  }
  EXPECT_EQ(Rows("SELECT * FROM products p WHERE 0 = \"true\"", "{}"), 0u);  // docs
  EXPECT_EQ(Eval("(1 != 2)"), "true");
  EXPECT_EQ(Eval("(1 <> 1)"), "false");
  EXPECT_EQ(Eval("(1 != '1')"), "undefined");
  EXPECT_EQ(Eval("(null = null)"), "true");
  // Arrays and objects compare deeply; object members in any order (authored).
  EXPECT_EQ(Eval("([1, [2, {\"a\": null}]] = [1, [2, {\"a\": null}]])"), "true");
  EXPECT_EQ(Eval("([1, 2] = [2, 1])"), "false");
  EXPECT_EQ(Eval("([1] = ['1'])"), "false");
  EXPECT_EQ(Eval("(c.o = {\"b\": 2, \"a\": 1})", R"({"o": {"a": 1, "b": 2}})"), "true");
  EXPECT_EQ(Eval("(c.o = {\"a\": 1})", R"({"o": {"a": 1, "b": 2}})"), "false");
  EXPECT_EQ(Eval("(c.x = c.y)", R"({"x": [1, {"z": "q"}], "y": [1, {"z": "q"}]})"), "true");
  // An undefined element or member is left out of a constructed value.
  EXPECT_EQ(Eval("([1, c.missing, 2] = [1, 2])"), "true");
  EXPECT_EQ(Eval("{\"a\": c.missing, \"b\": 1}"), "{\"b\":1}");
}

TEST(QueryEval, Ordering) {
  EXPECT_EQ(Eval("(1 < 2)"), "true");
  EXPECT_EQ(Eval("(2 <= 2)"), "true");
  EXPECT_EQ(Eval("(3 > 2.5)"), "true");
  EXPECT_EQ(Eval("(2 >= 3)"), "false");
  EXPECT_EQ(Eval("('a' < 'b')"), "true");
  EXPECT_EQ(Eval("('B' < 'a')"), "true");  // ordinal: code points
  EXPECT_EQ(Eval("('z' < 'é')"), "true");  // U+007A < U+00E9
  EXPECT_EQ(Eval("('é' < '😀')"), "true");  // U+00E9 < U+1F600
  EXPECT_EQ(Eval("(false < true)"), "true");
  EXPECT_EQ(Eval("(null <= null)"), "true");
  EXPECT_EQ(Eval("(null < null)"), "false");
  // docs: equality-comparison-operators (across types, or arrays and objects: undefined).
  EXPECT_EQ(Eval("(1 < '2')"), "undefined");
  EXPECT_EQ(Eval("([1] < [2])"), "undefined");
  EXPECT_EQ(Eval("({} >= {})"), "undefined");
  EXPECT_EQ(Eval("(c.missing < 1)"), "undefined");
  // NaN orders with nothing (authored, as in JavaScript).
  EXPECT_EQ(Eval("(SQRT(-1) < 1)"), "false");
  EXPECT_EQ(Eval("(SQRT(-1) >= 1)"), "false");
  EXPECT_EQ(Eval("(SQRT(-1) = SQRT(-1))"), "false");
}

TEST(QueryEval, Arithmetic) {
  EXPECT_EQ(Eval("1 + 2 * 3"), "7");
  EXPECT_EQ(Eval("(1 + 2) * 3"), "9");
  EXPECT_EQ(Eval("7 % 3"), "1");
  EXPECT_EQ(Eval("-7 % 3"), "-1");
  EXPECT_EQ(Eval("1 / 4"), "0.25");
  EXPECT_EQ(Eval("10 - 2 - 3"), "5");
  EXPECT_EQ(Eval("-c.n", R"({"n": 4})"), "-4");
  EXPECT_EQ(Eval("+c.n", R"({"n": 4})"), "4");
  EXPECT_EQ(Eval("-c.s", R"({"s": "x"})"), "undefined");
  EXPECT_EQ(Eval("'a' + 'b'"), "undefined");
  EXPECT_EQ(Eval("1 + null"), "undefined");
  EXPECT_EQ(Eval("'a' || 'b' || 'c'"), "\"abc\"");
  EXPECT_EQ(Eval("'a' || 1"), "undefined");
  // '||' is the loosest binary operator (sql.g4): this is 'a' || ('b' = 'ab').
  EXPECT_EQ(Eval("'a' || 'b' = 'ab'"), "undefined");
  EXPECT_EQ(Eval("('a' || 'b') = 'ab'"), "true");
  // docs: is-finite-number (8.9 / 0.0 is a number that is not finite).
  EXPECT_EQ(Eval("IS_NUMBER(8.9 / 0.0)"), "true");
  EXPECT_EQ(Eval("IS_FINITE_NUMBER(8.9 / 0.0)"), "false");
  EXPECT_EQ(Eval("IS_FINITE_NUMBER(SQRT(-1.0))"), "false");
  EXPECT_EQ(Eval("IS_FINITE_NUMBER(1234.567)"), "true");
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.a / 0 > 1e308", R"({"a": 1})"), 1u);
}

// docs: bitwise-operators (the example's results), then JavaScript's 32-bit rules (authored).
TEST(QueryEval, Bitwise) {
  EXPECT_EQ(Eval("100 >> 2"), "25");
  EXPECT_EQ(Eval("100 << 2"), "400");
  EXPECT_EQ(Eval("100 >>> 0"), "100");
  EXPECT_EQ(Eval("100 & 1000"), "96");
  EXPECT_EQ(Eval("100 | 1000"), "1004");
  EXPECT_EQ(Eval("100 ^ 1000"), "908");
  EXPECT_EQ(Eval("~5"), "-6");
  EXPECT_EQ(Eval("-1 >>> 0"), "4294967295");
  EXPECT_EQ(Eval("-16 >> 2"), "-4");
  EXPECT_EQ(Eval("1 << 33"), "2");
  EXPECT_EQ(Eval("4294967297 | 0"), "1");
  EXPECT_EQ(Eval("2.9 | 0"), "2");
  EXPECT_EQ(Eval("'a' & 1"), "undefined");
}

// docs: ternary-coalesce-operators (the products example), then undefined conditions.
TEST(QueryEval, TernaryAndCoalesce) {
  const char* poles = R"({"price": 24.50, "onCloseout": true, "onSale": true})";
  EXPECT_EQ(Eval("c.onSale ? (c.price * 0.85) : c.price", poles), "20.825");
  EXPECT_EQ(Eval("c.onCloseout ? (c.price * 0.55) : c.onSale ? (c.price * 0.85) : c.price", poles),
            "13.475000000000001");
  EXPECT_EQ(Eval("c.missing ? 1 : 2"), "undefined");
  EXPECT_EQ(Eval("'yes' ? 1 : 2"), "undefined");
  EXPECT_EQ(Eval("c.collapsible ?? false"), "false");
  EXPECT_EQ(Eval("c.collapsible ?? false", R"({"collapsible": null})"), "null");
  EXPECT_EQ(Eval("c.a ?? c.b ?? 3", R"({"b": 2})"), "2");
  EXPECT_EQ(Eval("c.a ?? c.b"), "undefined");
}

TEST(QueryEval, InAndBetween) {
  const char* item = R"({"category": "Clothing", "n": 5, "tags": ["a"]})";
  EXPECT_EQ(Rows("SELECT * FROM p WHERE p.category IN (\"Accessories\", \"Clothing\")", item),
            1u);  // docs: keywords
  EXPECT_EQ(Eval("c.n IN (1, 5, 'x')", item), "true");
  EXPECT_EQ(Eval("c.n IN (1, 2)", item), "false");
  EXPECT_EQ(Eval("c.n NOT IN (1, 2)", item), "true");
  EXPECT_EQ(Eval("c.n IN ('5')", item), "false");
  EXPECT_EQ(Eval("c.tags IN (['a'], 1)", item), "true");
  EXPECT_EQ(Eval("c.n IN (c.n + 0)", item), "true");
  EXPECT_EQ(Eval("c.missing IN (1)", item), "undefined");
  EXPECT_EQ(Eval("SQRT(-1) IN (1, 2)", item), "false");  // NaN equals nothing
  EXPECT_EQ(Eval("-0 IN (0)", item), "true");
  EXPECT_EQ(Eval("c.missing NOT IN (1)", item), "undefined");
  EXPECT_EQ(Eval("@v IN (1, 2)", item, {{"@v", Value::Number(2)}}), "true");
  // docs: keywords (BETWEEN is inclusive; across types undefined).
  EXPECT_EQ(Eval("c.n BETWEEN 5 AND 10", item), "true");
  EXPECT_EQ(Eval("c.n BETWEEN 1 AND 5", item), "true");
  EXPECT_EQ(Eval("c.n BETWEEN 6 AND 10", item), "false");
  EXPECT_EQ(Eval("c.n NOT BETWEEN 6 AND 10", item), "true");
  EXPECT_EQ(Eval("c.category BETWEEN 'A' AND 'D'", item), "true");
  EXPECT_EQ(Eval("c.n BETWEEN 'a' AND 10", item), "undefined");
  EXPECT_EQ(Eval("c.n NOT BETWEEN 'a' AND 10", item), "undefined");
}

// docs: keywords ("LIKE": the wildcard table and the ESCAPE example); the rest authored.
TEST(QueryEval, Like) {
  struct Case {
    std::string_view value, pattern;
    bool match;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"20-30%", "20-30[%]", true},
           {"20-30x", "20-30[%]", false},
           {"_n", "[_]n", true},
           {"an", "[_]n", false},
           {"]", "]", true},
           {"Road bike", "Road%", true},
           {"Winter glove", "%glove", true},
           {"screwdriver set", "%driver%", true},
           {"xSOuPSx", "%SO[t-z]PS%", true},
           {"xSOaPSx", "%SO[t-z]PS%", false},
           {"xSOdPSx", "%SO[^abc]PS%", true},
           {"xSObPSx", "%SO[^abc]PS%", false},
           {"xSOaPSx", "%SO_PS%", true},
           {"", "%", true},
           {"", "_", false},
           {"abc", "a%%c", true},
           {"abc", "a_c", true},
           {"ac", "a_c", false},
           {"é", "_", true},
           {"aXbXc", "%X%X%", true},
           {"aXb", "%X%X%", false},
           {"abc", "ABC", false},
           {"a[b", "a[b", true},
           {"a-b", "a[-]b", true},
           {"ab", "[a-b][a-b]", true},
       }) {
    std::string expr = "'" + std::string(c.value) + "' LIKE '" + std::string(c.pattern) + "'";
    EXPECT_EQ(Eval(expr), c.match ? "true" : "false") << expr;
  }
  EXPECT_EQ(Eval("c.d LIKE \"%20^%%\" ESCAPE \"^\"", R"({"d": "now 20% off"})"), "true");
  EXPECT_EQ(Eval("c.d LIKE \"%20^%%\" ESCAPE \"^\"", R"({"d": "now 200 off"})"), "false");
  EXPECT_EQ(Eval("c.d NOT LIKE '%winter%'", R"({"d": "summer"})"), "true");
  EXPECT_EQ(Eval("c.n LIKE '1%'", R"({"n": 12})"), "undefined");
  EXPECT_EQ(Eval("c.d LIKE c.p", R"({"d": "abc", "p": "a%"})"), "true");
  EXPECT_EQ(Eval("c.d LIKE @p", R"({"d": "abc"})", {{"@p", Value::String("%c")}}), "true");
}

// docs: the system function pages' examples (scripts/<name>/result.json).
TEST(QueryEval, StringFunctions) {
  EXPECT_EQ(Eval("CONTAINS('AdventureWorks', 'Adventure')"), "true");
  EXPECT_EQ(Eval("CONTAINS('AdventureWorks', 'adventure')"), "false");
  EXPECT_EQ(Eval("CONTAINS('AdventureWorks', 'adventure', false)"), "false");
  EXPECT_EQ(Eval("CONTAINS('AdventureWorks', 'works', true)"), "true");
  EXPECT_EQ(Eval("STARTSWITH('AdventureWorks', 'Works')"), "false");
  EXPECT_EQ(Eval("STARTSWITH('AdventureWorks', 'adventure', true)"), "true");
  EXPECT_EQ(Eval("ENDSWITH('AdventureWorks', 'works')"), "false");
  EXPECT_EQ(Eval("ENDSWITH('AdventureWorks', 'works', true)"), "true");
  EXPECT_EQ(Eval("SUBSTRING('AdventureWorks', 0, 9)"), "\"Adventure\"");
  EXPECT_EQ(Eval("SUBSTRING('AdventureWorks', 9, 5)"), "\"Works\"");
  EXPECT_EQ(Eval("SUBSTRING('AdventureWorks', 0, LENGTH('AdventureWorks'))"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("SUBSTRING('AdventureWorks', 0, -1)"), "\"\"");
  EXPECT_EQ(Eval("LEFT('AdventureWorks', 0)"), "\"\"");
  EXPECT_EQ(Eval("LEFT('AdventureWorks', 5)"), "\"Adven\"");
  EXPECT_EQ(Eval("LEFT('AdventureWorks', 100)"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("RIGHT('AdventureWorks', 1)"), "\"s\"");
  EXPECT_EQ(Eval("RIGHT('AdventureWorks', 5)"), "\"Works\"");
  EXPECT_EQ(Eval("RIGHT('AdventureWorks', 100)"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("INDEX_OF('AdventureWorks', 's')"), "13");
  EXPECT_EQ(Eval("INDEX_OF('AdventureWorks', 'tureW')"), "5");
  EXPECT_EQ(Eval("INDEX_OF('AdventureWorks', 'Cosmos')"), "-1");
  EXPECT_EQ(Eval("INDEX_OF('AdventureWorks', 'Works', 5)"), "9");
  EXPECT_EQ(Eval("INDEX_OF('AdventureWorks', 'Adventure', 5)"), "-1");
  EXPECT_EQ(Eval("INDEX_OF('AdventureWorks', 'aD')"), "-1");
  EXPECT_EQ(Eval("REPLACE('AdventureWorksLT', 'LT', 'LT2')"), "\"AdventureWorksLT2\"");
  EXPECT_EQ(Eval("REVERSE('AdventureWorks')"), "\"skroWerutnevdA\"");
  EXPECT_EQ(Eval("REVERSE(REVERSE('AdventureWorks'))"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("ToString(125)"), "\"125\"");
  EXPECT_EQ(Eval("ToString(0.1234)"), "\"0.1234\"");
  EXPECT_EQ(Eval("ToString(false)"), "\"false\"");
  EXPECT_EQ(Eval("ToString([ 1, 2, 3 ])"), "\"[1,2,3]\"");
  EXPECT_EQ(Eval("ToString({ \"department\": \"Bicycles\" })"),
            "\"{\\\"department\\\":\\\"Bicycles\\\"}\"");
  EXPECT_EQ(Eval("ToString('Hello World')"), "\"Hello World\"");
  EXPECT_EQ(Eval("ToString(undefined)"), "undefined");
  EXPECT_EQ(Eval("TRIM('   AdventureWorks   ')"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("TRIM('---AdventureWorks---')"), "\"---AdventureWorks---\"");
  EXPECT_EQ(Eval("TRIM('-- AdventureWorks --', '-')"), "\" AdventureWorks \"");
  EXPECT_EQ(Eval("TRIM('-_-AdventureWorks-_-', '-_')"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("LTRIM('  AdventureWorks  ')"), "\"AdventureWorks  \"");
  EXPECT_EQ(Eval("LTRIM('AdventureWorks', 'Adventure')"), "\"Works\"");
  EXPECT_EQ(Eval("LTRIM('AdventureWorks', 'AdventureWorks')"), "\"\"");
  EXPECT_EQ(Eval("LTRIM('AdventureWorks', '')"), "\"AdventureWorks\"");
  EXPECT_EQ(Eval("RTRIM('  AdventureWorks  ')"), "\"  AdventureWorks\"");
  EXPECT_EQ(Eval("RTRIM('AdventureWorks', 'Works')"), "\"Adventure\"");
  EXPECT_EQ(Eval("LOWER('ADVENTURE_WORKS')"), "\"adventure_works\"");
  EXPECT_EQ(Eval("UPPER('adventureWorks')"), "\"ADVENTUREWORKS\"");
  EXPECT_EQ(Eval("LENGTH('AdventureWorks')"), "14");
  EXPECT_EQ(Eval("LENGTH('')"), "0");
  EXPECT_EQ(Eval("LENGTH(null)"), "undefined");
  EXPECT_EQ(Eval("LENGTH(0)"), "undefined");
  EXPECT_EQ(Eval("LENGTH(['Adventure', 'Works'])"), "undefined");
  EXPECT_EQ(Eval("STRINGEQUALS('AdventureWorks', 'adventureworks')"), "false");
  EXPECT_EQ(Eval("STRINGEQUALS('AdventureWorks', 'adventureworks', true)"), "true");
  EXPECT_EQ(Eval("CONCAT('adventure', 'works')"), "\"adventureworks\"");
  EXPECT_EQ(Eval("CONCAT(c.slug, '-', c.model)", R"({"slug": "coat", "model": "8061"})"),
            "\"coat-8061\"");
  // Authored: code points, non-ASCII case folding, wrong types.
  EXPECT_EQ(Eval("LENGTH('é😀')"), "2");
  EXPECT_EQ(Eval("REVERSE('aé😀')"), "\"😀éa\"");
  EXPECT_EQ(Eval("SUBSTRING('aé😀b', 1, 2)"), "\"é😀\"");
  EXPECT_EQ(Eval("LOWER('ÀÉÎ ΣΩ ДЯ Ł')"), "\"àéî σω дя ł\"");
  EXPECT_EQ(Eval("UPPER('àéî σω дя ł')"), "\"ÀÉÎ ΣΩ ДЯ Ł\"");
  EXPECT_EQ(Eval("STARTSWITH('Ärger', 'ä', true)"), "true");
  EXPECT_EQ(Eval("CONTAINS('abc', 'b', 'yes')"), "undefined");
  EXPECT_EQ(Eval("CONCAT('a', 1)"), "undefined");
  EXPECT_EQ(Eval("ToString(1e21)"), "\"1e+21\"");
  EXPECT_EQ(Eval("ToString(0.0000001)"), "\"1e-7\"");
  EXPECT_EQ(Eval("ToString(-1.5)"), "\"-1.5\"");
  EXPECT_EQ(Eval("ToString(123456789012345680000)"), "\"123456789012345680000\"");
  EXPECT_EQ(Eval("ToString(null)"), "\"null\"");
}

// docs: the mathematical, type-checking, array and conditional function pages' examples.
TEST(QueryEval, OtherFunctions) {
  EXPECT_EQ(Eval("ROUND(2.4)"), "2");
  EXPECT_EQ(Eval("ROUND(2.5)"), "3");
  EXPECT_EQ(Eval("ROUND(-2.6)"), "-3");
  EXPECT_EQ(Eval("TRUNC(-2.78)"), "-2");
  EXPECT_EQ(Eval("TRUNC(0.0000714)"), "0");
  EXPECT_EQ(Eval("TRUNC(PI())"), "3");
  EXPECT_EQ(Eval("CEILING(123.45)"), "124");
  EXPECT_EQ(Eval("CEILING(-45.72)"), "-45");
  EXPECT_EQ(Eval("FLOOR(-145.12)"), "-146");
  EXPECT_EQ(Eval("FLOOR(null)"), "undefined");
  EXPECT_EQ(Eval("POWER(5, 5)"), "3125");
  EXPECT_EQ(Eval("POWER(2, null)"), "undefined");
  EXPECT_EQ(Eval("SQRT(17)"), "4.123105625617661");
  EXPECT_EQ(Eval("ABS(-1)"), "1");
  EXPECT_EQ(Eval("ATN2(35.175643, 129.44)"), "0.265344532064832");
  EXPECT_EQ(Eval("LOG(5)"), "1.6094379124341003");
  EXPECT_EQ(Eval("LOG(2, 10)"), "0.3010299956639812");
  EXPECT_EQ(Eval("SIGN(-2)"), "-1");
  EXPECT_EQ(Eval("SIGN(0)"), "0");
  EXPECT_EQ(Eval("SQUARE(3)"), "9");
  EXPECT_EQ(Eval("DEGREES(3.141592653589793)"), "180");
  EXPECT_EQ(Eval("IS_INTEGER(3454.123)"), "false");
  EXPECT_EQ(Eval("IS_INTEGER(-9223372036854775808)"), "true");
  EXPECT_EQ(Eval("IS_INTEGER(18446744073709551615)"), "false");
  EXPECT_EQ(Eval("IS_PRIMITIVE([ 'green', 'red', 'yellow' ])"), "false");
  EXPECT_EQ(Eval("IS_PRIMITIVE(null)"), "true");
  EXPECT_EQ(Eval("IS_PRIMITIVE({ 'name': 'Tecozow coat' }.name)"), "true");
  EXPECT_EQ(Eval("IS_PRIMITIVE({}.category)"), "false");
  EXPECT_EQ(Eval("IS_DEFINED({ 'quantity' : 5 }.quantity)"), "true");
  EXPECT_EQ(Eval("IS_DEFINED({ 'quantity' : 5 }.name)"), "false");
  EXPECT_EQ(Eval("IS_NUMBER({ 'quantity': 0 }.quantity)"), "true");
  EXPECT_EQ(Eval("IS_NUMBER(true)"), "false");
  EXPECT_EQ(Eval("IS_STRING('x')"), "true");
  EXPECT_EQ(Eval("IS_BOOL(false)"), "true");
  EXPECT_EQ(Eval("IS_NULL(null)"), "true");
  EXPECT_EQ(Eval("IS_NULL(c.missing)"), "false");
  EXPECT_EQ(Eval("IS_ARRAY(c.a)", R"({"a": []})"), "true");
  EXPECT_EQ(Eval("IS_OBJECT(c.a)", R"({"a": {}})"), "true");
  EXPECT_EQ(Eval("ARRAY_LENGTH([70, 86, 92, 99, 85, 90, 82])"), "7");
  EXPECT_EQ(Eval("ARRAY_LENGTH([])"), "0");
  EXPECT_EQ(Eval("ARRAY_LENGTH(null)"), "undefined");
  EXPECT_EQ(Eval("ARRAY_CONTAINS(['coats', 'jackets', 'sweatshirts'], 'coats')"), "true");
  EXPECT_EQ(Eval("ARRAY_CONTAINS(['coats', 'jackets', 'sweatshirts'], 'hoodies')"), "false");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{ category: 'shirts', color: 'blue' }], { category: 'shirts', "
                 "color: 'blue' })"),
            "true");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{ category: 'shirts', color: 'blue' }], { category: 'shirts' "
                 "})"),
            "false");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{ category: 'shirts', color: 'blue' }], { category: 'shirts' "
                 "}, true)"),
            "true");
  EXPECT_EQ(Eval("ARRAY_CONTAINS([{ category: 'shirts', color: 'blue' }], { category: 'shorts', "
                 "color: 'blue' }, true)"),
            "false");
  EXPECT_EQ(Eval("ARRAY_CONTAINS(c.tags, 'b')", R"({"tags": ["a", "b"]})"), "true");
  EXPECT_EQ(Eval("ARRAY_CONTAINS(c.tags, 'b')", R"({"tags": "b"})"), "undefined");
  EXPECT_EQ(Eval("IIF(true, 123, 456)"), "123");
  EXPECT_EQ(Eval("IIF(false, 123, 456)"), "456");
  EXPECT_EQ(Eval("IIF(123, 123, 456)"), "456");
  EXPECT_EQ(Eval("IIF('ABC', 123, 456)"), "456");
  EXPECT_EQ(Eval("IIF([1,2,3], 123, 456)"), "456");
}

TEST(QueryEval, PathsAndMembers) {
  const char* item = R"({"a": {"b": [10, {"c": "x"}]}, "k": "a", "i": 1, "q w": 3})";
  EXPECT_EQ(Eval("c.a.b[0]", item), "10");
  EXPECT_EQ(Eval("c.a.b[1].c", item), "\"x\"");
  EXPECT_EQ(Eval("c.a.b[2]", item), "undefined");
  EXPECT_EQ(Eval("c.a.b.c", item), "undefined");
  EXPECT_EQ(Eval("c[c.k].b[c.i].c", item), "\"x\"");
  EXPECT_EQ(Eval("c.a.b[-1]", item), "undefined");
  EXPECT_EQ(Eval("c.a.b[0.5]", item), "undefined");
  EXPECT_EQ(Eval("c['q w']", item), "3");
  EXPECT_EQ(Eval("c.a[0]", item), "undefined");
  EXPECT_EQ(Eval("c.a.b['0']", item), "undefined");
  EXPECT_EQ(Eval("[1, 2, 3][1]"), "2");
  EXPECT_EQ(Eval("c.a", item), "{\"b\":[10,{\"c\":\"x\"}]}");
}

// docs: query/where, query/from and query/join; and each JOIN multiplying rows (authored).
TEST(QueryEval, RowsThroughFromAndJoins) {
  EXPECT_EQ(Rows("SELECT VALUE { employeeName: e.name } FROM employees e WHERE e.partTime AND "
                 "e.team = \"Facilities\"",
                 R"({"name": "Cora Thomas", "partTime": false, "team": "Facilities"})"),
            0u);
  EXPECT_EQ(Rows("SELECT VALUE e.name FROM employees e WHERE e.vacationDays >= 7 AND e.team = "
                 "\"Software engineering\"",
                 R"({"vacationDays": 7, "team": "Software engineering"})"),
            1u);
  EXPECT_EQ(Rows("SELECT * FROM employees.employment e WHERE e.team = \"Retail support\"",
                 R"({"employment": {"team": "Retail support"}})"),
            1u);
  EXPECT_EQ(Rows("SELECT * FROM employees.employment e", R"({"name": "x"})"), 0u);
  const char* family = R"({"id": "f", "children": [
      {"name": "a", "pets": [{"n": 1}, {"n": 2}]},
      {"name": "b", "pets": []},
      {"name": "c", "pets": [{"n": 3}]}], "tags": "x"})";
  EXPECT_EQ(Rows("SELECT * FROM f JOIN c IN f.children", family), 3u);
  EXPECT_EQ(Rows("SELECT * FROM f JOIN c IN f.children JOIN p IN c.pets", family), 3u);
  EXPECT_EQ(Rows("SELECT * FROM f JOIN c IN f.children JOIN p IN c.pets WHERE p.n > 1", family),
            2u);
  EXPECT_EQ(Rows("SELECT * FROM f JOIN c IN f.children JOIN d IN f.children", family), 9u);
  EXPECT_EQ(Rows("SELECT * FROM f JOIN c IN f.children WHERE c.name = 'b' AND f.id = 'f'", family),
            1u);
  EXPECT_EQ(Rows("SELECT * FROM f JOIN t IN f.tags", family), 0u);     // not an array
  EXPECT_EQ(Rows("SELECT * FROM f JOIN t IN f.missing", family), 0u);  // undefined
  EXPECT_EQ(Rows("SELECT * FROM f JOIN f.children", family), 1u);      // one defined value
  EXPECT_EQ(Rows("SELECT * FROM f JOIN f.missing", family), 0u);
  EXPECT_EQ(Rows("SELECT * FROM c IN f.children", family), 3u);
  EXPECT_EQ(Rows("SELECT * FROM c IN f.children WHERE c.name > 'a'", family), 2u);
  EXPECT_EQ(Rows("SELECT * FROM c IN f.children[0].pets", family), 2u);
  EXPECT_EQ(Rows("SELECT * FROM f.children[2] c WHERE c.name = 'c'", family), 1u);
  EXPECT_EQ(Rows("SELECT 1", family), 0u);  // no FROM: no item is read
}

TEST(QueryEval, JoinRowLimit) {
  std::string big = "{\"a\": [0";
  for (int k = 1; k < 400; ++k) big += ",0";
  big += "]}";
  // 1 + 400 + 400 * 400 = 160,401 rows enumerated: past the bound.
  Outcome o = RunQuery("SELECT * FROM c JOIN x IN c.a JOIN y IN c.a", big, {}, 42);
  EXPECT_EQ(o.error,
            "Item 42 gives more than 100000 rows through the query's FROM and JOINs "
            "(cosmos_query_max_join_rows_per_item).");
  EXPECT_EQ(o.where.item_index, 42);
  EXPECT_EQ(o.where.byte_offset, -1);
  EXPECT_EQ(Rows("SELECT * FROM c JOIN x IN c.a", big), 400u);
}

TEST(QueryEval, Parameters) {
  Parameters p{{"@u", Value::String("alice")}, {"@n", Value::Number(3)}};
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.userId = @u AND c.n >= @n", R"({"userId": "alice",
      "n": 3})",
                 p),
            1u);
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.userId = @u", R"({"userId": "bob"})", p), 0u);
  Outcome missing = RunQuery("SELECT * FROM c WHERE\n c.a = @x", "{}", p);
  EXPECT_EQ(missing.error, "Parameter '@x' is not given a value.");
  EXPECT_EQ(missing.where.line, 2);
  EXPECT_EQ(missing.where.column, 8);
  EXPECT_EQ(missing.where.byte_offset, 29);
  // A parameter in SELECT or TOP is not needed to count rows.
  EXPECT_EQ(Rows("SELECT TOP @t @z FROM c", "{}"), 1u);

  StatusOr<Parameters> parsed = ParseParametersJson(
      R"([{"name": "@a", "value": [1, {"b": null}]}, {"name": "@value", "value": "x"},
          {"name": "@none"}])");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->size(), 3u);
  EXPECT_EQ(parsed->find("@a")->second.ToJson(), "[1,{\"b\":null}]");
  EXPECT_EQ(parsed->find("@value")->second.string(), "x");
  EXPECT_FALSE(parsed->find("@none")->second.is_defined());
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.v = @value", R"({"v": "x"})", parsed.value()), 1u);
  EXPECT_EQ(Rows("SELECT * FROM c WHERE c.v = @none", R"({"v": "x"})", parsed.value()), 0u);

  struct Bad {
    std::string_view json, message, field;
  };
  for (const Bad& b : std::initializer_list<Bad>{
           {R"({"name": "@a"})",
            "The parameters are an array of {\"name\": \"@p\", \"value\": ...}.", ""},
           {R"([{"value": 1}])", "Each parameter is an object with a string \"name\".", "/0"},
           {R"([{"name": "a"}])", "The parameter name \"a\" is not @ and an identifier.",
            "/0/name"},
           {R"([{"name": "@1"}])", "The parameter name \"@1\" is not @ and an identifier.",
            "/0/name"},
           {R"([{"name": "@a"}, {"name": "@a"}])", "The parameter @a is given twice.", "/1/name"},
       }) {
    StatusOr<Parameters> r = ParseParametersJson(b.json);
    ASSERT_FALSE(r.ok()) << b.json;
    EXPECT_EQ(r.status().code(), ErrorCode::kQuerySyntax);
    EXPECT_EQ(r.status().message(), b.message);
    EXPECT_EQ(r.status().field(), b.field);
  }
  EXPECT_EQ(ParseParametersJson("[").status().code(), ErrorCode::kMalformedJson);
  std::string many = "[";
  for (int k = 0; k <= kCosmosQueryMaxParameters; ++k) {
    many += (k ? "," : "") + std::string("{\"name\": \"@p") + std::to_string(k) + "\"}";
  }
  many += "]";
  EXPECT_EQ(ParseParametersJson(many).status().message(),
            "1001 parameters; a query takes at most 1000 (cosmos_query_max_parameters).");
}

// What the playground parses but does not evaluate is refused, located, rather than counted
// wrongly; in SELECT it does not matter, since only FROM, JOIN and WHERE decide the rows.
TEST(QueryEval, NotEvaluated) {
  struct Case {
    std::string_view query, message;
    int64_t column;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"SELECT * FROM c WHERE udf.isOk(c)",
            "udf.isOk: user-defined functions are not evaluated by the playground (the query "
            "parses; its rows cannot be counted).",
            23},
           {"SELECT * FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags)",
            "A subquery is not evaluated by the playground (the query parses; its rows cannot be "
            "counted).",
            23},
           {"SELECT * FROM c WHERE c.n > (SELECT VALUE 1)",
            "A subquery is not evaluated by the playground (the query parses; its rows cannot be "
            "counted).",
            29},
           {"SELECT * FROM c WHERE ST_DISTANCE(c.loc, {'type': 'Point', 'coordinates': [0, 0]}) < "
            "5",
            "ST_DISTANCE is not evaluated by the playground (the query parses; its rows cannot be "
            "counted).",
            23},
           {"SELECT * FROM c JOIN t IN (SELECT VALUE 1)",
            "A subquery in JOIN is not evaluated by the playground (the query parses; its rows "
            "cannot be counted).",
            27},
           {"SELECT * FROM (SELECT VALUE 1) AS x",
            "A subquery in FROM is not evaluated by the playground (the query parses; its rows "
            "cannot be counted).",
            15},
       }) {
    Outcome o = RunQuery(c.query, "{}");
    EXPECT_EQ(o.error, c.message) << c.query;
    EXPECT_EQ(o.where.line, 1) << c.query;
    EXPECT_EQ(o.where.column, c.column) << c.query;
    EXPECT_EQ(o.where.byte_offset, c.column - 1) << c.query;
  }
  EXPECT_EQ(Rows("SELECT udf.f(c), COUNT(1), (SELECT 1), RegexMatch(c.a, 'x') FROM c", "{}"), 1u);
  EXPECT_EQ(Eval("COUNT(1)"),
            "eval: COUNT is not evaluated by the playground (the query parses; "
            "its rows cannot be counted).");
}

// The function table is sorted (its lookup is a binary search), and the header's list of
// functions parsed but not evaluated is exactly the table's.
TEST(QueryEval, BuiltinTable) {
  std::span<const BuiltinInfo> all = AllBuiltins();
  std::vector<std::string_view> not_evaluated;
  for (size_t k = 0; k < all.size(); ++k) {
    if (k > 0) EXPECT_LT(all[k - 1].name, all[k].name);
    EXPECT_EQ(all[k].fn != nullptr, all[k].cls == FunctionClass::kScalar) << all[k].name;
    EXPECT_EQ(FindBuiltin(all[k].name), &all[k]);
    if (all[k].cls == FunctionClass::kNotEvaluated) not_evaluated.push_back(all[k].name);
  }
  EXPECT_EQ(not_evaluated, std::vector<std::string_view>(std::begin(kNotEvaluatedFunctions),
                                                         std::end(kNotEvaluatedFunctions)));
  EXPECT_EQ(FindBuiltin("startsWith")->name, "STARTSWITH");
  EXPECT_EQ(FindBuiltin("NOPE"), nullptr);
}

// The evaluator's scratch space is reused across items: the same query over many items answers
// as it does once.
TEST(QueryEval, ScratchReuse) {
  StatusOr<Query> q = ParseQuery(
      "SELECT * FROM c WHERE (LOWER(c.a) || '-' || UPPER(c.b)) = 'x-Y' AND [c.a, {k: c.b}] = "
      "['X', {k: 'y'}]");
  ASSERT_TRUE(q.ok());
  StatusOr<QueryEvaluator> ev = QueryEvaluator::Create(q.value(), {});
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  simdjson::dom::parser parser;
  uint64_t total = 0;
  for (int k = 0; k < 1000; ++k) {
    simdjson::padded_string item(k % 2 ? std::string(R"({"a": "X", "b": "y"})")
                                       : std::string(R"({"a": "Z", "b": "y"})"));
    simdjson::dom::element e;
    ASSERT_EQ(parser.parse(item).get(e), simdjson::SUCCESS);
    StatusOr<uint64_t> rows = ev->Rows(e, k);
    ASSERT_TRUE(rows.ok());
    total += rows.value();
  }
  EXPECT_EQ(total, 500u);
}

}  // namespace
}  // namespace partplay::cosmosql
