#include "cassandra/json_out.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cassandra/datetime.h"
#include "cassandra/json_structure.h"
#include "cassandra/numeric.h"
#include "partplay/cassandra/schema.h"
#include "partplay/core/json_writer.h"

namespace partplay::cql::internal {
namespace {

// FloatingDecimal's digits and decimal exponent: value = 0.d1d2d3... x 10^exponent.
struct JavaDigits {
  std::string digits;
  int exponent = 0;
};

// The shortest digits that read back as the same value (fmt's "{}"), as JavaDigits.
template <typename T>
JavaDigits ShortestDigits(T v) {
  std::string s = fmt::format("{}", v);  // 123.25, 1e+22, 1.5e-07, 0.001
  size_t e = s.find('e');
  int exp10 = 0;
  if (e != std::string::npos) {
    for (size_t i = e + 2; i < s.size(); ++i) exp10 = exp10 * 10 + (s[i] - '0');
    if (s[e + 1] == '-') exp10 = -exp10;
    s.resize(e);
  }
  size_t point = s.find('.');
  int whole = static_cast<int>(point == std::string::npos ? s.size() : point);
  JavaDigits out;
  for (char c : s) {
    if (c >= '0' && c <= '9') out.digits += c;
  }
  out.exponent = whole + exp10;
  size_t lead = 0;  // 0.001: the leading zeros move the point
  while (lead + 1 < out.digits.size() && out.digits[lead] == '0') ++lead;
  out.digits.erase(0, lead);
  out.exponent -= static_cast<int>(lead);
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  return out;
}

// FloatingDecimal.dtoa's easy case: an integer below 2^63 is printed from its exact value, less
// the low digits its precision cannot tell (insignificantDigitsForPow2), rounded half up.
JavaDigits IntegerDigits(uint64_t value, int bin_exp, int significant_bits) {
  static constexpr int kInsignificant[] = {0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4,
                                           4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9,
                                           9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13,
                                           13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 17,
                                           17, 17, 18, 18, 18, 19};
  int insignificant = 0;
  if (bin_exp > significant_bits) {
    int p2 = bin_exp - significant_bits - 1;
    if (p2 > 1 && p2 < static_cast<int>(std::size(kInsignificant))) insignificant = kInsignificant[p2];
  }
  int exponent = 0;
  if (insignificant > 0) {
    uint64_t pow10 = 1;
    for (int i = 0; i < insignificant; ++i) pow10 *= 10;
    uint64_t residue = value % pow10;
    value /= pow10;
    exponent = insignificant;
    if (residue >= pow10 / 2) ++value;
  }
  JavaDigits out;
  out.digits = std::to_string(value);
  out.exponent = exponent + static_cast<int>(out.digits.size());
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  return out;
}

// BinaryToASCIIBuffer.getChars: plain for 10^-3 <= |v| < 10^7, otherwise d.dddEn.
std::string JavaFormat(bool negative, const JavaDigits& d) {
  std::string out = negative ? "-" : "";
  const int n = static_cast<int>(d.digits.size());
  const int e = d.exponent;
  if (e > 0 && e < 8) {
    int whole = std::min(n, e);
    out += d.digits.substr(0, static_cast<size_t>(whole));
    if (whole < e) {
      out.append(static_cast<size_t>(e - whole), '0');
      out += ".0";
    } else {
      out += '.';
      out += whole < n ? d.digits.substr(static_cast<size_t>(whole)) : "0";
    }
  } else if (e <= 0 && e > -3) {
    out += "0.";
    out.append(static_cast<size_t>(-e), '0');
    out += d.digits;
  } else {
    out += d.digits[0];
    out += '.';
    out += n > 1 ? d.digits.substr(1) : "0";
    out += 'E';
    out += std::to_string(e - 1);
  }
  return out;
}

template <typename T>
std::string JavaString(T v, int significant_bits) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
  bool negative = std::signbit(v);
  T a = std::fabs(v);
  if (a == 0) return negative ? "-0.0" : "0.0";
  int bin_exp = 0;
  std::frexp(a, &bin_exp);
  bin_exp -= 1;  // a = 1.f x 2^bin_exp
  if (a == std::floor(a) && bin_exp <= 62) {
    return JavaFormat(negative, IntegerDigits(static_cast<uint64_t>(a), bin_exp, significant_bits));
  }
  return JavaFormat(negative, ShortestDigits(a));
}

// InetAddress.getHostAddress: dotted IPv4; IPv6 as eight hex groups, none shortened.
std::string HostAddress(std::string_view b) {
  if (b.size() == 4) {
    return fmt::format("{}.{}.{}.{}", static_cast<unsigned char>(b[0]),
                       static_cast<unsigned char>(b[1]), static_cast<unsigned char>(b[2]),
                       static_cast<unsigned char>(b[3]));
  }
  std::string out;
  for (size_t i = 0; i + 1 < b.size(); i += 2) {
    unsigned group = (static_cast<unsigned char>(b[i]) << 8) | static_cast<unsigned char>(b[i + 1]);
    out += fmt::format("{}{:x}", i ? ":" : "", group);
  }
  return out;
}

// A JSON object key for a column or field name: quoted again unless all lower case.
void AppendName(std::string_view name, std::string& out) {
  bool lower = true;
  for (char c : name) lower = lower && !(c >= 'A' && c <= 'Z');
  AppendJsonString(lower ? std::string(name) : "\"" + std::string(name) + "\"", out);
}

}  // namespace

