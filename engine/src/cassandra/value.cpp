// CQL values compared (value.h's Compare: Cassandra's type-specific orders, Java's float order,
// timeuuids by time), and formatted as cqlsh prints them, as JSON (toJson, SELECT JSON) and as
// CQL literals. Their encodings as bytes are value_encoding.cpp.
#include "partplay/cassandra/value.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "cassandra/datetime.h"
#include "cassandra/inet.h"
#include "cassandra/json_structure.h"
#include "cassandra/numeric.h"
#include "core/hex.h"
#include "partplay/cassandra/schema.h"
#include "partplay/core/json_writer.h"

namespace partplay::cql {
namespace {

int Sign(int64_t c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

uint64_t Load64(std::string_view b, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = v << 8 | static_cast<uint8_t>(b[at + i]);
  return v;
}

// TimeUUIDType.reorderTimestampBytes: time_hi (with the version), time_mid, time_low.
uint64_t ReorderTimestamp(uint64_t msb) {
  return (msb << 48) | ((msb << 16) & 0xFFFF00000000ull) | (msb >> 32);
}

int CompareUuid(std::string_view a, std::string_view b) {
  if (a.size() != 16 || b.size() != 16) return Cmp(a.size(), b.size());
  uint64_t ma = Load64(a, 0), mb = Load64(b, 0);
  int va = static_cast<int>((ma >> 12) & 0xF), vb = static_cast<int>((mb >> 12) & 0xF);
  if (va != vb) return va < vb ? -1 : 1;
  int c = va == 1 ? Cmp(static_cast<int64_t>(ReorderTimestamp(ma)),
                        static_cast<int64_t>(ReorderTimestamp(mb)))
                  : Cmp(ma, mb);
  return c != 0 ? c : Cmp(Load64(a, 8), Load64(b, 8));
}

int CompareTimeuuid(std::string_view a, std::string_view b) {
  if (a.size() != 16 || b.size() != 16) return Cmp(a.size(), b.size());
  int c = Cmp(static_cast<int64_t>(ReorderTimestamp(Load64(a, 0))),
              static_cast<int64_t>(ReorderTimestamp(Load64(b, 0))));
  if (c != 0) return c;
  // The clock sequence and node compare as signed bytes (Cassandra keeps this for compatibility).
  constexpr uint64_t kFlip = 0x0080808080808080ull;
  return Cmp(static_cast<int64_t>(Load64(a, 8) ^ kFlip),
             static_cast<int64_t>(Load64(b, 8) ^ kFlip));
}

// Java's Float.compare / Double.compare.
template <typename F, typename Bits>
int CompareJavaFloat(F x, F y, Bits canonical_nan) {
  if (x < y) return -1;
  if (x > y) return 1;
  Bits bx, by;
  std::memcpy(&bx, &x, sizeof x);
  std::memcpy(&by, &y, sizeof y);
  if (std::isnan(x)) bx = canonical_nan;
  if (std::isnan(y)) by = canonical_nan;
  using Signed = std::make_signed_t<Bits>;
  return Cmp(static_cast<Signed>(bx), static_cast<Signed>(by));
}

int CompareCollections(const CqlType& type, std::string_view a, std::string_view b) {
  std::vector<std::string_view> x = CollectionElements(a);
  std::vector<std::string_view> y = CollectionElements(b);
  size_t stride = type.kind == TypeKind::kMap ? 2 : 1;
  size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) {
    const CqlType& t = (stride == 2 && i % 2 == 1) ? type.value() : type.element();
    int c = Compare(t, x[i], y[i]);
    if (c != 0) return c;
  }
  return Cmp(x.size(), y.size());
}

// TupleType.compareCustom: component by component (a null first), then the shorter first.
int CompareComposite(const CqlType& type, std::string_view a, std::string_view b) {
  std::vector<Value> x, y;
  if (!CompositeComponents(a, x) || !CompositeComponents(b, y)) return Sign(a.compare(b));
  size_t n = std::min({x.size(), y.size(), type.params.size()});
  for (size_t i = 0; i < n; ++i) {
    if (!x[i] || !y[i]) {
      if (!x[i] && !y[i]) continue;
      return x[i] ? 1 : -1;
    }
    int c = Compare(type.params[i], *x[i], *y[i]);
    if (c != 0) return c;
  }
  return Cmp(x.size(), y.size());
}

std::string Hex(std::string_view bytes) {
  std::string out = "0x";
  partplay::internal::AppendHex(bytes, out, partplay::internal::HexCase::kLower);
  return out;
}

std::string Uuid(std::string_view b) {
  std::string out;
  for (size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    partplay::internal::AppendHexByte(static_cast<uint8_t>(b[i]), out,
                                      partplay::internal::HexCase::kLower);
  }
  return out;
}

// Decodes one UTF-8 code point at s[i] (advancing i); invalid bytes decode as themselves.
uint32_t NextCodePoint(std::string_view s, size_t& i) {
  uint8_t c = static_cast<uint8_t>(s[i]);
  int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
  if (extra <= 0 || i + static_cast<size_t>(extra) >= s.size()) {
    ++i;
    return c;
  }
  uint32_t cp = c & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) cp = cp << 6 | (static_cast<uint8_t>(s[i + k]) & 0x3F);
  i += static_cast<size_t>(extra) + 1;
  return cp;
}

// cqlsh's text rendering: backslashes doubled, control characters (U+0000..U+001F,
// U+007F..U+00A0) as Python's repr writes them; inside collections, quoted with '' escaping.
std::string CqlshText(std::string_view s, bool quote) {
  std::string out;
  if (quote) out += '\'';
  for (size_t i = 0; i < s.size();) {
    size_t start = i;
    uint32_t cp = NextCodePoint(s, i);
    if (cp == '\\') {
      out += "\\\\";
    } else if (cp == '\'' && quote) {
      out += "''";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0xA0)) {
      out += fmt::format("\\x{:02x}", cp);
    } else {
      out.append(s.substr(start, i - start));
    }
  }
  if (quote) out += '\'';
  return out;
}

