// A row's cells packed into one block: see cells.h.
#include "partplay/cassandra/cells.h"

#include <cstring>

namespace partplay::cql {

namespace {
void Put(char* block, size_t i, uint32_t v) { std::memcpy(block + 4 * i, &v, 4); }
}  // namespace

uint32_t Cells::Header(size_t i) const {
  uint32_t v;
  std::memcpy(&v, block_ + 4 * i, 4);
  return v;
}

size_t Cells::Begin(size_t i) const { return i == 0 ? 0 : End(i - 1); }

const char* Cells::Data() const { return block_ + 4 * (1 + Header(0)); }

char* Cells::Allocate(size_t count, size_t bytes) {
  char* block = new char[4 * (1 + count) + bytes];
  Put(block, 0, static_cast<uint32_t>(count));
  return block;
}

void Cells::Free() {
  delete[] block_;
  block_ = nullptr;
}

Cells::Cells(size_t count) {
  if (count == 0) return;
  block_ = Allocate(count, 0);
  for (size_t i = 0; i < count; ++i) Put(block_, 1 + i, kNull);
}

Cells::Cells(const std::vector<Value>& values) { assign(values); }

Cells::Cells(const Cells& other) {
  if (other.block_ == nullptr) return;
  const size_t n = other.size();
  const size_t total = 4 * (1 + n) + (n == 0 ? 0 : other.End(n - 1));
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
  size_t bytes = 0;
  for (const Value& v : values) bytes += v ? v->size() : 0;
  char* block = values.empty() ? nullptr : Allocate(values.size(), bytes);
  char* data = block == nullptr ? nullptr : block + 4 * (1 + values.size());
  size_t end = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) {
      if (!values[i]->empty()) std::memcpy(data + end, values[i]->data(), values[i]->size());
      end += values[i]->size();
      Put(block, 1 + i, static_cast<uint32_t>(end));
    } else {
      Put(block, 1 + i, static_cast<uint32_t>(end) | kNull);
    }
  }
  Free();
  block_ = block;
}

void Cells::set(size_t i, const Value& v) {
  const size_t n = size();
  const size_t old_bytes = value_bytes();
  const size_t old_len = End(i) - Begin(i);
  const size_t new_len = v ? v->size() : 0;
  const size_t bytes = old_bytes - old_len + new_len;
  char* block = Allocate(n, bytes);
  char* data = block + 4 * (1 + n);
  const char* old = Data();
  const size_t begin = Begin(i);
  // The cells before i, cell i, the cells after it.
  if (begin > 0) std::memcpy(data, old, begin);
  if (new_len > 0) std::memcpy(data + begin, v->data(), new_len);
  const size_t tail = old_bytes - End(i);
  if (tail > 0) std::memcpy(data + begin + new_len, old + End(i), tail);
  for (size_t k = 0; k < n; ++k) {
    uint32_t h = Header(1 + k);
    if (k == i) {
      h = static_cast<uint32_t>(begin + new_len) | (v ? 0 : kNull);
    } else if (k > i) {
      const uint32_t null = h & kNull;
      h = static_cast<uint32_t>((h & ~kNull) - old_len + new_len) | null;
    }
    Put(block, 1 + k, h);
  }
  Free();
  block_ = block;
}

std::vector<Value> Cells::values() const {
  std::vector<Value> out;
  const size_t n = size();
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back((*this)[i]);
  return out;
}

}  // namespace partplay::cql
