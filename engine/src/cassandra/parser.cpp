// The CQL grammar (parser.h): one recursive-descent Parser class over a statement's tokens, a
// method per rule of Cassandra's Parser.g that this engine reads (types, terms, names, WHERE
// relations, and every statement: SELECT, INSERT, UPDATE, DELETE, BATCH, the schema statements,
// USE, DESCRIBE and cqlsh's commands), and the error messages in ANTLR's wording.
//
// Longer than 800 lines on purpose: it is one concern, the grammar, and its rules call each other
// through the one Parser's token cursor and error state (a term holds a function call whose
// arguments are terms; a statement's WHERE holds terms and names); cut into files it would need
// that state shared and the rules declared apart from their bodies, so a reader following one
// production would jump between files. Its sections are marked (token access, nesting, errors,
// names, terms, WHERE, statements).
#include "partplay/cassandra/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "cassandra/reserved_words.h"
#include "partplay/cassandra/lexer.h"
#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"

namespace partplay::cql {

std::string_view OperatorText(Operator op) {
  switch (op) {
    case Operator::kEq:
      return "=";
    case Operator::kLt:
      return "<";
    case Operator::kLe:
      return "<=";
    case Operator::kGt:
      return ">";
    case Operator::kGe:
      return ">=";
    case Operator::kIn:
      return "IN";
    case Operator::kNotEq:
      return "!=";
    case Operator::kContains:
      return "CONTAINS";
    case Operator::kContainsKey:
      return "CONTAINS KEY";
    case Operator::kIsNotNull:
      return "IS NOT";
  }
  return "?";
}

namespace {

// Cassandra's reserved keywords (reserved_words.h): not usable as unquoted names.
bool IsReserved(std::string_view word) { return IsReservedKeyword(word); }

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, size_t begin, size_t end)
      : t_(tokens), pos_(begin), end_(end) {}

