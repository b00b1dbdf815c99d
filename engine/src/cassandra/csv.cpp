#include "partplay/cassandra/csv.h"

#include <fmt/format.h>

#include <cstring>

#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

Status FieldTooLong(const CsvField& f) {
  return Status(ErrorCode::kCqlBadLiteral,
                fmt::format("a CSV field of more than {} bytes (from line {}, column {})",
                            kCsvMaxFieldBytes, f.where.line, f.where.column),
                f.where);
}

}  // namespace

CsvReader::CsvReader(std::string_view data, CsvOptions options)
    : options_(options), data_(data), final_(true) {}

CsvReader::CsvReader(CsvOptions options) : options_(options), final_(false) {}

uint8_t* CsvReader::WritableChunk(size_t n) {
  // Only the committed bytes from the current record on are kept.
  size_t filled = data_.size() - at_;
  buffer_.resize(data_.size());
  buffer_.erase(0, at_);
  base_ += at_;
  at_ = 0;
  buffer_.resize(filled + n);
  data_ = std::string_view(buffer_.data(), filled);
  return reinterpret_cast<uint8_t*>(buffer_.data() + filled);
}

void CsvReader::CommitChunk(size_t n) {
  size_t filled = data_.size();
  if (n > buffer_.size() - filled) n = buffer_.size() - filled;
  buffer_.resize(filled + n);
  data_ = std::string_view(buffer_.data(), buffer_.size());
}

void CsvReader::Append(std::string_view bytes) {
  uint8_t* at = WritableChunk(bytes.size());
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  CommitChunk(bytes.size());
}

void CsvReader::Finish() { final_ = true; }

SourceLocation CsvReader::Here() const {
  SourceLocation w;
  w.byte_offset = static_cast<int64_t>(base_ + at_);
  w.line = line_;
  w.column = static_cast<int64_t>(base_ + at_ - line_start_) + 1;
  return w;
}

int CsvReader::NewlineAt(size_t i) const {
  if (data_[i] == '\n') return 1;
  if (data_[i] != '\r') return 0;
  if (i + 1 < data_.size()) return data_[i + 1] == '\n' ? 2 : 0;
  return final_ ? 0 : -1;
}

StatusOr<bool> CsvReader::Next(std::vector<CsvField>& fields) {
  PARTPLAY_ASSIGN_OR_RETURN(Step step, Read(fields));
  return step == Step::kRecord;
}

