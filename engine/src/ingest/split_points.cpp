#include "partplay/ingest/split_points.h"

#include <algorithm>

namespace partplay {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

size_t NextSafeCut(std::string_view text, size_t from) {
  for (size_t nl = from; nl < text.size(); ++nl) {
    nl = text.find('\n', nl);
    if (nl == std::string_view::npos) break;
    size_t before = nl;
    while (before > 0 && IsSpace(text[before - 1])) --before;
    size_t after = nl + 1;
    while (after < text.size() && IsSpace(text[after])) ++after;
    if (before > 0 && text[before - 1] == '}' && after < text.size() && text[after] == '{') {
      return nl + 1;
    }
  }
  return std::string_view::npos;
}

SplitSearch::SplitSearch(uint64_t input_size, size_t parts, uint64_t min_part_bytes,
                         double first_part_weight)
    : size_(input_size),
      parts_(parts),
      min_part_(std::max<uint64_t>(min_part_bytes, 1)),
      first_weight_(first_part_weight > 0 ? first_part_weight : 1) {
  if (parts_ < 2 || size_ == 0) {
    done_ = true;
    return;
  }
  window_offset_ = 0;
  window_length_ = static_cast<size_t>(std::min<uint64_t>(kHeadBytes, size_));
}

void SplitSearch::StartTarget() {
  if (k_ >= parts_) {
    done_ = true;
    return;
  }
  // Part 0 weighs first_weight_, every other part 1; each part at least min_part_.
  const double share = (first_weight_ + static_cast<double>(k_ - 1)) /
                       (first_weight_ + static_cast<double>(parts_ - 1));
  const uint64_t weighted = static_cast<uint64_t>(share * static_cast<double>(size_));
  target_ = std::max({from_, weighted, k_ * min_part_});
  AskWindow(target_);
}

void SplitSearch::AskWindow(uint64_t at) {
  if (at >= size_ || at >= target_ + kMaxLookahead) {
    done_ = true;  // no cut near this target: fewer parts
    return;
  }
  at_ = at;
  window_offset_ = at > kOverlapBytes ? at - kOverlapBytes : 0;
  // The window starts a little before `at` (the '}' ahead of a newline) and ends a little past
  // at + kWindowBytes (the '{' after it), so consecutive windows overlap.
  window_length_ = static_cast<size_t>(std::min<uint64_t>(
      at - window_offset_ + kWindowBytes + kOverlapBytes, size_ - window_offset_));
}

void SplitSearch::Offer(std::string_view bytes) {
  if (done_) return;
  if (bytes.empty()) {
    done_ = true;
    return;
  }
  if (head_) {
    head_ = false;
    size_t first = 0;
    while (first < bytes.size() && IsSpace(bytes[first])) ++first;
    // Only whitespace-separated objects are cut; an array (or anything else) is one part.
    if (first >= bytes.size() || bytes[first] != '{') {
      done_ = true;
      return;
    }
    from_ = first + 1;
    StartTarget();
    return;
  }
  size_t c = NextSafeCut(bytes, static_cast<size_t>(at_ - window_offset_));
  if (c == std::string_view::npos) {
    AskWindow(at_ + kWindowBytes);
    return;
  }
  uint64_t cut = window_offset_ + c;
  if (cut >= size_) {
    done_ = true;
    return;
  }
  cuts_.push_back(cut);
  from_ = cut + 1;
  ++k_;
  StartTarget();
}

std::vector<uint64_t> SafeSplitPoints(std::string_view text, size_t parts, uint64_t min_part_bytes,
                                      double first_part_weight) {
  SplitSearch search(text.size(), parts, min_part_bytes, first_part_weight);
  while (!search.done()) {
    search.Offer(text.substr(static_cast<size_t>(search.window_offset()), search.window_length()));
  }
  return search.cuts();
}

}  // namespace partplay
