#include "ingest/item_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "ingest/json_implementation.h"
#include "partplay/ingest/analysis.h"
#include "partplay/core/json_diagnostics.h"

namespace partplay::internal {
namespace {

constexpr size_t kInitialCapacity = 1u << 20;

bool IsWhitespace(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A number that reaches the end of the bytes arrived so far may go on in the next chunk ("0"
// then "0x"), and the error it then gets must not depend on where the chunk ended: wait for it.
bool NumberMayContinue(uint8_t first, size_t value_end, size_t end, bool final) {
  return !final && value_end >= end && (first == '-' || (first >= '0' && first <= '9'));
}

// The JSON type a value starting with `c` has, for "is a number, not an object" messages.
const char* TypeOfFirstByte(uint8_t c) {
  switch (c) {
    case '[': return "an array";
    case '"': return "a string";
    case 't': case 'f': return "a boolean";
    case 'n': return "null";
    default: return (c == '-' || (c >= '0' && c <= '9')) ? "a number" : nullptr;
  }
}

ErrorCode CodeOf(simdjson::error_code e) {
  switch (e) {
    case simdjson::UTF8_ERROR: return ErrorCode::kInvalidUtf8;
    case simdjson::DEPTH_ERROR: return ErrorCode::kTooDeep;
    case simdjson::MEMALLOC: return ErrorCode::kOutOfMemory;
    case simdjson::CAPACITY: return ErrorCode::kItemTooLarge;
    default: return ErrorCode::kMalformedJson;
  }
}

}  // namespace

ItemStream::ItemStream(ItemSink* sink)
    : sink_(sink), parser_(simdjson::SIMDJSON_MAXSIZE_BYTES) {
  UseSimdJsonStage1();  // before any parser allocates (they do so on first use)
}

uint8_t* ItemStream::WritableChunk(size_t n) {
  if (len_ + n > capacity_ || buf_ == nullptr) {  // a fresh stream has no buffer yet
    size_t want = std::max({len_ + n, capacity_ * 2, kInitialCapacity});
    auto* fresh = new (std::nothrow) uint8_t[want + simdjson::SIMDJSON_PADDING];
    if (fresh == nullptr) return nullptr;
    if (len_) std::memcpy(fresh, buf_.get(), len_);
    buf_.reset(fresh);
    capacity_ = want;
  }
  return buf_.get() + len_;
}

Status ItemStream::CommitChunk(size_t n) {
  if (!failed_.ok()) return failed_;
  if (finished_) return Status(ErrorCode::kInvalidState, "input fed after finish");
  if (len_ + n > capacity_) {
    return Status(ErrorCode::kInvalidState, "committed more bytes than WritableChunk offered");
  }
  len_ += n;
  input_total_ += n;
  return Process(false);
}

Status ItemStream::Finish() {
  if (!failed_.ok()) return failed_;
  if (finished_) return Status(ErrorCode::kInvalidState, "finish called twice");
  if (WritableChunk(0) == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory");
  finished_ = true;
  PARTPLAY_RETURN_IF_ERROR(Process(true));
  // Nothing is parsed after the end: the parsers' buffers (~20 MB with the DOM's) go before
  // the report is built.
  validated_.reset();
  parser_ = simdjson::ondemand::parser();
  return Status::Ok();
}

SourceLocation ItemStream::Locate(uint64_t absolute_offset, int64_t item_index) const {
  SourceLocation where;
  where.byte_offset = static_cast<int64_t>(absolute_offset);
  where.item_index = item_index;
  where.line = base_line_;
  where.column = base_column_;
  size_t rel = static_cast<size_t>(absolute_offset - base_offset_);
  AdvanceLineColumn(std::string_view(reinterpret_cast<const char*>(buf_.get()), len_), rel,
                    where.line, where.column);
  return where;
}

SourceLocation ItemStream::LocateForward(uint64_t absolute_offset, int64_t item_index) {
  if (cursor_offset_ < base_offset_ || cursor_offset_ > absolute_offset) {
    cursor_offset_ = base_offset_;
    cursor_line_ = base_line_;
    cursor_column_ = base_column_;
  }
  size_t from = static_cast<size_t>(cursor_offset_ - base_offset_);
  AdvanceLineColumn(std::string_view(reinterpret_cast<const char*>(buf_.get()) + from, len_ - from),
                    static_cast<size_t>(absolute_offset - cursor_offset_), cursor_line_,
                    cursor_column_);
  cursor_offset_ = absolute_offset;
  SourceLocation where;
  where.byte_offset = static_cast<int64_t>(absolute_offset);
  where.item_index = item_index;
  where.line = cursor_line_;
  where.column = cursor_column_;
  return where;
}

Status ItemStream::Fail(ErrorCode code, std::string message, size_t buffer_offset,
                        int64_t item_index) {
  failed_ = Status(code, std::move(message), Locate(base_offset_ + buffer_offset, item_index));
  return failed_;
}

size_t ItemStream::SkipWhitespace(size_t p, size_t end) const {
  while (p < end && IsWhitespace(buf_[p])) ++p;
  return p;
}

void ItemStream::Discard(size_t n) {
  if (n == 0) return;
  AdvanceLineColumn(std::string_view(reinterpret_cast<const char*>(buf_.get()), len_), n,
                    base_line_, base_column_);
  std::memmove(buf_.get(), buf_.get() + n, len_ - n);
  len_ -= n;
  base_offset_ += n;
  parsed_ -= n;
  scan_pos_ = scan_pos_ >= n ? scan_pos_ - n : 0;
}

Status ItemStream::Process(bool final) {
  if (format_ == InputFormat::kUnknown) {
    PARTPLAY_RETURN_IF_ERROR(DetectFormat(final));
    if (format_ == InputFormat::kUnknown) return Status::Ok();  // only whitespace so far
  }
  size_t region_end = len_;
  Status scan_error;  // a problem the array scanner found after region_end: reported once the
                      // complete elements before it are parsed, so the first bad byte wins
  if (format_ == InputFormat::kArray) {
    scan_error = ScanArray(final, region_end);
    region_end = scan_pos_;  // the end of the last complete element, also after an error
    if (!scan_error.ok()) failed_ = Status();
  } else if (!final) {
    // End the region after the last newline (else the last whitespace): never inside a token or
    // a UTF-8 character, where simdjson's handling of a cut differs between its kernels.
    const uint8_t* b = buf_.get();
    while (region_end > parsed_ && b[region_end - 1] != '\n') --region_end;
    if (region_end == parsed_) {
      region_end = len_;
      while (region_end > parsed_ && !IsWhitespace(b[region_end - 1])) --region_end;
    }
  }
  size_t parsed_end = parsed_;
  PARTPLAY_RETURN_IF_ERROR(ParseRegion(parsed_, region_end, final, parsed_end));
  if (format_ == InputFormat::kArray) {
    // The region holds whole elements only, so an element simdjson left unparsed is broken.
    size_t p = SkipWhitespace(parsed_end, region_end);
    if (p < region_end) {
      return Diagnose(p, region_end, items_, true,
                      Status(ErrorCode::kMalformedJson, "an array element is not valid JSON"));
    }
    if (!scan_error.ok()) {
      failed_ = scan_error;
      return failed_;
    }
  }
  parsed_ = parsed_end;

  size_t rest = SkipWhitespace(parsed_, len_);
  if (final) {
    if (rest < len_) {
      return Diagnose(parsed_, len_, items_, true,
                      Status(ErrorCode::kTruncatedInput, "the input ends inside an item"));
    }
    if (format_ == InputFormat::kArray && expect_ != Expect::kDone) {
      return Fail(ErrorCode::kTruncatedInput, "the input ends inside the array (no closing ']')",
                  len_, items_);
    }
  } else if (len_ - parsed_ > diagnose_threshold_) {
    // A carried-over "item" this large is more often a syntax error that hides the end of every
    // following item (an unbalanced '{'); the strict checker tells which.
    PARTPLAY_RETURN_IF_ERROR(Diagnose(parsed_, len_, items_, false, Status::Ok()));
    if (len_ - parsed_ > kMaxBufferedItemBytes) {
      return Fail(ErrorCode::kItemTooLarge,
                  fmt::format("an item larger than {} bytes cannot be analyzed",
                              kMaxBufferedItemBytes),
                  parsed_, items_);
    }
    diagnose_threshold_ *= 2;
  }
  Discard(parsed_);
  consumed_total_ = final ? input_total_ : base_offset_;
  return Status::Ok();
}

Status ItemStream::DetectFormat(bool final) {
  size_t p = parsed_;
  static constexpr uint8_t kBom[] = {0xEF, 0xBB, 0xBF};  // RFC 8259 lets parsers ignore it
  if (base_offset_ == 0 && p == 0) {
    size_t have = std::min<size_t>(len_, 3);
    if (have > 0 && std::memcmp(buf_.get(), kBom, have) == 0) {
      if (have < 3 && !final) return Status::Ok();  // wait for the rest of a possible BOM
      if (have == 3) p = 3;
    }
  }
  p = SkipWhitespace(p, len_);
  if (p == len_) {
    parsed_ = p;
    if (final) return Fail(ErrorCode::kEmptyInput, "the input is empty (no JSON value)", p, -1);
    return Status::Ok();
  }
  uint8_t c = buf_[p];
  if (c == '[') {
    format_ = InputFormat::kArray;
    parsed_ = scan_pos_ = p + 1;
    buf_[p] = ' ';  // the array's brackets and commas are blanked out: elements stay in place
    return Status::Ok();
  }
  if (c == '{') {
    format_ = InputFormat::kStream;
    parsed_ = p;
    return Status::Ok();
  }
  if (const char* type = TypeOfFirstByte(c)) {
    return Fail(ErrorCode::kNotAnObject,
                fmt::format("the input is {}; expected an object, an array of objects, or "
                            "one object per line (NDJSON)",
                            type),
                p, 0);
  }
  return Diagnose(p, len_, 0, final, Status::Ok());
}

Status ItemStream::ScanArray(bool final, size_t& ready_end) {
  uint8_t* b = buf_.get();
  size_t p = scan_pos_;
  Expect expect = expect_;
  int64_t element = items_;  // index of the next element
  while (p < len_) {
    uint8_t c = b[p];
    if (IsWhitespace(c)) {
      ++p;
      continue;
    }
    if (expect == Expect::kDone) {
      return Fail(ErrorCode::kMalformedJson, "unexpected content after the end of the array", p,
                  -1);
    }
    if (expect == Expect::kCommaOrClose) {
      if (c != ',' && c != ']') {
        return Fail(ErrorCode::kMalformedJson,
                    fmt::format("expected ',' or ']' after array element {}", element - 1), p,
                    element - 1);
      }
      expect = c == ',' ? Expect::kValue : Expect::kDone;
      b[p++] = ' ';
      scan_pos_ = p;
      expect_ = expect;
      continue;
    }
    if (c == ']') {
      if (expect == Expect::kValue) {
        return Fail(ErrorCode::kMalformedJson,
                    "expected a value after ',' but found ']' (a trailing comma)", p, element);
      }
      b[p++] = ' ';
      scan_pos_ = p;
      expect_ = expect = Expect::kDone;
      continue;
    }
    if (c != '{') {
      if (const char* type = TypeOfFirstByte(c)) {
        return Fail(ErrorCode::kNotAnObject,
                    fmt::format("array element {} is {}, not an object", element, type), p,
                    element);
      }
      return Diagnose(p, len_, element, final, Status::Ok());
    }
    // Find the element's end: depth and strings only; simdjson validates the rest.
    size_t q = p + 1;
    int depth = 1;
    bool in_string = false;
    while (q < len_) {
      uint8_t ch = b[q];
      if (in_string) {
        if (ch == '\\') {
          q += 2;
          continue;
        }
        if (ch == '"') in_string = false;
      } else if (ch == '"') {
        in_string = true;
      } else if (ch == '{' || ch == '[') {
        ++depth;
      } else if (ch == '}' || ch == ']') {
        if (--depth == 0) {
          ++q;
          break;
        }
      }
      ++q;
    }
    if (depth != 0 || q > len_) break;  // the element continues in the next chunk
    p = q;
    ++element;
    scan_pos_ = p;
    expect_ = expect = Expect::kCommaOrClose;
  }
  ready_end = scan_pos_;
  return Status::Ok();
}

Status ItemStream::ParseRegion(size_t begin, size_t end, bool final, size_t& parsed_end) {
  parsed_end = begin;
  if (begin >= end) return Status::Ok();
  // simdjson reads up to SIMDJSON_PADDING bytes past the region and must see padding there, not
  // the next item's bytes (a '}' there could close a broken item): blank them while it parses.
  uint8_t saved[simdjson::SIMDJSON_PADDING];
  std::memcpy(saved, buf_.get() + end, sizeof saved);
  std::memset(buf_.get() + end, ' ', sizeof saved);
  struct Restore {
    uint8_t* at;
    const uint8_t* from;
    ~Restore() { std::memcpy(at, from, simdjson::SIMDJSON_PADDING); }
  } restore{buf_.get() + end, saved};
  struct RegionDone {
    ItemSink* sink;
    ~RegionDone() { sink->OnRegionDone(); }
  } done{sink_};
  size_t from = begin;
  if (validated_) PARTPLAY_RETURN_IF_ERROR(ParseValidated(from, end, from));
  parsed_end = from;
  // Nothing left but whitespace: it stays unconsumed, as after the walked path.
  if (SkipWhitespace(from, end) == end) return Status::Ok();
  // After an item the validated path refused, the walk reads the region to its end.
  return ParseWalked(from, end, final, parsed_end);
}

Status ItemStream::ParseWalked(size_t begin, size_t end, bool final, size_t& parsed_end) {
  parsed_end = begin;
  size_t n = end - begin;
  const uint8_t* base = buf_.get() + begin;
  // iterate_many skips a byte order mark at its start, which here is not the input's start (that
  // one DetectFormat skips): a mark between items is an error, the strict checker's to name.
  if (n >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF) {
    return Diagnose(begin, end, items_, true,
                    Status(ErrorCode::kMalformedJson, "a byte order mark between items"));
  }
  simdjson::ondemand::document_stream stream;
  // One batch for the whole region: simdjson then treats it as the final batch and reports an
  // item cut at the region's end through truncated_bytes() instead of failing.
  size_t batch = std::max({n, parser_.capacity(), size_t(64)});
  auto error = parser_.iterate_many(base, n, batch).get(stream);
  if (error) {
    return Fail(CodeOf(error), simdjson::error_message(error), begin, items_);
  }
  size_t last_end = begin;  // just past the last complete item
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    auto doc = *it;
    // current_index() of a batch's first document is the batch start, whitespace included.
    size_t doc_at = SkipWhitespace(begin + it.current_index(), end);
    if (doc.error()) {
      // OK from Diagnose: the item goes on in the next chunk; the items before it are done.
      // The item starts after the last complete one: simdjson's index of a broken document can
      // point inside it (an invalid UTF-8 byte after a \u escape; found by fuzzing).
      parsed_end = last_end;
      return Diagnose(SkipWhitespace(last_end, end), end, items_, final,
                      Status(CodeOf(doc.error()), simdjson::error_message(doc.error())));
    }
    ItemContext item;
    item.index = items_;
    item.byte_offset = base_offset_ + doc_at;
    std::string_view source = it.source();  // ends at the item's last byte
    // A document simdjson could not delimit (a stray NUL after whitespace) can end before doc_at:
    // its text is then empty, never a wrapped-around length (found by fuzzing).
    size_t item_end = begin + it.current_index() + source.size();
    item.text = std::string_view(reinterpret_cast<const char*>(buf_.get()) + doc_at,
                                 item_end > doc_at ? item_end - doc_at : 0);
    Status s = sink_->OnItem(doc.value_unsafe(), item);
    if (!s.ok()) {
      if (s.code() == ErrorCode::kMalformedJson || s.code() == ErrorCode::kInvalidUtf8 ||
          s.code() == ErrorCode::kTooDeep) {
        // An item simdjson could not delimit (a stray NUL byte) is read up to the region's end.
        return Diagnose(doc_at, item.text.empty() ? end : doc_at + item.text.size(), items_,
                        true, s);
      }
      if (s.code() == ErrorCode::kNotAnObject && !s.where().known()) {
        // simdjson typed the value from its first byte: the strict checker reads it whole, so
        // a bad number ("00") gets its own error wherever the chunks ended.
        parsed_end = last_end;
        return Diagnose(doc_at, end, items_, final, s);
      }
      if (s.where().known()) {
        failed_ = s;
        return s;
      }
      return Fail(s.code(), s.message(), doc_at, items_);
    }
    ++items_;
    last_end = doc_at + item.text.size();
    if (last_end > end) return Fail(ErrorCode::kInternal, "an item ran past its region", doc_at, items_);
  }
  // Not end - truncated_bytes(): the SIMD kernels first trim a UTF-8 character cut at the
  // region's end, and truncated_bytes() then counts from the trimmed end.
  parsed_end = last_end;
  return Status::Ok();
}

Status ItemStream::Diagnose(size_t begin, size_t end, int64_t first_item, bool final,
                            Status fallback) {
  std::string_view all(reinterpret_cast<const char*>(buf_.get()), end);
  size_t p = begin;
  int64_t item = first_item;
  while (true) {
    p = SkipWhitespace(p, end);
    if (p >= end) break;
    JsonDiagnosis d = DiagnoseJsonValue(all.substr(p));
    if (d.found) {
      if (d.code == ErrorCode::kTruncatedInput && !final) return Status::Ok();
      if (d.code == ErrorCode::kTooDeep) {
        d.message += " (the parser's limit)";
      }
      return Fail(d.code, d.message, p + d.offset, item);
    }
    if (buf_[p] != '{') {
      if (NumberMayContinue(buf_[p], p + d.value_end, end, final)) return Status::Ok();
      return Fail(ErrorCode::kNotAnObject,
                  fmt::format("item {} is {}, not an object", item, TypeOfFirstByte(buf_[p])),
                  p, item);
    }
    p += d.value_end;
    ++item;
  }
  if (fallback.ok()) return fallback;
  return Fail(fallback.code(), fallback.message(), begin, first_item);
}

}  // namespace partplay::internal
