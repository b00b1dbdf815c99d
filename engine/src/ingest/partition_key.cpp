#include "partplay/ingest/partition_key.h"

#include <xxhash.h>

#include <cstring>

#include "partplay/core/json_writer.h"

namespace partplay {

std::string KeyComponent::ToJson() const {
  std::string out;
  AppendJson(out);
  return out;
}

void KeyComponent::AppendJson(std::string& out) const {
  switch (kind) {
    case KeyKind::kUndefined:
      out += "{}";
      break;
    case KeyKind::kNull:
      out += "null";
      break;
    case KeyKind::kFalse:
      out += "false";
      break;
    case KeyKind::kTrue:
      out += "true";
      break;
    case KeyKind::kNumber:
      AppendJsonNumber(number, out);
      break;
    case KeyKind::kString:
      AppendJsonString(text, out);
      break;
  }
}

bool KeyComponent::operator==(const KeyComponent& other) const {
  if (kind != other.kind) return false;
  if (kind == KeyKind::kNumber) return number == other.number;
  if (kind == KeyKind::kString) return text == other.text;
  return true;
}

void AppendCanonical(KeyKind kind, double number, std::string_view text, std::string& out) {
  out.push_back(static_cast<char>(kind));
  if (kind == KeyKind::kNumber) {
    double d = number == 0 ? 0.0 : number;  // -0 == 0
    char bytes[8];
    std::memcpy(bytes, &d, 8);
    out.append(bytes, 8);
  } else if (kind == KeyKind::kString) {
    uint32_t n = static_cast<uint32_t>(text.size());
    char len[4] = {static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16),
                   static_cast<char>(n >> 24)};
    out.append(len, 4);
    out += text;
  }
}

void AppendCanonical(const KeyComponent& component, std::string& out) {
  AppendCanonical(component.kind, component.number, component.text, out);
}

std::string PartitionKey::CanonicalBytes() const {
  std::string out;
  for (const auto& c : components) AppendCanonical(c, out);
  return out;
}

PartitionKey PartitionKey::FromCanonicalBytes(std::string_view bytes) {
  PartitionKey key;
  key.AssignCanonicalBytes(bytes);
  return key;
}

void PartitionKey::AssignCanonicalBytes(std::string_view bytes) {
  size_t n_components = 0;
  size_t i = 0;
  while (i < bytes.size()) {
    if (n_components == components.size()) components.emplace_back();
    KeyComponent& c = components[n_components++];
    c.kind = static_cast<KeyKind>(static_cast<uint8_t>(bytes[i++]));
    c.number = 0;
    if (c.kind == KeyKind::kNumber) {
      std::memcpy(&c.number, bytes.data() + i, 8);
      i += 8;
      c.text.clear();
    } else if (c.kind == KeyKind::kString) {
      uint32_t n = 0;
      for (int b = 0; b < 4; ++b) n |= uint32_t(uint8_t(bytes[i + b])) << (8 * b);
      i += 4;
      c.text.assign(bytes.data() + i, n);
      i += n;
    } else {
      c.text.clear();
    }
  }
  components.resize(n_components);
}

bool ReadCanonicalComponent(std::string_view c, size_t& at, KeyKind& kind, double& number,
                            std::string_view& text) {
  if (at >= c.size()) return false;
  kind = static_cast<KeyKind>(static_cast<uint8_t>(c[at]));
  size_t i = at + 1;
  number = 0;
  text = {};
  switch (kind) {
    case KeyKind::kUndefined:
    case KeyKind::kNull:
    case KeyKind::kFalse:
    case KeyKind::kTrue:
      break;
    case KeyKind::kNumber:
      if (c.size() - i < 8) return false;
      std::memcpy(&number, c.data() + i, 8);
      i += 8;
      break;
    case KeyKind::kString: {
      if (c.size() - i < 4) return false;
      uint32_t n = 0;
      for (int b = 0; b < 4; ++b) n |= uint32_t(uint8_t(c[i + b])) << (8 * b);
      i += 4;
      if (c.size() - i < n) return false;
      text = c.substr(i, n);
      i += n;
      break;
    }
    default:
      return false;
  }
  at = i;
  return true;
}

uint64_t HashCanonical(std::string_view canonical_bytes) {
  return XXH3_64bits(canonical_bytes.data(), canonical_bytes.size());
}

uint64_t PartitionKey::Hash() const { return HashCanonical(CanonicalBytes()); }

std::string PartitionKey::ToJson() const {
  std::string out;
  AppendJson(out);
  return out;
}

void PartitionKey::AppendJson(std::string& out) const {
  out.push_back('[');
  for (size_t i = 0; i < components.size(); ++i) {
    if (i) out.push_back(',');
    components[i].AppendJson(out);
  }
  out.push_back(']');
}

int CompareKeys(const PartitionKey& a, const PartitionKey& b) {
  size_t n = std::min(a.components.size(), b.components.size());
  for (size_t i = 0; i < n; ++i) {
    const auto& x = a.components[i];
    const auto& y = b.components[i];
    if (x.kind != y.kind) return static_cast<int>(x.kind) < static_cast<int>(y.kind) ? -1 : 1;
    if (x.kind == KeyKind::kNumber && x.number != y.number) return x.number < y.number ? -1 : 1;
    if (x.kind == KeyKind::kString) {
      int c = x.text.compare(y.text);  // std::string compares chars as unsigned via char_traits
      if (c != 0) return c < 0 ? -1 : 1;
    }
  }
  if (a.components.size() != b.components.size()) {
    return a.components.size() < b.components.size() ? -1 : 1;
  }
  return 0;
}

namespace {

// One component read off canonical bytes at `at` (advanced past it).
struct CanonicalComponent {
  KeyKind kind = KeyKind::kUndefined;
  double number = 0;
  std::string_view text;
};

CanonicalComponent ReadCanonical(std::string_view bytes, size_t& at) {
  CanonicalComponent c;
  c.kind = static_cast<KeyKind>(static_cast<uint8_t>(bytes[at++]));
  if (c.kind == KeyKind::kNumber) {
    std::memcpy(&c.number, bytes.data() + at, 8);
    at += 8;
  } else if (c.kind == KeyKind::kString) {
    uint32_t n = 0;
    for (int b = 0; b < 4; ++b) n |= uint32_t(uint8_t(bytes[at + b])) << (8 * b);
    at += 4;
    c.text = bytes.substr(at, n);
    at += n;
  }
  return c;
}

}  // namespace

int CompareCanonicalKeys(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    CanonicalComponent x = ReadCanonical(a, i);
    CanonicalComponent y = ReadCanonical(b, j);
    if (x.kind != y.kind) return static_cast<int>(x.kind) < static_cast<int>(y.kind) ? -1 : 1;
    if (x.kind == KeyKind::kNumber && x.number != y.number) return x.number < y.number ? -1 : 1;
    if (x.kind == KeyKind::kString) {
      int c = x.text.compare(y.text);
      if (c != 0) return c < 0 ? -1 : 1;
    }
  }
  if (i < a.size()) return 1;  // a has more components
  if (j < b.size()) return -1;
  return 0;
}

uint64_t CanonicalValueBytes(std::string_view canonical) {
  uint64_t total = 0;
  size_t at = 0;
  while (at < canonical.size()) {
    CanonicalComponent c = ReadCanonical(canonical, at);
    switch (c.kind) {
      case KeyKind::kString:
        total += c.text.size();
        break;
      case KeyKind::kNumber:
        total += 8;
        break;
      case KeyKind::kUndefined:
        break;
      default:
        total += 1;
        break;  // null, false, true
    }
  }
  return total;
}

}  // namespace partplay
