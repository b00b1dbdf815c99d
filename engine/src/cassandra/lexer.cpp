#include "partplay/cassandra/lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "partplay/core/utf8.h"

namespace partplay::cql {
namespace {

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// 8-4-4-4-12 hex digits at s[i], not followed by an identifier character.
bool UuidAt(std::string_view s, size_t i) {
  if (i + 36 > s.size()) return false;
  for (size_t k = 0; k < 36; ++k) {
    char c = s[i + k];
    bool dash = k == 8 || k == 13 || k == 18 || k == 23;
    if (dash ? c != '-' : !IsHex(c)) return false;
  }
  return i + 36 == s.size() || !IsIdentChar(s[i + 36]);
}

// P1Y2M3D, PT4H5M6S, P1DT2H, P3W (lower-cased): Cassandra's ISO 8601 DURATION forms, with at
// least one component.
bool IsIsoDuration(std::string_view s) {
  if (s.size() < 3 || s[0] != 'p') return false;
  size_t i = 1;
  auto component = [&](char unit) {
    size_t j = i;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j == i || j >= s.size() || s[j] != unit) return false;
    i = j + 1;
    return true;
  };
  if (component('w')) return i == s.size();
  int parts = 0;
  for (char u : {'y', 'm', 'd'}) parts += component(u);
  if (i < s.size() && s[i] == 't') {
    ++i;
    int time_parts = 0;
    for (char u : {'h', 'm', 's'}) time_parts += component(u);
    if (time_parts == 0) return false;
    parts += time_parts;
  }
  return parts > 0 && i == s.size();
}

}  // namespace

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // The next token; a kEnd token at the end (and on every call after it).
  Token NextToken() {
    size_t before = i_;
    Status skipped = SkipSpaceAndComments();
    if (!skipped.ok()) {
      Token t = ErrorToken(skipped, before);
      return t;
    }
    if (i_ >= s_.size()) {
      Token end;
      end.kind = TokenKind::kEnd;
      end.where = Here();
      end.source = s_.substr(s_.size());
      return end;
    }
    before = i_;
    StatusOr<Token> t = Next();
    if (t.ok()) return std::move(t).value();
    // A character CQL does not use is skipped; an unterminated string ran to the end.
    if (i_ == before) {
      size_t n = std::max<size_t>(1, Utf8CharLength(s_, i_));
      for (size_t k = 0; k < n && i_ < s_.size(); ++k) Advance();
    }
    return ErrorToken(t.status(), before);
  }

 private:
  SourceLocation Here() const {
    SourceLocation w;
    w.byte_offset = static_cast<int64_t>(i_);
    w.line = line_;
    w.column = static_cast<int64_t>(i_ - line_start_) + 1;
    return w;
  }

  Token ErrorToken(const Status& status, size_t start) const {
    Token t;
    t.kind = TokenKind::kError;
    t.text = status.message();
    t.where = status.where();
    t.source = s_.substr(start, i_ - start);
    return t;
  }

  void Advance() {
    if (s_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }

  Status Error(const SourceLocation& where, std::string message) const {
    return Status(ErrorCode::kCqlSyntax, std::move(message), where);
  }

  Status SkipSpaceAndComments() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        Advance();
      } else if ((c == '-' && Peek(1) == '-') || (c == '/' && Peek(1) == '/')) {
        while (i_ < s_.size() && s_[i_] != '\n') Advance();
      } else if (c == '/' && Peek(1) == '*') {
        SourceLocation start = Here();
        Advance();
        Advance();
        while (i_ < s_.size() && !(s_[i_] == '*' && Peek(1) == '/')) Advance();
        if (i_ >= s_.size()) return Error(start, "unterminated comment: '/*' without '*/'");
        Advance();
        Advance();
      } else {
        break;
      }
    }
    return Status::Ok();
  }

  char Peek(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }

  StatusOr<Token> Next() {
    Token t;
    t.where = Here();
    size_t start = i_;
    char c = s_[i_];
    auto finish = [&](TokenKind kind) {
      t.kind = kind;
      t.source = s_.substr(start, i_ - start);
      return t;
    };
    if (c == '\'' || (c == '$' && Peek(1) == '$')) {
      PARTPLAY_RETURN_IF_ERROR(ReadString(t.text));
      return finish(TokenKind::kString);
    }
    if (c == '"') {
      Advance();
      while (true) {
        if (i_ >= s_.size()) {
          return Error(t.where, "mismatched character '<EOF>' expecting '\"'");
        }
        if (s_[i_] == '"') {
          Advance();
          if (i_ < s_.size() && s_[i_] == '"') {
            t.text.push_back('"');
            Advance();
            continue;
          }
          break;
        }
        t.text.push_back(s_[i_]);
        Advance();
      }
      if (t.text.empty()) return Error(t.where, "an empty quoted identifier");
      PARTPLAY_RETURN_IF_ERROR(CheckQuotedIdentifier(start));
      return finish(TokenKind::kQuotedIdentifier);
    }
    if (IsHex(c) && UuidAt(s_, i_)) {
      for (int k = 0; k < 36; ++k) Advance();
      t.text = std::string(s_.substr(start, 36));
      return finish(TokenKind::kUuid);
    }
    if (c == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
      Advance();
      Advance();
      while (i_ < s_.size() && IsHex(s_[i_])) Advance();
      t.text = std::string(s_.substr(start, i_ - start));
      return finish(TokenKind::kHex);
    }
    if (c == '-' && (Peek(1) == 'p' || Peek(1) == 'P')) {
      // -P1DT2H: a negative ISO 8601 duration.
      size_t end = i_ + 1;
      std::string word;
      while (end < s_.size() && IsIdentChar(s_[end])) {
        word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s_[end]))));
        ++end;
      }
      if (IsIsoDuration(word)) {
        while (i_ < end) Advance();
        t.text = std::string(s_.substr(start, i_ - start));
        return finish(TokenKind::kDuration);
      }
    }
    if (IsDigit(c) || (c == '-' && (IsDigit(Peek(1)) || (Peek(1) == '.' && IsDigit(Peek(2)))))) {
      return Number(t, start);
    }
    if (c == '.' && IsDigit(Peek(1))) return Number(t, start);
    if (IsIdentStart(c)) {
      while (i_ < s_.size() && IsIdentChar(s_[i_])) {
        t.text.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s_[i_]))));
        Advance();
      }
      if (IsIsoDuration(t.text)) {
        t.text = std::string(s_.substr(start, i_ - start));
        return finish(TokenKind::kDuration);
      }
      return finish(TokenKind::kIdentifier);
    }
    static constexpr std::string_view kTwoCharSymbols[] = {"<=", ">=", "!="};
    for (std::string_view two : kTwoCharSymbols) {
      if (s_.substr(i_, 2) == two) {
        Advance();
        Advance();
        t.text = std::string(two);
        return finish(TokenKind::kSymbol);
      }
    }
    if (std::string_view("()[]{},;.*=<>:+-?").find(c) != std::string_view::npos) {
      Advance();
      t.text = std::string(1, c);
      return finish(TokenKind::kSymbol);
    }
    // One whole UTF-8 character in the message; a byte that is not one (or a control
    // character) as \xNN.
    size_t n = std::max<size_t>(1, Utf8CharLength(s_, i_));
    return Error(t.where,
                 fmt::format("token recognition error at: '{}'", PrintableText(s_.substr(i_, n))));
  }

  // A "quoted identifier" (from s_[start], the opening quote, to i_) must be UTF-8 without
  // control characters: names end up in messages, DESCRIBE output and JSON.
  Status CheckQuotedIdentifier(size_t start) const {
    for (size_t k = start + 1; k + 1 < i_;) {
      size_t n = Utf8CharLength(s_, k);
      uint8_t b = static_cast<uint8_t>(s_[k]);
      if (n == 0 || b < 0x20 || b == 0x7F) {
        SourceLocation at = LocationAt(s_, k);
        return Error(at, fmt::format("a quoted identifier holds {} \\x{:02X} at line {}, column "
                                     "{}: names must be UTF-8 text without control characters",
                                     n == 0 ? "the byte (not UTF-8)" : "the control character", b,
                                     at.line, at.column));
      }
      k += n;
    }
    return Status::Ok();
  }

  StatusOr<Token> Number(Token& t, size_t start) {
    if (s_[i_] == '-') Advance();
    bool is_float = false;
    while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
    if (i_ < s_.size() && s_[i_] == '.' && !(Peek(1) == '.')) {
      is_float = true;
      Advance();
      while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      size_t save = i_;
      size_t k = 1;
      if (Peek(1) == '+' || Peek(1) == '-') k = 2;
      if (IsDigit(Peek(k))) {
        is_float = true;
        for (size_t m = 0; m < k; ++m) Advance();
        while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
      } else {
        i_ = save;
      }
    }
    if (!is_float && DurationUnitLength(i_) > 0) {
      // 1h30m: digits and units, repeated (Cassandra's DURATION: (DIGIT+ unit)+).
      while (size_t n = DurationUnitLength(i_)) {
        for (size_t m = 0; m < n; ++m) Advance();
        if (i_ >= s_.size() || !IsDigit(s_[i_])) break;
        while (i_ < s_.size() && IsDigit(s_[i_])) Advance();
      }
      t.text = std::string(s_.substr(start, i_ - start));
      t.kind = TokenKind::kDuration;
      t.source = s_.substr(start, i_ - start);
      return t;
    }
    t.text = std::string(s_.substr(start, i_ - start));
    t.kind = is_float ? TokenKind::kFloat : TokenKind::kInteger;
    t.source = s_.substr(start, i_ - start);
    return t;
  }

  // The length of the duration unit at s_[at] (y, mo, w, d, h, m, s, ms, us, µs, ns, any case)
  // when nothing that continues an identifier follows it; 0 if there is none.
  size_t DurationUnitLength(size_t at) const {
    auto lower = [&](size_t k) {
      return k < s_.size() ? static_cast<char>(std::tolower(static_cast<unsigned char>(s_[k])))
                           : '\0';
    };
    static constexpr std::string_view kUnits[] = {"mo", "ms", "us", "ns", "\xC2\xB5s", "y",
                                                  "w",  "d",  "h",  "m",  "s"};
    for (std::string_view unit : kUnits) {
      bool match = true;
      for (size_t k = 0; k < unit.size() && match; ++k) match = lower(at + k) == unit[k];
      if (!match) continue;
      char after = lower(at + unit.size());
      if (after != '\0' && IsIdentChar(after) && !IsDigit(after)) continue;
      return unit.size();
    }
    return 0;
  }

  Status ReadString(std::string& out) {
    SourceLocation start = Here();
    if (s_[i_] == '$') {
      Advance();
      Advance();
      size_t end = s_.find("$$", i_);
      if (end == std::string_view::npos) {
        while (i_ < s_.size()) Advance();
        return Error(start, "mismatched character '<EOF>' expecting '$'");
      }
      out = std::string(s_.substr(i_, end - i_));
      while (i_ < end + 2) Advance();
      return Status::Ok();
    }
    Advance();
    while (true) {
      if (i_ >= s_.size()) return Error(start, "mismatched character '<EOF>' expecting '''");
      if (s_[i_] == '\'') {
        Advance();
        if (i_ < s_.size() && s_[i_] == '\'') {
          out.push_back('\'');
          Advance();
          continue;
        }
        return Status::Ok();
      }
      out.push_back(s_[i_]);
      Advance();
    }
  }

  std::string_view s_;
  size_t i_ = 0;
  int64_t line_ = 1;
  size_t line_start_ = 0;
};

