// A row's regular cells, packed into one heap block (issue 41: the store's bytes per row). A
// std::vector<Value> held a block of one std::optional<std::string> a cell (40 bytes each
// natively, 16 in wasm) and, for a value longer than the string's inline capacity, one more
// block for its bytes: two to three allocations a row. Here every cell's bytes share one block,
// in one of two forms:
//
//   narrow (fewer than 32,768 cells and bytes, the common case): [count: u16] [end of each
//   cell: u16, high bit set for a null] [the cells' bytes, one after the other]
//   wide: [0x8000: u16] [0: u16] [count: u32] [end of each cell: u32, high bit: null] [bytes]
//
// (a null's bytes are empty; a cell's bytes run from the previous cell's end to its own). An
// empty Cells (no cell at all) holds no block. Reading a cell is O(1); writing one rebuilds the
// block (a row's cells are written far less often than read, and most rows are written once,
// whole).
//
//   Cells c(2);            // two nulls
//   c.set(1, Bytes("x"));  // c[1] == Value("x"), c.has(0) == false
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "partplay/cassandra/value.h"

namespace partplay::cql {

class Cells {
 public:
  Cells() = default;
  explicit Cells(size_t count);
  // The cells of `values` (taken by reference: the bytes are copied into the block).
  explicit Cells(const std::vector<Value>& values);
  Cells(const Cells& other);
  Cells(Cells&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  Cells& operator=(const Cells& other);
  Cells& operator=(Cells&& other) noexcept;
  ~Cells();

  size_t size() const { return block_ == nullptr ? 0 : Count(); }
  bool empty() const { return size() == 0; }
  // True if cell `i` holds a value (not null).
  bool has(size_t i) const { return !IsNull(i); }
  // The bytes of cell `i` (empty for a null).
  std::string_view view(size_t i) const;
  // The cell's value, copied (nullopt for a null).
  Value operator[](size_t i) const;
  Value at(size_t i) const { return (*this)[i]; }
  // True if any cell holds a value.
  bool any() const;
  // Every cell's bytes, summed (nulls add nothing).
  size_t value_bytes() const;

  // Cell `i` becomes `v` (the block is rebuilt).
  void set(size_t i, const Value& v);
  void reset(size_t i) { set(i, Value()); }
  // All the cells at once: `values` replaces them (one block built).
  void assign(const std::vector<Value>& values);
  // The values, copied out (for code that rebuilds a row).
  std::vector<Value> values() const;

 private:
  bool Wide() const;
  size_t Count() const;
  size_t End(size_t i) const;
  bool IsNull(size_t i) const;
  size_t Begin(size_t i) const { return i == 0 ? 0 : End(i - 1); }
  const char* Data() const;  // the first cell's bytes
  // Replaces the block with one of `count` cells, cell i `value(i)` (nullptr: null).
  template <typename F>
  void Build(size_t count, F value);
  void Free();

  char* block_ = nullptr;
};

}  // namespace partplay::cql
