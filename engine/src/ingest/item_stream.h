// Internal: frames a byte stream that arrives in chunks into JSON items and hands each one, still
// unparsed, to a sink as a simdjson On Demand document. Owns the one input buffer (bytes are
// written into it once, in place), carries an item cut by a chunk boundary over to the next
// chunk, and turns every failure into a located Status (line, column, byte offset, item index).
//
// Formats: whitespace-separated values (NDJSON) go to simdjson's iterate_many directly; a
// top-level array is scanned for its element boundaries, its separating commas and closing
// bracket blanked out in the buffer, and the elements then go through the same iterate_many path.
//
// Two paths read a region of whole items. The validated path (simdjson DOM parse_many, whose
// stage 2 checks every value once) hands each object to OnValidatedItem, which reads only the
// paths it needs (or every value, where WantsEveryValue) — or, when the scanner (json_scan.h)
// settled the object without a DOM, its values at those paths to OnScannedItem; an item the
// sink declines is walked alone, and it stops at the first item it cannot parse (a DOM error, a
// non-object). The walked path (On Demand iterate_many
// plus the sink's walk, which validates what it visits) reads the rest of the region and
// locates every error exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "ingest/json_scan.h"
#include "partplay/core/status.h"
#include "simdjson.h"

namespace partplay::internal {

enum class InputFormat { kUnknown, kStream, kArray };

// What the sink learns about one item besides its document.
struct ItemContext {
  int64_t index = 0;        // 0-based item number
  uint64_t byte_offset = 0; // absolute offset of its first byte
  std::string_view text;    // its exact JSON text
};

class ItemSink {
 public:
  virtual ~ItemSink() = default;
  // Returns a non-OK status to stop. A status without a location gets the item's location; a
  // status with code kMalformedJson/kInvalidUtf8/kTooDeep is re-located by the strict checker.
  virtual Status OnItem(simdjson::ondemand::document_reference doc, const ItemContext& item) = 0;
  // An object simdjson's DOM parser has validated whole (every value, UTF-8, depth). Sets
  // `taken` when the item was analysed; left false, the item (and the rest of its region) is
  // read again by the walked path through OnItem. Items come in order either way.
  virtual Status OnValidatedItem(simdjson::dom::element root, const ItemContext& item,
                                 bool& taken) {
    (void)root, (void)item;
    taken = false;
    return Status::Ok();
  }
  // The same for an object the scanner settled (json_scan.h; the validated path's own stage 2,
  // which checks what simdjson's DOM checks): `values` holds what each of PathsToScan() holds.
  virtual Status OnScannedItem(const ScanValue* values, const ItemContext& item, bool& taken) {
    (void)values, (void)item;
    taken = false;
    return Status::Ok();
  }
  // The paths OnScannedItem wants, or nullptr: every validated item then goes to the DOM.
  virtual const ScanPaths* PathsToScan() const { return nullptr; }
  // Called once a region's items have all been handed over (also when one failed), while
  // their bytes are still in the buffer: a sink that checks items late does it now.
  virtual void OnRegionDone() {}
  // Whether item `item_index` should reach OnValidatedItem with its whole DOM rather than
  // OnScannedItem with the scanned paths' values (the sink reads every value of it).
  virtual bool WantsEveryValue(int64_t item_index) const {
    (void)item_index;
    return false;
  }
};

// Tests and the differential fuzz target turn the validated path off for the streams made
// after (one process-wide switch; the walked path alone must give the same analysis).
void SetValidatedPathEnabled(bool enabled);
// The same for the scanner inside the validated path (off: the DOM's stage 2 reads every item).
void SetScanEnabled(bool enabled);

class ItemStream {
 public:
  explicit ItemStream(ItemSink* sink);
  // Turns the validated path on (validated_path.cpp; off by default, so a sink that never wants
  // it costs no DOM parser); each region is then read by it first, and walked from the first
  // item it leaves.
  void EnableValidatedPath();

  uint8_t* WritableChunk(size_t n);
  Status CommitChunk(size_t n);
  Status Finish();

  InputFormat format() const { return format_; }
  uint64_t bytes_consumed() const { return consumed_total_; }
  uint64_t input_bytes() const { return input_total_; }
  int64_t items() const { return items_; }
  int64_t items_validated() const { return items_validated_; }
  // Of those, the ones the scanner settled without the DOM (json_scan.h).
  int64_t items_scanned() const { return items_scanned_; }

  // Line and column of an absolute offset that is still in the buffer.
  SourceLocation Locate(uint64_t absolute_offset, int64_t item_index) const;
  // The same for offsets asked in increasing order (every item of a part: see partial_data.h),
  // counting on from the last answer instead of from the buffer's start.
  SourceLocation LocateForward(uint64_t absolute_offset, int64_t item_index);
  // The line and column just past the last byte fed (after Finish).
  SourceLocation EndPosition() const { return Locate(input_total_, -1); }

 private:
  Status Process(bool final);
  Status DetectFormat(bool final);
  Status ScanArray(bool final, size_t& ready_end);
  Status ParseRegion(size_t begin, size_t end, bool final, size_t& parsed_end);
  // The validated path over whole items from `begin`: `taken_end` is just past the last item
  // the sink took (`begin` when none).
  Status ParseValidated(size_t begin, size_t end, size_t& taken_end);
  // The walked path from `begin` to the region's end.
  Status ParseWalked(size_t begin, size_t end, bool final, size_t& parsed_end);
  Status Diagnose(size_t begin, size_t end, int64_t first_item, bool final, Status fallback);
  void Discard(size_t n);
  Status Fail(ErrorCode code, std::string message, size_t buffer_offset, int64_t item_index);
  // The first buffer offset in [p, end) that is not JSON whitespace, or `end`.
  size_t SkipWhitespace(size_t p, size_t end) const;

  ItemSink* sink_;
  simdjson::ondemand::parser parser_;
  struct ValidatedState;  // the DOM parser (validated_path.cpp)
  std::unique_ptr<ValidatedState, void (*)(ValidatedState*)> validated_{nullptr, nullptr};
  std::unique_ptr<uint8_t[]> buf_;
  size_t capacity_ = 0;  // usable bytes, excluding simdjson's padding
  size_t len_ = 0;       // bytes in the buffer
  size_t parsed_ = 0;    // bytes at the front already analyzed
  uint64_t base_offset_ = 0;  // absolute offset of buf_[0]
  int64_t base_line_ = 1, base_column_ = 1;
  uint64_t cursor_offset_ = 0;  // LocateForward's last answer
  int64_t cursor_line_ = 1, cursor_column_ = 1;
  uint64_t consumed_total_ = 0;
  uint64_t input_total_ = 0;
  int64_t items_ = 0;
  int64_t items_validated_ = 0;  // of items_, those the validated path took
  int64_t items_scanned_ = 0;    // of those, the scanner's
  InputFormat format_ = InputFormat::kUnknown;
  bool finished_ = false;
  Status failed_;
  size_t diagnose_threshold_ = 4u << 20;  // carry size at which a stuck stream is checked

  // Array scanner state, valid at scan_pos_ (always between elements or inside the element
  // that starts at element_start_).
  enum class Expect { kFirstValue, kValue, kCommaOrClose, kDone };
  Expect expect_ = Expect::kFirstValue;
  size_t scan_pos_ = 0;
};

}  // namespace partplay::internal
