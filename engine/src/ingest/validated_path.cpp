// The validated path of ItemStream (item_stream.h), apart from the rest of the stream so that a
// module whose sinks never ask for it (the CQL bulk load) links no DOM parser: only
// EnableValidatedPath, called by the analyzer, brings this file in.
#include <algorithm>
#include <new>

#include "ingest/item_stream.h"

namespace partplay::internal {
namespace {

// The DOM batch: an item longer than this is read by the walked path. The parser holds about
// 15 bytes per batch byte (structural indexes, tape, strings).
constexpr size_t kValidatedBatchBytes = 1u << 20;
// Well inside kMaxJsonDepth: a deeper item goes to the walked path, which reports the limit.
constexpr size_t kValidatedDepth = 512;

bool validated_path_enabled = true;

}  // namespace

struct ItemStream::ValidatedState {
  simdjson::dom::parser parser;
};

void SetValidatedPathEnabled(bool enabled) { validated_path_enabled = enabled; }

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
  if (validated_->parser.capacity() < batch) {
    if (validated_->parser.allocate(std::max(batch, kValidatedBatchBytes / 4), kValidatedDepth)) {
      return Status::Ok();  // no memory for the DOM: the walked path needs less
    }
  }
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
    Status s = sink_->OnValidatedItem(root, item, taken);
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
  }
  taken_end = last_end;
  return Status::Ok();
}


}  // namespace partplay::internal
