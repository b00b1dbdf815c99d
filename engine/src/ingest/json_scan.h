// Internal: a validating stage 2 that builds nothing. It walks simdjson's structural index of one
// document (the batch stage 1 made for DOM parse_many), checks everything simdjson's DOM stage 2
// checks, and reads only the values at a few tracked paths — no tape, no string copies, no number
// conversions for values nobody reads.
//
// It decides a subset: whatever it cannot settle cheaply and exactly (an escaped key on a tracked
// object, an escaped string or a non-integer number at a tracked path, an exotic number anywhere,
// nesting deeper than kMaxScanDepth, anything invalid) answers "unsure", and the DOM's own stage 2
// parses that document (validated_path.cpp), so its errors and values are simdjson's. What it
// accepts, simdjson's DOM accepts too, with the same values (tests/engine/ingest/json_scan_test.cpp
// and the ingest fuzz target compare the three readers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace partplay::internal {

// What a tracked path holds in one document (the first occurrence, as the walks read it).
enum class ScanKind : uint8_t { kMissing, kString, kNumber, kTrue, kFalse, kNull, kObject, kArray };

struct ScanValue {
  ScanKind kind = ScanKind::kMissing;
  double number = 0;      // kNumber: an integer of at most 15 digits, so exact
  std::string_view text;  // kString: its bytes (no escapes), inside the input buffer
};

// The tracked paths, as JSON pointer segments (unescaped); at most 32 paths.
struct ScanPaths {
  std::vector<std::vector<std::string>> segments;
};

// Where the backslashes of one stage 1 batch are, found on demand, left to right: whether a
// string has escapes is then one comparison (most batches have none at all).
class BackslashCursor {
 public:
  void Reset(const uint8_t* buf, size_t len) {
    buf_ = buf;
    len_ = len;
    next_ = Find(0);
  }
  // Whether [from, to) holds a backslash; `from` never goes below an earlier call's.
  bool Any(size_t from, size_t to) {
    if (next_ < from) next_ = Find(from);
    return next_ < to;
  }

 private:
  size_t Find(size_t from) const;
  const uint8_t* buf_ = nullptr;
  size_t len_ = 0;
  size_t next_ = 0;  // the first backslash at or after the last `from`, or len_
};

// Nesting the scanner follows; a deeper document goes to the DOM.
constexpr int kMaxScanDepth = 48;

// Scans the document whose first structural is index `start` of `indexes` (`count` of them,
// offsets into `buf`, which is padded as simdjson requires). True when it is a valid object the
// scanner settled: `values` (one per path) are filled and `next` is the index after it. False:
// unsure, the DOM decides (nothing the caller reads was changed but `values`).
// `backslashes` covers the batch `buf` starts.
bool ScanDocument(const uint8_t* buf, const uint32_t* indexes, uint32_t count, uint32_t start,
                  const ScanPaths& paths, BackslashCursor& backslashes, ScanValue* values,
                  uint32_t& next);

}  // namespace partplay::internal
