// The Cosmos DB for NoSQL query parser and evaluator (cosmos/query.h) on arbitrary bytes: a parse
// either fails with a kQuerySyntax error located inside the text (its line and column agreeing
// with its byte offset), or succeeds, and then the canonical print parses again and prints the
// same; every property path maps to a JSON pointer or to none; and the query is evaluated over a
// small fixed item (with a few parameters bound), where an error is again located in the text
// (or, for the JOIN row bound, at the item), and every SELECT item is evaluated too.
#include <cstdint>
#include <string>
#include <string_view>

#include "cosmos/query_lexer.h"
#include "fuzz_common.h"
#include "partplay/core/limits.h"
#include "partplay/cosmos/query.h"

namespace {

using namespace partplay;
using namespace partplay::cosmosql;

constexpr std::string_view kItem = R"({"id": "a", "n": 5, "s": "Hello", "b": true, "z": null,
  "arr": [1, "two", [3], {"k": 4}], "o": {"a": {"b": [1, 2]}, "k": "a"},
  "children": [{"name": "x", "pets": [{"n": 1}, {"n": 2}]}, {"name": "y", "pets": []}],
  "tags": ["a", "b", "c"], "nested": [[1, 2], [3]]})";

// An error of a text of `size` bytes is located inside it, consistently.
void CheckLocated(const Status& s, std::string_view text, std::string_view what) {
  fuzz::Check(s.code() == ErrorCode::kQuerySyntax || s.code() == ErrorCode::kMalformedJson,
              "query errors are query_syntax", s.ToString());
  const SourceLocation& w = s.where();
  fuzz::Check(w.byte_offset >= 0 && static_cast<size_t>(w.byte_offset) <= text.size(), what,
              s.ToString());
  SourceLocation at = LocationIn(text, static_cast<size_t>(w.byte_offset));
  fuzz::Check(at.line == w.line && at.column == w.column, "line and column match the offset",
              s.ToString());
}

void WalkPaths(const Expr& e, const Query& q) {
  if (e.kind == ExprKind::kPath) {
    std::optional<std::string> pointer = PathAsPointer(e, q);
    fuzz::Check(!pointer || pointer->empty() || (*pointer)[0] == '/', "a pointer starts with /",
                *pointer);
  }
  for (const Expr& c : e.children) WalkPaths(c, q);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  StatusOr<Query> q = ParseQuery(text);
  if (!q.ok()) {
    CheckLocated(q.status(), text, "a parse error lies inside the text");
    return 0;
  }
  std::string printed = ToString(q.value());
  StatusOr<Query> again = ParseQuery(printed);
  fuzz::Check(again.ok(), "the canonical print parses",
              printed + "\n" + (again.ok() ? "" : again.status().ToString()));
  fuzz::Check(ToString(again.value()) == printed, "printing is idempotent",
              printed + "\n" + ToString(again.value()));
  if (q->where_clause) {
    WalkPaths(*q->where_clause, q.value());
    fuzz::Check(!ExprToString(*q->where_clause).empty(), "a WHERE prints");
  }

  static const Parameters* kParameters = new Parameters{
      {"@a", Value::Number(1)},
      {"@b", Value::String("x")},
      {"@c", Value::Array({Value::Number(1), Value::String("b")})},
      {"@d", Value::Object({ObjectMember{"k", Value::Bool(true)}})},
      {"@e", Value::Null()},
  };
  static simdjson::dom::parser* parser = new simdjson::dom::parser();
  static simdjson::dom::element item = [] {
    simdjson::dom::element e;
    if (parser->parse(kItem.data(), kItem.size()).get(e) != simdjson::SUCCESS) fuzz::Fail("item");
    return e;
  }();
  StatusOr<QueryEvaluator> ev = QueryEvaluator::Create(q.value(), *kParameters);
  if (!ev.ok()) {
    CheckLocated(ev.status(), text, "an evaluation error lies inside the text");
    return 0;
  }
  StatusOr<uint64_t> rows = ev->Rows(item, 3);
  if (rows.ok()) {
    fuzz::Check(static_cast<double>(rows.value()) <= kCosmosQueryMaxJoinRowsPerItem,
                "rows within the bound");
    fuzz::Check(q->from || rows.value() == 0, "no FROM, no rows");
  } else {
    fuzz::Check(rows.status().where().item_index == 3, "a row error names the item",
                rows.status().ToString());
  }
  for (const SelectItem& s : q->items) {
    StatusOr<Value> v = ev->Evaluate(s.expr, item);
    if (!v.ok()) CheckLocated(v.status(), text, "a SELECT item's error lies inside the text");
  }
  return 0;
}
