#include "cassandra/aggregates.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "partplay/core/numbers.h"

namespace partplay::cql::internal {
namespace {

// --- exact integers and decimals (Java's BigInteger and BigDecimal, as far as the aggregates use
// them): sign and magnitude, 32-bit limbs, least significant first.
struct BigInt {
  bool negative = false;
  std::vector<uint32_t> mag;  // no leading (most significant) zero limbs; zero is empty

  bool zero() const { return mag.empty(); }
  void Trim() {
    while (!mag.empty() && mag.back() == 0) mag.pop_back();
    if (mag.empty()) negative = false;
  }
};

int CompareMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

std::vector<uint32_t> AddMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<uint32_t> out(std::max(a.size(), b.size()) + 1, 0);
  uint64_t carry = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t s = carry + (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
    out[i] = static_cast<uint32_t>(s);
    carry = s >> 32;
  }
  return out;
}

// a - b with |a| >= |b|.
std::vector<uint32_t> SubMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<uint32_t> out(a.size(), 0);
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t d = static_cast<int64_t>(a[i]) - borrow - (i < b.size() ? b[i] : 0);
    borrow = d < 0 ? 1 : 0;
    out[i] = static_cast<uint32_t>(d + (borrow << 32));
  }
  return out;
}

BigInt BigAdd(const BigInt& a, const BigInt& b) {
  BigInt out;
  if (a.negative == b.negative) {
    out.mag = AddMag(a.mag, b.mag);
    out.negative = a.negative;
  } else if (CompareMag(a.mag, b.mag) >= 0) {
    out.mag = SubMag(a.mag, b.mag);
    out.negative = a.negative;
  } else {
    out.mag = SubMag(b.mag, a.mag);
    out.negative = b.negative;
  }
  out.Trim();
  return out;
}

BigInt Negate(BigInt a) {
  if (!a.zero()) a.negative = !a.negative;
  return a;
}

BigInt FromInt64(int64_t v) {
  BigInt out;
  out.negative = v < 0;
  uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  out.mag = {static_cast<uint32_t>(m), static_cast<uint32_t>(m >> 32)};
  out.Trim();
  return out;
}

void MulSmall(BigInt& a, uint32_t m) {
  uint64_t carry = 0;
  for (uint32_t& limb : a.mag) {
    uint64_t p = static_cast<uint64_t>(limb) * m + carry;
    limb = static_cast<uint32_t>(p);
    carry = p >> 32;
  }
  if (carry) a.mag.push_back(static_cast<uint32_t>(carry));
  a.Trim();
}

// |a| / d (d > 0), truncated; the remainder of the magnitude in `rem`.
BigInt DivSmall(const BigInt& a, uint32_t d, uint32_t& rem) {
  BigInt out;
  out.negative = a.negative;
  out.mag.assign(a.mag.size(), 0);
  uint64_t r = 0;
  for (size_t i = a.mag.size(); i-- > 0;) {
    uint64_t cur = (r << 32) | a.mag[i];
    out.mag[i] = static_cast<uint32_t>(cur / d);
    r = cur % d;
  }
  rem = static_cast<uint32_t>(r);
  out.Trim();
  return out;
}

// Java's BigInteger(byte[]): big-endian two's complement (empty: zero).
BigInt FromTwosComplement(std::string_view bytes) {
  BigInt out;
  if (bytes.empty()) return out;
  bool negative = static_cast<unsigned char>(bytes[0]) & 0x80;
  std::vector<uint8_t> b(bytes.begin(), bytes.end());
  if (negative) {  // magnitude = ~b + 1
    for (uint8_t& x : b) x = static_cast<uint8_t>(~x);
    for (size_t i = b.size(); i-- > 0;) {
      if (++b[i] != 0) break;
    }
  }
  for (size_t i = 0; i < b.size(); ++i) {
    size_t bit = (b.size() - 1 - i) * 8;
    if (bit / 32 >= out.mag.size()) out.mag.resize(bit / 32 + 1, 0);
    out.mag[bit / 32] |= static_cast<uint32_t>(b[i]) << (bit % 32);
  }
  out.negative = negative;
  out.Trim();
  return out;
}

// BigInteger.toByteArray: the shortest big-endian two's complement (zero: one 0 byte).
std::string ToTwosComplement(const BigInt& a) {
  std::vector<uint8_t> le;  // magnitude, little-endian bytes
  for (uint32_t limb : a.mag) {
    for (int k = 0; k < 4; ++k) le.push_back(static_cast<uint8_t>(limb >> (8 * k)));
  }
  while (!le.empty() && le.back() == 0) le.pop_back();
  if (a.negative) {  // two's complement of the magnitude
    for (uint8_t& x : le) x = static_cast<uint8_t>(~x);
    for (uint8_t& x : le) {
      if (++x != 0) break;
    }
    // Drop redundant 0xFF sign bytes, keep one if the next byte would read positive.
    while (le.size() > 1 && le.back() == 0xFF && (le[le.size() - 2] & 0x80)) le.pop_back();
    if (le.empty() || !(le.back() & 0x80)) le.push_back(0xFF);
  } else if (le.empty() || (le.back() & 0x80)) {
    le.push_back(0);
  }
  return std::string(le.rbegin(), le.rend());
}

