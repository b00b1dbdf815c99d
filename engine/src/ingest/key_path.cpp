#include "partplay/ingest/key_path.h"

#include <fmt/format.h>

namespace partplay {

StatusOr<KeyPath> KeyPath::Parse(std::string_view text) {
  auto fail = [&](size_t at, std::string message) {
    SourceLocation where;
    where.line = 1;
    where.column = static_cast<int64_t>(at) + 1;
    return Status(ErrorCode::kBadKeyPath,
                  fmt::format("partition key path \"{}\": {}", text, message), where);
  };
  if (text.empty()) return fail(0, "the path is empty; write it like /userId");
  if (text[0] != '/') {
    return fail(0, fmt::format("a path starts with '/'; did you mean \"/{}\"?", text));
  }
  KeyPath path;
  path.text_ = std::string(text);
  std::string segment;
  for (size_t i = 1; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '/') {
      path.segments_.push_back(std::move(segment));
      segment.clear();
      continue;
    }
    if (text[i] == '~') {
      if (i + 1 >= text.size() || (text[i + 1] != '0' && text[i + 1] != '1')) {
        return fail(i, "'~' must be followed by 0 (for '~') or 1 (for '/')");
      }
      segment.push_back(text[i + 1] == '0' ? '~' : '/');
      ++i;
      continue;
    }
    segment.push_back(text[i]);
  }
  return path;
}

std::string KeyPath::EscapeSegment(std::string_view name) {
  std::string out;
  AppendSegment(name, out);
  return out.substr(1);
}

void KeyPath::AppendSegment(std::string_view name, std::string& pointer) {
  pointer.push_back('/');
  for (char c : name) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer.push_back(c);
    }
  }
}

}  // namespace partplay
