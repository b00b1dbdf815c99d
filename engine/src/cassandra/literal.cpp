#include "partplay/cassandra/literal.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "cassandra/datetime.h"
#include "cassandra/inet.h"
#include "cassandra/json_values.h"
#include "cassandra/numeric.h"
#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"
#include "partplay/core/utf8.h"

namespace partplay::cql {
namespace {

Status Bad(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlBadLiteral, std::move(message), where);
}

std::string_view ConstantName(LiteralKind k) {
  switch (k) {
    case LiteralKind::kString:
      return "STRING";
    case LiteralKind::kInteger:
      return "INTEGER";
    case LiteralKind::kFloat:
      return "FLOAT";
    case LiteralKind::kUuid:
      return "UUID";
    case LiteralKind::kHex:
      return "HEX";
    case LiteralKind::kDuration:
      return "DURATION";
    case LiteralKind::kBoolean:
      return "BOOLEAN";
    default:
      return "?";
  }
}

// Constants.Literal.testAssignment: which constant kinds a native type accepts.
bool Assignable(LiteralKind k, TypeKind t) {
  switch (k) {
    case LiteralKind::kString:
      return t == TypeKind::kAscii || t == TypeKind::kText || t == TypeKind::kInet ||
             t == TypeKind::kDate || t == TypeKind::kTime || t == TypeKind::kTimestamp;
    case LiteralKind::kInteger:
      return t == TypeKind::kBigint || t == TypeKind::kDate || t == TypeKind::kDecimal ||
             t == TypeKind::kDouble || t == TypeKind::kFloat || t == TypeKind::kInt ||
             t == TypeKind::kSmallint || t == TypeKind::kTime || t == TypeKind::kTimestamp ||
             t == TypeKind::kTinyint || t == TypeKind::kVarint || t == TypeKind::kCounter;
    case LiteralKind::kFloat:
      return t == TypeKind::kDecimal || t == TypeKind::kDouble || t == TypeKind::kFloat;
    case LiteralKind::kUuid:
      return t == TypeKind::kUuid || t == TypeKind::kTimeuuid;
    case LiteralKind::kBoolean:
      return t == TypeKind::kBoolean;
    case LiteralKind::kHex:
      return t == TypeKind::kBlob;
    case LiteralKind::kDuration:
      return t == TypeKind::kDuration;
    default:
      return false;
  }
}

bool ParseUuid(std::string_view s, Bytes& out) {
  if (s.size() != 36) return false;
  out.clear();
  for (size_t i = 0; i < 36;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      ++i;
      continue;
    }
    int v = 0;
    for (int k = 0; k < 2; ++k, ++i) {
      char c = s[i];
      int h = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (h < 0) return false;
      v = v * 16 + h;
    }
    out.push_back(static_cast<char>(v));
  }
  return true;
}

// Java's Float.parseFloat / Double.parseDouble for the decimal forms CQL writes.
bool ParseFloating(std::string_view s, bool single, Bytes& out) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  double special = 0;
  if (body == "NaN") {
    special = std::nan("");
  } else if (body == "Infinity") {
    special = negative ? -HUGE_VAL : HUGE_VAL;
  } else {
    if (!internal::IsDecimalText(s)) return false;  // the grammar of BigDecimal
    std::string text(s);
    if (single) {
      out = EncodeFloat(std::strtof(text.c_str(), nullptr));  // rounds once, like parseFloat
    } else {
      out = EncodeDouble(std::strtod(text.c_str(), nullptr));
    }
    return true;
  }
  out = single ? EncodeFloat(static_cast<float>(special)) : EncodeDouble(special);
  return true;
}

// The digits of a number's text before any exponent, at most kCqlMaxNumericDigits: converting
// them is quadratic.
Status CheckNumericDigits(const CqlType& type, std::string_view s, const SourceLocation& where) {
  size_t digits = 0;
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    digits += c >= '0' && c <= '9';
  }
  if (static_cast<double>(digits) <= kCqlMaxNumericDigits) return Status::Ok();
  return Bad(fmt::format("a {} value of {} digits ('{}...' at line {}, column {}): at most {} "
                         "digits per number are read",
                         type.ToCql(), digits, PrintableText(s.substr(0, 20)), where.line,
                         where.column, kCqlMaxNumericDigits),
             where);
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Cassandra's range of dates: days -2^31 .. 2^31-1 around the epoch, i.e. raw 0 .. 2^32-1.
constexpr int64_t kMaxNanosOfDay = 86400ll * 1000000000ll - 1;

