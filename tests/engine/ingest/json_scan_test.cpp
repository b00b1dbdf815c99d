// The scanner (json_scan.h) against simdjson's DOM: whatever it accepts, the DOM accepts, with the
// same values at the tracked paths (the first occurrence, as the analyzer's walks read them); what
// it leaves to the DOM is named case by case; and on random mutations of valid documents it never
// accepts what the DOM refuses, while still settling most valid ones.
#include "ingest/json_scan.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../../fuzz/json_scan_diff.h"
#include "ingest/json_implementation.h"
#include "simdjson.h"

namespace partplay::internal {
namespace {

using scan_diff::Scanned;

Scanned Scan(const std::string& json, const simdjson::implementation* impl) {
  return scan_diff::Scan(reinterpret_cast<const uint8_t*>(json.data()), json.size(), impl);
}

void ExpectSameAsDom(const std::string& json, const Scanned& s) {
  EXPECT_EQ(scan_diff::Compare(s), "") << json;
}

std::vector<const simdjson::implementation*> Implementations() {
  std::vector<const simdjson::implementation*> all = {simdjson::get_active_implementation()};
  if (const simdjson::implementation* simd = SimdStage1Implementation()) all.push_back(simd);
  return all;
}

TEST(JsonScanTest, SettlesPlainDocumentsWithTheDomsValues) {
  const std::vector<std::string> docs = {
      R"({})",
      R"({"a":"x","id":"7"})",
      R"({"a":-12,"b":{"c":true},"id":null})",
      R"( { "a" : 0 , "b" : { "c" : "deep" } , "x y" : false } )",
      R"({"b":5,"b":{"c":"second b, first object"}})",
      R"({"a":"first","a":"second","":[1,{"a":2}]})",
      R"({"b":{"c":{"z":1}},"a":[],"id":{}})",
      R"({"z":"\"esc\\aped\/\b\f\n\r\t\u00e9\ud83d\ude00","a":"plain"})",
      R"({"n":[1.5,-0.25e-3,1E+99,0,-0,123456789012345678],"a":-0})",
      R"({"a":999999999999999,"id":"last"})",
      "{\"a\":\"caf\xc3\xa9\",\n\t\"id\":\"x\"}",
      R"({"deep":[[[[[[[[{"a":1}]]]]]]]],"a":2})",
  };
  for (const auto* impl : Implementations()) {
    for (const std::string& json : docs) {
      SCOPED_TRACE(std::string(impl->name()) + ": " + json);
      Scanned s = Scan(json, impl);
      ASSERT_TRUE(s.accepted);
      EXPECT_EQ(s.next, s.count);
      EXPECT_EQ(s.end, json.find_last_of('}') + 1);
      ExpectSameAsDom(json, s);
    }
  }
}

// In a stream, the scanner settles the first document and says where the next one starts.
TEST(JsonScanTest, StopsAfterTheFirstDocument) {
  const std::string json = "{\"a\":\"one\",\"b\":{\"c\":[]}}\n{\"a\":\"two\"} 7";
  for (const auto* impl : Implementations()) {
    Scanned s = Scan(json, impl);
    ASSERT_TRUE(s.accepted) << impl->name();
    EXPECT_EQ(s.next, 14u);  // { "a" : "one" , "b" : { "c" : [ ] } }
    EXPECT_EQ(s.end, json.find('\n'));
    EXPECT_EQ(s.values[0].text, "one");
    EXPECT_EQ(static_cast<int>(s.values[1].kind), static_cast<int>(ScanKind::kArray));
    ExpectSameAsDom(json, s);
  }
}

TEST(JsonScanTest, LeavesToTheDomWhatItDoesNotSettle) {
  const std::vector<std::string> docs = {
      R"({"a":"esc\naped"})",                 // an escaped string at a tracked path
      R"({"\u0061":"x"})",                    // an escaped key on a tracked object
      R"({"a":1.5})",                         // a decimal at a tracked path
      R"({"a":1e2})",                         // an exponent at a tracked path
      R"({"a":1234567890123456})",            // 16 digits at a tracked path
      R"({"z":1234567890123456789})",         // 19 integer digits anywhere
      R"({"z":1e100})",                       // a 3-digit exponent
      R"({"z":0.12345678901234567890123456789012345678901})",  // 41 fraction digits
      R"({"z":"\ud800"})",                    // a lone high surrogate (the DOM refuses it)
      R"({"z":"\udc00"})",                    // a lone low surrogate
      R"({"z":"\x"})",                        // a bad escape
      R"({"z":"\u12G4"})",                    // a bad hex digit
      R"({"z":01})", R"({"z":1.})", R"({"z":-})", R"({"z":.5})", R"({"z":+1})",
      R"({"z":tru})", R"({"z":nul})", R"({"z":falsey})", R"({"z":truex})",
      R"({"z":1,})", R"({"z" 1})", R"({"z":1 "y":2})", R"({"z":[1,]})", R"({"z":[1 2]})",
      R"({"z":}})", R"({1:2})", R"({"z":1]})", R"({"z":[1}})",
      R"([{"a":1}])", R"("a")", R"(5)",
      "{\"z\":" + std::string(60, '[') + std::string(60, ']') + "}",  // deeper than it follows
  };
  for (const auto* impl : Implementations()) {
    for (const std::string& json : docs) {
      SCOPED_TRACE(std::string(impl->name()) + ": " + json);
      EXPECT_FALSE(Scan(json, impl).accepted);
    }
  }
}

// Random byte edits of valid documents: an accepted one is always one the DOM accepts, with the
// same values; and the scanner settles most of the valid ones (it is not merely refusing).
TEST(JsonScanTest, RandomEditsNeverPassWhatTheDomRefuses) {
  const std::vector<std::string> seeds = {
      R"({"id":"1","a":"x","b":{"c":"y","d":[1,2,{"e":null}]},"x y":true,"":false})",
      R"({"a":12,"n":-0.5e-7,"s":"q\"q\\q\u00e9","arr":[[],{},[{}],""],"b":{"c":{}}})",
      R"({"b":{"c":-7},"id":"\ud83d\ude00","t":[true,false,null,0,1E5,-1.25]})",
  };
  const std::string alphabet = "{}[]:,\"\\ \n0123456789-+.eEtrufalsnxu\x01\x7f\xc3\xa9";
  std::mt19937_64 rng(20261128);
  for (const auto* impl : Implementations()) {
    int accepted = 0, dom_valid = 0;
    for (int round = 0; round < 20000; ++round) {
      std::string json = seeds[rng() % seeds.size()];
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        size_t at = rng() % json.size();
        char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0: json[at] = c; break;
          case 1: json.insert(json.begin() + static_cast<long>(at), c); break;
          default: json.erase(at, 1); break;
        }
      }
      simdjson::dom::parser dom;
      bool valid = !dom.parse(json).error();
      dom_valid += valid;
      Scanned s = Scan(json, impl);
      if (!s.accepted) continue;  // unsure: the DOM decides
      accepted += s.next == s.count;
      SCOPED_TRACE(std::string(impl->name()) + " round " + std::to_string(round));
      ExpectSameAsDom(json, s);
      if (HasFailure()) return;
    }
    EXPECT_GT(accepted, dom_valid / 3) << impl->name();
  }
}

}  // namespace
}  // namespace partplay::internal
