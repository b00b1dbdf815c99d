// The CQL lexer and parser: statements of every supported form, and syntax errors with their
// line, column and offending token.
#include "partplay/cassandra/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "partplay/cassandra/lexer.h"

namespace partplay::cql {
namespace {

template <typename T>
const T& As(const StatusOr<Statement>& s) {
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::get<T>(s.value().body);
}

Status SyntaxError(std::string_view text) {
  StatusOr<Statement> s = ParseStatement(text);
  EXPECT_FALSE(s.ok()) << text;
  return s.ok() ? Status::Ok() : s.status();
}

TEST(CqlLexerTest, TokensCarryPositionsAcrossLinesAndComments) {
  std::vector<Token> t = Lex("SELECT -- all\n  * /* every\ncolumn */ FROM \"MyTable\";");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].text, "select");
  EXPECT_EQ(t[1].text, "*");
  EXPECT_EQ(t[1].where.line, 2);
  EXPECT_EQ(t[1].where.column, 3);
  EXPECT_EQ(t[1].where.byte_offset, 16);
  EXPECT_EQ(t[2].text, "from");
  EXPECT_EQ(t[2].where.line, 3);
  EXPECT_EQ(t[2].where.column, 11);
  EXPECT_EQ(t[3].kind, TokenKind::kQuotedIdentifier);
  EXPECT_EQ(t[3].text, "MyTable");
  EXPECT_EQ(t[5].kind, TokenKind::kEnd);
}

TEST(CqlLexerTest, ConstantsFollowCassandrasLexer) {
  std::vector<Token> t =
      Lex("'it''s' $$a'b$$ -42 1.5e-3 5. 0xCAFE 6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47 x_1");
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].kind, TokenKind::kString);
  EXPECT_EQ(t[0].text, "it's");
  EXPECT_EQ(t[1].text, "a'b");
  EXPECT_EQ(t[2].kind, TokenKind::kInteger);
  EXPECT_EQ(t[2].text, "-42");
  EXPECT_EQ(t[3].kind, TokenKind::kFloat);
  EXPECT_EQ(t[4].kind, TokenKind::kFloat);
  EXPECT_EQ(t[5].kind, TokenKind::kHex);
  EXPECT_EQ(t[6].kind, TokenKind::kUuid);
  EXPECT_EQ(t[7].kind, TokenKind::kIdentifier);
}

TEST(CqlLexerTest, ErrorsBecomeTokensSoLaterStatementsStillLex) {
  std::vector<Token> t = Lex("a # b");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[1].kind, TokenKind::kError);
  EXPECT_EQ(t[1].text, "token recognition error at: '#'");
  EXPECT_EQ(t[1].where.column, 3);
  EXPECT_EQ(t[2].text, "b");
}

TEST(CqlParserTest, CreateTableInTheThreePrimaryKeyForms) {
  auto simple =
      ParseStatement("CREATE TABLE uprofile.user (id UUID PRIMARY KEY, user text, message text)");
  const auto& a = As<CreateTableStatement>(simple);
  EXPECT_EQ(a.table.keyspace, "uprofile");
  EXPECT_EQ(a.table.table, "user");
  ASSERT_EQ(a.primary_keys.size(), 1u);
  EXPECT_EQ(a.primary_keys[0].partition_key[0].text, "id");
  EXPECT_EQ(a.columns[0].type.kind, TypeKind::kUuid);

  auto compound = ParseStatement(
      "CREATE TABLE uprofile.user (user text, id int, message text, PRIMARY KEY (user, id));");
  const auto& b = As<CreateTableStatement>(compound);
  ASSERT_EQ(b.primary_keys.size(), 1u);
  EXPECT_EQ(b.primary_keys[0].partition_key.size(), 1u);
  EXPECT_EQ(b.primary_keys[0].clustering[0].text, "id");

  auto composite = ParseStatement(
      "CREATE TABLE IF NOT EXISTS uprofile.user (firstname text, lastname text, id int, "
      "message text, PRIMARY KEY ((firstname, lastname), id)) WITH CLUSTERING ORDER BY (id DESC) "
      "AND comment = 'x' AND compaction = {'class': 'LeveledCompactionStrategy'}");
  const auto& c = As<CreateTableStatement>(composite);
  EXPECT_TRUE(c.if_not_exists);
  EXPECT_EQ(c.primary_keys[0].partition_key.size(), 2u);
  EXPECT_EQ(c.primary_keys[0].partition_key[1].text, "lastname");
  ASSERT_EQ(c.clustering_order.size(), 1u);
  EXPECT_TRUE(c.clustering_order[0].descending);
  EXPECT_EQ(c.properties.size(), 2u);
}

