// CQL values as bytes (value.h's encodings, the native protocol's serialization): big-endian
// integers and IEEE floats, dates, collections (a count, then each element length-prefixed),
// tuples and user types, durations (three zig-zag unsigned vints) and vectors (fixed-size
// elements back to back, variable-size ones vint-prefixed). Comparing and formatting values is
// value.cpp.
#include <algorithm>
#include <fmt/format.h>

#include <cstring>

#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql {

namespace {
Bytes BigEndian(uint64_t v, int size) {
  Bytes out(static_cast<size_t>(size), '\0');
  for (int i = size - 1; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  return out;
}
}  // namespace

Bytes EncodeInt8(int8_t v) { return BigEndian(static_cast<uint8_t>(v), 1); }
Bytes EncodeInt16(int16_t v) { return BigEndian(static_cast<uint16_t>(v), 2); }
Bytes EncodeInt32(int32_t v) { return BigEndian(static_cast<uint32_t>(v), 4); }
Bytes EncodeInt64(int64_t v) { return BigEndian(static_cast<uint64_t>(v), 8); }
Bytes EncodeFloat(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return BigEndian(bits, 4);
}
Bytes EncodeDouble(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return BigEndian(bits, 8);
}
Bytes EncodeBoolean(bool v) { return Bytes(1, v ? '\x01' : '\x00'); }
Bytes EncodeDate(int64_t days) {
  return BigEndian(static_cast<uint32_t>(days + (int64_t{1} << 31)), 4);
}

uint64_t DecodeUnsigned(std::string_view b) {
  uint64_t v = 0;
  for (char c : b) v = v << 8 | static_cast<uint8_t>(c);
  return v;
}

int64_t DecodeSigned(std::string_view b) {
  if (b.empty()) return 0;
  uint64_t v = (static_cast<uint8_t>(b[0]) & 0x80) ? ~uint64_t{0} : 0;
  for (char c : b) v = v << 8 | static_cast<uint8_t>(c);
  return static_cast<int64_t>(v);
}

float DecodeFloat(std::string_view b) {
  uint32_t bits = static_cast<uint32_t>(DecodeUnsigned(b));
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

double DecodeDouble(std::string_view b) {
  uint64_t bits = DecodeUnsigned(b);
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

Bytes EncodeCollection(const std::vector<Bytes>& elements, size_t count) {
  Bytes out = EncodeInt32(static_cast<int32_t>(count));
  for (const Bytes& e : elements) {
    out += EncodeInt32(static_cast<int32_t>(e.size()));
    out += e;
  }
  return out;
}

Bytes EncodeCollectionOf(const CqlType& type, const std::vector<Bytes>& items) {
  if (type.kind == TypeKind::kList) return EncodeCollection(items, items.size());
  const CqlType& key_type = type.element();
  size_t stride = type.kind == TypeKind::kMap ? 2 : 1;
  // Sort entries by key with a stable sort; among equal keys the last one stays.
  std::vector<size_t> order;
  for (size_t i = 0; i + stride <= items.size(); i += stride) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return Compare(key_type, items[a], items[b]) < 0; });
  std::vector<Bytes> sorted;
  size_t count = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k + 1 < order.size() && Compare(key_type, items[order[k]], items[order[k + 1]]) == 0) {
      continue;
    }
    for (size_t j = 0; j < stride; ++j) sorted.push_back(items[order[k] + j]);
    ++count;
  }
  return EncodeCollection(sorted, count);
}

std::vector<std::string_view> CollectionElements(std::string_view b) {
  std::vector<std::string_view> out;
  if (b.size() < 4) return out;
  uint64_t count = DecodeUnsigned(b.substr(0, 4));
  size_t at = 4;
  // Maps hold two values per entry.
  while (at + 4 <= b.size()) {
    uint64_t n = DecodeUnsigned(b.substr(at, 4));
    at += 4;
    if (n > b.size() - at) return {};
    out.push_back(b.substr(at, n));
    at += n;
  }
  if (out.size() != count && out.size() != 2 * count) return {};
  return out;
}

Bytes EncodeComposite(const std::vector<Value>& components) {
  Bytes out;
  for (const Value& v : components) {
    if (!v) {
      out += EncodeInt32(-1);
      continue;
    }
    out += EncodeInt32(static_cast<int32_t>(v->size()));
    out += *v;
  }
  return out;
}

bool CompositeComponents(std::string_view b, std::vector<Value>& out) {
  out.clear();
  size_t at = 0;
  while (at < b.size()) {
    if (b.size() - at < 4) return false;
    int64_t n = DecodeSigned(b.substr(at, 4));
    at += 4;
    if (n < 0) {
      out.emplace_back();
      continue;
    }
    if (static_cast<uint64_t>(n) > b.size() - at) return false;
    out.emplace_back(Bytes(b.substr(at, static_cast<size_t>(n))));
    at += static_cast<size_t>(n);
  }
  return true;
}

