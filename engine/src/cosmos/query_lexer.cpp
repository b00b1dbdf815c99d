// The Cosmos DB for NoSQL query lexer (query_lexer.h says what it reads; query.h the sources).
// Errors: a character the language has no token for is SC1010 "Syntax error, invalid token 'x'."
// (the service's answer to ';', github.com/MicrosoftDocs/azure-databases-docs query samples and
// public error reports); an unterminated string, a bad escape or a control character in a
// string, a lone UTF-16 surrogate, and text that is not UTF-8 are the playground's own messages.
#include "cosmos/query_lexer.h"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"
#include "partplay/core/utf8.h"

namespace partplay::cosmosql {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

struct KeywordSpelling {
  std::string_view word;  // lower case
  Keyword keyword;
  bool lower_only;
};
constexpr std::array<KeywordSpelling, 31> kKeywords{{
    {"and", Keyword::kAnd, false},
    {"array", Keyword::kArray, false},
    {"as", Keyword::kAs, false},
    {"asc", Keyword::kAsc, false},
    {"between", Keyword::kBetween, false},
    {"by", Keyword::kBy, false},
    {"desc", Keyword::kDesc, false},
    {"distinct", Keyword::kDistinct, false},
    {"escape", Keyword::kEscape, false},
    {"exists", Keyword::kExists, false},
    {"false", Keyword::kFalse, true},
    {"from", Keyword::kFrom, false},
    {"group", Keyword::kGroup, false},
    {"in", Keyword::kIn, false},
    {"join", Keyword::kJoin, false},
    {"left", Keyword::kLeft, false},
    {"like", Keyword::kLike, false},
    {"limit", Keyword::kLimit, false},
    {"not", Keyword::kNot, false},
    {"null", Keyword::kNull, true},
    {"offset", Keyword::kOffset, false},
    {"or", Keyword::kOr, false},
    {"order", Keyword::kOrder, false},
    {"right", Keyword::kRight, false},
    {"select", Keyword::kSelect, false},
    {"top", Keyword::kTop, false},
    {"true", Keyword::kTrue, true},
    {"udf", Keyword::kUdf, true},
    {"undefined", Keyword::kUndefined, true},
    {"value", Keyword::kValue, false},
    {"where", Keyword::kWhere, false},
}};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  StatusOr<std::vector<QueryToken>> Run() {
    std::vector<QueryToken> tokens;
    while (true) {
      SkipSpaceAndComments();
      if (i_ >= s_.size()) break;
      QueryToken t;
      t.where = Here();
      size_t start = i_;
      PARTPLAY_RETURN_IF_ERROR(Next(t));
      t.source = s_.substr(start, i_ - start);
      tokens.push_back(std::move(t));
    }
    QueryToken end;
    end.kind = TokenKind::kEnd;
    end.where = Here();
    end.source = s_.substr(s_.size());
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  SourceLocation Here() const { return At(i_); }
  SourceLocation At(size_t offset) const {
    SourceLocation w;
    w.byte_offset = static_cast<int64_t>(offset);
    w.line = line_;
    w.column = static_cast<int64_t>(offset - line_start_) + 1;
    return w;
  }
  Status Error(SourceLocation where, std::string message) const {
    return Status(ErrorCode::kQuerySyntax, std::move(message), where);
  }
  char Peek(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  void Advance() {
    if (s_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }

  void SkipSpaceAndComments() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        Advance();
      } else if (c == '-' && Peek(1) == '-') {
        while (i_ < s_.size() && s_[i_] != '\n') Advance();
      } else {
        break;
      }
    }
  }