// cqlsh's float rendering (format_floating_point_type) with its default precision of 5.
std::string CqlshFloat(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  int precision = 5;
  constexpr double kEpsilon = 2.220446049250313e-16;  // Python's sys.float_info.epsilon
  if (std::fabs(v) > kEpsilon) {
    int exponent = static_cast<int>(std::log10(std::fabs(v)));  // truncated, like int()
    if (exponent >= -4 && exponent < precision) precision += exponent + 1;
  }
  return fmt::format("{:.{}g}", v, precision);
}

bool QuotedInCollections(TypeKind k) {
  switch (k) {
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kInet:
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
      return true;
    default:
      return false;
  }
}

void AppendCqlsh(const CqlType& type, std::string_view b, bool nested, std::string& out);

void AppendCollectionCqlsh(const CqlType& type, std::string_view b, std::string& out) {
  std::vector<std::string_view> e = CollectionElements(b);
  bool is_map = type.kind == TypeKind::kMap;
  out += type.kind == TypeKind::kList ? '[' : '{';
  for (size_t i = 0; i < e.size(); i += is_map ? 2 : 1) {
    if (i > 0) out += ", ";
    AppendCqlsh(type.element(), e[i], true, out);
    if (is_map && i + 1 < e.size()) {
      out += ": ";
      AppendCqlsh(type.value(), e[i + 1], true, out);
    }
  }
  out += type.kind == TypeKind::kList ? ']' : '}';
}

// cqlsh: tuples as (1, 'a'), user-defined types as {street: 'x', zip: null}.
void AppendCompositeCqlsh(const CqlType& type, std::string_view b, std::string& out) {
  std::vector<Value> parts;
  if (!CompositeComponents(b, parts)) return;
  bool udt = type.kind == TypeKind::kUdt;
  out += udt ? '{' : '(';
  // A user type value written before ALTER TYPE ... ADD has fewer fields: the driver reads the
  // missing ones as null and cqlsh prints them.
  size_t shown = udt ? type.params.size() : std::min(parts.size(), type.params.size());
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += ", ";
    if (udt) out += QuoteName(type.field_names[i]) + ": ";
    if (i < parts.size() && parts[i]) {
      AppendCqlsh(type.params[i], *parts[i], true, out);
    } else {
      out += "null";
    }
  }
  out += udt ? '}' : ')';
}

