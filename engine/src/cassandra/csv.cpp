#include "partplay/cassandra/csv.h"

#include <fmt/format.h>

#include "partplay/core/limits.h"

namespace partplay::cql {

CsvReader::CsvReader(std::string_view data, CsvOptions options) : data_(data), options_(options) {
  // A UTF-8 byte order mark (Excel writes one) is not part of the first field.
  if (data_.substr(0, 3) == "\xEF\xBB\xBF") at_ = line_start_ = 3;
}

SourceLocation CsvReader::Here() const {
  SourceLocation w;
  w.byte_offset = static_cast<int64_t>(at_);
  w.line = line_;
  w.column = static_cast<int64_t>(at_ - line_start_) + 1;
  return w;
}

StatusOr<bool> CsvReader::Next(std::vector<CsvField>& fields) {
  fields.clear();
  if (at_ >= data_.size()) return false;
  auto newline_at = [&](size_t i) {
    return data_[i] == '\n' || (data_[i] == '\r' && i + 1 < data_.size() && data_[i + 1] == '\n');
  };
  auto skip_newline = [&]() {
    at_ += data_[at_] == '\r' ? 2 : 1;
    ++line_;
    line_start_ = at_;
  };
  while (true) {
    if (fields.size() >= static_cast<size_t>(kCsvMaxFieldsPerRecord)) {
      return Status(ErrorCode::kCqlBadLiteral,
                    fmt::format("a CSV record of more than {} fields at line {}",
                                kCsvMaxFieldsPerRecord, fields.front().where.line),
                    fields.front().where);
    }
    CsvField f;
    f.where = Here();
    if (at_ < data_.size() && data_[at_] == options_.quote) {
      f.quoted = true;
      ++at_;
      while (true) {
        if (at_ >= data_.size()) {
          return Status(ErrorCode::kCqlBadLiteral,
                        fmt::format("unterminated quoted field (opened at line {}, column {})",
                                    f.where.line, f.where.column),
                        f.where);
        }
        char c = data_[at_];
        if (c == options_.escape && options_.escape != options_.quote && at_ + 1 < data_.size()) {
          f.text.push_back(data_[at_ + 1]);
          at_ += 2;
        } else if (c == options_.quote) {
          if (at_ + 1 < data_.size() && data_[at_ + 1] == options_.quote) {
            f.text.push_back(c);
            at_ += 2;
          } else {
            ++at_;
            break;
          }
        } else {
          if (c == '\n') {
            ++line_;
            line_start_ = at_ + 1;
          }
          f.text.push_back(c);
          ++at_;
        }
        if (f.text.size() > static_cast<size_t>(kCsvMaxFieldBytes)) {
          return Status(ErrorCode::kCqlBadLiteral,
                        fmt::format("a CSV field of more than {} bytes (from line {}, column {})",
                                    kCsvMaxFieldBytes, f.where.line, f.where.column),
                        f.where);
        }
      }
      if (at_ < data_.size() && data_[at_] != options_.delimiter && !newline_at(at_)) {
        return Status(ErrorCode::kCqlBadLiteral,
                      fmt::format("'{}' after the closing quote of a field at line {}, column {}: "
                                  "expected the delimiter '{}' or the end of the line",
                                  data_[at_], line_, at_ - line_start_ + 1, options_.delimiter),
                      Here());
      }
    } else {
      while (at_ < data_.size() && data_[at_] != options_.delimiter && !newline_at(at_)) {
        f.text.push_back(data_[at_++]);
        if (f.text.size() > static_cast<size_t>(kCsvMaxFieldBytes)) {
          return Status(ErrorCode::kCqlBadLiteral,
                        fmt::format("a CSV field of more than {} bytes (from line {}, column {})",
                                    kCsvMaxFieldBytes, f.where.line, f.where.column),
                        f.where);
        }
      }
    }
    fields.push_back(std::move(f));
    if (at_ >= data_.size()) return true;
    if (data_[at_] == options_.delimiter) {
      ++at_;
      continue;
    }
    skip_newline();
    return true;
  }
}

}  // namespace partplay::cql