  Status Next(QueryToken& t) {
    char c = s_[i_];
    if (IsIdentStart(c)) {
      size_t start = i_;
      while (i_ < s_.size() && IsIdentChar(s_[i_])) Advance();
      std::string_view word = s_.substr(start, i_ - start);
      t.keyword = KeywordOf(word);
      t.kind = t.keyword == Keyword::kNone ? TokenKind::kIdentifier : TokenKind::kKeyword;
      t.text = std::string(word);
      return Status::Ok();
    }
    if (c == '@') {
      size_t start = i_;
      Advance();
      if (i_ >= s_.size() || !IsIdentStart(s_[i_])) return InvalidToken(start);
      while (i_ < s_.size() && IsIdentChar(s_[i_])) Advance();
      t.kind = TokenKind::kParameter;
      t.text = std::string(s_.substr(start, i_ - start));
      return Status::Ok();
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return Number(t);
    if (c == '"' || c == '\'') return String(t);
    return Symbol(t);
  }

  Status InvalidToken(size_t start) {
    size_t n = std::max<size_t>(1, Utf8CharLength(s_, start));
    return Error(At(start), fmt::format("SC1010: Syntax error, invalid token '{}'.",
                                        PrintableText(s_.substr(start, n))));
  }

  Status Number(QueryToken& t) {
    size_t start = i_;
    int digits = 0;
    t.kind = TokenKind::kNumber;
    if (s_[i_] == '0' && (Peek(1) == 'x' || Peek(1) == 'X') && IsHexDigit(Peek(2))) {
      Advance();
      Advance();
      size_t first = i_;
      while (i_ < s_.size() && IsHexDigit(s_[i_])) Advance();
      PARTPLAY_RETURN_IF_ERROR(CheckDigits(start, static_cast<int>(i_ - first)));
      uint64_t value = 0;
      if (!ParseHexUint64(s_.substr(first, i_ - first), value)) {
        return Error(At(start), fmt::format("The hexadecimal number {} is larger than 64 bits.",
                                            s_.substr(start, i_ - start)));
      }
      t.number = static_cast<double>(value);
      return Status::Ok();
    }
    while (i_ < s_.size() && IsDigit(s_[i_])) Advance(), ++digits;
    if (i_ < s_.size() && s_[i_] == '.') {
      Advance();
      while (i_ < s_.size() && IsDigit(s_[i_])) Advance(), ++digits;
    }
    // An exponent only when digits follow (1e is the number 1 and the identifier e).
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      size_t k = i_ + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && IsDigit(s_[k])) {
        while (i_ < k) Advance();
        while (i_ < s_.size() && IsDigit(s_[i_])) Advance(), ++digits;
      }
    }
    PARTPLAY_RETURN_IF_ERROR(CheckDigits(start, digits));
    std::string_view text = s_.substr(start, i_ - start);
    if (!ParseFiniteDouble(text, t.number)) {
      return Error(At(start), fmt::format("The number {} is outside the range of a double.", text));
    }
    return Status::Ok();
  }

  Status CheckDigits(size_t start, int digits) {
    if (digits <= kCosmosQueryMaxNumericDigits) return Status::Ok();
    return Error(At(start), fmt::format("A numeric literal has {} digits; the playground reads at "
                                        "most {} (cosmos_query_max_numeric_digits).",
                                        digits, kCosmosQueryMaxNumericDigits));
  }

  Status String(QueryToken& t) {
    SourceLocation open = Here();
    char quote = s_[i_];
    Advance();
    t.kind = TokenKind::kString;
    while (true) {
      if (i_ >= s_.size()) {
        return Error(open, fmt::format("The string starting here has no closing {} before the "
                                       "end of the query.",
                                       quote));
      }
      char c = s_[i_];
      if (c == quote) {
        Advance();
        return Status::Ok();
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return Error(Here(), fmt::format("A string may not hold the control character U+{:04X}; "
                                         "write it as an escape (\\n, \\t, \\u0001).",
                                         static_cast<unsigned>(c)));
      }
      if (c != '\\') {
        t.text.push_back(c);
        Advance();
        continue;
      }
      SourceLocation escape = Here();
      Advance();
      char e = i_ < s_.size() ? s_[i_] : '\0';
      const char* simple = nullptr;
      switch (e) {
        case '\'':
          simple = "'";
          break;
        case '"':
          simple = "\"";
          break;
        case '\\':
          simple = "\\";
          break;
        case '/':
          simple = "/";
          break;
        case 'b':
          simple = "\b";
          break;
        case 'f':
          simple = "\f";
          break;
        case 'n':
          simple = "\n";
          break;
        case 'r':
          simple = "\r";
          break;
        case 't':
          simple = "\t";
          break;
        default:
          break;
      }
      if (simple != nullptr) {
        t.text += simple;
        Advance();
        continue;
      }
      if (e != 'u') {
        return Error(escape, fmt::format("Invalid escape sequence \\{} in a string.",
                                         PrintableText(s_.substr(i_, i_ < s_.size() ? 1 : 0))));
      }
      Advance();
      uint32_t cp = 0;
      PARTPLAY_RETURN_IF_ERROR(Hex4(escape, cp));
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        // A high surrogate must be followed by \u and a low surrogate: one character.
        uint32_t low = 0;
        if (Peek(0) != '\\' || Peek(1) != 'u') return LoneSurrogate(escape, cp);
        Advance();
        Advance();
        PARTPLAY_RETURN_IF_ERROR(Hex4(escape, low));
        if (low < 0xDC00 || low > 0xDFFF) return LoneSurrogate(escape, cp);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return LoneSurrogate(escape, cp);
      }
      AppendUtf8(cp, t.text);
    }
  }

  Status Hex4(SourceLocation escape, uint32_t& cp) {
    for (int k = 0; k < 4; ++k) {
      char h = i_ < s_.size() ? s_[i_] : '\0';
      if (!IsHexDigit(h)) {
        return Error(escape, "Invalid escape sequence in a string: \\u takes four hex digits.");
      }
      cp = cp * 16 + static_cast<uint32_t>(IsDigit(h) ? h - '0' : Lower(h) - 'a' + 10);
      Advance();
    }
    return Status::Ok();
  }

  Status LoneSurrogate(SourceLocation escape, uint32_t cp) const {
    return Error(escape, fmt::format("The escape \\u{:04X} is half of a UTF-16 surrogate pair; "
                                     "a string holds whole characters.",
                                     cp));
  }

  Status Symbol(QueryToken& t) {
    static constexpr std::string_view kThree[] = {">>>"};
    static constexpr std::string_view kTwo[] = {"??", "!=", "<>", "<=", "<<", ">=", ">>", "||"};
    static constexpr std::string_view kOne = "()[]{},.:?=<>+-*/%|&^~";
    std::string_view rest = s_.substr(i_);
    size_t n = 0;
    for (std::string_view op : kThree) {
      if (rest.substr(0, op.size()) == op) n = op.size();
    }
    if (n == 0) {
      for (std::string_view op : kTwo) {
        if (rest.substr(0, op.size()) == op) n = op.size();
      }
    }
    if (n == 0 && kOne.find(rest[0]) != std::string_view::npos) n = 1;
    if (n == 0) return InvalidToken(i_);
    t.kind = TokenKind::kSymbol;
    t.text = std::string(rest.substr(0, n));
    for (size_t k = 0; k < n; ++k) Advance();
    return Status::Ok();
  }

  std::string_view s_;
  size_t i_ = 0;
  int64_t line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