struct FunctionResult {
  CqlType type;
  Bytes bytes;
};

StatusOr<FunctionResult> EvaluateFunction(const Literal& f, ValueGenerator& gen) {
  const std::string& name = f.text;
  auto no_args = [&]() -> Status {
    if (!f.elements.empty()) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("Invalid number of arguments in call to function system.{}: 0 "
                                "required but {} provided",
                                name, f.elements.size()),
                    f.where);
    }
    return Status::Ok();
  };
  auto now_ms = [&]() { return gen.NowMillis(); };
  if (name == "now" || name == "currenttimeuuid") {
    PARTPLAY_RETURN_IF_ERROR(no_args());
    return FunctionResult{CqlType::Native(TypeKind::kTimeuuid), gen.TimeUuid()};
  }
  if (name == "uuid") {
    PARTPLAY_RETURN_IF_ERROR(no_args());
    return FunctionResult{CqlType::Native(TypeKind::kUuid), gen.RandomUuid()};
  }
  if (name == "currenttimestamp") {
    PARTPLAY_RETURN_IF_ERROR(no_args());
    return FunctionResult{CqlType::Native(TypeKind::kTimestamp), EncodeInt64(now_ms())};
  }
  if (name == "currentdate") {
    PARTPLAY_RETURN_IF_ERROR(no_args());
    int64_t ms = now_ms();
    int64_t days = ms / 86400000 - (ms % 86400000 < 0);
    return FunctionResult{CqlType::Native(TypeKind::kDate), EncodeDate(days)};
  }
  if (name == "currenttime") {
    PARTPLAY_RETURN_IF_ERROR(no_args());
    int64_t ms = now_ms() % 86400000;
    if (ms < 0) ms += 86400000;
    return FunctionResult{CqlType::Native(TypeKind::kTime), EncodeInt64(ms * 1000000)};
  }
  if (name == "totimestamp" || name == "todate" || name == "tounixtimestamp") {
    if (f.elements.size() != 1 || f.elements[0].kind != LiteralKind::kFunction) {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("system.{} takes one timeuuid, date or timestamp function "
                                "result here (e.g. {}(now()))",
                                name, name),
                    f.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(FunctionResult inner, EvaluateFunction(f.elements[0], gen));
    int64_t ms;
    if (inner.type.kind == TypeKind::kTimeuuid) {
      uint64_t msb = DecodeUnsigned(std::string_view(inner.bytes).substr(0, 8));
      uint64_t ticks = ((msb & 0x0FFF) << 48) | (((msb >> 16) & 0xFFFF) << 32) | (msb >> 32);
      ms = static_cast<int64_t>((ticks - 0x01B21DD213814000ull) / 10000);
    } else if (inner.type.kind == TypeKind::kTimestamp) {
      ms = DecodeSigned(inner.bytes);
    } else if (inner.type.kind == TypeKind::kDate) {
      ms = (static_cast<int64_t>(DecodeUnsigned(inner.bytes)) - (int64_t{1} << 31)) * 86400000;
    } else {
      return Status(ErrorCode::kCqlInvalidRequest,
                    fmt::format("Type error: system.{} cannot take a {}", name, inner.type.ToCql()),
                    f.where);
    }
    if (name == "totimestamp") {
      return FunctionResult{CqlType::Native(TypeKind::kTimestamp), EncodeInt64(ms)};
    }
    if (name == "tounixtimestamp") {
      return FunctionResult{CqlType::Native(TypeKind::kBigint), EncodeInt64(ms)};
    }
    int64_t days = ms / 86400000 - (ms % 86400000 < 0);
    return FunctionResult{CqlType::Native(TypeKind::kDate), EncodeDate(days)};
  }
  return Status(ErrorCode::kCqlUnknown, fmt::format("Unknown function '{}'", name), f.where);
}

// a * b + c, false on overflow of int64.
bool MulAdd(int64_t a, int64_t b, int64_t c, int64_t& out) {
  int64_t m;
  return !__builtin_mul_overflow(a, b, &m) && !__builtin_add_overflow(m, c, &out);
}