// BigInteger.longValue(): the low 64 bits, two's complement.
int64_t LowInt64(const BigInt& a) {
  uint64_t m = 0;
  if (!a.mag.empty()) m = a.mag[0];
  if (a.mag.size() > 1) m |= static_cast<uint64_t>(a.mag[1]) << 32;
  return static_cast<int64_t>(a.negative ? 0 - m : m);
}

struct Decimal {
  BigInt unscaled;
  int64_t scale = 0;
};

Decimal DecimalFromBytes(std::string_view bytes) {
  Decimal d;
  if (bytes.size() < 4) return d;
  d.scale = static_cast<int32_t>(DecodeUnsigned(bytes.substr(0, 4)));
  d.unscaled = FromTwosComplement(bytes.substr(4));
  return d;
}

std::string DecimalToBytes(const Decimal& d) {
  return EncodeInt32(static_cast<int32_t>(d.scale)) + ToTwosComplement(d.unscaled);
}

void Rescale(Decimal& d, int64_t scale) {
  for (; d.scale < scale; ++d.scale) MulSmall(d.unscaled, 10);
}

Decimal DecimalAdd(Decimal a, Decimal b) {
  int64_t scale = std::max(a.scale, b.scale);
  Rescale(a, scale);
  Rescale(b, scale);
  return Decimal{BigAdd(a.unscaled, b.unscaled), scale};
}

// a.divide(BigDecimal.valueOf(n), RoundingMode.HALF_EVEN): the quotient at a's scale.
Decimal DecimalDivide(const Decimal& a, uint32_t n) {
  uint32_t rem = 0;
  BigInt q = DivSmall(a.unscaled, n, rem);
  uint64_t twice = 2 * static_cast<uint64_t>(rem);
  bool odd = !q.mag.empty() && (q.mag[0] & 1);
  if (twice > n || (twice == n && odd)) {
    BigInt one = FromInt64(a.unscaled.negative ? -1 : 1);
    q = BigAdd(q, one);
  }
  q.negative = a.unscaled.negative && !q.zero();
  return Decimal{q, a.scale};
}

// BigDecimal.valueOf(double): the decimal Double.toString writes (the shortest that reads back).
Decimal DecimalOfDouble(double v) {
  Decimal d;
  if (!std::isfinite(v)) return d;  // (Java's valueOf refuses these; the sums never pass them)
  std::string text = fmt::format("{}", v);  // the shortest digits: 123.45, 1e-07, 1.5e+308
  bool negative = text[0] == '-';
  size_t i = negative ? 1 : 0;
  int64_t exponent = 0;
  int64_t fraction_digits = 0;
  bool fraction = false;
  for (; i < text.size() && text[i] != 'e'; ++i) {
    if (text[i] == '.') {
      fraction = true;
      continue;
    }
    MulSmall(d.unscaled, 10);
    d.unscaled = BigAdd(d.unscaled, FromInt64(text[i] - '0'));
    if (fraction) ++fraction_digits;
  }
  if (i + 1 < text.size()) {
    bool neg_exp = text[i + 1] == '-';
    size_t k = text[i + 1] == '-' || text[i + 1] == '+' ? i + 2 : i + 1;
    for (; k < text.size(); ++k) exponent = exponent * 10 + (text[k] - '0');
    if (neg_exp) exponent = -exponent;
  }
  d.scale = fraction_digits - exponent;
  if (d.scale < 0) {
    for (; d.scale < 0; ++d.scale) MulSmall(d.unscaled, 10);
  }
  d.unscaled.negative = negative && !d.unscaled.zero();
  return d;
}

// BigDecimal.doubleValue(): the nearest double to the decimal.
double DoubleOfDecimal(const Decimal& d) {
  BigInt mag = d.unscaled;
  mag.negative = false;
  std::string digits;
  while (!mag.zero()) {
    uint32_t rem = 0;
    mag = DivSmall(mag, 10, rem);
    digits.push_back(static_cast<char>('0' + rem));
  }
  if (digits.empty()) digits = "0";
  std::reverse(digits.begin(), digits.end());
  std::string text = fmt::format("{}{}e{}", d.unscaled.negative ? "-" : "", digits, -d.scale);
  double out = 0;
  if (!ParseFiniteDouble(text, out)) {
    return d.unscaled.negative ? -HUGE_VAL : HUGE_VAL;
  }
  return out;
}

