// A row's clustering values (issue 41: the store's bytes per row): a vector of Bytes whose one
// value, when it holds one (a table of one clustering column, the common case), lives inline,
// in the row map's node, with no block of its own; two or more live in one heap block as a
// std::vector's would. The same interface as the std::vector<Bytes> it replaces, as far as the
// engine uses it; contiguous (begin() and end() are pointers).
//
//   Clustering c{EncodeInt32(7)};   // no allocation beyond the Bytes' own
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <utility>
#include <vector>

#include "partplay/cassandra/value.h"

namespace partplay::cql {

class Clustering {
 public:
  using value_type = Bytes;
  using size_type = size_t;
  using iterator = Bytes*;
  using const_iterator = const Bytes*;
  using reference = Bytes&;
  using const_reference = const Bytes&;

  Clustering() = default;
  explicit Clustering(size_t n) { resize(n); }
  Clustering(std::initializer_list<Bytes> values) { assign(values.begin(), values.end()); }
  Clustering(const std::vector<Bytes>& values) {  // NOLINT(google-explicit-constructor)
    assign(values.begin(), values.end());
  }
  template <typename It>
  Clustering(It first, It last) {
    assign(first, last);
  }
  Clustering(const Clustering& other) { assign(other.begin(), other.end()); }
  Clustering(Clustering&& other) noexcept { MoveFrom(other); }
  Clustering& operator=(const Clustering& other) {
    if (this != &other) {
      Clustering copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  Clustering& operator=(Clustering&& other) noexcept {
    if (this != &other) {
      Release();
      MoveFrom(other);
    }
    return *this;
  }
  ~Clustering() { Release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Bytes* data() { return heap_ != nullptr ? heap_ : &first_; }
  const Bytes* data() const { return heap_ != nullptr ? heap_ : &first_; }
  Bytes* begin() { return data(); }
  Bytes* end() { return data() + size_; }
  const Bytes* begin() const { return data(); }
  const Bytes* end() const { return data() + size_; }
  Bytes& operator[](size_t i) { return data()[i]; }
  const Bytes& operator[](size_t i) const { return data()[i]; }
  Bytes& front() { return data()[0]; }
  const Bytes& front() const { return data()[0]; }
  Bytes& back() { return data()[size_ - 1]; }
  const Bytes& back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= capacity()) return;
    Bytes* grown = new Bytes[n];
    for (size_t i = 0; i < size_; ++i) grown[i] = std::move(data()[i]);
    delete[] heap_;
    heap_ = grown;
    capacity_ = static_cast<uint32_t>(n);
    first_ = Bytes();
  }
  void resize(size_t n) {
    if (n > capacity()) reserve(n);
    for (size_t i = n; i < size_; ++i) data()[i] = Bytes();  // the values dropped
    for (size_t i = size_; i < n; ++i) data()[i] = Bytes();
    size_ = static_cast<uint32_t>(n);
  }
  void clear() { resize(0); }
  void push_back(const Bytes& v) { emplace_back(v); }
  void push_back(Bytes&& v) { emplace_back(std::move(v)); }
  template <typename... Args>
  Bytes& emplace_back(Args&&... args) {
    Bytes value(std::forward<Args>(args)...);  // before a reserve (args may be one of ours)
    if (size_ == capacity()) reserve(size_ == 0 ? 1 : 2 * static_cast<size_t>(size_));
    Bytes& slot = data()[size_];
    slot = std::move(value);
    ++size_;
    return slot;
  }
  void pop_back() {
    data()[size_ - 1] = Bytes();
    --size_;
  }
  template <typename It>
  void assign(It first, It last) {
    clear();
    reserve(static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  std::vector<Bytes> to_vector() const { return std::vector<Bytes>(begin(), end()); }
  operator std::vector<Bytes>() const { return to_vector(); }  // NOLINT

  friend bool operator==(const Clustering& a, const Clustering& b) {
    if (a.size_ != b.size_) return false;
    for (size_t i = 0; i < a.size_; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  friend bool operator!=(const Clustering& a, const Clustering& b) { return !(a == b); }
  // As std::vector's: lexicographic by the values' bytes (not the clustering order:
  // ClusteringLess is that).
  friend bool operator<(const Clustering& a, const Clustering& b) {
    size_t n = a.size_ < b.size_ ? a.size_ : b.size_;
    for (size_t i = 0; i < n; ++i) {
      if (a[i] != b[i]) return a[i] < b[i];
    }
    return a.size_ < b.size_;
  }

 private:
  size_t capacity() const { return heap_ != nullptr ? capacity_ : 1; }
  void Release() {
    delete[] heap_;
    heap_ = nullptr;
    capacity_ = 0;
    size_ = 0;
    first_ = Bytes();
  }
  void MoveFrom(Clustering& other) {
    heap_ = other.heap_;
    capacity_ = other.capacity_;
    size_ = other.size_;
    first_ = std::move(other.first_);
    other.heap_ = nullptr;
    other.capacity_ = 0;
    other.size_ = 0;
    other.first_ = Bytes();
  }

  Bytes first_;             // the value, while there is at most one
  Bytes* heap_ = nullptr;   // every value, once there are two or more
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;   // of heap_
};

}  // namespace partplay::cql