TEST(CqlParserTest, ColumnTypesStaticAndQuotedNames) {
  auto s = ParseStatement(
      "create table t (\"Key\" int, c timeuuid, s map<text, frozen<list<int>>> static, "
      "l list<varchar>, primary key (\"Key\", c))");
  const auto& t = As<CreateTableStatement>(s);
  EXPECT_EQ(t.columns[0].name.text, "Key");
  EXPECT_TRUE(t.columns[2].is_static);
  EXPECT_EQ(t.columns[2].type.ToCql(), "map<text, frozen<list<int>>>");
  EXPECT_EQ(t.columns[3].type.ToCql(), "list<text>");
  Status bad = SyntaxError("create table t (k int primary key, v list<list<int>>)");
  EXPECT_EQ(bad.message(),
            "Non-frozen collections are not allowed inside collections: list<list<int>>");
  // A name that is no native type is a user-defined type, resolved by the session.
  auto udt = ParseStatement("create table t (k int primary key, v strng, w frozen<ks.\"Addr\">)");
  const auto& u = As<CreateTableStatement>(udt);
  EXPECT_EQ(u.columns[1].type.kind, TypeKind::kUdt);
  EXPECT_EQ(u.columns[1].type.udt_name, "strng");
  EXPECT_EQ(u.columns[1].type_where.column, 38);
  EXPECT_TRUE(u.columns[2].type.frozen);
  EXPECT_EQ(u.columns[2].type.udt_keyspace, "ks");
  EXPECT_EQ(u.columns[2].type.udt_name, "Addr");
  Status in_list = SyntaxError("create table t (k int primary key, v list<address>)");
  EXPECT_EQ(in_list.message(), "Non-frozen UDTs are not allowed inside collections: list<address>");
}

TEST(CqlParserTest, SelectWithEveryClause) {
  auto s = ParseStatement(
      "SELECT user, token(user) AS t, COUNT(*) FROM messages WHERE user IN ('a', 'b') AND id >= 3 "
      "AND token(user) > -5 ORDER BY id DESC PER PARTITION LIMIT 2 LIMIT 10 ALLOW FILTERING");
  const auto& q = As<SelectStatement>(s);
  ASSERT_EQ(q.selectors.size(), 3u);
  EXPECT_EQ(q.selectors[1].kind, Selector::Kind::kToken);
  EXPECT_EQ(q.selectors[1].alias, "t");
  EXPECT_EQ(q.selectors[2].kind, Selector::Kind::kCount);
  ASSERT_EQ(q.where.size(), 3u);
  EXPECT_EQ(q.where[0].op, Operator::kIn);
  EXPECT_EQ(q.where[0].values.size(), 2u);
  EXPECT_EQ(q.where[1].op, Operator::kGe);
  EXPECT_TRUE(q.where[2].on_token);
  EXPECT_EQ(q.where[2].values[0].text, "-5");
  EXPECT_TRUE(q.order_by[0].descending);
  EXPECT_EQ(q.per_partition_limit->text, "2");
  EXPECT_EQ(q.limit->text, "10");
  EXPECT_TRUE(q.allow_filtering);
}

TEST(CqlParserTest, DataStatements) {
  auto ins =
      ParseStatement("INSERT INTO t (k, c, v) VALUES (1, now(), {'a': [1, 2]}) USING TTL 86400");
  const auto& i = As<InsertStatement>(ins);
  EXPECT_EQ(i.values[1].kind, LiteralKind::kFunction);
  EXPECT_EQ(i.values[2].kind, LiteralKind::kMap);
  EXPECT_EQ(i.values[2].elements[1].kind, LiteralKind::kList);
  EXPECT_EQ(i.using_clause.ttl->text, "86400");
  auto json = ParseStatement("INSERT INTO t JSON '{\"k\": 1}' DEFAULT UNSET");
  EXPECT_TRUE(As<InsertStatement>(json).json);
  EXPECT_TRUE(As<InsertStatement>(json).default_unset);
  auto upd = ParseStatement("UPDATE t USING TTL 5 SET v = v + [3], m['x'] = 1, n = 2 WHERE k = 1");
  const auto& u = As<UpdateStatement>(upd);
  ASSERT_EQ(u.assignments.size(), 3u);
  EXPECT_EQ(u.assignments[0].op, Assignment::Op::kAppend);
  EXPECT_EQ(u.assignments[1].op, Assignment::Op::kSetElement);
  EXPECT_EQ(u.assignments[2].op, Assignment::Op::kSet);
  auto del = ParseStatement("DELETE v FROM t WHERE k = 1 AND c > 2");
  EXPECT_EQ(As<DeleteStatement>(del).columns.size(), 1u);
  auto ks = ParseStatement(
      "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'NetworkTopologyStrategy', "
      "'dc1': 3, 'dc2': 2} AND durable_writes = true");
  const auto& k = As<CreateKeyspaceStatement>(ks);
  EXPECT_EQ(k.properties[0].value.elements.size(), 6u);
  EXPECT_EQ(As<DescribeStatement>(ParseStatement("DESC TABLE ks.t")).table.table, "t");
  EXPECT_EQ(As<UseStatement>(ParseStatement("USE \"Ks\"")).keyspace.text, "Ks");
}

