// Values of the Cosmos DB for NoSQL query language (query.h, query_internal.h): the Value type of
// literals and parameters, the evaluator's views of the item's DOM, and equality and ordering as
// query/equality-comparison-operators has them (learn.microsoft.com/azure/cosmos-db/nosql/query/
// equality-comparison-operators): a comparison across types, or an ordering of arrays or objects,
// is undefined; '=' compares arrays and objects deeply. Strings order by their UTF-8 bytes, which
// is code point order. Numbers are doubles (query/constants: IEEE 754 double precision).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <utility>

#include "cosmos/query_internal.h"
#include "cosmos/query_lexer.h"
#include "partplay/core/json_writer.h"
#include "partplay/core/limits.h"

namespace partplay::cosmosql {

std::string_view ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kUndefined:
      return "undefined";
    case ValueKind::kNull:
      return "null";
    case ValueKind::kBool:
      return "boolean";
    case ValueKind::kNumber:
      return "number";
    case ValueKind::kString:
      return "string";
    case ValueKind::kArray:
      return "array";
    case ValueKind::kObject:
      return "object";
  }
  return "undefined";
}

Value Value::Null() {
  Value v;
  v.kind_ = ValueKind::kNull;
  return v;
}
Value Value::Bool(bool b) {
  Value v;
  v.kind_ = ValueKind::kBool;
  v.bool_ = b;
  return v;
}
Value Value::Number(double n) {
  Value v;
  v.kind_ = ValueKind::kNumber;
  v.number_ = n;
  return v;
}
Value Value::String(std::string s) {
  Value v;
  v.kind_ = ValueKind::kString;
  v.string_ = std::move(s);
  return v;
}
Value Value::Array(std::vector<Value> elements) {
  Value v;
  v.kind_ = ValueKind::kArray;
  v.array_ = std::move(elements);
  return v;
}
Value Value::Object(std::vector<ObjectMember> members) {
  Value v;
  v.kind_ = ValueKind::kObject;
  v.object_ = std::move(members);
  return v;
}

const Value* Value::Find(std::string_view key) const {
  for (const ObjectMember& m : object_) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

std::string Value::ToJson() const {
  if (kind_ == ValueKind::kUndefined) return "undefined";
  std::string out;
  AppendJson(ValOf(*this), out);
  return out;
}

bool operator==(const Value& a, const Value& b) {
  return EqualsTri(ValOf(a), ValOf(b)) == Tri::kTrue;
}

// ---- views ----

Val ValOf(const Value& v) {
  Val r;
  r.kind = v.kind();
  switch (v.kind()) {
    case ValueKind::kBool:
      r.b = v.boolean();
      break;
    case ValueKind::kNumber:
      r.n = v.number();
      break;
    case ValueKind::kString:
      r.s = v.string();
      break;
    case ValueKind::kArray:
    case ValueKind::kObject:
      r.value = &v;
      break;
    default:
      break;
  }
  return r;
}

Val ValOf(simdjson::dom::element e) {
  Val r;
  switch (e.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      r.kind = ValueKind::kNull;
      break;
    case simdjson::dom::element_type::BOOL:
      r.kind = ValueKind::kBool;
      r.b = e.get_bool().value_unsafe();
      break;
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      r.kind = ValueKind::kNumber;
      r.n = e.get_double().value_unsafe();
      break;
    case simdjson::dom::element_type::STRING:
      r.kind = ValueKind::kString;
      r.s = e.get_string().value_unsafe();
      break;
    case simdjson::dom::element_type::ARRAY:
      r.kind = ValueKind::kArray;
      r.element = e;
      break;
    case simdjson::dom::element_type::OBJECT:
      r.kind = ValueKind::kObject;
      r.element = e;
      break;
  }
  return r;
}

Val MemberOf(const Val& object, std::string_view key) {
  if (!object.is(ValueKind::kObject)) return Val();
  if (object.value != nullptr) {
    const Value* m = object.value->Find(key);
    return m == nullptr ? Val() : ValOf(*m);
  }
  simdjson::dom::element m;
  if (object.element[key].get(m) != simdjson::SUCCESS) return Val();
  return ValOf(m);
}

Val ElementOf(const Val& array, uint64_t i) {
  if (!array.is(ValueKind::kArray)) return Val();
  if (array.value != nullptr) {
    const std::vector<Value>& a = array.value->array();
    return i < a.size() ? ValOf(a[i]) : Val();
  }
  Val found;
  uint64_t k = 0;
  ForEachElement(array, [&](const Val& e) {
    if (k++ != i) return true;
    found = e;
    return false;
  });
  return found;
}

size_t ArraySize(const Val& array) {
  if (!array.is(ValueKind::kArray)) return 0;
  if (array.value != nullptr) return array.value->array().size();
  simdjson::dom::array a;
  if (array.element.get_array().get(a) != simdjson::SUCCESS) return 0;
  return a.size();
}

size_t ObjectSize(const Val& object) {
  if (!object.is(ValueKind::kObject)) return 0;
  if (object.value != nullptr) return object.value->object().size();
  simdjson::dom::object o;
  if (object.element.get_object().get(o) != simdjson::SUCCESS) return 0;
  return o.size();
}

bool DeepEquals(const Val& a, const Val& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ValueKind::kUndefined:
      return false;
    case ValueKind::kNull:
      return true;
    case ValueKind::kBool:
      return a.b == b.b;
    case ValueKind::kNumber:
      return a.n == b.n;
    case ValueKind::kString:
      return a.s == b.s;
    case ValueKind::kArray: {
      if (ArraySize(a) != ArraySize(b)) return false;
      // Walk b alongside a: both are read once.
      std::vector<Val> right;
      right.reserve(ArraySize(b));
      ForEachElement(b, [&](const Val& e) {
        right.push_back(e);
        return true;
      });
      size_t k = 0;
      bool equal = true;
      ForEachElement(a, [&](const Val& e) {
        equal = k < right.size() && DeepEquals(e, right[k++]);
        return equal;
      });
      return equal;
    }
    case ValueKind::kObject: {
      if (ObjectSize(a) != ObjectSize(b)) return false;
      bool equal = true;
      ForEachMember(a, [&](std::string_view key, const Val& v) {
        equal = DeepEquals(v, MemberOf(b, key));
        return equal;
      });
      return equal;
    }
  }
  return false;
}