std::string JavaDoubleString(double d) { return JavaString(d, 53); }
std::string JavaFloatString(float f) { return JavaString(f, 24); }

void AppendCassandraJson(const CqlType& type, std::string_view b, std::string& out) {
  if (AppendStructuredJson(
          type, b, out,
          [](const CqlType& t, const Value& v, std::string& o) {
            if (v) {
              AppendCassandraJson(t, *v, o);
            } else {
              o += "null";
            }
          },
          [](const std::string& field, std::string& o) { AppendName(field, o); })) {
    return;
  }
  switch (type.kind) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      AppendJsonString(b, out);
      return;
    case TypeKind::kBoolean:
      out += !b.empty() && b[0] != 0 ? "true" : "false";
      return;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      out += std::to_string(DecodeSigned(b));
      return;
    case TypeKind::kVarint:
      out += VarintToDecimal(b);
      return;
    case TypeKind::kDecimal:
      out += DecimalToText(b);
      return;
    case TypeKind::kFloat: {
      float f = DecodeFloat(b);
      out += std::isnan(f) || std::isinf(f) ? "null" : JavaFloatString(f);
      return;
    }
    case TypeKind::kDouble: {
      double d = DecodeDouble(b);
      out += std::isnan(d) || std::isinf(d) ? "null" : JavaDoubleString(d);
      return;
    }
    case TypeKind::kBlob:
      out += "\"0x";
      for (unsigned char c : b) out += fmt::format("{:02x}", c);
      out += '"';
      return;
    case TypeKind::kTimestamp:
      AppendJsonString(FormatTimestampJson(DecodeSigned(b)), out);
      return;
    case TypeKind::kDate:
      AppendJsonString(FormatDate(static_cast<int64_t>(DecodeUnsigned(b)) - (int64_t{1} << 31)),
                       out);
      return;
    case TypeKind::kTime:
      AppendJsonString(FormatTime(DecodeSigned(b)), out);
      return;
    case TypeKind::kInet:
      AppendJsonString(HostAddress(b), out);
      return;
    case TypeKind::kDuration: {
      Duration d;
      AppendJsonString(DecodeDuration(b, d) ? FormatDuration(d) : "", out);
      return;
    }
    default:  // uuid, timeuuid
      AppendJsonString(FormatCqlsh(type, b), out);
      return;
  }
}

std::string ToJsonText(const CqlType& type, const Value& value) {
  // An empty value of a fixed-size type (only drivers can write one) deserializes to null.
  if (!value || (value->empty() && FixedValueSize(type) > 0)) return "null";
  std::string out;
  AppendCassandraJson(type, *value, out);
  return out;
}

std::string RowToJson(const std::vector<std::string>& names, const std::vector<CqlType>& types,
                      const std::vector<Value>& row) {
  std::string out = "{";
  for (size_t i = 0; i < names.size() && i < row.size(); ++i) {
    if (i) out += ", ";
    AppendName(names[i], out);
    out += ": ";
    out += ToJsonText(types[i], row[i]);
  }
  return out + "}";
}

}  // namespace partplay::cql::internal
