// Safe split points (ingest/split_points.h): cuts fall only between top-level objects, near their
// targets, in increasing order; arrays and inputs without a safe newline get fewer parts; the
// windowed search over an input equals the search over it in memory.
#include "partplay/ingest/split_points.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace partplay {
namespace {

// NDJSON of `n` items, some pretty-printed over lines (a nested object at each line's end).
std::string Items(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    std::string item = "{\"id\":\"" + std::to_string(i) +
                       "\",\"n\":{\"a\":" + std::to_string(rng() % 1000) + "},\"s\":\"" +
                       std::string(rng() % 40, 'x') + "\"}";
    if (rng() % 5 == 0) {
      for (size_t at = item.find(','); at != std::string::npos; at = item.find(',', at + 3)) {
        item.replace(at, 1, ",\n ");
      }
    }
    out += item + (rng() % 7 == 0 ? "\r\n\n" : "\n");
  }
  return out;
}

// The offsets where an item starts (after the newline following the previous item's '}').
bool IsItemStart(const std::string& text, uint64_t cut) {
  if (cut == 0 || cut >= text.size() || text[cut - 1] != '\n') return false;
  size_t after = cut;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\n' || text[after] == '\r'))
    ++after;
  size_t before = cut - 1;
  while (before > 0 &&
         (text[before - 1] == ' ' || text[before - 1] == '\r' || text[before - 1] == '\n'))
    --before;
  return after < text.size() && text[after] == '{' && before > 0 && text[before - 1] == '}';
}

TEST(SplitPoints, CutsNdjsonBetweenItemsNearTheTargets) {
  // The first part is the larger in the page, a little smaller in one process (split_points.h).
  ASSERT_GT(kFirstPartWeightInPage, 1.0);
  ASSERT_LT(kFirstPartWeightInProcess, 1.0);
  std::string text = Items(20000, 7);
  for (double weight : {kFirstPartWeightInPage, kFirstPartWeightInProcess, 1.0, 0.5}) {
    for (size_t parts : {2, 3, 4, 7}) {
      std::vector<uint64_t> cuts = SafeSplitPoints(text, parts, 1, weight);
      ASSERT_EQ(cuts.size(), parts - 1) << parts;
      uint64_t previous = 0;
      for (size_t k = 0; k < cuts.size(); ++k) {
        EXPECT_TRUE(IsItemStart(text, cuts[k])) << cuts[k];
        EXPECT_GT(cuts[k], previous);
        // The target: part 0 weighs `weight`, the others 1 each.
        const uint64_t target = static_cast<uint64_t>(
            (weight + static_cast<double>(k)) / (weight + static_cast<double>(parts - 1)) *
            static_cast<double>(text.size()));
        EXPECT_GE(cuts[k], target) << weight;
        EXPECT_LT(cuts[k], target + 400) << weight;  // the next item boundary
        previous = cuts[k];
      }
    }
  }
}

TEST(SplitPoints, NeverInsideAPrettyPrintedObject) {
  // Newlines inside the objects are preceded by ',' or followed by '"': never a cut.
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    text += "{\n  \"id\": \"" + std::to_string(i) + "\",\n  \"o\": {\n    \"a\": 1\n  }\n}\n";
  }
  std::vector<uint64_t> cuts = SafeSplitPoints(text, 5, 1, kFirstPartWeightInPage);
  ASSERT_EQ(cuts.size(), 4u);
  for (uint64_t cut : cuts) EXPECT_EQ(text.substr(cut, 4), "{\n  ") << cut;
}

TEST(SplitPoints, ArraysAndInputsWithoutASafeNewlineAreOnePartOrFewer) {
  std::string array = "[" + Items(100, 1) + "]";
  for (size_t at = array.find("}\n"); at != std::string::npos; at = array.find("}\n", at + 2)) {
    if (at + 2 < array.size() - 1) array[at + 1] = ',';
  }
  EXPECT_TRUE(SafeSplitPoints(array, 4, 1, kFirstPartWeightInPage).empty());
  EXPECT_TRUE(SafeSplitPoints("  [{\"id\":\"a\"}\n,{\"id\":\"b\"}]", 2, 1, kFirstPartWeightInPage)
                  .empty());
  // No newline:
  EXPECT_TRUE(SafeSplitPoints("{\"id\":\"a\"}{\"id\":\"b\"}", 2, 1, kFirstPartWeightInPage).empty());
  EXPECT_TRUE(SafeSplitPoints("", 3, 1, kFirstPartWeightInPage).empty());
  EXPECT_TRUE(SafeSplitPoints(Items(100, 2), 1, 1, kFirstPartWeightInPage).empty());
  // Only the first third has newlines between items: no cut past it, so fewer parts.
  std::string lines = Items(200, 3);
  std::string mixed = lines;
  for (int i = 0; i < 2000; ++i) mixed += "{\"id\":\"z\"} ";
  std::vector<uint64_t> cuts = SafeSplitPoints(mixed, 4, 1, kFirstPartWeightInPage);
  EXPECT_LE(cuts.size(), 1u);
  for (uint64_t cut : cuts) EXPECT_LE(cut, lines.size());
}

TEST(SplitPoints, MinPartBytesMeansFewerParts) {
  std::string text = Items(1000, 4);
  EXPECT_EQ(SafeSplitPoints(text, 8, text.size() / 2, kFirstPartWeightInPage).size(), 1u);
  EXPECT_TRUE(SafeSplitPoints(text, 8, text.size() * 2, kFirstPartWeightInPage).empty());
}

TEST(SplitPoints, WindowedSearchAsksForBoundedWindowsAndFindsCutsPastThem) {
  // Long items (over a window each): the cut after a target is found in a later window.
  std::string text;
  for (int i = 0; i < 12; ++i) {
    text += "{\"id\":\"" + std::to_string(i) + "\",\"s\":\"" + std::string(700000, 'y') + "\"}\n";
  }
  SplitSearch search(text.size(), 3, 1, kFirstPartWeightInPage);
  size_t windows = 0;
  while (!search.done()) {
    ASSERT_LE(search.window_length(), SplitSearch::kWindowBytes + 2 * SplitSearch::kOverlapBytes);
    ASSERT_LE(search.window_offset() + search.window_length(), text.size());
    search.Offer(std::string_view(text).substr(search.window_offset(), search.window_length()));
    ++windows;
  }
  ASSERT_EQ(search.cuts().size(), 2u);
  for (uint64_t cut : search.cuts()) EXPECT_TRUE(IsItemStart(text, cut)) << cut;
  EXPECT_GE(windows, 3u);
  EXPECT_EQ(search.cuts(), SafeSplitPoints(text, 3, 1, kFirstPartWeightInPage));
}

TEST(SplitPoints, AShortReadEndsTheSearch) {
  std::string text = Items(5000, 5);
  SplitSearch search(text.size() * 2, 4, 1, kFirstPartWeightInPage);  // the input claims more bytes than it has
  while (!search.done()) {
    uint64_t at = search.window_offset();
    search.Offer(at >= text.size() ? std::string_view()
                                   : std::string_view(text).substr(at, search.window_length()));
  }
  for (uint64_t cut : search.cuts()) EXPECT_TRUE(IsItemStart(text, cut)) << cut;
}

}  // namespace
}  // namespace partplay
