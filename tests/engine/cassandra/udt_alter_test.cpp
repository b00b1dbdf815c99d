// ALTER TYPE (ADD a field, RENAME fields) applied to every table, view and type holding the
// user type, values written before an ADD reading the new field as null; and user type field
// selection in SELECT (addr.city, "Addr"."City", a.b.c), named as cqlsh shows them. Bad inputs
// carry Cassandra's messages and their line and column.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "session_helpers.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {
namespace {

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "USE ks;"
    "CREATE TYPE address (street text, city text);"
    "CREATE TYPE person (name text, home frozen<address>);"
    "CREATE TABLE t (k int PRIMARY KEY, a frozen<address>, p frozen<person>, u address, n int);"
    "INSERT INTO t (k, a, p, u, n) VALUES (1, {street: 'Main', city: 'Oslo'},"
    "  {name: 'Ann', home: {street: 'Elm', city: 'Rome'}}, {city: 'Lima'}, 5);";




TEST(CqlAlterTypeTest, AddAFieldOldValuesReadItAsNull) {
  Session s;
  Last(s, kSchema);
  StatementResult add = Last(s, "ALTER TYPE ks.address ADD zip int;");
  EXPECT_EQ(add.kind, StatementResult::Kind::kSchemaChange) << add.status.message();
  StatementResult old_rows = Last(s, "SELECT a, p, u FROM t WHERE k = 1;");
  EXPECT_EQ(Rows(old_rows),
            std::vector<std::string>(
                {"{street: 'Main', city: 'Oslo', zip: null} | {name: 'Ann', home: {street: "
                 "'Elm', city: 'Rome', zip: null}} | {street: null, city: 'Lima', zip: null}"}));
  StatementResult new_rows = Last(s,
                                  "INSERT INTO t (k, a, p) VALUES (2, {city: 'Bonn', zip: 53111},"
                                  " {home: {zip: 1}});"
                                  "SELECT a, p FROM t WHERE k = 2;");
  EXPECT_EQ(Rows(new_rows),
            std::vector<std::string>({"{street: null, city: 'Bonn', zip: 53111} | {name: null, "
                                      "home: {street: null, city: null, zip: 1}}"}));
  StatementResult d = Last(s, "DESCRIBE KEYSPACE ks;");
  EXPECT_NE(d.message.find("CREATE TYPE ks.address (\n    street text,\n    city text,\n    zip "
                           "int\n);"),
            std::string::npos)
      << d.message;
  // IF NOT EXISTS on the field, IF EXISTS on the type.
  EXPECT_EQ(Last(s, "ALTER TYPE address ADD IF NOT EXISTS zip text;").kind,
            StatementResult::Kind::kVoid);
  EXPECT_EQ(Last(s, "ALTER TYPE IF EXISTS nope ADD x int;").kind, StatementResult::Kind::kVoid);
  // A type added as a field of another type.
  Last(s, "CREATE TYPE geo (lat double, lon double);"
          "ALTER TYPE address ADD loc frozen<geo>;"
          "INSERT INTO t (k, a) VALUES (3, {loc: {lat: 1.5, lon: 2}});");
  EXPECT_EQ(Rows(Last(s, "SELECT a.loc.lat, p.home.loc FROM t WHERE k IN (1, 3);")),
            std::vector<std::string>({"null | null", "1.5 | null"}));
}

TEST(CqlAlterTypeTest, RenameFieldsEverywhereTheTypeIs) {
  Session s;
  Last(s, kSchema);
  Last(s, "ALTER TYPE address RENAME street TO road AND city TO \"Town\";");
  StatementResult r = Last(s, "SELECT a, p FROM t WHERE k = 1;");
  EXPECT_EQ(Rows(r), std::vector<std::string>(
                         {"{road: 'Main', \"Town\": 'Oslo'} | {name: 'Ann', home: {road: 'Elm', "
                          "\"Town\": 'Rome'}}"}));
  EXPECT_EQ(Rows(Last(s, "SELECT a.\"Town\" FROM t WHERE k = 1;")),
            std::vector<std::string>({"Oslo"}));
  // A swap in one statement is no duplicate.
  Last(s, "ALTER TYPE address RENAME road TO \"Town\" AND \"Town\" TO road;");
  EXPECT_EQ(Rows(Last(s, "SELECT a FROM t WHERE k = 1;")),
            std::vector<std::string>({"{\"Town\": 'Main', road: 'Oslo'}"}));
  EXPECT_EQ(Last(s, "ALTER TYPE address RENAME IF EXISTS nope TO x;").kind,
            StatementResult::Kind::kSchemaChange);
}

TEST(CqlAlterTypeTest, CassandrasMessagesLocated) {
  Session s;
  Last(s, std::string(kSchema) + "CREATE TABLE keyed (k frozen<address> PRIMARY KEY);");
  Located missing = ErrorAt(s, "ALTER TYPE ks.nope ADD x int");
  EXPECT_EQ(missing.message, "Type ks.nope doesn't exist");
  EXPECT_EQ(missing.column, 12);
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE other.address ADD x int").message,
            "Type other.address doesn't exist");
  Located dup = ErrorAt(s, "ALTER TYPE person\n  ADD name text");
  EXPECT_EQ(dup.message,
            "Cannot add field name to type ks.person: a field with name name already exists");
  EXPECT_EQ(dup.line, 2);
  EXPECT_EQ(dup.column, 7);
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person ADD self frozen<person>").message,
            "Cannot add new field self of type frozen<person> to user type ks.person as it would "
            "create a circular reference");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE address ADD zip int").message,
            "Cannot add new field zip of type int to user type ks.address as the type is being "
            "used in partition key by the following tables: ks.keyed");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person ADD x nope").message, "Unknown type ks.nope");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person ADD c counter").message,
            "A user type cannot contain counters");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person ADD a address").message,
            "A user type cannot contain non-frozen UDTs");
  Located unknown = ErrorAt(s, "ALTER TYPE person RENAME name TO n AND nme TO m");
  EXPECT_EQ(unknown.message, "Unkown field nme in user type ks.person");
  EXPECT_EQ(unknown.column, 40);
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person RENAME name TO home").message,
            "Duplicate field name home in type ks");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person ALTER name TYPE blob").message,
            "Altering field types is no longer supported");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person DROP name").message,
            "no viable alternative at input 'DROP'");
  EXPECT_EQ(ErrorAt(s, "ALTER TYPE person RENAME name").message,
            "mismatched input '<EOF>' expecting TO");
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE t ALTER p TYPE blob").message,
            "Altering column types is no longer supported");
  EXPECT_EQ(ErrorAt(s, "ALTER MATERIALIZED VIEW v WITH comment = 'x'").message,
            "ALTER statements are not part of the CQL subset Partition Playground runs");
  // Nothing changed.
  EXPECT_EQ(Rows(Last(s, "SELECT p FROM t WHERE k = 1;")),
            std::vector<std::string>(
                {"{name: 'Ann', home: {street: 'Elm', city: 'Rome'}}"}));
}

