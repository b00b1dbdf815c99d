#include "cassandra/numeric.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace partplay::cql::internal {
namespace {

// Magnitude in base 10^9 limbs, least significant first.
using Limbs = std::vector<uint32_t>;
constexpr uint32_t kLimbBase = 1000000000u;

// Magnitude bytes (big-endian, unsigned) of a decimal digit string.
std::string MagnitudeFromDigits(std::string_view digits) {
  // Little-endian base-256 accumulation: value = value * 10 + digit.
  std::vector<uint8_t> le;
  for (char c : digits) {
    uint32_t carry = static_cast<uint32_t>(c - '0');
    for (uint8_t& b : le) {
      uint32_t v = uint32_t{b} * 10 + carry;
      b = static_cast<uint8_t>(v & 0xFF);
      carry = v >> 8;
    }
    while (carry != 0) {
      le.push_back(static_cast<uint8_t>(carry & 0xFF));
      carry >>= 8;
    }
  }
  return std::string(le.rbegin(), le.rend());
}

// Two's complement, minimal length, of a magnitude with a sign.
std::string TwosComplement(std::string magnitude, bool negative) {
  std::string bytes(1, '\0');  // room for the sign bit
  bytes += magnitude;
  if (negative) {
    for (char& c : bytes) c = static_cast<char>(~static_cast<uint8_t>(c));
    for (size_t i = bytes.size(); i-- > 0;) {
      uint8_t b = static_cast<uint8_t>(bytes[i]);
      bytes[i] = static_cast<char>(b + 1);
      if (b != 0xFF) break;
    }
  }
  // Drop leading bytes that only repeat the sign.
  size_t start = 0;
  while (start + 1 < bytes.size()) {
    uint8_t b = static_cast<uint8_t>(bytes[start]);
    uint8_t next = static_cast<uint8_t>(bytes[start + 1]);
    if ((b == 0x00 && (next & 0x80) == 0) || (b == 0xFF && (next & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return bytes.substr(start);
}

bool IsNegative(std::string_view bytes) {
  return !bytes.empty() && (static_cast<uint8_t>(bytes[0]) & 0x80) != 0;
}

// The unsigned magnitude bytes of a two's complement number.
std::string Magnitude(std::string_view bytes) {
  std::string m(bytes);
  if (IsNegative(bytes)) {
    for (char& c : m) c = static_cast<char>(~static_cast<uint8_t>(c));
    for (size_t i = m.size(); i-- > 0;) {
      uint8_t b = static_cast<uint8_t>(m[i]);
      m[i] = static_cast<char>(b + 1);
      if (b != 0xFF) break;
    }
  }
  size_t start = 0;
  while (start < m.size() && m[start] == '\0') ++start;
  return m.substr(start);
}

std::string MagnitudeToDigits(std::string_view magnitude) {
  Limbs limbs;
  for (char c : magnitude) {
    uint64_t carry = static_cast<uint8_t>(c);
    for (uint32_t& l : limbs) {
      uint64_t v = uint64_t{l} * 256 + carry;
      l = static_cast<uint32_t>(v % kLimbBase);
      carry = v / kLimbBase;
    }
    while (carry != 0) {
      limbs.push_back(static_cast<uint32_t>(carry % kLimbBase));
      carry /= kLimbBase;
    }
  }
  if (limbs.empty()) return "0";
  std::string out = std::to_string(limbs.back());
  for (size_t i = limbs.size() - 1; i-- > 0;) {
    std::string part = std::to_string(limbs[i]);
    out.append(9 - part.size(), '0');
    out += part;
  }
  return out;
}

struct DecimalParts {
  bool negative = false;
  std::string digits;  // no leading zeros; "0" for zero
  int32_t scale = 0;
};

bool SplitDecimal(std::string_view bytes, DecimalParts& out) {
  if (bytes.size() < 4) return false;
  uint32_t s = 0;
  for (int i = 0; i < 4; ++i) s = s << 8 | static_cast<uint8_t>(bytes[i]);
  out.scale = static_cast<int32_t>(s);
  std::string_view unscaled = bytes.substr(4);
  out.negative = IsNegative(unscaled);
  out.digits = MagnitudeToDigits(Magnitude(unscaled));
  return true;
}

}  // namespace

bool VarintFromDecimal(std::string_view text, std::string& out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  out = TwosComplement(MagnitudeFromDigits(text), negative);
  return true;
}

std::string VarintToDecimal(std::string_view bytes) {
  if (bytes.empty()) return "";
  std::string digits = MagnitudeToDigits(Magnitude(bytes));
  return IsNegative(bytes) ? "-" + digits : digits;
}

int CompareVarint(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return a.empty() ? (b.empty() ? 0 : -1) : 1;
  bool na = IsNegative(a);
  bool nb = IsNegative(b);
  if (na != nb) return na ? -1 : 1;
  // Minimal encodings: more bytes is further from zero.
  if (a.size() != b.size()) {
    bool a_longer = a.size() > b.size();
    return (a_longer != na) ? 1 : -1;
  }
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

bool VarintToInt64(std::string_view bytes, int64_t& out) {
  if (bytes.empty() || bytes.size() > 8) return false;
  uint64_t v = IsNegative(bytes) ? ~uint64_t{0} : 0;
  for (char c : bytes) v = v << 8 | static_cast<uint8_t>(c);
  out = static_cast<int64_t>(v);
  return true;
}

namespace {

// Reads a BigDecimal text in one pass: its sign, its digits (into `digits` unless null) and its
// scale. False if malformed or the scale overflows 32 bits.
bool ReadDecimalText(std::string_view text, bool& negative, std::string* digits, int64_t& scale) {
  size_t i = 0;
  negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int64_t fraction_digits = 0;
  bool any = false;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (digits != nullptr) digits->push_back(text[i]);
    ++i;
    any = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (digits != nullptr) digits->push_back(text[i]);
      ++i;
      ++fraction_digits;
      any = true;
    }
  }
  if (!any) return false;
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) exp_negative = text[i++] == '-';
    if (i == text.size()) return false;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      exponent = exponent * 10 + (text[i++] - '0');
      if (exponent > (int64_t{1} << 40)) return false;
    }
    if (exp_negative) exponent = -exponent;
  }
  if (i != text.size()) return false;
  scale = fraction_digits - exponent;
  return scale <= INT32_MAX && scale >= INT32_MIN;
}

}  // namespace