// Duration.from: 1h30m (units y mo w d h m s ms us µs ns, any case) or ISO 8601 (P1Y2M3DT4H5M6S,
// P3W), with an optional leading '-'.
StatusOr<Duration> ParseDuration(std::string_view text, const SourceLocation& where) {
  auto bad = [&]() {
    return Bad(fmt::format("Unable to convert '{}' to a duration", PrintableText(text)), where);
  };
  auto overflow = [&](std::string_view what) {
    return Bad(fmt::format("Invalid duration. The total number of {} must be less or equal to {}",
                           what, what == "nanoseconds" ? INT64_MAX : INT32_MAX),
               where);
  };
  std::string_view s = text;
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  if (s.empty()) return bad();
  int64_t months = 0, days = 0, nanos = 0;
  auto add = [&](int64_t n, std::string_view unit) -> Status {
    struct UnitScale {
      std::string_view unit;
      int64_t* into;
      int64_t scale;
    };
    const UnitScale kScales[] = {{"y", &months, 12},
                                 {"mo", &months, 1},
                                 {"w", &days, 7},
                                 {"d", &days, 1},
                                 {"h", &nanos, 3600000000000},
                                 {"m", &nanos, 60000000000},
                                 {"s", &nanos, 1000000000},
                                 {"ms", &nanos, 1000000},
                                 {"us", &nanos, 1000},
                                 {"\xC2\xB5s", &nanos, 1000},
                                 {"ns", &nanos, 1}};
    for (const UnitScale& u : kScales) {
      if (u.unit != unit) continue;
      if (!MulAdd(n, u.scale, *u.into, *u.into)) {
        return overflow(u.into == &nanos ? "nanoseconds" : u.into == &days ? "days" : "months");
      }
      return Status::Ok();
    }
    return bad();
  };
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t i = 0;
  auto number = [&](int64_t& n) {
    size_t j = i;
    while (j < lower.size() && lower[j] >= '0' && lower[j] <= '9') ++j;
    if (j == i || !ParseInt64(std::string_view(lower).substr(i, j - i), n)) return false;
    i = j;
    return true;
  };
  if (lower[0] == 'p') {
    i = 1;
    bool time = false;
    int parts = 0;
    while (i < lower.size()) {
      if (lower[i] == 't' && !time) {
        time = true;
        ++i;
        continue;
      }
      int64_t n;
      if (!number(n) || i >= lower.size()) return bad();
      char u = lower[i++];
      std::string_view unit = u == 'y'   ? "y"
                              : u == 'w' ? "w"
                              : u == 'd' ? "d"
                              : u == 'h' ? "h"
                              : u == 's' ? "s"
                              : u == 'm' ? (time ? "m" : "mo")
                                         : "";
      if (unit.empty() || (time != (u == 'h' || u == 's' || (u == 'm' && time)))) return bad();
      PARTPLAY_RETURN_IF_ERROR(add(n, unit));
      ++parts;
    }
    if (parts == 0) return bad();
  } else {
    while (i < lower.size()) {
      int64_t n;
      if (!number(n)) return bad();
      size_t j = i;
      while (j < lower.size() && !(lower[j] >= '0' && lower[j] <= '9')) ++j;
      PARTPLAY_RETURN_IF_ERROR(add(n, std::string_view(lower).substr(i, j - i)));
      i = j;
    }
  }
  if (months > INT32_MAX) return overflow("months");
  if (days > INT32_MAX) return overflow("days");
  if (negative) {
    months = -months;
    days = -days;
    nanos = -nanos;
  }
  return Duration{static_cast<int32_t>(months), static_cast<int32_t>(days), nanos};
}

}  // namespace

std::string Literal::Describe() const {
  switch (kind) {
    case LiteralKind::kNull:
      return "null";
    case LiteralKind::kList:
      return "[...]";
    case LiteralKind::kSet:
    case LiteralKind::kMap:
      return "{...}";
    case LiteralKind::kFunction:
      return text + "()";
    case LiteralKind::kTuple:
      return "(...)";
    case LiteralKind::kUdt:
      return "{...}";
    default:
      return text;
  }
}

// --- ValueGenerator
// -------------------------------------------------------------------------------

int64_t ValueGenerator::NowMillis() const {
  int64_t advanced = advanced_micros_ / 1000;
  if (fixed_now_ >= 0) return fixed_now_ + advanced;
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
             .count() +
         advanced;
}