Bytes EncodeIntegerOf(TypeKind kind, int64_t v) {
  switch (kind) {
    case TypeKind::kTinyint:
      return EncodeInt8(static_cast<int8_t>(v));
    case TypeKind::kSmallint:
      return EncodeInt16(static_cast<int16_t>(v));
    case TypeKind::kInt:
      return EncodeInt32(static_cast<int32_t>(v));
    default:
      return EncodeInt64(v);
  }
}

bool IsSummable(TypeKind k) {
  switch (k) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kDecimal:
    case TypeKind::kVarint:
    case TypeKind::kCounter:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool AggregateFnFromName(std::string_view name, AggregateFn& out) {
  static constexpr std::pair<std::string_view, AggregateFn> kNames[] = {
      {"count", AggregateFn::kCount}, {"min", AggregateFn::kMin}, {"max", AggregateFn::kMax},
      {"sum", AggregateFn::kSum},     {"avg", AggregateFn::kAvg}};
  for (const auto& [n, fn] : kNames) {
    if (n == name) {
      out = fn;
      return true;
    }
  }
  return false;
}

std::string_view AggregateFnName(AggregateFn fn) {
  switch (fn) {
    case AggregateFn::kCount:
      return "count";
    case AggregateFn::kMin:
      return "min";
    case AggregateFn::kMax:
      return "max";
    case AggregateFn::kSum:
      return "sum";
    case AggregateFn::kAvg:
      return "avg";
  }
  return "count";
}

Status CheckAggregateArgument(AggregateFn fn, const CqlType& type, const SourceLocation& where) {
  if (fn == AggregateFn::kSum || fn == AggregateFn::kAvg) {
    if (IsSummable(type.kind)) return Status::Ok();
    // FunctionResolver: every signature of the name, in AggregateFcts.all()'s order.
    std::string_view name = AggregateFnName(fn);
    std::string known;
    for (std::string_view t : {"tinyint", "smallint", "int", "bigint", "float", "double", "decimal",
                               "varint", "counter"}) {
      if (!known.empty()) known += ", ";
      known += fmt::format("system.{} : ({}) -> {}", name, t, t);
    }
    return Status(ErrorCode::kCqlInvalidRequest,
                  fmt::format("Invalid call to function {}, none of its type signatures match "
                              "(known type signatures: {})",
                              name, known),
                  where);
  }
  return Status::Ok();
}

// The types min, max and count have a native function for; any other value is taken as a blob
// (AbstractType.udfType), so max of a frozen user type or collection is a blob.
namespace {
bool HasNativeSignature(const CqlType& type) {
  return !type.is_collection() && type.kind != TypeKind::kUdt && type.kind != TypeKind::kTuple &&
         !type.is_vector();
}
}  // namespace

CqlType AggregateResultType(AggregateFn fn, const CqlType& type) {
  if (fn == AggregateFn::kCount) return CqlType::Native(TypeKind::kBigint);
  // maxFunctionForCounter / minFunctionForCounter return a bigint.
  if ((fn == AggregateFn::kMin || fn == AggregateFn::kMax) && type.kind == TypeKind::kCounter) {
    return CqlType::Native(TypeKind::kBigint);
  }
  if (!HasNativeSignature(type)) return CqlType::Native(TypeKind::kBlob);
  return type;
}

struct Aggregator::State {
  int64_t count = 0;
  Value best;  // min, max
  // Integers: Java's wrapping sum, and AvgAggregate's long sum with its big fallback.
  uint64_t wrapped = 0;
  int64_t long_sum = 0;
  bool overflow = false;
  BigInt big;
  // Floats: Kahan (FloatSumAggregate / FloatAvgAggregate), and the exact fallback of avg.
  double sum = 0, compensation = 0, simple = 0;
  Decimal big_decimal;
  // Decimals: the sum, or avg's running average.
  Decimal decimal;
};

Aggregator::Aggregator(AggregateFn fn, CqlType type)
    : fn_(fn),
      type_(HasNativeSignature(type) ? std::move(type) : CqlType::Native(TypeKind::kBlob)),
      s_(std::make_unique<State>()) {}
Aggregator::~Aggregator() = default;
Aggregator::Aggregator(Aggregator&&) noexcept = default;
Aggregator& Aggregator::operator=(Aggregator&&) noexcept = default;

void Aggregator::Reset() { s_ = std::make_unique<State>(); }

void Aggregator::Add(const Value& value) {
  if (!value) return;
  State& s = *s_;
  ++s.count;
  const std::string& v = *value;
  switch (fn_) {
    case AggregateFn::kCount:
      return;
    case AggregateFn::kMin:
    case AggregateFn::kMax: {
      if (!s.best) {
        s.best = value;
        return;
      }
      int c = Compare(type_, v, *s.best);  // counters compare as the longs they hold
      if ((fn_ == AggregateFn::kMin && c < 0) || (fn_ == AggregateFn::kMax && c > 0)) s.best = value;
      return;
    }
    case AggregateFn::kSum:
    case AggregateFn::kAvg:
      break;
  }
  switch (type_.kind) {
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      double number = type_.kind == TypeKind::kFloat ? static_cast<double>(DecodeFloat(v))
                                                     : DecodeDouble(v);
      if (fn_ == AggregateFn::kAvg && s.overflow) {
        s.big_decimal = DecimalAdd(s.big_decimal, DecimalOfDouble(number));
        return;
      }
      s.simple += number;
      double prev = s.sum;
      double tmp = number - s.compensation;
      double rounded = s.sum + tmp;
      s.compensation = (rounded - s.sum) - tmp;
      s.sum = rounded;
      if (fn_ == AggregateFn::kAvg && std::isinf(s.sum) && !std::isinf(number)) {
        s.overflow = true;
        s.big_decimal = DecimalAdd(DecimalOfDouble(prev), DecimalOfDouble(number));
      }
      return;
    }
    case TypeKind::kDecimal: {
      Decimal number = DecimalFromBytes(v);
      if (fn_ == AggregateFn::kSum) {
        s.decimal = DecimalAdd(s.decimal, number);
      } else {
        // avg = avg + (value - avg) / count
        Decimal diff = DecimalAdd(number, Decimal{Negate(s.decimal.unscaled), s.decimal.scale});
        s.decimal = DecimalAdd(s.decimal, DecimalDivide(diff, static_cast<uint32_t>(s.count)));
      }
      return;
    }
    case TypeKind::kVarint:
      s.big = BigAdd(s.big, FromTwosComplement(v));
      return;
    default: {
      int64_t number = DecodeSigned(v);
      s.wrapped += static_cast<uint64_t>(number);
      if (fn_ == AggregateFn::kAvg) {
        if (s.overflow) {
          s.big = BigAdd(s.big, FromInt64(number));
        } else {
          int64_t prev = s.long_sum;
          int64_t sum = static_cast<int64_t>(static_cast<uint64_t>(prev) + static_cast<uint64_t>(number));
          if (((prev ^ sum) & (number ^ sum)) < 0) {
            s.overflow = true;
            s.big = BigAdd(FromInt64(prev), FromInt64(number));
          }
          s.long_sum = sum;
        }
      }
      return;
    }
  }
}