  StatusOr<StatementBody> Statement() {
    const Token& first = Peek();
    if (first.kind == TokenKind::kError) return LexError(first);
    StatusOr<StatementBody> body = Status::Ok();
    if (IsWord("select")) {
      body = Select();
    } else if (IsWord("insert")) {
      body = Insert();
    } else if (IsWord("update")) {
      body = Update();
    } else if (IsWord("delete")) {
      body = Delete();
    } else if (IsWord("create")) {
      body = Create();
    } else if (IsWord("use")) {
      body = Use();
    } else if (IsWord("drop")) {
      body = Drop();
    } else if (IsWord("truncate")) {
      body = Truncate();
    } else if (IsWord("describe") || IsWord("desc")) {
      body = Describe();
    } else if (IsWord("copy")) {
      body = Copy();
    } else if (IsWord("grant") || IsWord("revoke") || IsWord("list")) {
      return Unmodelled(Upper(first.text));
    } else if (IsWord("alter") && IsWord("type", 1)) {
      body = AlterType();
    } else if (IsWord("begin")) {
      body = Batch();
    } else if (IsWord("consistency") || IsWord("tracing") || IsWord("paging") ||
               IsWord("guardrail") || (IsWord("advance") && IsWord("clock", 1)) ||
               (IsWord("serial") && IsWord("consistency", 1))) {
      body = Shell();
    } else if (IsWord("alter") && (IsWord("table", 1) || IsWord("columnfamily", 1))) {
      body = AlterTable();
    } else if (IsWord("alter") && IsWord("keyspace", 1)) {
      body = AlterKeyspace();
    } else if (IsWord("alter") && (IsWord("role", 1) || IsWord("user", 1))) {
      return Unmodelled("ALTER " + Upper(PeekAt(1).text));
    } else if (IsWord("alter")) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("{} statements are not part of the CQL subset Partition "
                                "Playground runs",
                                Upper(first.text)),
                    first.where);
    } else {
      return NoViable(first);
    }
    if (!body.ok()) return body;
    if (!AtEnd()) return Mismatched(Peek(), "EOF");
    return body;
  }

  StatusOr<CqlType> Type() {
    const Token& tok = Peek();
    Nesting nesting(depth_);
    if (depth_ > kCqlMaxNestingDepth) return TooDeep(tok, "types (list<list<...>>)");
    if (tok.kind == TokenKind::kQuotedIdentifier) return UdtReference();
    if (tok.kind != TokenKind::kIdentifier) {
      if (tok.kind == TokenKind::kString) {
        return Status(ErrorCode::kCqlUnknown, fmt::format("Unknown type {}", tok.text), tok.where);
      }
      return NoViable(tok);
    }
    std::string name = tok.text;
    if (name == "frozen") {
      Next();
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("<"));
      ++frozen_depth_;  // inside frozen<>, collections of collections are frozen whole
      StatusOr<CqlType> parsed = Type();
      --frozen_depth_;
      PARTPLAY_ASSIGN_OR_RETURN(CqlType inner, std::move(parsed));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(">"));
      if (inner.is_vector()) return inner;  // RawVector.freeze(): already frozen
      if (!inner.is_collection() && !inner.is_composite()) {
        return Status(ErrorCode::kCqlInvalidRequest,
                      fmt::format("frozen<> is only allowed on collections, tuples, and "
                                  "user-defined types (got {})",
                                  inner.ToCql()),
                      tok.where);
      }
      FreezeAll(inner);  // CQL3Type.Raw.freeze(): every level inside
      return inner;
    }
    if (name == "vector" && PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "<") {
      return VectorType();
    }
    if ((name == "list" || name == "set" || name == "map" || name == "tuple") &&
        PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "<") {
      Next();
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("<"));
      PARTPLAY_ASSIGN_OR_RETURN(CqlType first, Type());
      CqlType out;
      if (name == "tuple") {
        std::vector<CqlType> components{std::move(first)};
        while (AcceptSymbol(",")) {
          if (components.size() >= static_cast<size_t>(kCqlMaxTupleComponents)) {
            return Status(ErrorCode::kCqlInvalidRequest,
                          fmt::format("a tuple has at most {} components", kCqlMaxTupleComponents),
                          Peek().where);
          }
          PARTPLAY_ASSIGN_OR_RETURN(CqlType c, Type());
          components.push_back(std::move(c));
        }
        out = CqlType::Tuple(std::move(components));
      } else if (name == "map") {
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(","));
        PARTPLAY_ASSIGN_OR_RETURN(CqlType second, Type());
        out = CqlType::Map(std::move(first), std::move(second));
      } else {
        out = name == "list" ? CqlType::List(std::move(first)) : CqlType::Set(std::move(first));
      }
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(">"));
      for (const CqlType& p : out.params) {
        if (frozen_depth_ == 0 && p.is_multi_cell() && out.kind != TypeKind::kTuple) {
          return Status(ErrorCode::kCqlInvalidRequest,
                        p.kind == TypeKind::kUdt
                            ? fmt::format("Non-frozen UDTs are not allowed inside collections: {}",
                                          out.ToCql())
                            : fmt::format("Non-frozen collections are not allowed inside "
                                          "collections: {}",
                                          out.ToCql()),
                        tok.where);
        }
      }
      if (out.kind == TypeKind::kTuple) {
        for (CqlType& p : out.params) {
          if (p.is_multi_cell()) p.frozen = true;
        }
      }
      if (out.kind != TypeKind::kList && out.kind != TypeKind::kTuple &&
          out.element().kind == TypeKind::kCounter) {
        return Status(ErrorCode::kCqlInvalidRequest, "Counters are not allowed inside collections",
                      tok.where);
      }
      return out;
    }
    if (std::optional<TypeKind> kind = NativeTypeKind(name)) {
      Next();
      return CqlType::Native(*kind);
    }
    return UdtReference();
  }

  // Cassandra 5.0's vector<element, dimension> (Parser.g vector_type: the dimension an INTEGER
  // token, VectorType's constructor refusing one that is not positive).
  StatusOr<CqlType> VectorType() {
    const Token& head = Next();
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("<"));
    PARTPLAY_ASSIGN_OR_RETURN(CqlType element, Type());
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(","));
    const Token& dim = Peek();
    if (dim.kind == TokenKind::kError) return LexError(dim);
    if (dim.kind != TokenKind::kInteger) return Mismatched(dim, "INTEGER");
    Next();
    int64_t n = 0;
    if (!ParseInt64(dim.text, n) || n < INT32_MIN || n > INT32_MAX) {
      return Status(ErrorCode::kCqlSyntax,
                    fmt::format("Invalid vector dimension {}: not a 32-bit integer", dim.text),
                    dim.where);
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(">"));
    if (n <= 0) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("vectors may only have positive dimensions; given {}", n),
                    dim.where);
    }
    if (element.References(TypeKind::kCounter)) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    "vectors of counters are not modelled (Cassandra's counters are only "
                    "columns of their own)",
                    head.where);
    }
    return CqlType::Vector(std::move(element), static_cast<int32_t>(n));
  }

  // A user-defined type named as `name` or `keyspace.name`, resolved later by the session.
  StatusOr<CqlType> UdtReference() {
    const Token& first = Peek();
    if (IsReserved(first.text) && first.kind == TokenKind::kIdentifier) return NoViable(first);
    Next();
    CqlType out;
    out.kind = TypeKind::kUdt;
    out.udt_name = first.text;
    if (IsSymbol(".")) {
      Next();
      // Parser.g's non_type_ident: after `keyspace.`, a native type's name is no user type's
      // unless quoted.
      const Token& second = Peek();
      if (second.kind == TokenKind::kIdentifier && NativeTypeKind(second.text)) {
        return NoViable(second);
      }
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      out.udt_keyspace = first.text;
      out.udt_name = n.text;
    }
    return out;
  }

  Status ExpectEnd() const { return AtEnd() ? Status::Ok() : Mismatched(Peek(), "EOF"); }

  StatusOr<Literal> Term() {
    const Token& tok = Peek();
    Nesting nesting(depth_);
    if (depth_ > kCqlMaxNestingDepth) {
      return TooDeep(tok, "collection literals and function calls");
    }
    Literal lit;
    lit.where = tok.where;
    switch (tok.kind) {
      case TokenKind::kString:
        lit.kind = LiteralKind::kString;
        break;
      case TokenKind::kInteger:
        lit.kind = LiteralKind::kInteger;
        break;
      case TokenKind::kFloat:
        lit.kind = LiteralKind::kFloat;
        break;
      case TokenKind::kUuid:
        lit.kind = LiteralKind::kUuid;
        break;
      case TokenKind::kHex:
        lit.kind = LiteralKind::kHex;
        break;
      case TokenKind::kDuration:
        lit.kind = LiteralKind::kDuration;
        break;
      case TokenKind::kError:
        return LexError(tok);
      case TokenKind::kIdentifier: {
        if (tok.text == "true" || tok.text == "false") {
          lit.kind = LiteralKind::kBoolean;
        } else if (tok.text == "null") {
          lit.kind = LiteralKind::kNull;
        } else if (tok.text == "nan" || tok.text == "infinity") {
          lit.kind = LiteralKind::kFloat;
          Next();
          lit.text = tok.text == "nan" ? "NaN" : "Infinity";
          return lit;
        } else if (PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "(") {
          return FunctionCall();
        } else if (!IsReservedKeyword(tok.text)) {
          // An unreserved word may name a function: Cassandra's parser fails after it.
          return NoViable(PeekAt(1));
        } else {
          return NoViable(tok);
        }
        break;
      }
      case TokenKind::kSymbol: {
        if (tok.text == "[") return Collection("]", LiteralKind::kList);
        if (tok.text == "{") {
          const Token& field = PeekAt(1);
          bool udt = (field.kind == TokenKind::kQuotedIdentifier ||
                      (field.kind == TokenKind::kIdentifier && field.text != "true" &&
                       field.text != "false" && field.text != "null" && field.text != "nan" &&
                       field.text != "infinity")) &&
                     PeekAt(2).kind == TokenKind::kSymbol && PeekAt(2).text == ":";
          if (udt) return UdtLiteral();
          return Collection("}", LiteralKind::kSet);
        }
        if (tok.text == "(") return TupleLiteral();
        if (tok.text == "-" && PeekAt(1).kind == TokenKind::kIdentifier &&
            (PeekAt(1).text == "nan" || PeekAt(1).text == "infinity")) {
          Next();
          lit.kind = LiteralKind::kFloat;
          lit.text = Next().text == "nan" ? "NaN" : "-Infinity";
          return lit;
        }
        if (tok.text == "?") {
          return Status(ErrorCode::kCqlInvalidRequest,
                        "bind markers (?) need a prepared statement; write the value instead",
                        tok.where);
        }
        return NoViable(tok);
      }
      default:
        return NoViable(tok);
    }
    lit.text = Next().text;
    return lit;
  }

 private:
  // --- token access
  // ---------------------------------------------------------------------------------
  const Token& Peek() const { return PeekAt(0); }
  const Token& PeekAt(size_t ahead) const {
    size_t i = pos_ + ahead;
    return i < end_ ? t_[i] : t_[end_];  // t_[end_] is the ';' or the end
  }
  bool AtEnd() const { return pos_ >= end_; }
  const Token& Next() {
    const Token& tok = Peek();
    if (pos_ < end_) ++pos_;
    return tok;
  }
  bool IsWord(std::string_view word, size_t ahead = 0) const {
    const Token& tok = PeekAt(ahead);
    return tok.kind == TokenKind::kIdentifier && tok.text == word && pos_ + ahead < end_;
  }
  bool IsSymbol(std::string_view symbol) const {
    const Token& tok = Peek();
    return tok.kind == TokenKind::kSymbol && tok.text == symbol && !AtEnd();
  }
  bool AcceptWord(std::string_view word) {
    if (!IsWord(word)) return false;
    Next();
    return true;
  }
  bool AcceptSymbol(std::string_view symbol) {
    if (!IsSymbol(symbol)) return false;
    Next();
    return true;
  }

  // --- nesting
  // One level of Term() or Type() for as long as it lives.
  struct Nesting {
    explicit Nesting(int& depth) : depth_(depth) { ++depth_; }
    ~Nesting() { --depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    int& depth_;
  };
  Status TooDeep(const Token& tok, std::string_view what) const {
    return Status(ErrorCode::kTooDeep,
                  fmt::format("{} nest deeper than {} levels at line {}, column {}", what,
                              kCqlMaxNestingDepth, tok.where.line, tok.where.column),
                  tok.where);
  }

  // --- errors
  // -----------------------------------------------------------------------------------------
  static std::string Upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
  }
  Status LexError(const Token& tok) const {
    return Status(ErrorCode::kCqlSyntax, tok.text, tok.where);
  }
  Status Mismatched(const Token& tok, std::string_view expecting) const {
    if (tok.kind == TokenKind::kError) return LexError(tok);
    std::string shown = AtEndToken(tok) ? "<EOF>" : TokenDisplay(tok);
    return Status(ErrorCode::kCqlSyntax,
                  fmt::format("mismatched input '{}' expecting {}", shown, expecting), tok.where);
  }
  Status NoViable(const Token& tok) const {
    if (tok.kind == TokenKind::kError) return LexError(tok);
    std::string shown = AtEndToken(tok) ? "<EOF>" : TokenDisplay(tok);
    return Status(ErrorCode::kCqlSyntax, fmt::format("no viable alternative at input '{}'", shown),
                  tok.where);
  }
  bool AtEndToken(const Token& tok) const {
    return &tok == &t_[end_] || tok.kind == TokenKind::kEnd;
  }

  Status ExpectWord(std::string_view word) {
    if (AcceptWord(word)) return Status::Ok();
    return Mismatched(Peek(), Upper(word));
  }
  Status ExpectSymbol(std::string_view symbol) {
    if (AcceptSymbol(symbol)) return Status::Ok();
    return Mismatched(Peek(), fmt::format("'{}'", symbol));
  }

  // --- names
  // ---------------------------------------------------------------------------------------
  StatusOr<Name> Ident() {
    const Token& tok = Peek();
    if (AtEnd()) return Mismatched(tok, "an identifier");
    if (tok.kind == TokenKind::kQuotedIdentifier ||
        (tok.kind == TokenKind::kIdentifier && !IsReserved(tok.text))) {
      Next();
      return Name{tok.text, tok.where};
    }
    return NoViable(tok);
  }

  StatusOr<TableName> QualifiedTable() {
    TableName out;
    out.where = Peek().where;
    PARTPLAY_ASSIGN_OR_RETURN(Name first, Ident());
    if (AcceptSymbol(".")) {
      PARTPLAY_ASSIGN_OR_RETURN(Name second, Ident());
      out.keyspace = first.text;
      out.table = second.text;
    } else {
      out.table = first.text;
    }
    return out;
  }

  bool AcceptIfNotExists() {
    if (IsWord("if") && IsWord("not", 1) && IsWord("exists", 2)) {
      Next();
      Next();
      Next();
      return true;
    }
    return false;
  }
  bool AcceptIfExists() {
    if (IsWord("if") && IsWord("exists", 1)) {
      Next();
      Next();
      return true;
    }
    return false;
  }

  // --- terms
  // ----------------------------------------------------------------------------------------
  StatusOr<Literal> FunctionCall() {
    Literal lit;
    lit.kind = LiteralKind::kFunction;
    lit.where = Peek().where;
    lit.text = Next().text;
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
    if (!AcceptSymbol(")")) {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Literal arg, Term());
        lit.elements.push_back(std::move(arg));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    return lit;
  }

  // (a, b, ...): a tuple value.
  StatusOr<Literal> TupleLiteral() {
    Literal lit;
    lit.kind = LiteralKind::kTuple;
    lit.where = Next().where;
    do {
      PARTPLAY_ASSIGN_OR_RETURN(Literal e, Term());
      lit.elements.push_back(std::move(e));
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    return lit;
  }

  // {field: value, ...}: a user-defined type value.
  StatusOr<Literal> UdtLiteral() {
    Literal lit;
    lit.kind = LiteralKind::kUdt;
    lit.where = Next().where;
    do {
      PARTPLAY_ASSIGN_OR_RETURN(Name field, Ident());
      Literal name;
      name.kind = LiteralKind::kString;
      name.text = std::move(field.text);
      name.where = field.where;
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(":"));
      PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
      lit.elements.push_back(std::move(name));
      lit.elements.push_back(std::move(v));
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("}"));
    return lit;
  }

  StatusOr<Literal> Collection(std::string_view close, LiteralKind kind) {
    Literal lit;
    lit.kind = kind;
    lit.where = Next().where;
    if (AcceptSymbol(close)) {
      if (kind == LiteralKind::kSet) lit.kind = LiteralKind::kMap;  // {} is an empty map
      return lit;
    }
    bool first = true;
    do {
      PARTPLAY_ASSIGN_OR_RETURN(Literal e, Term());
      lit.elements.push_back(std::move(e));
      if (kind != LiteralKind::kList) {
        // The first element decides between {set} and {map: ...}.
        bool colon = IsSymbol(":");
        if (first && colon) lit.kind = LiteralKind::kMap;
        if (lit.kind == LiteralKind::kMap) {
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(":"));
          PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
          lit.elements.push_back(std::move(v));
        }
      }
      first = false;
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(close));
    return lit;
  }

  // A property value: a constant, an identifier (taken as a string) or a map.
  StatusOr<Literal> PropertyValue() {
    const Token& tok = Peek();
    if (tok.kind == TokenKind::kIdentifier && tok.text != "true" && tok.text != "false" &&
        !(PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "(")) {
      Literal lit;
      lit.kind = LiteralKind::kString;
      lit.text = tok.text;
      lit.where = tok.where;
      Next();
      return lit;
    }
    return Term();
  }

  StatusOr<std::vector<Property>> Properties() {
    std::vector<Property> out;
    do {
      PARTPLAY_ASSIGN_OR_RETURN(Name name, Ident());
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("="));
      PARTPLAY_ASSIGN_OR_RETURN(Literal value, PropertyValue());
      out.push_back(Property{std::move(name), std::move(value)});
    } while (AcceptWord("and"));
    return out;
  }

  // --- WHERE
  // --------------------------------------------------------------------------------------
  StatusOr<Relation> OneRelation() {
    Relation r;
    r.where = Peek().where;
    if (IsWord("token") && PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "(") {
      Next();
      Next();
      r.on_token = true;
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        r.columns.push_back(std::move(n));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    } else if (IsSymbol("(")) {
      // tupleOfIdentifiers: '(' cident (',' cident)* ')'; otherwise '(' relation ')'.
      bool tuple = PeekAt(1).kind == TokenKind::kIdentifier && PeekAt(2).kind == TokenKind::kSymbol &&
                   (PeekAt(2).text == "," || PeekAt(2).text == ")");
      if (!tuple) {
        Nesting nesting(depth_);
        if (depth_ > kCqlMaxNestingDepth) return TooDeep(Peek(), "parenthesised relations");
        Next();
        PARTPLAY_ASSIGN_OR_RETURN(Relation inner, OneRelation());
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        return inner;
      }
      return MultiColumnRelation();
    } else {
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      r.columns.push_back(std::move(n));
      if (IsSymbol("[")) {
        return Status(ErrorCode::kCqlInvalidRequest,
                      "restrictions on collection elements are not part of the CQL subset "
                      "Partition Playground runs",
                      Peek().where);
      }
    }
    const Token& op = Peek();
    PARTPLAY_ASSIGN_OR_RETURN(bool read, OperatorAndValues(r, [&] { return Term(); }));
    if (read) return r;
    if (IsWord("is") && IsWord("not", 1) && IsWord("null", 2)) {
      Next();
      Next();
      Next();
      r.op = Operator::kIsNotNull;
      return r;
    }
    if (AcceptWord("contains")) {
      r.op = AcceptWord("key") ? Operator::kContainsKey : Operator::kContains;
      PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
      r.values.push_back(std::move(v));
      return r;
    }
    return NoViable(op);
  }

  // relationType value | IN '(' [value (',' value)*] ')', each value read by `read_value` (a
  // term; a tuple literal for multi-column relations). False if the next token is neither.
  template <typename ReadValue>
  StatusOr<bool> OperatorAndValues(Relation& r, ReadValue read_value) {
    const Token& op = Peek();
    if (op.kind == TokenKind::kSymbol && !AtEnd()) {
      static const std::pair<std::string_view, Operator> kOps[] = {
          {"=", Operator::kEq}, {"<", Operator::kLt},  {"<=", Operator::kLe},
          {">", Operator::kGt}, {">=", Operator::kGe}, {"!=", Operator::kNotEq}};
      for (const auto& [text, value] : kOps) {
        if (op.text != text) continue;
        Next();
        r.op = value;
        PARTPLAY_ASSIGN_OR_RETURN(Literal v, read_value());
        r.values.push_back(std::move(v));
        return true;
      }
    }
    if (!AcceptWord("in")) return false;
    r.op = Operator::kIn;
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
    if (!AcceptSymbol(")")) {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Literal v, read_value());
        r.values.push_back(std::move(v));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    return true;
  }

  // tupleOfIdentifiers (relationType tupleLiteral | IN '(' [tupleLiteral (',' tupleLiteral)*] ')').
  StatusOr<Relation> MultiColumnRelation() {
    Relation r;
    r.where = Peek().where;
    r.multi_column = true;
    Next();  // '('
    do {
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      r.columns.push_back(std::move(n));
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    const Token& op = Peek();
    PARTPLAY_ASSIGN_OR_RETURN(bool read, OperatorAndValues(r, [&] { return TupleOnly(); }));
    if (read) return r;
    return NoViable(op);
  }

  // tupleLiteral, where the grammar wants one.
  StatusOr<Literal> TupleOnly() {
    if (!IsSymbol("(")) return NoViable(Peek());
    return TupleLiteral();
  }

  // columnCondition (AND columnCondition)*: cident (op term | CONTAINS [KEY] term | IN (...)),
  // cident '[' term ']' (op term | IN (...)), cident '.' field (op term | IN (...)).
  StatusOr<std::vector<Condition>> Conditions() {
    std::vector<Condition> out;
    do {
      Condition c;
      c.where = Peek().where;
      PARTPLAY_ASSIGN_OR_RETURN(c.column, Ident());
      bool plain = true;
      if (AcceptSymbol("[")) {
        PARTPLAY_ASSIGN_OR_RETURN(Literal e, Term());
        c.element = std::move(e);
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("]"));
        plain = false;
      } else if (AcceptSymbol(".")) {
        PARTPLAY_ASSIGN_OR_RETURN(Name f, Ident());
        c.field = std::move(f);
        plain = false;
      }
      const Token& op = Peek();
      static const std::pair<std::string_view, Operator> kOps[] = {
          {"=", Operator::kEq}, {"<", Operator::kLt},  {"<=", Operator::kLe},
          {">", Operator::kGt}, {">=", Operator::kGe}, {"!=", Operator::kNotEq}};
      bool found = false;
      for (const auto& [text, value] : kOps) {
        if (op.kind == TokenKind::kSymbol && !AtEnd() && op.text == text) {
          Next();
          c.op = value;
          PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
          c.values.push_back(std::move(v));
          found = true;
          break;
        }
      }
      if (!found && AcceptWord("in")) {
        c.op = Operator::kIn;
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
        if (!AcceptSymbol(")")) {
          do {
            PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
            c.values.push_back(std::move(v));
          } while (AcceptSymbol(","));
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        }
        found = true;
      }
      if (!found && plain && AcceptWord("contains")) {
        c.op = AcceptWord("key") ? Operator::kContainsKey : Operator::kContains;
        PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
        c.values.push_back(std::move(v));
        found = true;
      }
      if (!found) return NoViable(Peek());
      out.push_back(std::move(c));
    } while (AcceptWord("and"));
    return out;
  }

  StatusOr<std::vector<Relation>> WhereClause() {
    std::vector<Relation> out;
    do {
      PARTPLAY_ASSIGN_OR_RETURN(Relation r, OneRelation());
      out.push_back(std::move(r));
    } while (AcceptWord("and"));
    return out;
  }

  StatusOr<UsingClause> Using() {
    UsingClause u;
    do {
      if (AcceptWord("ttl")) {
        PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
        u.ttl = std::move(v);
      } else if (AcceptWord("timestamp")) {
        PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
        u.timestamp = std::move(v);
      } else {
        return Mismatched(Peek(), "TTL or TIMESTAMP");
      }
    } while (AcceptWord("and"));
    return u;
  }

  // --- statements
  // -----------------------------------------------------------------------------------
  StatusOr<StatementBody> Select() {
    Next();
    SelectStatement s;
    s.json = AcceptWord("json");
    s.distinct = AcceptWord("distinct");
    if (AcceptSymbol("*")) {
      s.star = true;
    } else {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Selector sel, OneSelector());
        s.selectors.push_back(std::move(sel));
      } while (AcceptSymbol(","));
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("from"));
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    if (AcceptWord("where")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.where, WhereClause());
    }
    if (AcceptWord("group")) {
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("by"));
      do {
        if (PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "(" &&
            Peek().kind == TokenKind::kIdentifier) {
          // Cassandra 4.1's GROUP BY floor(time, 1h) and friends.
          return Status(ErrorCode::kCqlInvalidRequest,
                        fmt::format("GROUP BY {}(...) is not modelled by Partition Playground "
                                    "(columns of the primary key are)",
                                    Peek().text),
                        Peek().where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        s.group_by.push_back(std::move(n));
      } while (AcceptSymbol(","));
    }
    if (AcceptWord("order")) {
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("by"));
      do {
        OrderingTerm o;
        PARTPLAY_ASSIGN_OR_RETURN(o.column, Ident());
        if (IsWord("ann") && IsWord("of", 1)) {
          // Cassandra 5.0's vector search (ORDER BY v ANN OF [...] LIMIT n, answered by a SAI).
          return Status(ErrorCode::kCqlInvalidRequest,
                        "ORDER BY ... ANN OF (vector search through a storage-attached index) is "
                        "not modelled by Partition Playground",
                        Peek().where);
        }
        if (AcceptWord("desc")) {
          o.descending = true;
        } else {
          AcceptWord("asc");
        }
        s.order_by.push_back(std::move(o));
      } while (AcceptSymbol(","));
    }
    if (IsWord("per")) {
      Next();
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("partition"));
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("limit"));
      PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
      s.per_partition_limit = std::move(v);
    }
    if (AcceptWord("limit")) {
      PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
      s.limit = std::move(v);
    }
    if (AcceptWord("allow")) {
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("filtering"));
      s.allow_filtering = true;
    }
    return StatementBody(std::move(s));
  }

  StatusOr<Selector> OneSelector() {
    Selector sel;
    const Token& tok = Peek();
    sel.where = tok.where;
    bool call = PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "(" &&
                tok.kind == TokenKind::kIdentifier;
    if (call && (tok.text == "count" || tok.text == "min" || tok.text == "max" ||
                 tok.text == "sum" || tok.text == "avg")) {
      Next();
      Next();
      sel.kind = tok.text == "count" ? Selector::Kind::kCount : Selector::Kind::kAggregate;
      sel.function = tok.text;
      const Token& arg = Peek();
      if (sel.kind == Selector::Kind::kCount && AcceptSymbol("*")) {
      } else if (sel.kind == Selector::Kind::kCount && arg.kind == TokenKind::kInteger &&
                 arg.text == "1") {
        Next();
      } else {
        if (arg.kind == TokenKind::kIdentifier && PeekAt(1).kind == TokenKind::kSymbol &&
            PeekAt(1).text == "(") {
          if (arg.text == "count" || arg.text == "min" || arg.text == "max" ||
              arg.text == "sum" || arg.text == "avg") {
            return Status(ErrorCode::kCqlInvalidRequest,
                          "aggregate functions cannot be used as arguments of aggregate functions",
                          arg.where);
          }
          return Status(ErrorCode::kCqlInvalidRequest,
                        fmt::format("{}() as the argument of {}() is not modelled by Partition "
                                    "Playground (a column or a field of one is)",
                                    arg.text, tok.text),
                        arg.where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        sel.columns.push_back(std::move(n));
        while (AcceptSymbol(".")) {
          if (sel.fields.size() >= static_cast<size_t>(kCqlMaxNestingDepth)) {
            return TooDeep(Peek(), "field selections (a.b.c)");
          }
          PARTPLAY_ASSIGN_OR_RETURN(Name field, Ident());
          sel.fields.push_back(std::move(field));
        }
      }
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
      while (AcceptSymbol(".")) {
        if (sel.result_fields.size() >= static_cast<size_t>(kCqlMaxNestingDepth)) {
          return TooDeep(Peek(), "field selections (a.b.c)");
        }
        PARTPLAY_ASSIGN_OR_RETURN(Name field, Ident());
        sel.result_fields.push_back(std::move(field));
      }
    } else if (call && tok.text == "token") {
      Next();
      Next();
      sel.kind = Selector::Kind::kToken;
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        sel.columns.push_back(std::move(n));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    } else if (call && (tok.text == "writetime" || tok.text == "ttl")) {
      // WRITETIME(column) / TTL(column): the cell's write time or remaining seconds.
      Next();
      Next();
      sel.kind = Selector::Kind::kColumn;
      sel.time = tok.text == "ttl" ? Selector::Time::kTtl : Selector::Time::kWritetime;
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      sel.columns.push_back(std::move(n));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    } else if (call && tok.text == "fromjson") {
      return Status(ErrorCode::kCqlInvalidRequest,
                    "fromJson() cannot be used in the selection clause of a SELECT statement",
                    tok.where);
    } else if (call && tok.text == "tojson") {
      // toJson(column[.field...]): ToJsonFct takes exactly one argument.
      Next();
      Next();
      sel.kind = Selector::Kind::kColumn;
      sel.to_json = true;
      if (IsSymbol(")")) {
        return Status(ErrorCode::kCqlInvalidRequest, "toJson() only accepts one argument (got 0)",
                      tok.where);
      }
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      sel.columns.push_back(std::move(n));
      while (AcceptSymbol(".")) {
        if (sel.fields.size() >= static_cast<size_t>(kCqlMaxNestingDepth)) {
          return TooDeep(Peek(), "field selections (a.b.c)");
        }
        PARTPLAY_ASSIGN_OR_RETURN(Name field, Ident());
        sel.fields.push_back(std::move(field));
      }
      size_t args = 1;
      while (AcceptSymbol(",")) {
        PARTPLAY_ASSIGN_OR_RETURN(Literal ignored, Term());
        (void)ignored;
        if (++args > static_cast<size_t>(kCqlMaxTupleComponents)) return TooDeep(Peek(), "arguments");
      }
      if (args != 1) {
        return Status(ErrorCode::kCqlInvalidRequest,
                      fmt::format("toJson() only accepts one argument (got {})", args), tok.where);
      }
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    } else if (call) {
      return Status(ErrorCode::kCqlUnknown, fmt::format("Unknown function '{}'", tok.text),
                    tok.where);
    } else {
      sel.kind = Selector::Kind::kColumn;
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      sel.columns.push_back(std::move(n));
      while (AcceptSymbol(".")) {  // field selection: addr.city, "Addr"."City", a.b.c
        if (sel.fields.size() >= static_cast<size_t>(kCqlMaxNestingDepth)) {
          return TooDeep(Peek(), "field selections (a.b.c)");
        }
        PARTPLAY_ASSIGN_OR_RETURN(Name field, Ident());
        sel.fields.push_back(std::move(field));
      }
    }
    if (AcceptWord("as")) {
      PARTPLAY_ASSIGN_OR_RETURN(Name alias, Ident());
      sel.alias = alias.text;
    }
    return sel;
  }

  StatusOr<StatementBody> Insert() {
    Next();
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("into"));
    InsertStatement s;
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    if (AcceptWord("json")) {
      s.json = true;
      const Token& tok = Peek();
      if (tok.kind != TokenKind::kString) return Mismatched(tok, "a JSON string");
      s.json_value.kind = LiteralKind::kString;
      s.json_value.text = tok.text;
      s.json_value.where = tok.where;
      Next();
      if (AcceptWord("default")) {
        if (AcceptWord("unset")) {
          s.default_unset = true;
        } else {
          PARTPLAY_RETURN_IF_ERROR(ExpectWord("null"));
        }
      }
    } else {
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        s.columns.push_back(std::move(n));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("values"));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Literal v, Term());
        s.values.push_back(std::move(v));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    s.if_not_exists = AcceptIfNotExists();
    if (AcceptWord("using")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.using_clause, Using());
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> Update() {
    Next();
    UpdateStatement s;
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    if (AcceptWord("using")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.using_clause, Using());
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("set"));
    do {
      Assignment a;
      PARTPLAY_ASSIGN_OR_RETURN(a.column, Ident());
      if (AcceptSymbol("[")) {
        PARTPLAY_ASSIGN_OR_RETURN(a.element, Term());
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("]"));
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("="));
        PARTPLAY_ASSIGN_OR_RETURN(a.value, Term());
        a.op = Assignment::Op::kSetElement;
      } else {
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("="));
        // c = c + x, c = c - x, c = x + c, or c = x.
        const Token& tok = Peek();
        bool self_first =
            (tok.kind == TokenKind::kIdentifier || tok.kind == TokenKind::kQuotedIdentifier) &&
            tok.text == a.column.text && PeekAt(1).kind == TokenKind::kSymbol &&
            (PeekAt(1).text == "+" || PeekAt(1).text == "-");
        if (self_first) {
          Next();
          a.op = Next().text == "+" ? Assignment::Op::kAppend : Assignment::Op::kRemove;
          PARTPLAY_ASSIGN_OR_RETURN(a.value, Term());
        } else {
          PARTPLAY_ASSIGN_OR_RETURN(a.value, Term());
          if (AcceptSymbol("+")) {
            PARTPLAY_ASSIGN_OR_RETURN(Name self, Ident());
            if (self.text != a.column.text) {
              return Status(ErrorCode::kCqlInvalidRequest,
                            fmt::format("Only expressions of the form X = <value> + X are "
                                        "supported."),
                            self.where);
            }
            a.op = Assignment::Op::kPrepend;
          }
        }
      }
      s.assignments.push_back(std::move(a));
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("where"));
    PARTPLAY_ASSIGN_OR_RETURN(s.where, WhereClause());
    if (AcceptIfExists()) {
      s.if_exists = true;
    } else if (AcceptWord("if")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.conditions, Conditions());
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> Delete() {
    Next();
    DeleteStatement s;
    if (!IsWord("from")) {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        std::optional<Literal> element;
        if (AcceptSymbol("[")) {  // DELETE m['k'] / s['x'] / l[2]
          PARTPLAY_ASSIGN_OR_RETURN(element, Term());
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("]"));
        }
        s.columns.push_back(std::move(n));
        s.elements.push_back(std::move(element));
      } while (AcceptSymbol(","));
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("from"));
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    if (AcceptWord("using")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.using_clause, Using());
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("where"));
    PARTPLAY_ASSIGN_OR_RETURN(s.where, WhereClause());
    if (AcceptIfExists()) {
      s.if_exists = true;
    } else if (AcceptWord("if")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.conditions, Conditions());
    }
    return StatementBody(std::move(s));
  }

  // BEGIN [UNLOGGED | COUNTER] BATCH [USING ...] (INSERT | UPDATE | DELETE [;])* APPLY BATCH.
  StatusOr<StatementBody> Batch() {
    Next();
    BatchStatement b;
    if (AcceptWord("unlogged")) {
      b.type = BatchStatement::Type::kUnlogged;
    } else if (AcceptWord("counter")) {
      b.type = BatchStatement::Type::kCounter;
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("batch"));
    if (IsWord("using")) {
      b.using_where = Next().where;
      PARTPLAY_ASSIGN_OR_RETURN(b.using_clause, Using());
    }
    while (!IsWord("apply")) {
      const Token& first = Peek();
      if (first.kind == TokenKind::kError) return LexError(first);
      if (b.statements.size() >= static_cast<size_t>(kCqlMaxBatchStatements)) {
        return Status(ErrorCode::kCqlInvalidRequest,
                      fmt::format("a batch has at most {} statements (the native protocol's "
                                  "count); statement {} is at line {}, column {}",
                                  kCqlMaxBatchStatements, b.statements.size() + 1,
                                  first.where.line, first.where.column),
                      first.where);
      }
      size_t from = pos_;
      StatusOr<StatementBody> child = Status::Ok();
      if (IsWord("insert")) {
        child = Insert();
      } else if (IsWord("update")) {
        child = Update();
      } else if (IsWord("delete")) {
        child = Delete();
      } else {
        return Mismatched(first, "APPLY");
      }
      if (!child.ok()) return child.status();
      BatchChild c;
      c.where = first.where;
      const Token& last = t_[pos_ - 1];
      c.text = std::string_view(t_[from].source.data(),
                                static_cast<size_t>(last.source.data() + last.source.size() -
                                                    t_[from].source.data()));
      std::visit(
          [&](auto& x) {
            using S = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<S, InsertStatement> ||
                          std::is_same_v<S, UpdateStatement> ||
                          std::is_same_v<S, DeleteStatement>) {
              c.body = std::move(x);
            }
          },
          child.value());
      b.statements.push_back(std::move(c));
      AcceptSymbol(";");
    }
    Next();
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("batch"));
    return StatementBody(std::move(b));
  }

  // The rest of the statement is skipped: it is accepted, and not modelled.
  StatusOr<StatementBody> Unmodelled(std::string what) {
    pos_ = end_;
    return StatementBody(UnmodelledStatement{std::move(what)});
  }

  StatusOr<StatementBody> Create() {
    Next();
    if (IsWord("or") && IsWord("replace", 1)) {
      Next();
      Next();
      if (IsWord("function") || IsWord("aggregate")) {
        return Unmodelled("CREATE " + Upper(Peek().text));
      }
      return Mismatched(Peek(), "FUNCTION or AGGREGATE");
    }
    if (IsWord("function") || IsWord("aggregate") || IsWord("role") || IsWord("user") ||
        IsWord("trigger")) {
      return Unmodelled("CREATE " + Upper(Peek().text));
    }
    if (AcceptWord("type")) return CreateType();
    if (IsWord("index") || IsWord("custom")) return CreateIndex();
    if (AcceptWord("materialized")) {
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("view"));
      return CreateView();
    }
    if (AcceptWord("keyspace") || AcceptWord("schema")) {
      CreateKeyspaceStatement s;
      s.if_not_exists = AcceptIfNotExists();
      PARTPLAY_ASSIGN_OR_RETURN(s.keyspace, Ident());
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("with"));
      PARTPLAY_ASSIGN_OR_RETURN(s.properties, Properties());
      return StatementBody(std::move(s));
    }
    if (AcceptWord("table") || AcceptWord("columnfamily")) return CreateTable();
    return NoViable(Peek());
  }

  StatusOr<StatementBody> Copy() {
    Next();
    CopyStatement s;
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    if (AcceptSymbol("(")) {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        s.columns.push_back(std::move(n));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    }
    if (IsWord("to")) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    "COPY TO is not part of the CQL subset Partition Playground runs (COPY FROM "
                    "loads a CSV file)",
                    Peek().where);
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("from"));
    const Token& file = Peek();
    if (file.kind != TokenKind::kString) return Mismatched(file, "a file name in quotes");
    s.file = file.text;
    s.file_where = file.where;
    Next();
    if (AcceptWord("with")) {
      // cqlsh's option names (HEADER, NULL, ...) are any word, reserved ones included.
      do {
        const Token& name = Peek();
        if (name.kind != TokenKind::kIdentifier || AtEnd()) return Mismatched(name, "an option");
        Next();
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("="));
        PARTPLAY_ASSIGN_OR_RETURN(Literal value, PropertyValue());
        s.options.push_back(Property{Name{name.text, name.where}, std::move(value)});
      } while (AcceptWord("and"));
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> CreateType() {
    CreateTypeStatement s;
    s.if_not_exists = AcceptIfNotExists();
    PARTPLAY_ASSIGN_OR_RETURN(s.type, QualifiedTable());
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
    do {
      if (IsSymbol(")")) break;
      if (s.field_names.size() >= static_cast<size_t>(kCqlMaxTupleComponents)) {
        return Status(
            ErrorCode::kCqlInvalidRequest,
            fmt::format("a user-defined type has at most {} fields", kCqlMaxTupleComponents),
            Peek().where);
      }
      PARTPLAY_ASSIGN_OR_RETURN(Name field, Ident());
      s.field_type_where.push_back(Peek().where);
      PARTPLAY_ASSIGN_OR_RETURN(CqlType type, Type());
      s.field_names.push_back(std::move(field));
      s.field_types.push_back(std::move(type));
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> AlterType() {
    AlterTypeStatement s;
    s.where = Next().where;  // ALTER
    Next();                  // TYPE
    s.if_exists = AcceptIfExists();
    PARTPLAY_ASSIGN_OR_RETURN(s.type, QualifiedTable());
    if (AcceptWord("add")) {
      s.kind = AlterTypeStatement::Kind::kAdd;
      s.if_field_exists = AcceptIfNotExists();
      PARTPLAY_ASSIGN_OR_RETURN(s.field, Ident());
      s.field_type_where = Peek().where;
      PARTPLAY_ASSIGN_OR_RETURN(s.field_type, Type());
    } else if (AcceptWord("rename")) {
      s.kind = AlterTypeStatement::Kind::kRename;
      s.if_field_exists = AcceptIfExists();
      do {
        if (s.renames.size() >= static_cast<size_t>(kCqlMaxTupleComponents)) {
          return Status(
              ErrorCode::kCqlInvalidRequest,
              fmt::format("a user-defined type has at most {} fields", kCqlMaxTupleComponents),
              Peek().where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Name from, Ident());
        PARTPLAY_RETURN_IF_ERROR(ExpectWord("to"));
        PARTPLAY_ASSIGN_OR_RETURN(Name to, Ident());
        s.renames.emplace_back(std::move(from), std::move(to));
      } while (AcceptWord("and"));
    } else if (AcceptWord("alter")) {
      s.kind = AlterTypeStatement::Kind::kAlterField;
      PARTPLAY_ASSIGN_OR_RETURN(s.field, Ident());
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("type"));
      PARTPLAY_ASSIGN_OR_RETURN(s.field_type, Type());
    } else {
      return NoViable(Peek());
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> CreateIndex() {
    CreateIndexStatement s;
    s.custom = AcceptWord("custom");
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("index"));
    s.if_not_exists = AcceptIfNotExists();
    if (!IsWord("on")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.name, Ident());
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("on"));
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
    if (!IsSymbol(")")) {
      do {
        IndexTarget target;
        static const std::pair<std::string_view, IndexTarget::Kind> kKinds[] = {
            {"values", IndexTarget::Kind::kValues},
            {"keys", IndexTarget::Kind::kKeys},
            {"entries", IndexTarget::Kind::kEntries},
            {"full", IndexTarget::Kind::kFull}};
        bool call = PeekAt(1).kind == TokenKind::kSymbol && PeekAt(1).text == "(";
        for (const auto& [word, kind] : kKinds) {
          if (call && IsWord(word)) {
            Next();
            Next();
            target.kind = kind;
          }
        }
        PARTPLAY_ASSIGN_OR_RETURN(target.column, Ident());
        if (target.kind != IndexTarget::Kind::kSimple) {
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        }
        s.targets.push_back(std::move(target));
      } while (AcceptSymbol(","));
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    if (AcceptWord("using")) {
      const Token& cls = Peek();
      if (cls.kind != TokenKind::kString) return Mismatched(cls, "a string");
      s.using_class = Next().text;
    }
    if (AcceptWord("with")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.properties, Properties());
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> CreateView() {
    CreateViewStatement s;
    s.if_not_exists = AcceptIfNotExists();
    PARTPLAY_ASSIGN_OR_RETURN(s.view, QualifiedTable());
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("as"));
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("select"));
    if (AcceptSymbol("*")) {
      s.star = true;
    } else {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        s.columns.push_back(std::move(n));
      } while (AcceptSymbol(","));
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("from"));
    PARTPLAY_ASSIGN_OR_RETURN(s.base, QualifiedTable());
    if (AcceptWord("where")) {
      PARTPLAY_ASSIGN_OR_RETURN(s.where, WhereClause());
    }
    s.primary_key.where = Peek().where;
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("primary"));
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("key"));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
    if (AcceptSymbol("(")) {
      do {
        PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
        s.primary_key.partition_key.push_back(std::move(n));
      } while (AcceptSymbol(","));
      PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    } else {
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      s.primary_key.partition_key.push_back(std::move(n));
    }
    while (AcceptSymbol(",")) {
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      s.primary_key.clustering.push_back(std::move(n));
    }
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    if (AcceptWord("with")) {
      do {
        if (IsWord("clustering")) {
          s.clustering_order_where = Next().where;
          PARTPLAY_RETURN_IF_ERROR(ExpectWord("order"));
          PARTPLAY_RETURN_IF_ERROR(ExpectWord("by"));
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
          do {
            OrderingTerm o;
            PARTPLAY_ASSIGN_OR_RETURN(o.column, Ident());
            if (AcceptWord("desc")) {
              o.descending = true;
            } else if (!AcceptWord("asc")) {
              return Mismatched(Peek(), "ASC or DESC");
            }
            s.clustering_order.push_back(std::move(o));
          } while (AcceptSymbol(","));
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        } else {
          PARTPLAY_ASSIGN_OR_RETURN(Name name, Ident());
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("="));
          PARTPLAY_ASSIGN_OR_RETURN(Literal value, PropertyValue());
          s.properties.push_back(Property{std::move(name), std::move(value)});
        }
      } while (AcceptWord("and"));
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> CreateTable() {
    CreateTableStatement s;
    s.if_not_exists = AcceptIfNotExists();
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
    do {
      if (IsWord("primary") && IsWord("key", 1)) {
        PrimaryKeyClause pk;
        pk.where = Next().where;
        Next();
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
        if (AcceptSymbol("(")) {
          do {
            PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
            pk.partition_key.push_back(std::move(n));
          } while (AcceptSymbol(","));
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        } else {
          PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
          pk.partition_key.push_back(std::move(n));
        }
        while (AcceptSymbol(",")) {
          PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
          pk.clustering.push_back(std::move(n));
        }
        PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        s.primary_keys.push_back(std::move(pk));
        continue;
      }
      if (IsSymbol(")")) break;  // a trailing comma
      ColumnDefinition c;
      PARTPLAY_ASSIGN_OR_RETURN(c.name, Ident());
      c.type_where = Peek().where;
      PARTPLAY_ASSIGN_OR_RETURN(c.type, Type());
      if (AcceptWord("static")) c.is_static = true;
      if (IsWord("primary")) {
        Next();
        PARTPLAY_RETURN_IF_ERROR(ExpectWord("key"));
        c.primary_key = true;
        PrimaryKeyClause pk;
        pk.where = c.name.where;
        pk.partition_key.push_back(c.name);
        s.primary_keys.push_back(std::move(pk));
      }
      s.columns.push_back(std::move(c));
    } while (AcceptSymbol(","));
    PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
    if (AcceptWord("with")) {
      do {
        if (IsWord("clustering")) {
          s.clustering_order_where = Next().where;
          PARTPLAY_RETURN_IF_ERROR(ExpectWord("order"));
          PARTPLAY_RETURN_IF_ERROR(ExpectWord("by"));
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("("));
          do {
            OrderingTerm o;
            PARTPLAY_ASSIGN_OR_RETURN(o.column, Ident());
            if (AcceptWord("desc")) {
              o.descending = true;
            } else if (!AcceptWord("asc")) {
              return Mismatched(Peek(), "ASC or DESC");
            }
            s.clustering_order.push_back(std::move(o));
          } while (AcceptSymbol(","));
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol(")"));
        } else if (IsWord("compact")) {
          Next();
          PARTPLAY_RETURN_IF_ERROR(ExpectWord("storage"));
          s.compact_storage = true;
        } else {
          PARTPLAY_ASSIGN_OR_RETURN(Name name, Ident());
          PARTPLAY_RETURN_IF_ERROR(ExpectSymbol("="));
          PARTPLAY_ASSIGN_OR_RETURN(Literal value, PropertyValue());
          s.properties.push_back(Property{std::move(name), std::move(value)});
        }
      } while (AcceptWord("and"));
    }
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> Use() {
    Next();
    UseStatement s;
    PARTPLAY_ASSIGN_OR_RETURN(s.keyspace, Ident());
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> Drop() {
    Next();
    if (AcceptWord("table") || AcceptWord("columnfamily")) {
      DropTableStatement s;
      s.if_exists = AcceptIfExists();
      PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
      return StatementBody(std::move(s));
    }
    if (AcceptWord("keyspace") || AcceptWord("schema")) {
      DropKeyspaceStatement s;
      s.if_exists = AcceptIfExists();
      PARTPLAY_ASSIGN_OR_RETURN(s.keyspace, Ident());
      return StatementBody(std::move(s));
    }
    DropSchemaObjectStatement d;
    if (AcceptWord("index")) {
      d.kind = DropSchemaObjectStatement::Kind::kIndex;
    } else if (AcceptWord("type")) {
      d.kind = DropSchemaObjectStatement::Kind::kType;
    } else if (AcceptWord("materialized")) {
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("view"));
      d.kind = DropSchemaObjectStatement::Kind::kView;
    } else if (IsWord("function") || IsWord("aggregate") || IsWord("role") || IsWord("user") ||
               IsWord("trigger")) {
      return Unmodelled("DROP " + Upper(Peek().text));
    } else {
      return Mismatched(Peek(), "TABLE or KEYSPACE");
    }
    d.if_exists = AcceptIfExists();
    PARTPLAY_ASSIGN_OR_RETURN(d.name, QualifiedTable());
    return StatementBody(std::move(d));
  }

  StatusOr<StatementBody> AlterTable() {
    AlterTableStatement s;
    s.where = Next().where;  // ALTER
    Next();                  // TABLE
    s.if_exists = AcceptIfExists();
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    auto too_many = [&](size_t n) {
      return n >= static_cast<size_t>(kCqlMaxTupleComponents)
                 ? Status(ErrorCode::kCqlInvalidRequest,
                          fmt::format("an ALTER TABLE names at most {} columns",
                                      kCqlMaxTupleComponents),
                          Peek().where)
                 : Status::Ok();
    };
    auto column = [&]() -> StatusOr<ColumnDefinition> {
      ColumnDefinition c;
      PARTPLAY_ASSIGN_OR_RETURN(c.name, Ident());
      c.type_where = Peek().where;
      PARTPLAY_ASSIGN_OR_RETURN(c.type, Type());
      c.is_static = AcceptWord("static");
      return c;
    };
    // One item, or a parenthesised list of them (ADD, DROP).
    auto one_or_list = [&](auto& out, auto parse_one) -> Status {
      if (!AcceptSymbol("(")) {
        PARTPLAY_ASSIGN_OR_RETURN(auto item, parse_one());
        out.push_back(std::move(item));
        return Status::Ok();
      }
      do {
        PARTPLAY_RETURN_IF_ERROR(too_many(out.size()));
        PARTPLAY_ASSIGN_OR_RETURN(auto item, parse_one());
        out.push_back(std::move(item));
      } while (AcceptSymbol(","));
      return ExpectSymbol(")");
    };
    if (AcceptWord("alter")) {
      s.kind = AlterTableStatement::Kind::kAlterColumn;
      PARTPLAY_ASSIGN_OR_RETURN(Name n, Ident());
      s.dropped.push_back(std::move(n));
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("type"));
      PARTPLAY_ASSIGN_OR_RETURN(CqlType ignored, Type());
      (void)ignored;
    } else if (AcceptWord("add")) {
      s.kind = AlterTableStatement::Kind::kAdd;
      s.if_column_exists = AcceptIfNotExists();
      PARTPLAY_RETURN_IF_ERROR(one_or_list(s.added, column));
    } else if (IsWord("drop") && IsWord("compact", 1)) {
      Next();
      Next();
      PARTPLAY_RETURN_IF_ERROR(ExpectWord("storage"));
      s.kind = AlterTableStatement::Kind::kDropCompactStorage;
    } else if (AcceptWord("drop")) {
      s.kind = AlterTableStatement::Kind::kDrop;
      s.if_column_exists = AcceptIfExists();
      PARTPLAY_RETURN_IF_ERROR(one_or_list(s.dropped, [&] { return Ident(); }));
      if (AcceptWord("using")) {
        PARTPLAY_RETURN_IF_ERROR(ExpectWord("timestamp"));
        if (Peek().kind != TokenKind::kInteger) return NoViable(Peek());
        PARTPLAY_ASSIGN_OR_RETURN(Literal t, Term());
        s.timestamp = std::move(t);
      }
    } else if (AcceptWord("rename")) {
      s.kind = AlterTableStatement::Kind::kRename;
      s.if_column_exists = AcceptIfExists();
      do {
        PARTPLAY_RETURN_IF_ERROR(too_many(s.renames.size()));
        PARTPLAY_ASSIGN_OR_RETURN(Name from, Ident());
        PARTPLAY_RETURN_IF_ERROR(ExpectWord("to"));
        PARTPLAY_ASSIGN_OR_RETURN(Name to, Ident());
        s.renames.emplace_back(std::move(from), std::move(to));
      } while (AcceptWord("and"));
    } else if (AcceptWord("with")) {
      s.kind = AlterTableStatement::Kind::kWith;
      PARTPLAY_ASSIGN_OR_RETURN(s.properties, Properties());
    } else {
      return NoViable(Peek());
    }
    return StatementBody(std::move(s));
  }

  // cqlsh's grammar (cqlshhandling.py): a command with at most one word or number after it;
  // anything else is cqlsh's "Improper <COMMAND> command.".
  StatusOr<StatementBody> Shell() {
    ShellCommand c;
    const Token& first = Next();
    std::string name = Upper(first.text);
    if (first.text == "serial") {
      Next();
      c.kind = ShellCommand::Kind::kSerialConsistency;
      name = "SERIAL";
    } else if (first.text == "consistency") {
      c.kind = ShellCommand::Kind::kConsistency;
    } else if (first.text == "tracing") {
      c.kind = ShellCommand::Kind::kTracing;
    } else if (first.text == "advance") {
      Next();  // CLOCK
      c.kind = ShellCommand::Kind::kAdvanceClock;
      const Token& d = Peek();
      if (AtEnd() || (d.kind != TokenKind::kDuration && d.kind != TokenKind::kInteger)) {
        return Status(ErrorCode::kCqlSyntax,
                      "ADVANCE CLOCK takes a duration: 30s, 2h, 1d, 1h30m, 500ms", d.where);
      }
      Next();
      c.value = d.text;
      c.value_where = d.where;
      if (!AtEnd()) return Mismatched(Peek(), "EOF");
      return StatementBody(std::move(c));
    } else if (first.text == "guardrail") {
      // GUARDRAIL [name [value]]: the value as written (-1, 100, 10MiB, '10 MiB' unquoted).
      c.kind = ShellCommand::Kind::kGuardrail;
      if (AtEnd()) return StatementBody(std::move(c));
      const Token& name = Next();
      if (name.kind != TokenKind::kIdentifier) {
        return Status(ErrorCode::kCqlSyntax, "Improper GUARDRAIL command.", name.where);
      }
      c.argument = name.text;
      c.argument_where = name.where;
      if (AtEnd()) return StatementBody(std::move(c));
      c.value_where = Peek().where;
      while (!AtEnd()) {
        const Token& t = Next();
        c.value += t.kind == TokenKind::kString ? t.text : std::string(t.source);
        if (c.value.size() > 64) {
          return Status(ErrorCode::kCqlSyntax, "Improper GUARDRAIL command.", c.value_where);
        }
      }
      return StatementBody(std::move(c));
    } else {
      c.kind = ShellCommand::Kind::kPaging;
    }
    auto improper = [&]() {
      return Status(ErrorCode::kCqlSyntax, fmt::format("Improper {} command.", name), first.where);
    };
    if (!AtEnd()) {
      const Token& arg = Next();
      bool word = arg.kind == TokenKind::kIdentifier;
      bool number = arg.kind == TokenKind::kInteger && c.kind == ShellCommand::Kind::kPaging;
      if (!word && !number) return improper();
      c.argument = Upper(arg.text);
      c.argument_where = arg.where;
    }
    if (!AtEnd()) return improper();
    return StatementBody(std::move(c));
  }

  StatusOr<StatementBody> AlterKeyspace() {
    Next();  // ALTER
    Next();  // KEYSPACE
    AlterKeyspaceStatement s;
    s.if_exists = AcceptIfExists();
    PARTPLAY_ASSIGN_OR_RETURN(s.keyspace, Ident());
    PARTPLAY_RETURN_IF_ERROR(ExpectWord("with"));
    PARTPLAY_ASSIGN_OR_RETURN(s.properties, Properties());
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> Truncate() {
    Next();
    AcceptWord("table") || AcceptWord("columnfamily");
    TruncateStatement s;
    PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    return StatementBody(std::move(s));
  }

  StatusOr<StatementBody> Describe() {
    Next();
    DescribeStatement s;
    if (AcceptWord("tables")) {
      s.kind = DescribeStatement::Kind::kTables;
    } else if (AcceptWord("keyspaces")) {
      s.kind = DescribeStatement::Kind::kKeyspaces;
    } else if (AcceptWord("keyspace") || AcceptWord("schema")) {
      s.kind = DescribeStatement::Kind::kKeyspace;
      if (!AtEnd()) {
        PARTPLAY_ASSIGN_OR_RETURN(s.keyspace, Ident());
      }
    } else {
      AcceptWord("table") || AcceptWord("columnfamily");
      s.kind = DescribeStatement::Kind::kTable;
      PARTPLAY_ASSIGN_OR_RETURN(s.table, QualifiedTable());
    }
    return StatementBody(std::move(s));
  }

  const std::vector<Token>& t_;
  size_t pos_;
  size_t end_;
  int depth_ = 0;  // Term() and Type() calls under way
  int frozen_depth_ = 0;  // frozen<...> types being read

  static void FreezeAll(CqlType& t) {
    if (t.is_collection() || t.is_composite()) t.frozen = true;
    for (CqlType& p : t.params) FreezeAll(p);
  }
};