int64_t ValueGenerator::ClockMicros() const {
  if (start_micros_ < 0) start_micros_ = (NowMillis() - advanced_micros_ / 1000) * 1000;
  return start_micros_ + advanced_micros_;
}

int64_t ValueGenerator::NextWriteTimestamp() {
  if (pinned_) return *pinned_;
  int64_t now = ClockMicros();
  last_write_ = last_write_ == INT64_MIN ? now : std::max(last_write_ + 1, now);
  return last_write_;
}

uint64_t ValueGenerator::Next() {  // splitmix64
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Bytes ValueGenerator::TimeUuid() {
  if (node_ == 0) node_ = (Next() & 0xFFFFFFFFFFFFull) | 0x010000000000ull;  // multicast bit
  // 100 ns ticks since 1582-10-15, the UUID epoch; strictly increasing.
  int64_t ticks = NowMillis() * 10000 + 0x01B21DD213814000ll;
  if (ticks <= last_ticks_) ticks = last_ticks_ + 1;
  last_ticks_ = ticks;
  uint64_t t = static_cast<uint64_t>(ticks);
  uint64_t msb = (t << 32) | ((t >> 16) & 0xFFFF0000ull) | 0x1000 | ((t >> 48) & 0x0FFF);
  uint64_t clock_seq = 0x8000 | (node_ >> 20 & 0x3FFF);
  uint64_t lsb = clock_seq << 48 | node_;
  return EncodeInt64(static_cast<int64_t>(msb)) + EncodeInt64(static_cast<int64_t>(lsb));
}

Bytes ValueGenerator::RandomUuid() {
  uint64_t msb = (Next() & ~0xF000ull) | 0x4000;
  uint64_t lsb = (Next() & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
  return EncodeInt64(static_cast<int64_t>(msb)) + EncodeInt64(static_cast<int64_t>(lsb));
}

// --- conversions
// ----------------------------------------------------------------------------------

Status ValueFromStringInto(const CqlType& type, std::string_view s, SourceLocation where,
                           Value& out) {
  bool as_is = false;  // the text is the value's bytes
  if (type.kind == TypeKind::kText) {
    as_is = IsValidUtf8(s);
  } else if (type.kind == TypeKind::kAscii) {
    as_is = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<uint8_t>(c) < 0x80; });
  }
  if (as_is) {
    if (out) {
      out->assign(s);
    } else {
      out.emplace(s);
    }
    return Status::Ok();
  }
  // Any other type, or the error (ValueFromString's message).
  PARTPLAY_ASSIGN_OR_RETURN(Bytes b, ValueFromString(type, s, where));
  out = std::move(b);
  return Status::Ok();
}

