// The built-in functions of the Cosmos DB for NoSQL query language: the table the parser checks
// names and arities against (every function of the docs' TOC, articles/cosmos-db/nosql/query/
// TOC.yml in MicrosoftDocs/azure-databases-docs), and the ones the playground evaluates. Each
// follows its page at learn.microsoft.com/azure/cosmos-db/nosql/query/<name>; the examples there
// (github.com/Azure-Samples/cosmos-db-nosql-query-samples, scripts/<name>) are the tests' expected
// values. An argument of the wrong type gives undefined, as the pages' examples show (LENGTH(0),
// FLOOR(null), POWER(2, null) are absent from their results). Case-insensitive comparisons and
// LOWER/UPPER fold ASCII and the Latin-1, Latin Extended-A, Greek and Cyrillic letters; LENGTH,
// SUBSTRING, LEFT, RIGHT, INDEX_OF and REVERSE count code points.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <span>

#include "cosmos/query_internal.h"
#include "partplay/core/utf8.h"

namespace partplay::cosmosql {
namespace {

// ---- code points ----

uint32_t FoldLower(uint32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c < 0xC0) return c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3AB && c != 0x3A2) ||
      (c >= 0x410 && c <= 0x42F)) {
    return c + 32;
  }
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x138 && c != 0x149 && c != 0x178) {
    // Latin Extended-A pairs: even upper, odd lower, but shifted by one in 0x139-0x148 and
    // 0x179-0x17E.
    bool shifted = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return (c % 2 == (shifted ? 1u : 0u)) ? c + 1 : c;
  }
  return c;
}

uint32_t FoldUpper(uint32_t c) {
  if (c >= 'a' && c <= 'z') return c - 32;
  if (c < 0xE0) return c;
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) ||
      (c >= 0x430 && c <= 0x44F)) {
    return c - 32;
  }
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  if (c >= 0x100 && c <= 0x17E && c != 0x131 && c != 0x138 && c != 0x149) {
    bool shifted = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return (c % 2 == (shifted ? 0u : 1u)) ? c - 1 : c;
  }
  return c;
}

std::string_view Mapped(Scratch& scratch, std::string_view s, uint32_t (*map)(uint32_t)) {
  std::string& out = scratch.NewString();
  for (size_t i = 0; i < s.size();) {
    size_t len = 0;
    AppendUtf8(map(CodePointAt(s, i, len)), out);
    i += len;
  }
  return out;
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return n;
}

// The byte offset of code point `k` (s.size() past the end).
size_t ByteOfCodePoint(std::string_view s, size_t k) {
  size_t i = 0;
  for (; i < s.size() && k > 0; --k) {
    size_t len = 0;
    CodePointAt(s, i, len);
    i += len;
  }
  return i;
}

// ---- argument helpers ----

bool AllOf(const Val* a, size_t n, ValueKind kind) {
  for (size_t k = 0; k < n; ++k) {
    if (!a[k].is(kind)) return false;
  }
  return true;
}

// The optional boolean argument at a[k] (false when absent); nullopt when given but not a bool.
std::optional<bool> OptionalBool(const Val* a, size_t n, size_t k) {
  if (k >= n) return false;
  if (!a[k].is(ValueKind::kBool)) return std::nullopt;
  return a[k].b;
}

// A count argument (LEFT, RIGHT, SUBSTRING): its integer part.
int64_t CountOf(double n) {
  if (std::isnan(n)) return 0;
  if (n > 9e15) return static_cast<int64_t>(9e15);
  if (n < -9e15) return static_cast<int64_t>(-9e15);
  return static_cast<int64_t>(std::trunc(n));
}

// ---- type checks ----