StatusOr<Statement> ParseRange(const std::vector<Token>& tokens, size_t begin, size_t end,
                               std::string_view script) {
  Parser p(tokens, begin, end);
  StatusOr<StatementBody> body = p.Statement();
  if (!body.ok()) return body.status();
  Statement s;
  s.body = std::move(body).value();
  s.where = tokens[begin].where;
  size_t from = static_cast<size_t>(tokens[begin].where.byte_offset);
  const Token& last = tokens[end - 1];
  size_t to = static_cast<size_t>(last.where.byte_offset) + last.source.size();
  s.text = script.substr(from, to - from);
  return s;
}

}  // namespace

StatementReader::StatementReader(std::string_view script) : script_(script), lexer_(script) {}

namespace {
bool IsWordToken(const Token& t, std::string_view word) {
  return t.kind == TokenKind::kIdentifier && t.text == word;
}
}  // namespace

std::optional<StatusOr<Statement>> StatementReader::Next() {
  while (lexer_.Next(tokens_)) {
    if (tokens_.size() < 2) continue;
    if (IsWordToken(tokens_[0], "begin")) {
      // A batch runs across the ';' between its statements, to APPLY BATCH or the script's end.
      std::vector<Token> more;
      auto applied = [&] {
        size_t n = tokens_.size();
        return n >= 3 && IsWordToken(tokens_[n - 3], "apply") && IsWordToken(tokens_[n - 2], "batch");
      };
      while (!applied() && tokens_.back().kind != TokenKind::kEnd && lexer_.Next(more)) {
        tokens_.insert(tokens_.end(), std::make_move_iterator(more.begin()),
                       std::make_move_iterator(more.end()));
      }
      // A script ending in blanks after the last ';' leaves a lone end token behind.
      if (tokens_.size() >= 2 && tokens_.back().kind == TokenKind::kEnd &&
          tokens_[tokens_.size() - 2].kind == TokenKind::kSymbol &&
          tokens_[tokens_.size() - 2].text == ";") {
        tokens_.pop_back();
      }
    }
    const std::string_view& last = tokens_[tokens_.size() - 2].source;
    extent_begin_ = tokens_.front().where.byte_offset;
    extent_end_ = static_cast<int64_t>(last.data() + last.size() - script_.data());
    return ParseRange(tokens_, 0, tokens_.size() - 1, script_);
  }
  return std::nullopt;
}

