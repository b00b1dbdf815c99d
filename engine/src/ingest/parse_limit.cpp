#include "partplay/ingest/parse_limit.h"

#include <fmt/format.h>

#include <algorithm>
#include <new>

#include "ingest/json_implementation.h"
#include "simdjson.h"

namespace partplay {

struct ParseLimitProbe::State {
  simdjson::dom::parser parser;
  std::unique_ptr<uint8_t[]> bytes;
  size_t size = 0;
};

ParseLimitProbe::ParseLimitProbe() : state_(std::make_unique<State>()) {
  UseSimdJsonStage1();  // before the parser allocates (on its first parse)
}
ParseLimitProbe::~ParseLimitProbe() = default;

uint8_t* ParseLimitProbe::Buffer(size_t n) {
  state_->bytes.reset(new (std::nothrow) uint8_t[n + simdjson::SIMDJSON_PADDING]);
  state_->size = state_->bytes ? n : 0;
  if (state_->bytes) std::fill_n(state_->bytes.get() + n, simdjson::SIMDJSON_PADDING, ' ');
  return state_->bytes.get();
}

StatusOr<uint64_t> ParseLimitProbe::Parse(size_t batch_bytes) {
  if (!state_->bytes) return Status(ErrorCode::kInvalidState, "no input buffer");
  simdjson::dom::document_stream docs;
  // No larger than the input: the parser holds about 15 bytes per batch byte.
  size_t batch = std::max<size_t>(std::min(batch_bytes, state_->size),
                                  simdjson::dom::MINIMAL_BATCH_SIZE);
  if (auto e = state_->parser.parse_many(state_->bytes.get(), state_->size, batch).get(docs)) {
    return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
  }
  uint64_t count = 0;
  for (auto it = docs.begin(); it != docs.end(); ++it) {
    if (auto e = (*it).error()) {
      SourceLocation where;
      where.byte_offset = static_cast<int64_t>(it.current_index());
      where.item_index = static_cast<int64_t>(count);
      return Status(ErrorCode::kMalformedJson,
                    fmt::format("document {}: {}", count, simdjson::error_message(e)), where);
    }
    ++count;
  }
  return count;
}

}  // namespace partplay