template <ValueKind K>
Val IsKind(Scratch&, const Val* a, size_t) {
  return Val::Bool(a[0].is(K));
}
Val IsDefined(Scratch&, const Val* a, size_t) { return Val::Bool(!a[0].is(ValueKind::kUndefined)); }
Val IsPrimitive(Scratch&, const Val* a, size_t) {
  ValueKind k = a[0].kind;
  return Val::Bool(k == ValueKind::kNull || k == ValueKind::kBool || k == ValueKind::kNumber ||
                   k == ValueKind::kString);
}
Val IsFiniteNumber(Scratch&, const Val* a, size_t) {
  return Val::Bool(a[0].is(ValueKind::kNumber) && std::isfinite(a[0].n));
}
// query/is-integer's examples: -9223372036854775808 and 9223372036854775807 are integers,
// 18446744073709551615 is not.
Val IsInteger(Scratch&, const Val* a, size_t) {
  double n = a[0].n;
  return Val::Bool(a[0].is(ValueKind::kNumber) && std::isfinite(n) && n == std::trunc(n) &&
                   std::fabs(n) <= 9223372036854775808.0);
}

// ---- mathematics ----

template <double (*F)(double)>
Val Math1(Scratch&, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kNumber)) return Val();
  return Val::Number(F(a[0].n));
}
double Abs(double x) { return std::fabs(x); }
double Acos(double x) { return std::acos(x); }
double Asin(double x) { return std::asin(x); }
double Atan(double x) { return std::atan(x); }
double Ceiling(double x) { return std::ceil(x); }
double Cos(double x) { return std::cos(x); }
double Cot(double x) { return 1.0 / std::tan(x); }
double Degrees(double x) { return x * 180.0 / std::numbers::pi; }
double Exp(double x) { return std::exp(x); }
double Floor(double x) { return std::floor(x); }
double Log10(double x) { return std::log10(x); }
double Radians(double x) { return x * std::numbers::pi / 180.0; }
double Round(double x) { return std::round(x); }  // half away from zero (query/round: 2.5 -> 3)
double Sign(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
double Sin(double x) { return std::sin(x); }
double Sqrt(double x) { return std::sqrt(x); }
double Square(double x) { return x * x; }
double Tan(double x) { return std::tan(x); }
double Trunc(double x) { return std::trunc(x); }

Val Atn2(Scratch&, const Val* a, size_t) {
  if (!AllOf(a, 2, ValueKind::kNumber)) return Val();
  return Val::Number(std::atan2(a[0].n, a[1].n));
}
Val Log(Scratch&, const Val* a, size_t n) {
  if (!AllOf(a, n, ValueKind::kNumber)) return Val();
  if (n == 1) return Val::Number(std::log(a[0].n));
  // query/log: LOG(2, 10) is 0.3010299956639812, log10's value rather than ln 2 / ln 10.
  if (a[1].n == 10) return Val::Number(std::log10(a[0].n));
  if (a[1].n == 2) return Val::Number(std::log2(a[0].n));
  return Val::Number(std::log(a[0].n) / std::log(a[1].n));
}
Val Pi(Scratch&, const Val*, size_t) { return Val::Number(std::numbers::pi); }
Val Power(Scratch&, const Val* a, size_t) {
  if (!AllOf(a, 2, ValueKind::kNumber)) return Val();
  return Val::Number(std::pow(a[0].n, a[1].n));
}

// ---- arrays ----

// Whether `element` matches `wanted` partially: every member of an object `wanted` is in
// `element` with an equal value (query/array-contains); anything else must be equal.
bool PartialMatch(const Val& element, const Val& wanted) {
  if (!wanted.is(ValueKind::kObject) || !element.is(ValueKind::kObject)) {
    return DeepEquals(element, wanted);
  }
  bool match = true;
  ForEachMember(wanted, [&](std::string_view key, const Val& v) {
    match = DeepEquals(MemberOf(element, key), v);
    return match;
  });
  return match;
}

Val ArrayContains(Scratch&, const Val* a, size_t n) {
  std::optional<bool> partial = OptionalBool(a, n, 2);
  if (!a[0].is(ValueKind::kArray) || !partial) return Val();
  bool found = false;
  ForEachElement(a[0], [&](const Val& e) {
    found = *partial ? PartialMatch(e, a[1]) : DeepEquals(e, a[1]);
    return !found;
  });
  return Val::Bool(found);
}

Val ArrayLength(Scratch&, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kArray)) return Val();
  return Val::Number(static_cast<double>(ArraySize(a[0])));
}

