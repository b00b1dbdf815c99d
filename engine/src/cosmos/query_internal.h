// What the query parser, printer and evaluator share (query.h has the model and its sources):
// the evaluator's value view `Val` (a JSON value that lives in the item's simdjson DOM, in a
// Value of the query, or in the evaluator's scratch space, never copied to look at it), the
// comparisons of query/equality-comparison-operators over it, and the table of built-in functions.
//
//   Val v = ValOf(element);           // a view of the item's value
//   Tri t = EqualsTri(v, ValOf(lit)); // kTrue, kFalse or kUndefined (different types)
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cosmos/query.h"

namespace partplay::cosmosql {

// A value as the evaluator sees it. Scalars are held here; an array or object is either a Value
// (`value` set) or an element of the item (`element`).
struct Val {
  ValueKind kind = ValueKind::kUndefined;
  bool b = false;
  double n = 0;
  std::string_view s;
  const Value* value = nullptr;
  simdjson::dom::element element;

  bool is(ValueKind k) const { return kind == k; }
  static Val Bool(bool v) {
    Val r;
    r.kind = ValueKind::kBool;
    r.b = v;
    return r;
  }
  static Val Number(double v) {
    Val r;
    r.kind = ValueKind::kNumber;
    r.n = v;
    return r;
  }
  static Val String(std::string_view v) {
    Val r;
    r.kind = ValueKind::kString;
    r.s = v;
    return r;
  }
  static Val Null() {
    Val r;
    r.kind = ValueKind::kNull;
    return r;
  }
};

Val ValOf(const Value& v);
Val ValOf(simdjson::dom::element e);
// The member `key` of an object (undefined when absent or not an object).
Val MemberOf(const Val& object, std::string_view key);
// Element `i` of an array (undefined when out of range or not an array).
Val ElementOf(const Val& array, uint64_t i);
// Number of elements of an array (0 for anything else).
size_t ArraySize(const Val& array);
// Calls f(Val) for each element of an array until f returns false.
template <typename F>
void ForEachElement(const Val& array, F f) {
  if (!array.is(ValueKind::kArray)) return;
  if (array.value != nullptr) {
    for (const Value& e : array.value->array()) {
      if (!f(ValOf(e))) return;
    }
    return;
  }
  simdjson::dom::array a;
  if (array.element.get_array().get(a) != simdjson::SUCCESS) return;
  for (simdjson::dom::element e : a) {
    if (!f(ValOf(e))) return;
  }
}
// Calls f(key, Val) for each member of an object until f returns false.
template <typename F>
void ForEachMember(const Val& object, F f) {
  if (!object.is(ValueKind::kObject)) return;
  if (object.value != nullptr) {
    for (const ObjectMember& m : object.value->object()) {
      if (!f(std::string_view(m.key), ValOf(m.value))) return;
    }
    return;
  }
  simdjson::dom::object o;
  if (object.element.get_object().get(o) != simdjson::SUCCESS) return;
  for (simdjson::dom::key_value_pair kv : o) {
    if (!f(kv.key, ValOf(kv.value))) return;
  }
}
size_t ObjectSize(const Val& object);

enum class Tri : uint8_t { kFalse, kTrue, kUndefined };
inline Tri TriOf(bool b) { return b ? Tri::kTrue : Tri::kFalse; }
// Whether two defined values of the same kind are equal, deeply (arrays element by element,
// objects member by member in any order); values of different kinds are unequal.
bool DeepEquals(const Val& a, const Val& b);
// '=': undefined when either side is undefined or the kinds differ, else DeepEquals.
Tri EqualsTri(const Val& a, const Val& b);
// '<' and friends: -1, 0 or 1 for two numbers, strings (UTF-8 bytes, so code points), booleans
// (false < true) or nulls; kUnordered when a number is NaN (every ordering is false, as in
// JavaScript); nullopt for anything else (different kinds, arrays, objects).
inline constexpr int kUnordered = 2;
std::optional<int> CompareOrder(const Val& a, const Val& b);
// A deep copy as a Value.
Value ToValue(const Val& v);
// JSON text of a value (for TOSTRING of arrays and objects).
void AppendJson(const Val& v, std::string& out);
// A number as JavaScript's Number#toString writes it (TOSTRING): 125, 0.1234, 1e+21, 1e-7.
std::string JsNumberText(double n);

// The evaluator's scratch space for what an expression builds (strings, arrays, objects): kept
// between items and reused, so a steady run allocates nothing.
class Scratch {
 public:
  void Reset() { used_strings_ = used_values_ = 0; }
  std::string& NewString();
  Value& NewValue();

 private:
  std::vector<std::unique_ptr<std::string>> strings_;
  std::vector<std::unique_ptr<Value>> values_;
  size_t used_strings_ = 0;
  size_t used_values_ = 0;
};

// Resolves a parsed query's identifiers and checks where its aggregates stand
// (query_resolve.cpp).
Status ResolveQuery(const Query& query);

// ---- Built-in functions (query_functions.cpp) ----

enum class FunctionClass : uint8_t {
  kScalar,        // evaluated
  kAggregate,     // COUNT, SUM, AVG, MIN, MAX: only in SELECT, never evaluated per item
  kNotEvaluated,  // a real built-in the playground does not evaluate (query.h lists them)
};

using BuiltinFn = Val (*)(Scratch& scratch, const Val* args, size_t count);

inline constexpr uint8_t kVariadic = 255;

struct BuiltinInfo {
  std::string_view name;  // upper case
  uint8_t min_args;
  uint8_t max_args;  // kVariadic: no upper bound
  FunctionClass cls;
  BuiltinFn fn;  // kScalar only
};

// The built-in named `name` (any case), or nullptr.
const BuiltinInfo* FindBuiltin(std::string_view name);
// Every built-in, sorted by name.
std::span<const BuiltinInfo> AllBuiltins();

}  // namespace partplay::cosmosql
