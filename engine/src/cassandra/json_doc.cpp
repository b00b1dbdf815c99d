#include "cassandra/json_doc.h"

#include <fmt/format.h>

namespace partplay::cql::internal {
namespace {

class Reader {
 public:
  Reader(std::string_view s, size_t pos) : s_(s), i_(pos) {}
  size_t pos() const { return i_; }
  const std::string& error() const { return error_; }

  void Space() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) {
      ++i_;
    }
  }

  bool Value(JsonNode& out, int depth) {
    Space();
    if (depth > 256) return Fail("nesting too deep");
    if (i_ >= s_.size()) return Fail("unexpected end of JSON");
    out.offset = i_;
    char c = s_[i_];
    if (c == '{') return Object(out, depth);
    if (c == '[') return Array(out, depth);
    if (c == '"') {
      out.kind = JsonNode::Kind::kString;
      return String(out.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return Number(out);
    if (Word("true")) {
      out.kind = JsonNode::Kind::kBool;
      out.boolean = true;
      return true;
    }
    if (Word("false")) {
      out.kind = JsonNode::Kind::kBool;
      return true;
    }
    if (Word("null")) {
      out.kind = JsonNode::Kind::kNull;
      return true;
    }
    return Fail(fmt::format("unexpected character '{}'", c));
  }

 private:
  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }
  bool Word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool Number(JsonNode& out) {
    size_t start = i_;
    if (s_[i_] == '-') ++i_;
    auto digits = [&]() {
      size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > d;
    };
    if (!digits()) return Fail("invalid number");
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) return Fail("invalid number");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) return Fail("invalid number");
    }
    out.kind = JsonNode::Kind::kNumber;
    out.text = std::string(s_.substr(start, i_ - start));
    return true;
  }
  static void Utf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool Hex4(uint32_t& v) {
    if (i_ + 4 > s_.size()) return Fail("truncated \\u escape");
    v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s_[i_++];
      int h = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (h < 0) return Fail("invalid \\u escape");
      v = v * 16 + static_cast<uint32_t>(h);
    }
    return true;
  }
  bool String(std::string& out) {
    ++i_;
    while (true) {
      if (i_ >= s_.size()) return Fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return Fail("unterminated string");
      char e = s_[i_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(i_, 2) == "\\u") {
            i_ += 2;
            uint32_t low;
            if (!Hex4(low)) return false;
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              Utf8(0xFFFD, out);
              cp = low;
            }
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
          Utf8(cp, out);
          break;
        }
        default:
          return Fail(fmt::format("invalid escape '\\{}'", e));
      }
    }
  }
  bool Array(JsonNode& out, int depth) {
    out.kind = JsonNode::Kind::kArray;
    ++i_;
    Space();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return true;
    }
    while (true) {
      JsonNode item;
      if (!Value(item, depth + 1)) return false;
      out.items.push_back(std::move(item));
      Space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return true;
      }
      return Fail("expected ',' or ']'");
    }
  }
  bool Object(JsonNode& out, int depth) {
    out.kind = JsonNode::Kind::kObject;
    ++i_;
    Space();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return true;
    }
    while (true) {
      Space();
      if (i_ >= s_.size() || s_[i_] != '"') return Fail("expected a member name");
      std::string name;
      if (!String(name)) return false;
      Space();
      if (i_ >= s_.size() || s_[i_] != ':') return Fail("expected ':'");
      ++i_;
      JsonNode value;
      if (!Value(value, depth + 1)) return false;
      out.members.emplace_back(std::move(name), std::move(value));
      Space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        return true;
      }
      return Fail("expected ',' or '}'");
    }
  }

  std::string_view s_;
  size_t i_;
  std::string error_;
};

}  // namespace

std::string_view JsonNode::KindName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "Boolean";
    case Kind::kNumber:
      return "Number";
    case Kind::kString:
      return "String";
    case Kind::kArray:
      return "List";
    case Kind::kObject:
      return "Map";
  }
  return "?";
}

bool ParseJson(std::string_view text, size_t& pos, JsonNode& out, std::string& error) {
  Reader r(text, pos);
  bool ok = r.Value(out, 0);
  if (ok) r.Space();
  pos = r.pos();
  if (!ok) error = r.error();
  return ok;
}

}  // namespace partplay::cql::internal
