// The validated path of ItemStream (item_stream.h), apart from the rest of the stream so that a
// module whose sinks never ask for it (the CQL bulk load) links no DOM parser: only
// EnableValidatedPath, called by the analyzer, brings this file in.
#include <algorithm>
#include <memory>
#include <new>
#include <vector>

#include "ingest/item_stream.h"
#include "ingest/json_implementation.h"

namespace partplay::internal {
namespace {

// The DOM batch: an item longer than this is read by the walked path. The parser holds about
// 15 bytes per batch byte (structural indexes, tape, strings).
constexpr size_t kValidatedBatchBytes = 1u << 20;
// Well inside kMaxJsonDepth: a deeper item goes to the walked path, which reports the limit.
constexpr size_t kValidatedDepth = 512;

bool validated_path_enabled = true;
bool scan_enabled = true;

using simdjson::error_code;
using Base = simdjson::internal::dom_parser_implementation;

// The active implementation's DOM parser with the scanner (json_scan.h) in front of its stage 2:
// each document the scanner settles costs no tape; any other goes to the inner stage 2, which
// builds its DOM (or names its error) as always.
class ScanningParser final : public ForwardingParser {
 public:
  ScanningParser(std::unique_ptr<Base> inner, const ScanPaths* paths)
      : ForwardingParser(std::move(inner)), paths_(paths), values_(paths->segments.size()) {}

  // Whether the last stage2_next was settled by the scanner, and what it found.
  bool scanned() const { return scanned_; }
  // Whether the next documents may be settled by the scanner (else each gets its DOM).
  void set_scan(bool scan) { scan_ = scan; }
  const ScanValue* values() const { return values_.data(); }

  error_code stage1(const uint8_t* buf, size_t len, simdjson::stage1_mode mode) noexcept override {
    buf_ = buf;
    backslashes_.Reset(buf, len);
    return ForwardingParser::stage1(buf, len, mode);
  }
  error_code stage2(simdjson::dom::document& doc) noexcept override {
    scanned_ = false;
    return ForwardingParser::stage2(doc);
  }
  error_code stage2_next(simdjson::dom::document& doc) noexcept override {
    uint32_t next = 0;
    scanned_ = scan_enabled && scan_ && buf_ != nullptr &&
               ScanDocument(buf_, structural_indexes.get(), n_structural_indexes,
                            next_structural_index, *paths_, backslashes_, values_.data(), next);
    if (scanned_) {
      next_structural_index = next;
      return simdjson::SUCCESS;
    }
    return ForwardingParser::stage2_next(doc);
  }

 private:
  const ScanPaths* paths_;
  std::vector<ScanValue> values_;
  const uint8_t* buf_ = nullptr;  // the batch stage 1 last indexed
  BackslashCursor backslashes_;   // its backslashes
  bool scanned_ = false;
  bool scan_ = true;
};

}  // namespace

struct ItemStream::ValidatedState {
  simdjson::dom::parser parser;
  ScanningParser* scanner = nullptr;  // the parser's implementation, when the sink scans
};

void SetValidatedPathEnabled(bool enabled) { validated_path_enabled = enabled; }
void SetScanEnabled(bool enabled) { scan_enabled = enabled; }

void ItemStream::EnableValidatedPath() {
  if (!validated_path_enabled || validated_) return;
  validated_ = std::unique_ptr<ValidatedState, void (*)(ValidatedState*)>(
      new (std::nothrow) ValidatedState, [](ValidatedState* s) { delete s; });
}

Status ItemStream::ParseValidated(size_t begin, size_t end, size_t& taken_end) {
  taken_end = begin;
  const uint8_t* b = buf_.get();
  // parse_many skips a byte order mark at its start (and would shift every index): the walked
  // path reads such a region.
  if (end - begin < 3 || (b[begin] == 0xEF && b[begin + 1] == 0xBB && b[begin + 2] == 0xBF)) {
    return Status::Ok();
  }
  size_t n = end - begin;
  size_t batch = std::min(std::max(n, size_t{4096}), kValidatedBatchBytes);
  // One of two sizes, so regions a few bytes apart never make the parser reallocate (and touch
  // fresh pages) again.
  size_t capacity =
      batch <= kValidatedBatchBytes / 4 ? kValidatedBatchBytes / 4 : kValidatedBatchBytes;
  if (!validated_->parser.implementation) {
    // The scanning parser, when the sink names paths (else simdjson makes its own on allocate).
    if (const ScanPaths* paths = sink_->PathsToScan()) {
      std::unique_ptr<Base> inner;
      if (simdjson::get_active_implementation()->create_dom_parser_implementation(
              capacity, kValidatedDepth, inner)) {
        return Status::Ok();  // no memory for the DOM: the walked path needs less
      }
      auto* scanner = new (std::nothrow) ScanningParser(std::move(inner), paths);
      if (scanner == nullptr) return Status::Ok();
      validated_->parser.implementation.reset(scanner);
      validated_->scanner = scanner;
    }
  }
  if (validated_->parser.capacity() < batch) {
    if (validated_->parser.allocate(capacity, kValidatedDepth)) {
      return Status::Ok();  // no memory for the DOM: the walked path needs less
    }
  }
  // The scanner settles a document in stage2_next, before the loop below sees it: whether the
  // sink wants the next item's whole DOM is set before each.
  auto next_wants_dom = [&]() {
    if (validated_->scanner != nullptr) {
      validated_->scanner->set_scan(!sink_->WantsEveryValue(items_));
    }
  };
  next_wants_dom();
  simdjson::dom::document_stream docs;
  if (validated_->parser.parse_many(b + begin, n, batch).get(docs)) return Status::Ok();
  size_t last_end = begin;
  for (auto it = docs.begin(); it != docs.end(); ++it) {
    simdjson::dom::element root;
    if ((*it).get(root)) break;  // the walked path reports it, located
    size_t doc_at = begin + it.current_index();
    std::string_view source = it.source();
    // Only an object that starts where the walked path would look for the next item, and ends
    // inside the region, is taken.
    if (source.size() < 2 || source.front() != '{' || source.back() != '}' ||
        doc_at != SkipWhitespace(last_end, end) || doc_at + source.size() > end) {
      break;
    }
    ItemContext item;
    item.index = items_;
    item.byte_offset = base_offset_ + doc_at;
    item.text = source;
    bool taken = false;
    bool scanned = validated_->scanner != nullptr && validated_->scanner->scanned();
    Status s = scanned ? sink_->OnScannedItem(validated_->scanner->values(), item, taken)
                       : sink_->OnValidatedItem(root, item, taken);
    if (!s.ok()) {
      taken_end = last_end;
      if (s.where().known()) {
        failed_ = s;
        return s;
      }
      return Fail(s.code(), s.message(), doc_at, items_);
    }
    if (taken) {
      ++items_validated_;
      if (scanned) ++items_scanned_;
    } else {
      // The sink wants this item walked: walk it alone (its bytes are all inside the region,
      // whose padding is blanked) and go on with the DOM stream. Should the walk fail, the
      // walked path reads the region from this item and reports the error as it always does.
      simdjson::ondemand::document doc;
      if (parser_.iterate(source.data(), source.size(), end - doc_at + simdjson::SIMDJSON_PADDING)
              .get(doc) ||
          !sink_->OnItem(doc, item).ok()) {
        break;
      }
    }
    ++items_;
    last_end = doc_at + source.size();
    next_wants_dom();
  }
  taken_end = last_end;
  return Status::Ok();
}


}  // namespace partplay::internal