Keyword KeywordOf(std::string_view word) {
  if (word.size() < 2 || word.size() > 9) return Keyword::kNone;
  char lowered[9];
  bool was_lower = true;
  for (size_t k = 0; k < word.size(); ++k) {
    lowered[k] = Lower(word[k]);
    was_lower = was_lower && lowered[k] == word[k];
  }
  std::string_view lower(lowered, word.size());
  for (const KeywordSpelling& k : kKeywords) {
    if (k.word == lower) return (!k.lower_only || was_lower) ? k.keyword : Keyword::kNone;
  }
  return Keyword::kNone;
}

bool IsPlainIdentifier(std::string_view name) {
  if (name.empty() || !IsIdentStart(name[0])) return false;
  for (char c : name) {
    if (!IsIdentChar(c)) return false;
  }
  return KeywordOf(name) == Keyword::kNone;
}

SourceLocation LocationIn(std::string_view text, size_t offset) {
  SourceLocation w;
  w.byte_offset = static_cast<int64_t>(offset);
  w.line = 1;
  size_t line_start = 0;
  for (size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++w.line;
      line_start = k + 1;
    }
  }
  w.column = static_cast<int64_t>(offset - line_start) + 1;
  return w;
}

StatusOr<std::vector<QueryToken>> LexQuery(std::string_view text) {
  if (static_cast<double>(text.size()) > kCosmosQueryMaxTextBytes) {
    size_t at = static_cast<size_t>(kCosmosQueryMaxTextBytes);
    return Status(ErrorCode::kQuerySyntax,
                  fmt::format("The query text is {} bytes; Cosmos DB takes at most 512 KB "
                              "({} bytes, cosmos_query_max_text_bytes).",
                              text.size(), at),
                  LocationIn(text, at));
  }
  for (size_t k = 0; k < text.size();) {
    k = SkipAsciiWords(text, k);
    if (k >= text.size()) break;
    size_t n = Utf8CharLength(text, k);
    if (n == 0) {
      return Status(ErrorCode::kQuerySyntax,
                    fmt::format("The query is not UTF-8: byte 0x{:02X} at offset {}.",
                                static_cast<unsigned char>(text[k]), k),
                    LocationIn(text, k));
    }
    k += n;
  }
  return Lexer(text).Run();
}

}  // namespace partplay::cosmosql