// ---- strings ----

Val Concat(Scratch& scratch, const Val* a, size_t n) {
  if (!AllOf(a, n, ValueKind::kString)) return Val();
  std::string& out = scratch.NewString();
  for (size_t k = 0; k < n; ++k) out += a[k].s;
  return Val::String(out);
}

// STARTSWITH, ENDSWITH, CONTAINS and STRINGEQUALS: (string, string [, ignoreCase]).
template <int kWhich>
Val StringTest(Scratch& scratch, const Val* a, size_t n) {
  std::optional<bool> ignore_case = OptionalBool(a, n, 2);
  if (!AllOf(a, 2, ValueKind::kString) || !ignore_case) return Val();
  std::string_view s = a[0].s, p = a[1].s;
  if (*ignore_case) {
    s = Mapped(scratch, s, FoldLower);
    p = Mapped(scratch, p, FoldLower);
  }
  switch (kWhich) {
    case 0:
      return Val::Bool(s.substr(0, p.size()) == p);
    case 1:
      return Val::Bool(s.size() >= p.size() && s.substr(s.size() - p.size()) == p);
    case 2:
      return Val::Bool(s.find(p) != std::string_view::npos);
    default:
      return Val::Bool(s == p);
  }
}

Val IndexOf(Scratch&, const Val* a, size_t n) {
  if (!AllOf(a, 2, ValueKind::kString) || (n == 3 && !a[2].is(ValueKind::kNumber))) return Val();
  std::string_view s = a[0].s;
  int64_t start = n == 3 ? CountOf(a[2].n) : 0;
  if (start < 0) return Val();
  size_t from = ByteOfCodePoint(s, static_cast<size_t>(start));
  if (from > s.size()) return Val::Number(-1);
  size_t at = s.find(a[1].s, from);
  if (at == std::string_view::npos) return Val::Number(-1);
  return Val::Number(static_cast<double>(CodePoints(s.substr(0, at))));
}

Val Left(Scratch&, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString) || !a[1].is(ValueKind::kNumber)) return Val();
  int64_t k = CountOf(a[1].n);
  if (k <= 0) return Val::String({});
  return Val::String(a[0].s.substr(0, ByteOfCodePoint(a[0].s, static_cast<size_t>(k))));
}

Val Right(Scratch&, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString) || !a[1].is(ValueKind::kNumber)) return Val();
  int64_t k = CountOf(a[1].n);
  int64_t total = static_cast<int64_t>(CodePoints(a[0].s));
  if (k <= 0) return Val::String({});
  if (k >= total) return a[0];
  return Val::String(a[0].s.substr(ByteOfCodePoint(a[0].s, static_cast<size_t>(total - k))));
}

Val Substring(Scratch&, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString) || !a[1].is(ValueKind::kNumber) ||
      !a[2].is(ValueKind::kNumber)) {
    return Val();
  }
  // query/substring: the start is zero-based; a length of 0 or less gives "".
  int64_t start = std::max<int64_t>(0, CountOf(a[1].n));
  int64_t length = CountOf(a[2].n);
  if (length <= 0) return Val::String({});
  std::string_view s = a[0].s;
  size_t from = ByteOfCodePoint(s, static_cast<size_t>(start));
  size_t to = ByteOfCodePoint(s.substr(from), static_cast<size_t>(length));
  return Val::String(s.substr(from, to));
}

Val Length(Scratch&, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString)) return Val();
  return Val::Number(static_cast<double>(CodePoints(a[0].s)));
}

Val Lower(Scratch& scratch, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString)) return Val();
  return Val::String(Mapped(scratch, a[0].s, FoldLower));
}
Val Upper(Scratch& scratch, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString)) return Val();
  return Val::String(Mapped(scratch, a[0].s, FoldUpper));
}

