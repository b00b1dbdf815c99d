#include "cassandra/inet.h"

#include <fmt/format.h>

#include <cstdint>
#include <vector>

namespace partplay::cql::internal {
namespace {

bool ParseIpv4(std::string_view s, uint8_t out[4]) {
  int part = 0;
  size_t i = 0;
  while (part < 4) {
    size_t start = i;
    int v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 3) v = v * 10 + (s[i++] - '0');
    if (i == start || v > 255) return false;
    out[part++] = static_cast<uint8_t>(v);
    if (part < 4) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
  }
  return i == s.size();
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ParseIpv6(std::string_view s, uint8_t out[16]) {
  std::vector<uint16_t> head, tail;
  bool gap = false;
  std::vector<uint16_t>* groups = &head;
  size_t i = 0;
  if (s.substr(0, 2) == "::") {
    gap = true;
    groups = &tail;
    i = 2;
  } else if (!s.empty() && s[0] == ':') {
    return false;
  }
  while (i < s.size()) {
    // A trailing dotted quad takes the last two groups.
    size_t next_colon = s.find(':', i);
    std::string_view piece =
        s.substr(i, next_colon == std::string_view::npos ? s.npos : next_colon - i);
    if (piece.find('.') != std::string_view::npos) {
      uint8_t v4[4];
      if (next_colon != std::string_view::npos || !ParseIpv4(piece, v4)) return false;
      groups->push_back(static_cast<uint16_t>(v4[0] << 8 | v4[1]));
      groups->push_back(static_cast<uint16_t>(v4[2] << 8 | v4[3]));
      i = s.size();
      break;
    }
    if (piece.empty() || piece.size() > 4) return false;
    uint16_t v = 0;
    for (char c : piece) {
      int h = HexDigit(c);
      if (h < 0) return false;
      v = static_cast<uint16_t>(v << 4 | h);
    }
    groups->push_back(v);
    i += piece.size();
    if (i == s.size()) break;
    ++i;  // the ':'
    if (i < s.size() && s[i] == ':') {
      if (gap) return false;
      gap = true;
      groups = &tail;
      ++i;
    } else if (i == s.size()) {
      return false;  // a single trailing ':'
    }
  }
  size_t total = head.size() + tail.size();
  if (gap ? total > 7 : total != 8) return false;
  std::vector<uint16_t> all = head;
  all.resize(8 - tail.size(), 0);
  all.insert(all.end(), tail.begin(), tail.end());
  for (int k = 0; k < 8; ++k) {
    out[2 * k] = static_cast<uint8_t>(all[k] >> 8);
    out[2 * k + 1] = static_cast<uint8_t>(all[k] & 0xFF);
  }
  return true;
}

}  // namespace

bool ParseInet(std::string_view text, std::string& bytes) {
  uint8_t b[16];
  if (ParseIpv4(text, b)) {
    bytes.assign(reinterpret_cast<char*>(b), 4);
    return true;
  }
  if (ParseIpv6(text, b)) {
    bytes.assign(reinterpret_cast<char*>(b), 16);
    return true;
  }
  return false;
}

std::string FormatInet(std::string_view bytes) {
  auto u = [&](size_t i) { return static_cast<unsigned>(static_cast<uint8_t>(bytes[i])); };
  if (bytes.size() == 4) return fmt::format("{}.{}.{}.{}", u(0), u(1), u(2), u(3));
  if (bytes.size() != 16) return "";
  uint16_t w[8];
  for (int k = 0; k < 8; ++k) w[k] = static_cast<uint16_t>(u(2 * k) << 8 | u(2 * k + 1));
  int best = -1, best_len = 0;
  for (int k = 0; k < 8;) {
    if (w[k] != 0) {
      ++k;
      continue;
    }
    int start = k;
    while (k < 8 && w[k] == 0) ++k;
    if (k - start > best_len) {
      best = start;
      best_len = k - start;
    }
  }
  if (best_len < 2) best = -1;
  std::string out;
  for (int k = 0; k < 8; ++k) {
    if (best >= 0 && k >= best && k < best + best_len) {
      if (k == best) out += ':';
      continue;
    }
    if (k > 0) out += ':';
    // An IPv4-compatible or IPv4-mapped address ends in a dotted quad.
    if (k == 6 && best == 0 && (best_len == 6 || (best_len == 5 && w[5] == 0xFFFF))) {
      out += fmt::format("{}.{}.{}.{}", u(12), u(13), u(14), u(15));
      break;
    }
    out += fmt::format("{:x}", w[k]);
  }
  if (best >= 0 && best + best_len == 8) out += ':';
  return out;
}

}  // namespace partplay::cql::internal