void AppendCqlsh(const CqlType& type, std::string_view b, bool nested, std::string& out) {
  bool quote = nested && QuotedInCollections(type.kind);
  // An empty value of a fixed-size type (possible only through drivers) prints as cqlsh does.
  if (b.empty() && FixedSize(type.kind) != 0) return;
  switch (type.kind) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      out += CqlshText(b, quote);
      return;
    case TypeKind::kBlob:
      out += Hex(b);
      return;
    case TypeKind::kBoolean:
      out += b[0] != 0 ? "True" : "False";
      return;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      out += std::to_string(DecodeSigned(b));
      return;
    case TypeKind::kVarint:
      out += internal::VarintToDecimal(b);
      return;
    case TypeKind::kDecimal:
      out += internal::DecimalToText(b);
      return;
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      AppendCompositeCqlsh(type, b, out);
      return;
    case TypeKind::kVector: {  // cqlsh formats a vector as a list
      std::vector<std::string_view> e;
      if (!VectorElements(type, b, e)) return;
      out += '[';
      for (size_t i = 0; i < e.size(); ++i) {
        if (i > 0) out += ", ";
        AppendCqlsh(type.element(), e[i], true, out);
      }
      out += ']';
      return;
    }
    case TypeKind::kDuration: {
      Duration d;
      if (DecodeDuration(b, d)) out += FormatDuration(d);
      return;
    }
    case TypeKind::kFloat:
      out += CqlshFloat(DecodeFloat(b));
      return;
    case TypeKind::kDouble:
      out += CqlshFloat(DecodeDouble(b));
      return;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      out += Uuid(b);
      return;
    default:
      break;
  }
  std::string text;
  switch (type.kind) {
    case TypeKind::kTimestamp:
      text = internal::FormatTimestampCqlsh(DecodeSigned(b));
      break;
    case TypeKind::kDate:
      text = internal::FormatDate(static_cast<int64_t>(DecodeUnsigned(b)) - (int64_t{1} << 31));
      break;
    case TypeKind::kTime:
      text = internal::FormatTime(DecodeSigned(b));
      break;
    case TypeKind::kInet:
      text = internal::FormatInet(b);
      break;
    default:
      AppendCollectionCqlsh(type, b, out);
      return;
  }
  if (quote) out += '\'';
  out += text;
  if (quote) out += '\'';
}

std::string FloatJson(float f) {
  if (std::isnan(f) || std::isinf(f)) return "null";  // JSON has no NaN or Infinity
  return fmt::format("{}", f);
}

}  // namespace

int Compare(const CqlType& type, std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return Cmp(!a.empty(), !b.empty());
  switch (type.kind) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      return Cmp(DecodeSigned(a), DecodeSigned(b));
    case TypeKind::kVarint:
      return internal::CompareVarint(a, b);
    case TypeKind::kDecimal:
      return internal::CompareDecimal(a, b);
    case TypeKind::kFloat:
      return CompareJavaFloat(DecodeFloat(a), DecodeFloat(b), uint32_t{0x7FC00000u});
    case TypeKind::kDouble:
      return CompareJavaFloat(DecodeDouble(a), DecodeDouble(b), uint64_t{0x7FF8000000000000ull});
    case TypeKind::kUuid:
      return CompareUuid(a, b);
    case TypeKind::kTimeuuid:
      return CompareTimeuuid(a, b);
    case TypeKind::kBoolean:
      return Cmp(a[0] != 0, b[0] != 0);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap:
      return CompareCollections(type, a, b);
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return CompareComposite(type, a, b);
    case TypeKind::kVector: {  // element by element (VectorSerializer.compareCustom)
      std::vector<std::string_view> ea, eb;
      if (!VectorElements(type, a, ea) || !VectorElements(type, b, eb)) {
        return Sign(a.compare(b));
      }
      for (size_t i = 0; i < ea.size() && i < eb.size(); ++i) {
        if (int c = Compare(type.element(), ea[i], eb[i])) return c;
      }
      return 0;
    }
    case TypeKind::kCounter:
      return Cmp(DecodeSigned(a), DecodeSigned(b));
    default:
      return Sign(a.compare(b));  // text, ascii, blob, inet, date (unsigned days)
  }
}

std::string FormatCqlsh(const CqlType& type, std::string_view bytes) {
  std::string out;
  AppendCqlsh(type, bytes, false, out);
  return out;
}

std::string FormatCqlshValue(const CqlType& type, const Value& value) {
  return value ? FormatCqlsh(type, *value) : "null";
}