Value Aggregator::Result() const {
  const State& s = *s_;
  switch (fn_) {
    case AggregateFn::kCount:
      return EncodeInt64(s.count);
    case AggregateFn::kMin:
    case AggregateFn::kMax:
      return s.best;
    case AggregateFn::kSum:
    case AggregateFn::kAvg:
      break;
  }
  bool avg = fn_ == AggregateFn::kAvg;
  switch (type_.kind) {
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      double out = 0;
      if (avg && s.count == 0) {
        out = 0;
      } else if (avg && s.overflow) {
        Decimal sum = s.big_decimal;
        out = DoubleOfDecimal(DecimalDivide(sum, static_cast<uint32_t>(s.count)));
      } else {
        double tmp = s.sum + s.compensation;
        double total = std::isnan(tmp) && std::isinf(s.simple) ? s.simple : tmp;
        out = avg ? total / static_cast<double>(s.count) : total;
      }
      return type_.kind == TypeKind::kFloat ? EncodeFloat(static_cast<float>(out)) : EncodeDouble(out);
    }
    case TypeKind::kDecimal:
      return DecimalToBytes(s.decimal);
    case TypeKind::kVarint: {
      if (!avg) return ToTwosComplement(s.big);
      if (s.count == 0) return ToTwosComplement(BigInt{});
      uint32_t rem = 0;
      return ToTwosComplement(DivSmall(s.big, static_cast<uint32_t>(s.count), rem));
    }
    default: {
      if (!avg) return EncodeIntegerOf(type_.kind, static_cast<int64_t>(s.wrapped));
      int64_t out = 0;
      if (s.overflow) {
        uint32_t rem = 0;
        out = LowInt64(DivSmall(s.big, static_cast<uint32_t>(s.count), rem));
      } else if (s.count > 0) {
        out = s.long_sum / s.count;
      }
      return EncodeIntegerOf(type_.kind, out);
    }
  }
}

}  // namespace partplay::cql::internal
