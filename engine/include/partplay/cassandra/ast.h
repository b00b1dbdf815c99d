// The statements of the CQL subset Partition Playground runs, as the parser produces them. Every
// name and literal keeps its position so later errors (unknown column, bad literal) point at it.
//
//   SELECT name, token(id) FROM ks.users WHERE id IN (1, 2) LIMIT 10;
//   -> SelectStatement{table {ks, users}, selectors [column name, token(id)],
//                      where [Relation{id IN (1, 2)}], limit 10}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/types.h"
#include "partplay/core/status.h"

namespace partplay::cql {

struct Name {
  std::string text;  // unquoted names lower-cased
  SourceLocation where;
};

struct TableName {
  std::string keyspace;  // empty: the session's current keyspace
  std::string table;
  SourceLocation where;
};

enum class Operator : uint8_t {
  kEq,
  kLt,
  kLe,
  kGt,
  kGe,
  kIn,
  kNotEq,
  kContains,
  kContainsKey,
  kIsNotNull,  // only in CREATE MATERIALIZED VIEW ... WHERE
};
std::string_view OperatorText(Operator op);
inline bool IsSlice(Operator op) {
  return op == Operator::kLt || op == Operator::kLe || op == Operator::kGt || op == Operator::kGe;
}

struct Relation {
  bool on_token = false;      // token(columns...) op value
  bool multi_column = false;  // (c1, c2) op (v1, v2) or (c1, c2) IN ((..), (..)): values are tuples
  std::vector<Name> columns;  // one column, the arguments of token(), or the tuple of columns
  Operator op = Operator::kEq;
  std::vector<Literal> values;  // one value, or the IN list
  SourceLocation where;
};

struct Selector {
  // kCount: count(*), count(1) or count(column); kAggregate: min, max, sum or avg of a column.
  enum class Kind : uint8_t { kColumn, kCount, kToken, kAggregate };
  Kind kind = Kind::kColumn;
  std::string function;       // kAggregate: "min", "max", "sum" or "avg"
  std::vector<Name> columns;  // the column (an aggregate's argument), or token()'s arguments
  std::vector<Name> fields;   // kColumn, kCount, kAggregate: user type fields (addr.city)
  std::vector<Name> result_fields;  // kCount, kAggregate: fields selected of the result, max(b).x
  std::string alias;          // AS alias, or empty
  bool to_json = false;       // kColumn: toJson(column[.field]), its value as JSON text
  enum class Time : uint8_t { kNone, kWritetime, kTtl };
  Time time = Time::kNone;    // kColumn: WRITETIME(column) or TTL(column)
  SourceLocation where;
};

struct OrderingTerm {
  Name column;
  bool descending = false;
};

struct SelectStatement {
  TableName table;
  bool json = false;
  bool distinct = false;
  bool star = false;
  std::vector<Selector> selectors;
  std::vector<Relation> where;
  std::vector<Name> group_by;  // GROUP BY columns, in order
  std::vector<OrderingTerm> order_by;
  std::optional<Literal> per_partition_limit;
  std::optional<Literal> limit;
  bool allow_filtering = false;
};

struct UsingClause {
  std::optional<Literal> ttl;
  std::optional<Literal> timestamp;
};

struct InsertStatement {
  TableName table;
  std::vector<Name> columns;
  std::vector<Literal> values;
  bool json = false;
  Literal json_value;  // INSERT ... JSON '<object>'
  bool default_unset = false;
  bool if_not_exists = false;
  UsingClause using_clause;
};

struct Assignment {
  enum class Op : uint8_t { kSet, kAppend, kPrepend, kRemove, kSetElement };
  Name column;
  Op op = Op::kSet;
  Literal value;
  Literal element;  // kSetElement: the key or index in column[element] = value
};

// IF column op value in UPDATE and DELETE (Cassandra's ColumnCondition): on the column, on an
// element (l[0], m['k']) or on a field (addr.city); =, !=, <, <=, >, >=, IN (...), CONTAINS and
// CONTAINS KEY.
struct Condition {
  Name column;
  std::optional<Literal> element;
  std::optional<Name> field;
  Operator op = Operator::kEq;
  std::vector<Literal> values;  // one, or the IN list
  SourceLocation where;
};

struct UpdateStatement {
  TableName table;
  UsingClause using_clause;
  std::vector<Assignment> assignments;
  std::vector<Relation> where;
  bool if_exists = false;
  std::vector<Condition> conditions;
};

struct DeleteStatement {
  TableName table;
  std::vector<Name> columns;  // empty: the whole row (or partition, or range)
  // Per column: the element to delete (DELETE m['k'], s['x'], l[2]), or none for the whole column.
  std::vector<std::optional<Literal>> elements;
  UsingClause using_clause;
  std::vector<Relation> where;
  bool if_exists = false;
  std::vector<Condition> conditions;
};

// WITH name = value: value is a constant, an identifier (as a string) or a {map}.
struct Property {
  Name name;
  Literal value;
};

struct CreateKeyspaceStatement {
  Name keyspace;
  bool if_not_exists = false;
  std::vector<Property> properties;
};

struct UseStatement {
  Name keyspace;
};

struct ColumnDefinition {
  Name name;
  CqlType type;
  SourceLocation type_where;
  bool is_static = false;
  bool primary_key = false;  // `col type PRIMARY KEY`
};

struct PrimaryKeyClause {
  std::vector<Name> partition_key;
  std::vector<Name> clustering;
  SourceLocation where;
};

struct CreateTableStatement {
  TableName table;
  bool if_not_exists = false;
  std::vector<ColumnDefinition> columns;
  std::vector<PrimaryKeyClause> primary_keys;  // PRIMARY KEY (...) clauses (exactly one allowed)
  std::vector<OrderingTerm> clustering_order;
  SourceLocation clustering_order_where;
  std::vector<Property> properties;
  bool compact_storage = false;
};

struct DropTableStatement {
  TableName table;
  bool if_exists = false;
};

struct DropKeyspaceStatement {
  Name keyspace;
  bool if_exists = false;
};

struct TruncateStatement {
  TableName table;
};

struct DescribeStatement {
  enum class Kind : uint8_t { kTable, kKeyspace, kTables, kKeyspaces };
  Kind kind = Kind::kTable;
  TableName table;  // kTable
  Name keyspace;    // kKeyspace (empty text: the current one)
};

// CREATE TYPE ks.address (street text, city text, zip frozen<other>).
struct CreateTypeStatement {
  TableName type;  // keyspace and name
  bool if_not_exists = false;
  std::vector<Name> field_names;
  std::vector<CqlType> field_types;
  std::vector<SourceLocation> field_type_where;
};

// ALTER TYPE [IF EXISTS] ks.t ADD [IF NOT EXISTS] field type
// ALTER TYPE [IF EXISTS] ks.t RENAME [IF EXISTS] a TO b [AND c TO d ...]
// ALTER TYPE ks.t ALTER field TYPE type (refused, as Cassandra 4 and 5 refuse it).
struct AlterTypeStatement {
  enum class Kind : uint8_t { kAdd, kRename, kAlterField };
  Kind kind = Kind::kAdd;
  TableName type;
  bool if_exists = false;        // the type
  bool if_field_exists = false;  // ADD: IF NOT EXISTS; RENAME: IF EXISTS
  Name field;                    // kAdd, kAlterField
  CqlType field_type;            // kAdd
  SourceLocation field_type_where;
  std::vector<std::pair<Name, Name>> renames;  // kRename: from, to
  SourceLocation where;                        // the ALTER keyword
};

// ALTER TABLE [IF EXISTS] t ADD [IF NOT EXISTS] c type [STATIC] | ADD (c type [STATIC], ...) |
// DROP [IF EXISTS] c | DROP (c1, ...) [USING TIMESTAMP n] | RENAME [IF EXISTS] a TO b [AND ...] |
// WITH properties | ALTER c TYPE type | DROP COMPACT STORAGE (Cassandra 4.1's Parser.g).
struct AlterTableStatement {
  enum class Kind : uint8_t { kAdd, kDrop, kRename, kWith, kAlterColumn, kDropCompactStorage };
  Kind kind = Kind::kAdd;
  TableName table;
  bool if_exists = false;         // the table
  bool if_column_exists = false;  // ADD: IF NOT EXISTS; DROP and RENAME: IF EXISTS
  std::vector<ColumnDefinition> added;
  std::vector<Name> dropped;
  std::optional<Literal> timestamp;  // DROP ... USING TIMESTAMP
  std::vector<std::pair<Name, Name>> renames;
  std::vector<Property> properties;
  SourceLocation where;  // the ALTER keyword
};

// ALTER KEYSPACE [IF EXISTS] ks WITH replication = {...} [AND durable_writes = b].
struct AlterKeyspaceStatement {
  Name keyspace;
  bool if_exists = false;
  std::vector<Property> properties;
};

// cqlsh's own commands, which set what later statements run with: CONSISTENCY [level],
// SERIAL CONSISTENCY [level], TRACING [ON | OFF], PAGING [ON | OFF | page size]; and Partition
// Playground's GUARDRAIL [name [value]] (a cassandra.yaml guardrail setting). `argument` is
// upper-cased (GUARDRAIL: the name as written), empty when none is given; `value` GUARDRAIL's.
struct ShellCommand {
  enum class Kind : uint8_t {
    kConsistency,
    kSerialConsistency,
    kTracing,
    kPaging,
    kGuardrail,
    kAdvanceClock  // ADVANCE CLOCK <duration>: the session's clock (TTL expiry), ours
  };
  Kind kind = Kind::kConsistency;
  std::string argument;
  SourceLocation argument_where;
  std::string value;
  SourceLocation value_where;
};

// CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (col | keys(col) | values(col) |
// entries(col) | full(col)) [USING 'class'] [WITH OPTIONS = {...}].
struct IndexTarget {
  enum class Kind : uint8_t { kSimple, kValues, kKeys, kEntries, kFull };
  Kind kind = Kind::kSimple;
  Name column;
};
struct CreateIndexStatement {
  bool custom = false;
  bool if_not_exists = false;
  Name name;  // empty text: Cassandra names it <table>_<column>_idx
  TableName table;
  std::vector<IndexTarget> targets;
  std::string using_class;  // USING '...', empty if none
  std::vector<Property> properties;
};

// CREATE MATERIALIZED VIEW [IF NOT EXISTS] v AS SELECT cols FROM base WHERE c IS NOT NULL AND
// ... PRIMARY KEY (...) [WITH ...].
struct CreateViewStatement {
  TableName view;
  bool if_not_exists = false;
  bool star = false;
  std::vector<Name> columns;
  TableName base;
  std::vector<Relation> where;
  PrimaryKeyClause primary_key;
  std::vector<OrderingTerm> clustering_order;
  SourceLocation clustering_order_where;
  std::vector<Property> properties;
};

// DROP INDEX / DROP TYPE / DROP MATERIALIZED VIEW.
struct DropSchemaObjectStatement {
  enum class Kind : uint8_t { kIndex, kType, kView };
  Kind kind = Kind::kIndex;
  TableName name;
  bool if_exists = false;
};

// A statement a schema dump may hold that Partition Playground accepts without modelling it
// (functions, aggregates, roles, users, triggers, grants): `what` names it ("CREATE FUNCTION").
struct UnmodelledStatement {
  std::string what;
};

// cqlsh's COPY t [(c1, c2, ...)] FROM 'file.csv' [WITH HEADER = true AND DELIMITER = ',' ...].
struct CopyStatement {
  TableName table;
  std::vector<Name> columns;  // empty: every column, in the table's SELECT * order
  std::string file;
  SourceLocation file_where;
  std::vector<Property> options;
};

// One statement of a batch: an INSERT, an UPDATE or a DELETE, with where it starts and its text.
struct BatchChild {
  std::variant<InsertStatement, UpdateStatement, DeleteStatement> body;
  SourceLocation where;
  std::string_view text;
};

// BEGIN [UNLOGGED | COUNTER] BATCH [USING TIMESTAMP n] (INSERT | UPDATE | DELETE [;])*
// APPLY BATCH (Cassandra's Parser.g batchStatement: the ';' between statements is optional).
struct BatchStatement {
  enum class Type : uint8_t { kLogged, kUnlogged, kCounter };
  Type type = Type::kLogged;
  UsingClause using_clause;
  SourceLocation using_where;  // the USING keyword, if any
  std::vector<BatchChild> statements;
};

using StatementBody =
    std::variant<SelectStatement, InsertStatement, UpdateStatement, DeleteStatement,
                 CreateKeyspaceStatement, UseStatement, CreateTableStatement, DropTableStatement,
                 DropKeyspaceStatement, TruncateStatement, DescribeStatement, CreateTypeStatement,
                 CreateIndexStatement, CreateViewStatement, DropSchemaObjectStatement,
                 UnmodelledStatement, CopyStatement, AlterTypeStatement, BatchStatement,
                 AlterTableStatement, AlterKeyspaceStatement, ShellCommand>;

struct Statement {
  StatementBody body;
  SourceLocation where;   // the first token
  std::string_view text;  // the statement as written, without its ';'
};

}  // namespace partplay::cql