Tri EqualsTri(const Val& a, const Val& b) {
  if (a.is(ValueKind::kUndefined) || b.is(ValueKind::kUndefined) || a.kind != b.kind) {
    return Tri::kUndefined;
  }
  return TriOf(DeepEquals(a, b));
}

std::optional<int> CompareOrder(const Val& a, const Val& b) {
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case ValueKind::kNull:
      return 0;
    case ValueKind::kBool:
      return static_cast<int>(a.b) - static_cast<int>(b.b);
    case ValueKind::kNumber:
      if (std::isnan(a.n) || std::isnan(b.n)) return kUnordered;
      return a.n < b.n ? -1 : a.n > b.n ? 1 : 0;
    case ValueKind::kString: {
      int c = a.s.compare(b.s);
      return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    default:
      return std::nullopt;
  }
}

Value ToValue(const Val& v) {
  switch (v.kind) {
    case ValueKind::kUndefined:
      return Value();
    case ValueKind::kNull:
      return Value::Null();
    case ValueKind::kBool:
      return Value::Bool(v.b);
    case ValueKind::kNumber:
      return Value::Number(v.n);
    case ValueKind::kString:
      return Value::String(std::string(v.s));
    case ValueKind::kArray:
    case ValueKind::kObject:
      if (v.value != nullptr) return *v.value;
      return ValueFromElement(v.element);
  }
  return Value();
}

void AppendJson(const Val& v, std::string& out) {
  switch (v.kind) {
    case ValueKind::kUndefined:
      out += "undefined";
      return;
    case ValueKind::kNull:
      out += "null";
      return;
    case ValueKind::kBool:
      out += v.b ? "true" : "false";
      return;
    case ValueKind::kNumber:
      AppendJsonNumber(v.n, out);
      return;
    case ValueKind::kString:
      AppendJsonString(v.s, out);
      return;
    case ValueKind::kArray: {
      out += '[';
      bool first = true;
      ForEachElement(v, [&](const Val& e) {
        if (!first) out += ',';
        first = false;
        AppendJson(e, out);
        return true;
      });
      out += ']';
      return;
    }
    case ValueKind::kObject: {
      out += '{';
      bool first = true;
      ForEachMember(v, [&](std::string_view key, const Val& m) {
        if (!first) out += ',';
        first = false;
        AppendJsonString(key, out);
        out += ':';
        AppendJson(m, out);
        return true;
      });
      out += '}';
      return;
    }
  }
}