TEST(CqlParserTest, SyntaxErrorsNameLineColumnAndToken) {
  Status a = SyntaxError("SELECT * FORM t");
  EXPECT_EQ(a.code(), ErrorCode::kCqlSyntax);
  EXPECT_EQ(a.message(), "mismatched input 'FORM' expecting FROM");
  EXPECT_EQ(a.where().line, 1);
  EXPECT_EQ(a.where().column, 10);
  Status b = SyntaxError("SELECT *\nFROM t\nWHERE k = = 1");
  EXPECT_EQ(b.message(), "no viable alternative at input '='");
  EXPECT_EQ(b.where().line, 3);
  EXPECT_EQ(b.where().column, 11);
  Status c = SyntaxError("SELEC * FROM t");
  EXPECT_EQ(c.message(), "no viable alternative at input 'SELEC'");
  Status d = SyntaxError("INSERT INTO t (k) VALUES (1");
  EXPECT_EQ(d.message(), "mismatched input '<EOF>' expecting ')'");
  EXPECT_EQ(d.where().column, 28);
  Status e = SyntaxError("SELECT * FROM t LIMIT 1 x");
  EXPECT_EQ(e.message(), "mismatched input 'x' expecting EOF");
  Status f = SyntaxError("INSERT INTO t (k) VALUES ('abc)");
  EXPECT_EQ(f.message(), "mismatched character '<EOF>' expecting '''");
  EXPECT_EQ(f.where().column, 27);
  Status g = SyntaxError("SELECT * FROM where");
  EXPECT_EQ(g.message(), "no viable alternative at input 'where'");
}

TEST(CqlParserTest, ScriptsSplitAtSemicolonsAndKeepGoingAfterAnError) {
  std::string_view script =
      "USE ks;\n"
      "SELECT * FRM t;  -- typo\n"
      ";\n"
      "SELECT * FROM t WHERE s = 'a;b'";
  std::vector<StatusOr<Statement>> all = ParseScript(script);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_TRUE(all[0].ok());
  EXPECT_EQ(all[0].value().text, "USE ks");
  ASSERT_FALSE(all[1].ok());
  EXPECT_EQ(all[1].status().where().line, 2);
  EXPECT_EQ(all[1].status().where().column, 10);
  ASSERT_TRUE(all[2].ok());
  EXPECT_EQ(all[2].value().where.line, 4);
  EXPECT_EQ(all[2].value().text, "SELECT * FROM t WHERE s = 'a;b'");
}

TEST(CqlParserTest, TypesAndLiteralsOnTheirOwn) {
  StatusOr<CqlType> t = ParseType("frozen<map<text, int>>");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.value().ToCql(), "frozen<map<text, int>>");
  EXPECT_FALSE(ParseType("int int").ok());
  // A native type's name is a user type's only quoted (Parser.g non_type_ident), and is written
  // back quoted so it reads back as the user type (a token_fuzz finding: b.varchar).
  EXPECT_EQ(ParseType("b.varchar").status().code(), ErrorCode::kCqlSyntax);
  EXPECT_EQ(ParseType("b.varchar").status().where().column, 3);
  for (const char* text : {"b.\"varchar\"", "\"varchar\"", "\"frozen\"", "b.\"int\""}) {
    StatusOr<CqlType> udt = ParseType(text);
    ASSERT_TRUE(udt.ok()) << text;
    EXPECT_EQ(udt.value().kind, TypeKind::kUdt) << text;
    StatusOr<CqlType> again = ParseType(udt.value().ToCql());
    ASSERT_TRUE(again.ok()) << udt.value().ToCql();
    EXPECT_EQ(again.value().kind, TypeKind::kUdt) << udt.value().ToCql();
    EXPECT_EQ(again.value().ToCql(), udt.value().ToCql());
  }
  EXPECT_EQ(ParseType("b.mytype").value().ToCql(), "mytype");
  StatusOr<Literal> l = ParseLiteral("-Infinity");
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l.value().kind, LiteralKind::kFloat);
  EXPECT_EQ(l.value().text, "-Infinity");
  EXPECT_EQ(ParseLiteral("{1, 2}").value().kind, LiteralKind::kSet);
  EXPECT_EQ(ParseLiteral("{}").value().kind, LiteralKind::kMap);
}

}  // namespace
}  // namespace partplay::cql