StatusOr<Bytes> ValueFromString(const CqlType& type, std::string_view s, SourceLocation where) {
  auto unable = [&](std::string_view what) {
    return Bad(fmt::format("Unable to make {} from '{}'", what, s), where);
  };
  if (type.kind == TypeKind::kVarint || type.kind == TypeKind::kDecimal ||
      type.kind == TypeKind::kFloat || type.kind == TypeKind::kDouble) {
    PARTPLAY_RETURN_IF_ERROR(CheckNumericDigits(type, s, where));
  }
  switch (type.kind) {
    case TypeKind::kAscii:
      for (char c : s) {
        if (static_cast<uint8_t>(c) >= 0x80) {
          return Bad(
              fmt::format("Invalid byte for ascii: {}", static_cast<int>(static_cast<int8_t>(c))),
              where);
        }
      }
      return Bytes(s);
    case TypeKind::kText:
      if (!IsValidUtf8(s)) return Bad("String didn't validate.", where);
      return Bytes(s);
    case TypeKind::kDuration: {
      PARTPLAY_ASSIGN_OR_RETURN(Duration d, ParseDuration(s, where));
      return EncodeDuration(d);
    }
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kCounter:
    case TypeKind::kBigint: {
      int64_t v;
      bool ok = ParseInt64(s, v);
      switch (type.kind) {
        case TypeKind::kTinyint:
          if (!ok || v < -128 || v > 127) return unable("byte");
          return EncodeInt8(static_cast<int8_t>(v));
        case TypeKind::kSmallint:
          if (!ok || v < -32768 || v > 32767) return unable("short");
          return EncodeInt16(static_cast<int16_t>(v));
        case TypeKind::kInt:
          if (!ok || v < INT32_MIN || v > INT32_MAX) return unable("int");
          return EncodeInt32(static_cast<int32_t>(v));
        default:
          if (!ok) return unable("long");
          return EncodeInt64(v);
      }
    }
    case TypeKind::kVarint: {
      Bytes out;
      if (!internal::VarintFromDecimal(s, out)) return unable("integer");
      return out;
    }
    case TypeKind::kDecimal: {
      Bytes out;
      if (!internal::DecimalFromText(s, out)) return unable("BigDecimal");
      return out;
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      Bytes out;
      bool single = type.kind == TypeKind::kFloat;
      if (!ParseFloating(s, single, out)) return unable(single ? "float" : "double");
      return out;
    }
    case TypeKind::kBoolean: {
      std::string lower(s);
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (lower == "true") return EncodeBoolean(true);
      if (lower == "false") return EncodeBoolean(false);
      return unable("boolean");
    }
    case TypeKind::kUuid: {
      Bytes out;
      if (!ParseUuid(s, out)) return unable("UUID");
      return out;
    }
    case TypeKind::kTimeuuid: {
      Bytes out;
      if (!ParseUuid(s, out))
        return Bad(fmt::format("Unknown timeuuid representation: {}", s), where);
      if ((static_cast<uint8_t>(out[6]) >> 4) != 1) {
        return Bad("TimeUUID supports only version 1 UUIDs", where);
      }
      return out;
    }
    case TypeKind::kTimestamp: {
      int64_t ms;
      switch (internal::ParseTimestamp(s, ms)) {
        case internal::TemporalParse::kOk:
          return EncodeInt64(ms);
        case internal::TemporalParse::kOutOfRange:
          return Bad(fmt::format("Timestamp '{}' is out of range: a timestamp is a signed 64-bit "
                                 "count of milliseconds since 1970-01-01 (about 292 million "
                                 "years either way)",
                                 s),
                     where);
        case internal::TemporalParse::kMalformed:
          break;
      }
      return Bad(fmt::format("Unable to coerce '{}' to a formatted date (long)", s), where);
    }
    case TypeKind::kDate: {
      // Digits alone are the raw unsigned day number, the epoch being 2^31.
      if (AllDigits(s)) {
        int64_t raw;
        if (!ParseInt64(s, raw) || raw > 0xFFFFFFFFll) {
          return Bad(fmt::format("Input date {} is out of bounds", s), where);
        }
        return EncodeDate(raw - (int64_t{1} << 31));
      }
      int64_t days;
      if (!internal::ParseDate(s, days) || days < INT32_MIN || days > INT32_MAX) {
        return Bad(fmt::format("Unable to coerce '{}' to a formatted date (long)", s), where);
      }
      return EncodeDate(days);
    }
    case TypeKind::kTime: {
      int64_t ns;
      if (AllDigits(s)) {
        if (!ParseInt64(s, ns) || ns > kMaxNanosOfDay) {
          return Bad(fmt::format("Input long out of bounds: {}", s), where);
        }
        return EncodeInt64(ns);
      }
      if (!internal::ParseTime(s, ns)) {
        return Bad(fmt::format("Unable to coerce '{}' to a formatted time (long)", s), where);
      }
      return EncodeInt64(ns);
    }
    case TypeKind::kInet: {
      Bytes out;
      if (!internal::ParseInet(s, out)) return unable("inet address");
      return out;
    }
    case TypeKind::kBlob: {
      std::string_view hex = s;
      if (hex.size() < 2 || hex[0] != '0' || (hex[1] != 'x' && hex[1] != 'X')) {
        return Bad(fmt::format("String representation of blob is missing 0x prefix: {}", s), where);
      }
      hex.remove_prefix(2);
      if (hex.size() % 2 != 0)
        return Bad(fmt::format("cannot parse '{}' as hex bytes", hex), where);
      Bytes out;
      for (size_t i = 0; i < hex.size(); i += 2) {
        int v = 0;
        for (size_t k = i; k < i + 2; ++k) {
          char c = hex[k];
          int h = (c >= '0' && c <= '9')   ? c - '0'
                  : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                           : -1;
          if (h < 0) return Bad(fmt::format("cannot parse '{}' as hex bytes", hex), where);
          v = v * 16 + h;
        }
        out.push_back(static_cast<char>(v));
      }
      return out;
    }
    default:
      return Bad(fmt::format("Cannot read a {} from a string", type.ToCql()), where);
  }
}