TEST(CqlFieldSelectionTest, SelectsFieldsNamedAsCqlshShowsThem) {
  Session s;
  Last(s, std::string(kSchema) +
              "CREATE TYPE \"Addr\" (\"City\" text, zip int);"
              "CREATE TABLE q (k int, c int, \"Home\" frozen<\"Addr\">, PRIMARY KEY (k, c));"
              "INSERT INTO q (k, c, \"Home\") VALUES (1, 1, {\"City\": 'Paris', zip: 75});"
              "INSERT INTO q (k, c) VALUES (1, 2);");
  StatementResult r = Last(s, "SELECT a.city, p.home.street, p.name AS who, u.street FROM t WHERE k = 1;");
  EXPECT_EQ(r.rows.columns, std::vector<std::string>({"a.city", "p.home.street", "who", "u.street"}));
  EXPECT_EQ(Rows(r), std::vector<std::string>({"Oslo | Elm | Ann | null"}));
  StatementResult quoted = Last(s, "SELECT \"Home\".\"City\", \"Home\".zip FROM q WHERE k = 1;");
  EXPECT_EQ(quoted.rows.columns, std::vector<std::string>({"Home.City", "Home.zip"}));
  EXPECT_EQ(Rows(quoted), std::vector<std::string>({"Paris | 75", "null | null"}));
}

TEST(CqlFieldSelectionTest, CassandrasMessagesLocated) {
  Session s;
  Last(s, kSchema);
  Located no_field = ErrorAt(s, "SELECT a.zip FROM t WHERE k = 1");
  EXPECT_EQ(no_field.message, "a of type frozen<address> has no field zip");
  EXPECT_EQ(no_field.column, 10);
  EXPECT_EQ(ErrorAt(s, "SELECT p.home.zip FROM t").message,
            "p.home of type frozen<address> has no field zip");
  EXPECT_EQ(ErrorAt(s, "SELECT u.zip FROM t").message, "u of type address has no field zip");
  // Unquoted names are lower-cased: City is city.
  EXPECT_EQ(ErrorAt(s, "SELECT a.\"City\" FROM t").message,
            "a of type frozen<address> has no field City");
  Located not_udt = ErrorAt(s, "SELECT n.x FROM t");
  EXPECT_EQ(not_udt.message, "Invalid field selection: n of type int is not a user type");
  EXPECT_EQ(not_udt.column, 10);
  EXPECT_EQ(ErrorAt(s, "SELECT a.city.x FROM t").message,
            "Invalid field selection: a.city of type text is not a user type");
  EXPECT_EQ(ErrorAt(s, "SELECT nope.x FROM t").message, "Undefined column name nope");
  EXPECT_EQ(ErrorAt(s, "SELECT a. FROM t").message, "no viable alternative at input 'FROM'");
}

}  // namespace
}  // namespace partplay::cql