namespace {
bool IsStatementEnd(const Token& t) {
  return t.kind == TokenKind::kEnd || (t.kind == TokenKind::kSymbol && t.text == ";");
}
}  // namespace

StatementLexer::StatementLexer(std::string_view script) : lexer_(std::make_unique<Lexer>(script)) {}
StatementLexer::~StatementLexer() = default;

// cqlsh's own commands end at the end of their line as well as at ';' (cqlsh reads them by line).
static bool IsShellCommand(const Token& t) {
  return t.kind == TokenKind::kIdentifier &&
         (t.text == "consistency" || t.text == "serial" || t.text == "tracing" ||
          t.text == "paging" || t.text == "guardrail" || t.text == "advance");
}

bool StatementLexer::Next(std::vector<Token>& tokens) {
  tokens.clear();
  if (done_ && !pending_) return false;
  while (true) {
    Token t;
    if (pending_) {
      t = std::move(*pending_);
      pending_.reset();
    } else {
      t = lexer_->NextToken();
    }
    if (!tokens.empty() && IsShellCommand(tokens[0]) && !IsStatementEnd(t) &&
        t.where.line > tokens.back().where.line) {
      // End the command here with a ';' of no width; the token starts the next statement.
      Token end;
      end.kind = TokenKind::kSymbol;
      end.text = ";";
      const Token& last = tokens.back();
      end.source = std::string_view(last.source.data() + last.source.size(), 0);
      end.where = last.where;
      end.where.byte_offset += static_cast<int64_t>(last.source.size());
      end.where.column += static_cast<int64_t>(last.source.size());
      pending_ = std::move(t);
      tokens.push_back(std::move(end));
      return true;
    }
    bool end = IsStatementEnd(t);
    done_ = t.kind == TokenKind::kEnd;
    tokens.push_back(std::move(t));
    if (end) return true;
  }
}

SourceLocation LocationAt(std::string_view script, size_t offset) {
  SourceLocation w;
  w.byte_offset = static_cast<int64_t>(offset);
  w.line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < script.size(); ++i) {
    if (script[i] == '\n') {
      ++w.line;
      line_start = i + 1;
    }
  }
  w.column = static_cast<int64_t>(offset - line_start) + 1;
  return w;
}

std::vector<Token> Lex(std::string_view script) {
  Lexer lexer(script);
  std::vector<Token> out;
  do {
    out.push_back(lexer.NextToken());
  } while (out.back().kind != TokenKind::kEnd);
  return out;
}

std::string TokenDisplay(const Token& token) {
  if (token.kind == TokenKind::kEnd) return "<EOF>";
  return std::string(token.source);
}

}  // namespace partplay::cql