std::vector<StatusOr<Statement>> ParseScript(std::string_view script) {
  std::vector<StatusOr<Statement>> out;
  StatementReader reader(script);
  while (std::optional<StatusOr<Statement>> s = reader.Next()) out.push_back(std::move(*s));
  return out;
}

StatusOr<Statement> ParseStatement(std::string_view text) {
  std::vector<StatusOr<Statement>> all = ParseScript(text);
  if (all.empty()) {
    return Status(ErrorCode::kCqlSyntax, "no viable alternative at input '<EOF>'",
                  LocationAt(text, text.size()));
  }
  if (all.size() > 1) {
    SourceLocation w = all[1].ok() ? all[1].value().where : all[1].status().where();
    return Status(ErrorCode::kCqlSyntax, "one statement expected", w);
  }
  return std::move(all[0]);
}

StatusOr<CqlType> ParseType(std::string_view text) {
  std::vector<Token> tokens = Lex(text);
  Parser p(tokens, 0, tokens.size() - 1);
  PARTPLAY_ASSIGN_OR_RETURN(CqlType t, p.Type());
  PARTPLAY_RETURN_IF_ERROR(p.ExpectEnd());
  return t;
}

StatusOr<Literal> ParseLiteral(std::string_view text) {
  std::vector<Token> tokens = Lex(text);
  Parser p(tokens, 0, tokens.size() - 1);
  PARTPLAY_ASSIGN_OR_RETURN(Literal lit, p.Term());
  PARTPLAY_RETURN_IF_ERROR(p.ExpectEnd());
  return lit;
}

}  // namespace partplay::cql