namespace {

// Vectors.Literal.prepare: the exact dimension, each element assignable to the element type,
// no null element; then VectorType's serialization.
StatusOr<Value> VectorLiteralToValue(const CqlType& type, const Literal& lit,
                                     std::string_view receiver, ValueGenerator& gen) {
  if (lit.elements.size() != static_cast<size_t>(type.dimension)) {
    return Status(ErrorCode::kCqlBadLiteral,
                  fmt::format("Invalid vector literal for {} of type {}; expected {} elements, but "
                              "given {}",
                              receiver, type.ToCql(), type.dimension, lit.elements.size()),
                  lit.where);
  }
  const CqlType& et = type.element();
  std::string value_name = fmt::format("value({})", receiver);
  std::vector<Bytes> items;
  items.reserve(lit.elements.size());
  for (const Literal& e : lit.elements) {
    bool constant = e.kind != LiteralKind::kNull && e.kind != LiteralKind::kFunction &&
                    e.kind != LiteralKind::kList && e.kind != LiteralKind::kSet &&
                    e.kind != LiteralKind::kMap && e.kind != LiteralKind::kTuple &&
                    e.kind != LiteralKind::kUdt;
    bool element_takes_constants =
        !et.is_collection() && !et.is_composite() && !et.is_vector();
    if (constant && (!element_takes_constants || !Assignable(e.kind, et.kind))) {
      // Term.Raw's text: a string constant quoted as written.
      std::string shown = e.Describe();
      if (e.kind == LiteralKind::kString) {
        shown = "'";
        for (char c : e.text) shown += c == '\'' ? std::string("''") : std::string(1, c);
        shown += "'";
      }
      return Status(ErrorCode::kCqlBadLiteral,
                    fmt::format("Invalid vector literal for {}: value {} is not of type {}",
                                receiver, shown, et.ToCql()),
                    e.where);
    }
    PARTPLAY_ASSIGN_OR_RETURN(Value v, LiteralToValue(et, e, value_name, gen));
    if (!v || (v->empty() && FixedSize(et.kind) != 0)) {
      return Status(ErrorCode::kCqlBadLiteral, "null is not supported inside vectors", e.where);
    }
    items.push_back(std::move(*v));
  }
  return Value(EncodeVector(type, items));
}

}  // namespace

