// A row's cells packed into one block: see cells.h.
#include "partplay/cassandra/cells.h"

#include <cstring>
#include <utility>

namespace partplay::cql {

namespace {
constexpr uint16_t kWide = 0x8000;        // the first u16 of a wide block
constexpr uint16_t kNull16 = 0x8000;      // a narrow end's null bit
constexpr uint32_t kNull32 = 0x80000000u;  // a wide end's null bit
constexpr size_t kNarrowMax = 0x7fff;     // narrow: fewer cells and bytes than 32,768

template <typename T>
T Get(const char* block, size_t offset) {
  T v;
  std::memcpy(&v, block + offset, sizeof v);
  return v;
}
template <typename T>
void Put(char* block, size_t offset, T v) {
  std::memcpy(block + offset, &v, sizeof v);
}
size_t HeaderBytes(bool wide, size_t count) { return wide ? 8 + 4 * count : 2 + 2 * count; }
}  // namespace

bool Cells::Wide() const { return Get<uint16_t>(block_, 0) == kWide; }

size_t Cells::Count() const {
  return Wide() ? Get<uint32_t>(block_, 4) : Get<uint16_t>(block_, 0);
}

size_t Cells::End(size_t i) const {
  return Wide() ? Get<uint32_t>(block_, 8 + 4 * i) & ~kNull32
                : Get<uint16_t>(block_, 2 + 2 * i) & ~kNull16;
}

bool Cells::IsNull(size_t i) const {
  return Wide() ? (Get<uint32_t>(block_, 8 + 4 * i) & kNull32) != 0
                : (Get<uint16_t>(block_, 2 + 2 * i) & kNull16) != 0;
}

const char* Cells::Data() const { return block_ + HeaderBytes(Wide(), Count()); }

template <typename F>
void Cells::Build(size_t count, F value) {
  if (count == 0) {
    Free();
    return;
  }
  size_t bytes = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::pair<bool, std::string_view> v = value(i);
    if (v.first) bytes += v.second.size();
  }
  const bool wide = count > kNarrowMax || bytes > kNarrowMax;
  const size_t header = HeaderBytes(wide, count);
  char* block = new char[header + bytes];
  if (wide) {
    Put<uint16_t>(block, 0, kWide);
    Put<uint16_t>(block, 2, 0);
    Put<uint32_t>(block, 4, static_cast<uint32_t>(count));
  } else {
    Put<uint16_t>(block, 0, static_cast<uint16_t>(count));
  }
  size_t end = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::pair<bool, std::string_view> v = value(i);
    if (v.first && !v.second.empty()) {
      std::memcpy(block + header + end, v.second.data(), v.second.size());
      end += v.second.size();
    }
    if (wide) {
      Put<uint32_t>(block, 8 + 4 * i, static_cast<uint32_t>(end) | (v.first ? 0 : kNull32));
    } else {
      Put<uint16_t>(block, 2 + 2 * i,
                    static_cast<uint16_t>(end | (v.first ? 0u : uint32_t{kNull16})));
    }
  }
  Free();
  block_ = block;
}

void Cells::Free() {
  delete[] block_;
  block_ = nullptr;
}

Cells::Cells(size_t count) {
  Build(count, [](size_t) { return std::pair<bool, std::string_view>(false, {}); });
}

Cells::Cells(const std::vector<Value>& values) { assign(values); }

Cells::Cells(const Cells& other) {
  if (other.block_ == nullptr) return;
  const size_t total = HeaderBytes(other.Wide(), other.Count()) + other.value_bytes();
  block_ = new char[total];
  std::memcpy(block_, other.block_, total);
}

Cells& Cells::operator=(const Cells& other) {
  if (this != &other) {
    Cells copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Cells& Cells::operator=(Cells&& other) noexcept {
  if (this != &other) {
    Free();
    block_ = other.block_;
    other.block_ = nullptr;
  }
  return *this;
}

Cells::~Cells() { Free(); }

std::string_view Cells::view(size_t i) const {
  const size_t begin = Begin(i);
  return std::string_view(Data() + begin, End(i) - begin);
}

Value Cells::operator[](size_t i) const {
  if (!has(i)) return Value();
  return Value(Bytes(view(i)));
}

bool Cells::any() const {
  const size_t n = size();
  for (size_t i = 0; i < n; ++i) {
    if (has(i)) return true;
  }
  return false;
}

size_t Cells::value_bytes() const {
  const size_t n = size();
  return n == 0 ? 0 : End(n - 1);
}

void Cells::assign(const std::vector<Value>& values) {
  Build(values.size(), [&](size_t i) {
    return values[i] ? std::pair<bool, std::string_view>(true, *values[i])
                     : std::pair<bool, std::string_view>(false, {});
  });
}

void Cells::set(size_t i, const Value& v) {
  // Built from the old block, which Build frees only once the new one is filled.
  Build(size(), [&](size_t k) {
    if (k == i) {
      return v ? std::pair<bool, std::string_view>(true, *v)
               : std::pair<bool, std::string_view>(false, {});
    }
    return std::pair<bool, std::string_view>(has(k), has(k) ? view(k) : std::string_view());
  });
}

std::vector<Value> Cells::values() const {
  std::vector<Value> out;
  const size_t n = size();
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back((*this)[i]);
  return out;
}

}  // namespace partplay::cql
