// CSV as cqlsh's COPY and dsbulk write it: fields separated by a delimiter (','), optionally in
// quotes ('"') with the quote doubled or escaped ('\') inside, records ending at a newline (LF or
// CRLF) outside quotes, so a quoted field may hold newlines. Every field knows where it starts
// (line and column, 1-based, columns in bytes, and the byte offset) so a bad value is reported
// where it is; the reader's own errors (an unterminated quote, text after a closing quote, a field
// or record over the limits of core/limits.h) are located the same way.
//
// The input is either whole (the first constructor) or fed in pieces (the second: WritableChunk /
// CommitChunk or Append, then Finish). Fed in pieces, Read answers kNeedMore when the buffered
// bytes end inside a record (a chunk may end anywhere: inside quotes, between '\r' and '\n', in a
// UTF-8 sequence); the reader then stays at the record's start and keeps only the bytes from
// there. Locations are always in whole-input coordinates, so any split reads the same records.
//
//   CsvReader r(text, CsvOptions{});
//   std::vector<CsvField> record;
//   while (true) { StatusOr<bool> more = r.Next(record); if (!more.ok() || !*more) break; ... }
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cql {

struct CsvOptions {
  char delimiter = ',';
  char quote = '"';
  char escape = '\\';
};

struct CsvField {
  std::string text;     // unquoted and unescaped
  bool quoted = false;  // written in quotes ("" is an empty string, nothing is null)
  SourceLocation where;
};

class CsvReader {
 public:
  enum class Step { kRecord, kEnd, kNeedMore };

  // The whole input (it must outlive the reader).
  CsvReader(std::string_view data, CsvOptions options);
  // An input fed in pieces; Finish says there is no more.
  explicit CsvReader(CsvOptions options);

  // Room for n more bytes, valid until the next call; CommitChunk(k <= n) adds the k written.
  uint8_t* WritableChunk(size_t n);
  void CommitChunk(size_t n);
  void Append(std::string_view bytes);
  void Finish();

  // The next record into `fields`: kRecord, kEnd (the finished input has no more), or kNeedMore
  // (the bytes fed so far end inside the next record; feed more or Finish, then read again).
  StatusOr<Step> Read(std::vector<CsvField>& fields);
  // The whole-input form: true for a record, false at the end of the data (a last empty line is
  // no record).
  StatusOr<bool> Next(std::vector<CsvField>& fields);

  // The line the next record starts on.
  int64_t line() const { return line_; }
  // Bytes of the input read into records so far.
  uint64_t bytes_consumed() const { return base_ + at_; }
  // Lines read into records so far (a last line without a newline counts once it is read).
  int64_t lines_read() const { return line_ - 1 + (base_ + at_ > line_start_ ? 1 : 0); }

 private:
  SourceLocation Here() const;
  // The length of the newline at data_[i] (1 or 2), 0 for none, -1 when a '\r' ends the bytes fed
  // so far and the input is not finished.
  int NewlineAt(size_t i) const;

  CsvOptions options_;
  std::string buffer_;     // fed in pieces: the bytes from the current record on
  std::string_view data_;  // the bytes readable now (the whole input, or buffer_)
  uint64_t base_ = 0;      // whole-input offset of data_[0]
  size_t at_ = 0;          // in data_
  int64_t line_ = 1;
  uint64_t line_start_ = 0;  // whole-input offset of the current line's first byte
  bool final_ = true;
  bool bom_checked_ = false;
  // Fed in pieces, a record is read again only once the input has grown by as much as was
  // buffered for it, so a record spanning many chunks costs linear time.
  uint64_t retry_at_total_ = 0;
};

}  // namespace partplay::cql