StatusOr<Value> LiteralToValue(const CqlType& type, const Literal& lit, std::string_view receiver,
                               ValueGenerator& gen) {
  switch (lit.kind) {
    case LiteralKind::kNull:
      return Value();
    case LiteralKind::kFunction: {
      if (lit.text == "fromjson") return internal::FromJsonCall(type, lit, receiver);
      if (lit.text == "tojson") {
        return Status(ErrorCode::kCqlInvalidRequest,
                      "toJson() may only be used within the selection clause of SELECT "
                      "statements",
                      lit.where);
      }
      PARTPLAY_ASSIGN_OR_RETURN(FunctionResult r, EvaluateFunction(lit, gen));
      bool fits =
          r.type == type || (r.type.kind == TypeKind::kTimeuuid && type.kind == TypeKind::kUuid);
      if (!fits) {
        return Status(ErrorCode::kCqlInvalidRequest,
                      fmt::format("Type error: cannot assign result of function system.{} (type "
                                  "{}) to {} (type {})",
                                  lit.text, r.type.ToCql(), receiver, type.ToCql()),
                      lit.where);
      }
      return Value(std::move(r.bytes));
    }
    case LiteralKind::kList:
      if (type.kind == TypeKind::kVector) return VectorLiteralToValue(type, lit, receiver, gen);
      [[fallthrough]];
    case LiteralKind::kSet:
    case LiteralKind::kMap: {
      bool empty_braces = lit.kind == LiteralKind::kMap && lit.elements.empty();
      bool fits = (lit.kind == LiteralKind::kList && type.kind == TypeKind::kList) ||
                  (lit.kind == LiteralKind::kSet && type.kind == TypeKind::kSet) ||
                  (lit.kind == LiteralKind::kMap && type.kind == TypeKind::kMap) ||
                  (empty_braces && type.kind == TypeKind::kSet);
      if (!fits) {
        std::string_view what = lit.kind == LiteralKind::kList  ? "list"
                                : lit.kind == LiteralKind::kSet ? "set"
                                                                : "map";
        return Status(
            ErrorCode::kCqlBadLiteral,
            fmt::format("Invalid {} literal for {} of type {}", what, receiver, type.ToCql()),
            lit.where);
      }
      std::string value_name = fmt::format("value({})", receiver);
      std::string key_name = fmt::format("key({})", receiver);
      std::vector<Bytes> items;
      for (size_t i = 0; i < lit.elements.size(); ++i) {
        const Literal& e = lit.elements[i];
        bool is_key = type.kind == TypeKind::kMap && i % 2 == 0;
        const CqlType& et =
            (type.kind == TypeKind::kMap && !is_key) ? type.value() : type.element();
        if (e.kind == LiteralKind::kNull) {
          return Status(ErrorCode::kCqlBadLiteral, "null is not supported inside collections",
                        e.where);
        }
        PARTPLAY_ASSIGN_OR_RETURN(Value v,
                                  LiteralToValue(et, e, is_key ? key_name : value_name, gen));
        items.push_back(std::move(*v));
      }
      return Value(EncodeCollectionOf(type, items));
    }
    case LiteralKind::kTuple: {
      if (type.kind != TypeKind::kTuple) {
        return Status(
            ErrorCode::kCqlBadLiteral,
            fmt::format("Invalid tuple type literal for {} of type {}", receiver, type.ToCql()),
            lit.where);
      }
      if (lit.elements.size() > type.params.size()) {
        return Status(ErrorCode::kCqlBadLiteral,
                      fmt::format("Invalid tuple literal for {}: too many elements. Type {} "
                                  "expects {} but got {}",
                                  receiver, type.ToCql(), type.params.size(), lit.elements.size()),
                      lit.where);
      }
      std::vector<Value> parts;
      for (size_t i = 0; i < lit.elements.size(); ++i) {
        PARTPLAY_ASSIGN_OR_RETURN(
            Value v, LiteralToValue(type.params[i], lit.elements[i],
                                    fmt::format("component {} of {}", i, receiver), gen));
        parts.push_back(std::move(v));
      }
      return Value(EncodeComposite(parts));
    }
    case LiteralKind::kUdt: {
      if (type.kind != TypeKind::kUdt) {
        return Status(
            ErrorCode::kCqlBadLiteral,
            fmt::format("Invalid user type literal for {} of type {}", receiver, type.ToCql()),
            lit.where);
      }
      std::vector<Value> parts(type.params.size());
      std::vector<bool> given(type.params.size(), false);
      for (size_t i = 0; i + 1 < lit.elements.size(); i += 2) {
        const Literal& field = lit.elements[i];
        size_t f = 0;
        while (f < type.field_names.size() && type.field_names[f] != field.text) ++f;
        if (f == type.field_names.size()) {
          return Status(ErrorCode::kCqlBadLiteral,
                        fmt::format("Unknown field '{}' in value of user defined type {}",
                                    field.text, type.udt_name),
                        field.where);
        }
        if (given[f]) {
          return Status(ErrorCode::kCqlBadLiteral,
                        fmt::format("Duplicate field '{}' in value of user defined type {}",
                                    field.text, type.udt_name),
                        field.where);
        }
        given[f] = true;
        PARTPLAY_ASSIGN_OR_RETURN(parts[f],
                                  LiteralToValue(type.params[f], lit.elements[i + 1],
                                                 fmt::format("{}.{}", receiver, field.text), gen));
      }
      return Value(EncodeComposite(parts));
    }
    default:
      break;
  }
  if (type.is_collection() || type.is_composite() || type.is_vector() ||
      !Assignable(lit.kind, type.kind)) {
    return Status(ErrorCode::kCqlBadLiteral,
                  fmt::format("Invalid {} constant ({}) for \"{}\" of type {}",
                              ConstantName(lit.kind), lit.text, receiver, type.ToCql()),
                  lit.where);
  }
  PARTPLAY_ASSIGN_OR_RETURN(Bytes b, ValueFromString(type, lit.text, lit.where));
  return Value(std::move(b));
}

}  // namespace partplay::cql