// LTRIM, RTRIM, TRIM: whitespace, or with a second argument every character of it (query/trim:
// TRIM("-_-AdventureWorks-_-", "-_") is "AdventureWorks").
template <bool kLeft, bool kRight>
Val Trim(Scratch&, const Val* a, size_t n) {
  if (!AllOf(a, n, ValueKind::kString)) return Val();
  std::string_view s = a[0].s;
  std::string_view set = n == 2 ? a[1].s : std::string_view(" \t\n\r\f\v");
  auto in_set = [&](size_t i, size_t& len) {
    uint32_t cp = CodePointAt(s, i, len);
    for (size_t k = 0; k < set.size();) {
      size_t l = 0;
      if (CodePointAt(set, k, l) == cp) return true;
      k += l;
    }
    return false;
  };
  size_t begin = 0, end = s.size();
  if (kLeft) {
    size_t len = 0;
    while (begin < end && in_set(begin, len)) begin += len;
  }
  if (kRight) {
    while (end > begin) {
      size_t start = end - 1;
      while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
      size_t len = 0;
      if (!in_set(start, len)) break;
      end = start;
    }
  }
  return Val::String(s.substr(begin, end - begin));
}

Val Replace(Scratch& scratch, const Val* a, size_t) {
  if (!AllOf(a, 3, ValueKind::kString)) return Val();
  std::string_view s = a[0].s, find = a[1].s, with = a[2].s;
  if (find.empty()) return a[0];
  std::string& out = scratch.NewString();
  size_t i = 0;
  for (size_t at; (at = s.find(find, i)) != std::string_view::npos; i = at + find.size()) {
    out.append(s.substr(i, at - i));
    out.append(with);
  }
  out.append(s.substr(i));
  return Val::String(out);
}

Val Reverse(Scratch& scratch, const Val* a, size_t) {
  if (!a[0].is(ValueKind::kString)) return Val();
  std::string_view s = a[0].s;
  std::string& out = scratch.NewString();
  out.resize(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t len = 0;
    CodePointAt(s, i, len);
    std::copy(s.begin() + static_cast<std::ptrdiff_t>(i),
              s.begin() + static_cast<std::ptrdiff_t>(i + len),
              out.end() - static_cast<std::ptrdiff_t>(i + len));
    i += len;
  }
  return Val::String(out);
}

// query/tostring: numbers as JavaScript writes them, arrays and objects as compact JSON.
Val ToStringFn(Scratch& scratch, const Val* a, size_t) {
  const Val& v = a[0];
  switch (v.kind) {
    case ValueKind::kUndefined:
      return Val();
    case ValueKind::kString:
      return v;
    case ValueKind::kNumber: {
      std::string& out = scratch.NewString();
      out = JsNumberText(v.n);
      return Val::String(out);
    }
    default: {
      std::string& out = scratch.NewString();
      AppendJson(v, out);
      return Val::String(out);
    }
  }
}

// query/iif: the second argument when the first is exactly true, else the third.
Val Iif(Scratch&, const Val* a, size_t) {
  return a[0].is(ValueKind::kBool) && a[0].b ? a[1] : a[2];
}

constexpr FunctionClass S = FunctionClass::kScalar, A = FunctionClass::kAggregate,
                        N = FunctionClass::kNotEvaluated;
constexpr uint8_t V = kVariadic;