bool IsDecimalText(std::string_view text) {
  bool negative;
  int64_t scale;
  return ReadDecimalText(text, negative, nullptr, scale);
}

bool DecimalFromText(std::string_view text, std::string& out) {
  bool negative;
  std::string digits;
  int64_t scale;
  if (!ReadDecimalText(text, negative, &digits, scale)) return false;
  size_t start = 0;
  while (start + 1 < digits.size() && digits[start] == '0') ++start;
  std::string_view significant = std::string_view(digits).substr(start);
  bool is_zero = significant == "0";
  std::string unscaled = TwosComplement(MagnitudeFromDigits(significant), negative && !is_zero);
  uint32_t s = static_cast<uint32_t>(static_cast<int32_t>(scale));
  out.clear();
  for (int k = 3; k >= 0; --k) out.push_back(static_cast<char>((s >> (8 * k)) & 0xFF));
  out += unscaled;
  return true;
}

std::string DecimalToText(std::string_view bytes) {
  DecimalParts p;
  if (!SplitDecimal(bytes, p)) return "";
  const std::string& d = p.digits;
  int64_t adjusted = -int64_t{p.scale} + static_cast<int64_t>(d.size()) - 1;
  std::string out = p.negative ? "-" : "";
  if (p.scale >= 0 && adjusted >= -6) {
    if (p.scale == 0) {
      out += d;
    } else if (static_cast<int64_t>(d.size()) > p.scale) {
      size_t point = d.size() - static_cast<size_t>(p.scale);
      out += d.substr(0, point);
      out += '.';
      out += d.substr(point);
    } else {
      out += "0.";
      out.append(static_cast<size_t>(p.scale) - d.size(), '0');
      out += d;
    }
    return out;
  }
  out += d[0];
  if (d.size() > 1) {
    out += '.';
    out += d.substr(1);
  }
  out += 'E';
  out += adjusted >= 0 ? "+" : "";
  out += std::to_string(adjusted);
  return out;
}

int CompareDecimal(std::string_view a, std::string_view b) {
  DecimalParts x, y;
  bool okx = SplitDecimal(a, x);
  bool oky = SplitDecimal(b, y);
  if (!okx || !oky) return okx ? 1 : (oky ? -1 : 0);
  bool zx = x.digits == "0";
  bool zy = y.digits == "0";
  int sx = zx ? 0 : (x.negative ? -1 : 1);
  int sy = zy ? 0 : (y.negative ? -1 : 1);
  if (sx != sy) return sx < sy ? -1 : 1;
  if (sx == 0) return 0;
  // Same sign: compare magnitudes by adjusted exponent, then digits without trailing zeros.
  auto strip = [](std::string& d) {
    while (d.size() > 1 && d.back() == '0') d.pop_back();
  };
  int64_t ax = -int64_t{x.scale} + static_cast<int64_t>(x.digits.size()) - 1;
  int64_t ay = -int64_t{y.scale} + static_cast<int64_t>(y.digits.size()) - 1;
  int magnitude;
  if (ax != ay) {
    magnitude = ax < ay ? -1 : 1;
  } else {
    strip(x.digits);
    strip(y.digits);
    int c = x.digits.compare(y.digits);
    magnitude = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return sx > 0 ? magnitude : -magnitude;
}

}  // namespace partplay::cql::internal