std::string JsNumberText(double n) {
  if (std::isnan(n)) return "NaN";
  if (std::isinf(n)) return n < 0 ? "-Infinity" : "Infinity";
  if (n == 0) return "0";
  // The shortest digits that read back, and where the decimal point falls among them.
  std::string s = fmt::format("{}", std::fabs(n));
  std::string digits;
  int exponent = 0;  // n = 0.d1d2...dk x 10^point
  size_t e_at = s.find('e');
  std::string mantissa = s.substr(0, e_at);
  if (e_at != std::string::npos) {
    int64_t x = 0;
    std::string_view exp_text(s.data() + e_at + 1, s.size() - e_at - 1);
    bool negative = !exp_text.empty() && exp_text[0] == '-';
    for (char c : exp_text) {
      if (c >= '0' && c <= '9') x = x * 10 + (c - '0');
    }
    exponent = static_cast<int>(negative ? -x : x);
  }
  size_t dot = mantissa.find('.');
  int int_digits = static_cast<int>(dot == std::string::npos ? mantissa.size() : dot);
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  int point = int_digits + exponent;
  // Leading zeros (0.00012 -> digits 000012) move the point left; trailing zeros go.
  size_t lead = 0;
  while (lead + 1 < digits.size() && digits[lead] == '0') ++lead;
  digits.erase(0, lead);
  point -= static_cast<int>(lead);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int k = static_cast<int>(digits.size());
  std::string out = n < 0 ? "-" : "";
  // ECMAScript Number::toString.
  if (k <= point && point <= 21) {
    out += digits;
    out.append(static_cast<size_t>(point - k), '0');
  } else if (0 < point && point <= 21) {
    out += digits.substr(0, static_cast<size_t>(point));
    out += '.';
    out += digits.substr(static_cast<size_t>(point));
  } else if (-6 < point && point <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-point), '0');
    out += digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    int e = point - 1;
    out += e < 0 ? "e-" : "e+";
    out += std::to_string(e < 0 ? -e : e);
  }
  return out;
}

std::string& Scratch::NewString() {
  if (used_strings_ == strings_.size()) strings_.push_back(std::make_unique<std::string>());
  std::string& s = *strings_[used_strings_++];
  s.clear();
  return s;
}

Value& Scratch::NewValue() {
  if (used_values_ == values_.size()) values_.push_back(std::make_unique<Value>());
  Value& v = *values_[used_values_++];
  v = Value();
  return v;
}

// ---- JSON in ----

Value ValueFromElement(simdjson::dom::element e) {
  Val v = ValOf(e);
  switch (v.kind) {
    case ValueKind::kArray: {
      std::vector<Value> elements;
      simdjson::dom::array a;
      if (e.get_array().get(a) == simdjson::SUCCESS) {
        for (simdjson::dom::element x : a) elements.push_back(ValueFromElement(x));
      }
      return Value::Array(std::move(elements));
    }
    case ValueKind::kObject: {
      std::vector<ObjectMember> members;
      simdjson::dom::object o;
      if (e.get_object().get(o) == simdjson::SUCCESS) {
        for (simdjson::dom::key_value_pair kv : o) {
          members.push_back(ObjectMember{std::string(kv.key), ValueFromElement(kv.value)});
        }
      }
      return Value::Object(std::move(members));
    }
    default:
      return ToValue(v);
  }
}

StatusOr<Value> ParseValueJson(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  simdjson::dom::element e;
  if (simdjson::error_code err = parser.parse(padded).get(e); err != simdjson::SUCCESS) {
    return Status(ErrorCode::kMalformedJson,
                  fmt::format("The value is not JSON: {}.", simdjson::error_message(err)));
  }
  return ValueFromElement(e);
}

StatusOr<Parameters> ParseParametersJson(std::string_view json) {
  PARTPLAY_ASSIGN_OR_RETURN(Value list, ParseValueJson(json));
  auto bad = [](std::string message, std::string field) {
    return Status(ErrorCode::kQuerySyntax, std::move(message)).WithField(std::move(field));
  };
  if (list.kind() != ValueKind::kArray) {
    return bad("The parameters are an array of {\"name\": \"@p\", \"value\": ...}.", "");
  }
  if (list.array().size() > static_cast<size_t>(kCosmosQueryMaxParameters)) {
    return bad(fmt::format("{} parameters; a query takes at most {} "
                           "(cosmos_query_max_parameters).",
                           list.array().size(), kCosmosQueryMaxParameters),
               "");
  }
  Parameters out;
  for (size_t k = 0; k < list.array().size(); ++k) {
    const Value& p = list.array()[k];
    const Value* name = p.kind() == ValueKind::kObject ? p.Find("name") : nullptr;
    if (name == nullptr || name->kind() != ValueKind::kString) {
      return bad("Each parameter is an object with a string \"name\".", fmt::format("/{}", k));
    }
    const std::string& n = name->string();
    // '@' and an identifier (a keyword too: @value lexes as one parameter token).
    bool plain = n.size() >= 2 && n[0] == '@' && !(n[1] >= '0' && n[1] <= '9');
    for (size_t i = 1; plain && i < n.size(); ++i) {
      char c = n[i];
      plain =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    if (!plain) {
      return bad(fmt::format("The parameter name \"{}\" is not @ and an identifier.", n),
                 fmt::format("/{}/name", k));
    }
    const Value* value = p.Find("value");
    Value v = value == nullptr ? Value() : *value;
    if (!out.emplace(n, std::move(v)).second) {
      return bad(fmt::format("The parameter {} is given twice.", n), fmt::format("/{}/name", k));
    }
  }
  return out;
}

}  // namespace partplay::cosmosql