void AppendJson(const CqlType& type, const Value& value, std::string& out) {
  if (!value) {
    out += "null";
    return;
  }
  std::string_view b = *value;
  if (b.empty() && FixedSize(type.kind) != 0) {
    out += "null";
    return;
  }
  // Tuples and user types (by field name), vectors, lists, sets and maps.
  if (internal::AppendStructuredJson(
          type, b, out, [](const CqlType& t, const Value& v, std::string& o) { AppendJson(t, v, o); },
          [](const std::string& field, std::string& o) { AppendJsonString(QuoteName(field), o); })) {
    return;
  }
  switch (type.kind) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      AppendJsonString(b, out);
      return;
    case TypeKind::kBoolean:
      out += b[0] != 0 ? "true" : "false";
      return;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      out += std::to_string(DecodeSigned(b));
      return;
    case TypeKind::kVarint:
      out += internal::VarintToDecimal(b);
      return;
    case TypeKind::kDecimal:
      out += internal::DecimalToText(b);
      return;
    case TypeKind::kDuration: {
      Duration d;
      AppendJsonString(DecodeDuration(b, d) ? FormatDuration(d) : "", out);
      return;
    }
    case TypeKind::kFloat:
      out += FloatJson(DecodeFloat(b));
      return;
    case TypeKind::kDouble: {
      double d = DecodeDouble(b);
      if (std::isnan(d) || std::isinf(d)) {
        out += "null";
      } else {
        AppendJsonNumber(d, out);
      }
      return;
    }
    case TypeKind::kBlob:
      AppendJsonString(Hex(b), out);
      return;
    case TypeKind::kTimestamp:
      AppendJsonString(internal::FormatTimestampJson(DecodeSigned(b)), out);
      return;
    default:  // uuid, timeuuid, date, time, inet: their cqlsh text as a string
      AppendJsonString(FormatCqlsh(type, b), out);
      return;
  }
}

std::string FormatCqlLiteral(const CqlType& type, std::string_view b) {
  switch (type.kind) {
    case TypeKind::kAscii:
    case TypeKind::kText: {
      std::string out = "'";
      for (char c : b) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    case TypeKind::kBoolean:
      return b.empty() ? "" : (b[0] != 0 ? "true" : "false");
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
    case TypeKind::kInet:
      return fmt::format("'{}'", FormatCqlsh(type, b));
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kMap: {
      std::vector<std::string_view> e = CollectionElements(b);
      bool is_map = type.kind == TypeKind::kMap;
      std::string out(1, type.kind == TypeKind::kList ? '[' : '{');
      for (size_t i = 0; i < e.size(); i += is_map ? 2 : 1) {
        if (i > 0) out += ", ";
        out += FormatCqlLiteral(type.element(), e[i]);
        if (is_map && i + 1 < e.size()) out += ": " + FormatCqlLiteral(type.value(), e[i + 1]);
      }
      out += type.kind == TypeKind::kList ? ']' : '}';
      return out;
    }
    case TypeKind::kVector: {
      std::vector<std::string_view> e;
      VectorElements(type, b, e);
      std::string out = "[";
      for (size_t i = 0; i < e.size(); ++i) {
        if (i > 0) out += ", ";
        out += FormatCqlLiteral(type.element(), e[i]);
      }
      return out + "]";
    }
    case TypeKind::kDuration: {
      Duration d;
      if (!DecodeDuration(b, d)) return "";
      std::string text = FormatDuration(d);
      return text.empty() ? "0s" : text;  // the zero duration prints as nothing in cqlsh
    }
    case TypeKind::kTuple:
    case TypeKind::kUdt: {
      std::vector<Value> parts;
      CompositeComponents(b, parts);
      bool udt = type.kind == TypeKind::kUdt;
      std::string out(1, udt ? '{' : '(');
      for (size_t i = 0; i < parts.size() && i < type.params.size(); ++i) {
        if (i > 0) out += ", ";
        if (udt) out += QuoteName(type.field_names[i]) + ": ";
        out += parts[i] ? FormatCqlLiteral(type.params[i], *parts[i]) : "null";
      }
      out += udt ? '}' : ')';
      return out;
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      double d = type.kind == TypeKind::kFloat ? DecodeFloat(b) : DecodeDouble(b);
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return type.kind == TypeKind::kFloat ? fmt::format("{}", DecodeFloat(b))
                                           : fmt::format("{}", d);
    }
    default:
      return FormatCqlsh(type, b);
  }
}

}  // namespace partplay::cql
