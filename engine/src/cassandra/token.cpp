#include "partplay/cassandra/token.h"

#include "core/murmur_hash3.h"

namespace partplay::cql {
namespace {

template <typename Components>
void CompositeInto(const Components& components, std::string& out) {
  if (components.size() == 1) {
    out.assign(components[0].data(), components[0].size());
    return;
  }
  out.clear();
  for (const auto& c : components) {
    out.push_back(static_cast<char>((c.size() >> 8) & 0xFF));
    out.push_back(static_cast<char>(c.size() & 0xFF));
    out.append(c.data(), c.size());
    out.push_back('\0');
  }
}

template <typename Components>
std::string Composite(const Components& components) {
  std::string out;
  CompositeInto(components, out);
  return out;
}

}  // namespace

int64_t CassandraMurmur3H1(std::string_view bytes, uint64_t seed) {
  // The reference algorithm with Java's sign-extended tail bytes (murmur_hash3.h).
  return static_cast<int64_t>(
      internal::MurmurHash3X64_128(bytes, seed, internal::TailBytes::kSignExtended).h1);
}

int64_t TokenFromH1(int64_t h1) { return h1 == kMinToken ? kMaxToken : h1; }

int64_t Murmur3Token(std::string_view key) { return TokenFromH1(CassandraMurmur3H1(key)); }

std::string PartitionKeyBytes(const std::vector<std::string>& components) {
  return Composite(components);
}

std::string PartitionKeyBytes(const std::vector<std::string_view>& components) {
  return Composite(components);
}

void PartitionKeyBytesInto(const std::vector<std::string>& components, std::string& out) {
  CompositeInto(components, out);
}

std::vector<std::string_view> SplitCompositeKey(std::string_view bytes) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < bytes.size()) {
    if (at + 2 > bytes.size()) return {};
    size_t n = (static_cast<size_t>(static_cast<uint8_t>(bytes[at])) << 8) |
               static_cast<uint8_t>(bytes[at + 1]);
    at += 2;
    if (at + n + 1 > bytes.size()) return {};
    if (bytes[at + n] != 0) return {};  // a partition key's end-of-component byte is always 0
    out.push_back(bytes.substr(at, n));
    at += n + 1;  // the end-of-component byte
  }
  return out;
}

}  // namespace partplay::cql