// Sorted by name for the binary search.
constexpr std::array kBuiltins = std::to_array<BuiltinInfo>({
    {"ABS", 1, 1, S, Math1<Abs>},
    {"ACOS", 1, 1, S, Math1<Acos>},
    {"ARRAY_AVG", 1, 1, N, nullptr},
    {"ARRAY_CONCAT", 2, V, N, nullptr},
    {"ARRAY_CONTAINS", 2, 3, S, ArrayContains},
    {"ARRAY_CONTAINS_ALL", 2, V, N, nullptr},
    {"ARRAY_CONTAINS_ANY", 2, V, N, nullptr},
    {"ARRAY_LENGTH", 1, 1, S, ArrayLength},
    {"ARRAY_MAX", 1, 1, N, nullptr},
    {"ARRAY_MEDIAN", 1, 1, N, nullptr},
    {"ARRAY_MIN", 1, 1, N, nullptr},
    {"ARRAY_SLICE", 2, 3, N, nullptr},
    {"ARRAY_SUM", 1, 1, N, nullptr},
    {"ASIN", 1, 1, S, Math1<Asin>},
    {"ATAN", 1, 1, S, Math1<Atan>},
    {"ATN2", 2, 2, S, Atn2},
    {"AVG", 1, 1, A, nullptr},
    {"CEILING", 1, 1, S, Math1<Ceiling>},
    {"CHOOSE", 2, V, N, nullptr},
    {"CONCAT", 2, V, S, Concat},
    {"CONTAINS", 2, 3, S, StringTest<2>},
    {"COS", 1, 1, S, Math1<Cos>},
    {"COT", 1, 1, S, Math1<Cot>},
    {"COUNT", 1, 1, A, nullptr},
    {"DATETIMEADD", 3, 3, N, nullptr},
    {"DATETIMEBIN", 2, 4, N, nullptr},
    {"DATETIMEDIFF", 3, 3, N, nullptr},
    {"DATETIMEFORMAT", 2, 2, N, nullptr},
    {"DATETIMEFROMPARTS", 3, 7, N, nullptr},
    {"DATETIMEPART", 2, 2, N, nullptr},
    {"DATETIMETOTICKS", 1, 1, N, nullptr},
    {"DATETIMETOTIMESTAMP", 1, 1, N, nullptr},
    {"DEGREES", 1, 1, S, Math1<Degrees>},
    {"DOCUMENTID", 1, 1, N, nullptr},
    {"ENDSWITH", 2, 3, S, StringTest<1>},
    {"EXP", 1, 1, S, Math1<Exp>},
    {"FLOOR", 1, 1, S, Math1<Floor>},
    {"FULLTEXTCONTAINS", 2, 2, N, nullptr},
    {"FULLTEXTCONTAINSALL", 2, V, N, nullptr},
    {"FULLTEXTCONTAINSANY", 2, V, N, nullptr},
    {"FULLTEXTSCORE", 2, V, N, nullptr},
    {"GETCURRENTDATETIME", 0, 0, N, nullptr},
    {"GETCURRENTDATETIMESTATIC", 0, 0, N, nullptr},
    {"GETCURRENTTICKS", 0, 0, N, nullptr},
    {"GETCURRENTTICKSSTATIC", 0, 0, N, nullptr},
    {"GETCURRENTTIMESTAMP", 0, 0, N, nullptr},
    {"GETCURRENTTIMESTAMPSTATIC", 0, 0, N, nullptr},
    {"IIF", 3, 3, S, Iif},
    {"INDEX_OF", 2, 3, S, IndexOf},
    {"INTADD", 2, 2, N, nullptr},
    {"INTBITAND", 2, 2, N, nullptr},
    {"INTBITLEFTSHIFT", 2, 2, N, nullptr},
    {"INTBITNOT", 1, 1, N, nullptr},
    {"INTBITOR", 2, 2, N, nullptr},
    {"INTBITRIGHTSHIFT", 2, 2, N, nullptr},
    {"INTBITXOR", 2, 2, N, nullptr},
    {"INTDIV", 2, 2, N, nullptr},
    {"INTMOD", 2, 2, N, nullptr},
    {"INTMUL", 2, 2, N, nullptr},
    {"INTSUB", 2, 2, N, nullptr},
    {"IS_ARRAY", 1, 1, S, IsKind<ValueKind::kArray>},
    {"IS_BOOL", 1, 1, S, IsKind<ValueKind::kBool>},
    {"IS_DATETIME", 1, 1, N, nullptr},
    {"IS_DEFINED", 1, 1, S, IsDefined},
    {"IS_FINITE_NUMBER", 1, 1, S, IsFiniteNumber},
    {"IS_INTEGER", 1, 1, S, IsInteger},
    {"IS_NULL", 1, 1, S, IsKind<ValueKind::kNull>},
    {"IS_NUMBER", 1, 1, S, IsKind<ValueKind::kNumber>},
    {"IS_OBJECT", 1, 1, S, IsKind<ValueKind::kObject>},
    {"IS_PRIMITIVE", 1, 1, S, IsPrimitive},
    {"IS_STRING", 1, 1, S, IsKind<ValueKind::kString>},
    {"LASTINDEXOF", 2, 3, N, nullptr},
    {"LEFT", 2, 2, S, Left},
    {"LENGTH", 1, 1, S, Length},
    {"LOG", 1, 2, S, Log},
    {"LOG10", 1, 1, S, Math1<Log10>},
    {"LOWER", 1, 1, S, Lower},
    {"LTRIM", 1, 2, S, Trim<true, false>},
    {"MAX", 1, 1, A, nullptr},
    {"MIN", 1, 1, A, nullptr},
    {"NUMBERBIN", 1, 2, N, nullptr},
    {"OBJECTTOARRAY", 1, 3, N, nullptr},
    {"PI", 0, 0, S, Pi},
    {"POWER", 2, 2, S, Power},
    {"RADIANS", 1, 1, S, Math1<Radians>},
    {"RAND", 0, 0, N, nullptr},
    {"REGEXMATCH", 2, 3, N, nullptr},
    {"REPLACE", 3, 3, S, Replace},
    {"REPLICATE", 2, 2, N, nullptr},
    {"REVERSE", 1, 1, S, Reverse},
    {"RIGHT", 2, 2, S, Right},
    {"ROUND", 1, 1, S, Math1<Round>},
    {"RRF", 2, V, N, nullptr},
    {"RTRIM", 1, 2, S, Trim<false, true>},
    {"SETINTERSECT", 2, 2, N, nullptr},
    {"SETUNION", 2, 2, N, nullptr},
    {"SIGN", 1, 1, S, Math1<Sign>},
    {"SIN", 1, 1, S, Math1<Sin>},
    {"SQRT", 1, 1, S, Math1<Sqrt>},
    {"SQUARE", 1, 1, S, Math1<Square>},
    {"STARTSWITH", 2, 3, S, StringTest<0>},
    {"STRINGEQUALS", 2, 3, S, StringTest<3>},
    {"STRINGJOIN", 2, 2, N, nullptr},
    {"STRINGSPLIT", 2, 2, N, nullptr},
    {"STRINGTOARRAY", 1, 1, N, nullptr},
    {"STRINGTOBOOLEAN", 1, 1, N, nullptr},
    {"STRINGTONULL", 1, 1, N, nullptr},
    {"STRINGTONUMBER", 1, 1, N, nullptr},
    {"STRINGTOOBJECT", 1, 1, N, nullptr},
    {"ST_AREA", 1, 1, N, nullptr},
    {"ST_DISTANCE", 2, 2, N, nullptr},
    {"ST_INTERSECTS", 2, 2, N, nullptr},
    {"ST_ISVALID", 1, 1, N, nullptr},
    {"ST_ISVALIDDETAILED", 1, 1, N, nullptr},
    {"ST_WITHIN", 2, 2, N, nullptr},
    {"SUBSTRING", 3, 3, S, Substring},
    {"SUM", 1, 1, A, nullptr},
    {"TAN", 1, 1, S, Math1<Tan>},
    {"TICKSTODATETIME", 1, 1, N, nullptr},
    {"TIMESTAMPTODATETIME", 1, 1, N, nullptr},
    {"TOSTRING", 1, 1, S, ToStringFn},
    {"TRIM", 1, 2, S, Trim<true, true>},
    {"TRUNC", 1, 1, S, Math1<Trunc>},
    {"UPPER", 1, 1, S, Upper},
    {"VECTORDISTANCE", 2, 4, N, nullptr},
});

}  // namespace

const BuiltinInfo* FindBuiltin(std::string_view name) {
  if (name.size() > 32) return nullptr;
  char buffer[32];
  for (size_t k = 0; k < name.size(); ++k) {
    char c = name[k];
    buffer[k] = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  }
  std::string_view upper(buffer, name.size());
  auto it = std::lower_bound(kBuiltins.begin(), kBuiltins.end(), upper,
                             [](const BuiltinInfo& f, std::string_view n) { return f.name < n; });
  return it != kBuiltins.end() && it->name == upper ? &*it : nullptr;
}

std::span<const BuiltinInfo> AllBuiltins() { return kBuiltins; }

}  // namespace partplay::cosmosql