StatusOr<CsvReader::Step> CsvReader::Read(std::vector<CsvField>& fields) {
  // The record is read over `fields`' own fields, whose strings keep their capacity from record
  // to record (a load reading into one vector allocates nothing per field); at every return
  // `fields` holds the fields read, as many as were read (none unless a record was).
  size_t n = 0;  // fields read
  if (!final_ && base_ + data_.size() < retry_at_total_) {
    fields.clear();
    return Step::kNeedMore;
  }
  if (!bom_checked_) {
    // A UTF-8 byte order mark (Excel writes one) is not part of the first field.
    if (!final_ && data_.size() < kByteOrderMark.size() &&
        data_ == kByteOrderMark.substr(0, data_.size())) {
      retry_at_total_ = base_ + data_.size() + 1;
      fields.clear();
      return Step::kNeedMore;
    }
    bom_checked_ = true;
    if (data_.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
      at_ = kByteOrderMark.size();
      line_start_ = base_ + at_;
    }
  }
  const size_t record_at = at_;
  const int64_t record_line = line_;
  const uint64_t record_line_start = line_start_;
  // The bytes fed so far end inside this record: back to its start.
  auto need_more = [&]() -> StatusOr<Step> {
    fields.clear();
    at_ = record_at;
    line_ = record_line;
    line_start_ = record_line_start;
    retry_at_total_ = base_ + data_.size() + (data_.size() - at_);
    return Step::kNeedMore;
  };
  // An error: the fields read before it, as many as there were.
  auto fail = [&](Status s) -> StatusOr<Step> {
    fields.resize(n);
    return s;
  };
  if (at_ >= data_.size()) {
    if (!final_) return need_more();
    fields.clear();
    return Step::kEnd;
  }
  const bool escapes = options_.escape != options_.quote;
  while (true) {
    if (n >= static_cast<size_t>(kCsvMaxFieldsPerRecord)) {
      return fail(Status(ErrorCode::kCqlBadLiteral,
                         fmt::format("a CSV record of more than {} fields at line {}",
                                     kCsvMaxFieldsPerRecord, fields.front().where.line),
                         fields.front().where));
    }
    if (n == fields.size()) fields.emplace_back();
    CsvField& f = fields[n];
    f.text.clear();
    f.quoted = false;
    f.where = Here();
    if (at_ < data_.size() && data_[at_] == options_.quote) {
      f.quoted = true;
      ++at_;
      while (true) {
        if (at_ >= data_.size()) {
          if (!final_) return need_more();
          return fail(Status(ErrorCode::kCqlBadLiteral,
                             fmt::format("unterminated quoted field (opened at line {}, column {})",
                                         f.where.line, f.where.column),
                             f.where));
        }
        char c = data_[at_];
        bool next = at_ + 1 < data_.size();
        if (c == options_.escape && escapes && next) {
          f.text.push_back(data_[at_ + 1]);
          at_ += 2;
        } else if ((c == options_.escape && escapes) || c == options_.quote) {
          // An escape or a quote last: what follows decides.
          if (!next && !final_) return need_more();
          if (c == options_.quote && next && data_[at_ + 1] == options_.quote) {
            f.text.push_back(c);
            at_ += 2;
          } else if (c == options_.quote) {
            ++at_;
            break;
          } else {
            f.text.push_back(c);  // an escape ending the input: the quote is left open
            ++at_;
          }
        } else {
          if (c == '\n') {
            ++line_;
            line_start_ = base_ + at_ + 1;
          }
          f.text.push_back(c);
          ++at_;
        }
        if (f.text.size() > static_cast<size_t>(kCsvMaxFieldBytes)) {
          return fail(FieldTooLong(f));
        }
      }
      if (at_ >= data_.size()) {
        if (!final_) return need_more();
      } else if (data_[at_] != options_.delimiter) {
        int newline = NewlineAt(at_);
        if (newline < 0) return need_more();
        if (newline == 0) {
          SourceLocation here = Here();
          return fail(Status(
              ErrorCode::kCqlBadLiteral,
              fmt::format("'{}' after the closing quote of a field at line {}, column {}: "
                          "expected the delimiter '{}' or the end of the line",
                          data_[at_], here.line, here.column, options_.delimiter),
              here));
        }
      }
    } else {
      // Up to the delimiter or a newline ('\r' alone is the field's), copied in one piece.
      const size_t start = at_;
      bool more = false;  // the bytes fed end inside the field
      while (true) {
        while (at_ < data_.size() && data_[at_] != options_.delimiter && data_[at_] != '\n' &&
               data_[at_] != '\r') {
          ++at_;
        }
        if (at_ >= data_.size()) {
          more = !final_;
          break;
        }
        if (data_[at_] != '\r') break;  // the delimiter or '\n'
        int newline = NewlineAt(at_);
        if (newline < 0) {
          more = true;
          break;
        }
        if (newline > 0) break;
        ++at_;  // a '\r' alone
      }
      if (at_ - start > static_cast<size_t>(kCsvMaxFieldBytes)) {
        f.text.assign(data_.substr(start, static_cast<size_t>(kCsvMaxFieldBytes) + 1));
        return fail(FieldTooLong(f));
      }
      if (more) return need_more();
      f.text.assign(data_.substr(start, at_ - start));
    }
    ++n;
    if (at_ >= data_.size()) {  // final: the checks above returned otherwise
      fields.resize(n);
      return Step::kRecord;
    }
    if (data_[at_] == options_.delimiter) {
      ++at_;
      continue;
    }
    at_ += static_cast<size_t>(NewlineAt(at_));
    ++line_;
    line_start_ = base_ + at_;
    fields.resize(n);
    return Step::kRecord;
  }
}

}  // namespace partplay::cql