namespace {

// VIntCoding.writeUnsignedVInt: 1 to 9 bytes, the count of extra bytes as leading 1 bits.
void AppendUnsignedVInt(uint64_t v, Bytes& out) {
  int magnitude = __builtin_clzll(v | 1);  // Long.numberOfLeadingZeros(value | 1)
  int size = (639 - magnitude * 9) >> 6;
  if (size == 1) {
    out += static_cast<char>(v);
    return;
  }
  int extra = size - 1;
  Bytes bytes(static_cast<size_t>(size), '\0');
  for (int i = size - 1; i >= 0; --i) {
    bytes[static_cast<size_t>(i)] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  bytes[0] =
      static_cast<char>(static_cast<uint8_t>(bytes[0]) | static_cast<uint8_t>(~(0xFF >> extra)));
  out += bytes;
}

bool ReadUnsignedVInt(std::string_view b, size_t& at, uint64_t& v) {
  if (at >= b.size()) return false;
  uint8_t first = static_cast<uint8_t>(b[at++]);
  int extra = 0;
  while (extra < 8 && (first & (0x80 >> extra))) ++extra;
  if (b.size() - at < static_cast<size_t>(extra)) return false;
  v = extra == 8 ? 0 : (first & (0xFF >> extra));
  for (int i = 0; i < extra; ++i) v = v << 8 | static_cast<uint8_t>(b[at++]);
  return true;
}

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Duration.toString's append: `dividend / divisor` with the unit when it is at least one.
uint64_t AppendUnit(std::string& out, uint64_t dividend, uint64_t divisor, std::string_view unit) {
  if (dividend == 0 || dividend < divisor) return dividend;
  out += std::to_string(dividend / divisor);
  out += unit;
  return dividend % divisor;
}

uint64_t Magnitude(int64_t v) {
  return v < 0 ? ~static_cast<uint64_t>(v) + 1 : static_cast<uint64_t>(v);
}

}  // namespace

Bytes EncodeDuration(const Duration& d) {
  Bytes out;
  AppendUnsignedVInt(ZigZag(d.months), out);
  AppendUnsignedVInt(ZigZag(d.days), out);
  AppendUnsignedVInt(ZigZag(d.nanos), out);
  return out;
}

bool DecodeDuration(std::string_view b, Duration& out) {
  size_t at = 0;
  uint64_t m, d, n;
  if (!ReadUnsignedVInt(b, at, m) || !ReadUnsignedVInt(b, at, d) || !ReadUnsignedVInt(b, at, n) ||
      at != b.size()) {
    return false;
  }
  int64_t months = UnZigZag(m), days = UnZigZag(d);
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX) {
    return false;
  }
  out = Duration{static_cast<int32_t>(months), static_cast<int32_t>(days), UnZigZag(n)};
  return true;
}

std::string FormatDuration(const Duration& d) {
  std::string out;
  if (d.months < 0 || d.days < 0 || d.nanos < 0) out += '-';
  uint64_t months = AppendUnit(out, Magnitude(d.months), 12, "y");
  AppendUnit(out, months, 1, "mo");
  AppendUnit(out, Magnitude(d.days), 1, "d");
  if (d.nanos != 0) {
    uint64_t r = AppendUnit(out, Magnitude(d.nanos), 3600000000000ull, "h");
    r = AppendUnit(out, r, 60000000000ull, "m");
    r = AppendUnit(out, r, 1000000000ull, "s");
    r = AppendUnit(out, r, 1000000ull, "ms");
    r = AppendUnit(out, r, 1000ull, "us");
    AppendUnit(out, r, 1, "ns");
  }
  return out;
}

Bytes EncodeVector(const CqlType& type, const std::vector<Bytes>& elements) {
  bool fixed = VectorElementFixedSize(type.element()) > 0;
  Bytes out;
  for (const Bytes& e : elements) {
    if (!fixed) AppendUnsignedVInt(e.size(), out);
    out += e;
  }
  return out;
}

bool VectorElements(const CqlType& type, std::string_view b, std::vector<std::string_view>& out) {
  out.clear();
  if (type.dimension <= 0) return false;
  int64_t fixed = VectorElementFixedSize(type.element());
  if (fixed > 0) {
    if (static_cast<uint64_t>(b.size()) != static_cast<uint64_t>(fixed) * type.dimension) {
      return false;
    }
    for (int32_t i = 0; i < type.dimension; ++i) {
      out.push_back(b.substr(static_cast<size_t>(i) * static_cast<size_t>(fixed),
                             static_cast<size_t>(fixed)));
    }
    return true;
  }
  size_t at = 0;
  for (int32_t i = 0; i < type.dimension; ++i) {
    uint64_t n = 0;
    if (!ReadUnsignedVInt(b, at, n) || n > b.size() - at) return false;
    out.push_back(b.substr(at, static_cast<size_t>(n)));
    at += static_cast<size_t>(n);
  }
  return at == b.size();
}

}  // namespace partplay::cql
