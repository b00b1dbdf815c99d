// The SIMD stage 1 (ingest/json_stage1.h) gives simdjson's fallback stage 1 bit for bit on
// adversarial inputs, in every stage1_mode; and the implementation wrapping it
// (ingest/json_implementation.h) parses as the fallback kernel does through DOM parse_many and
// On Demand iterate_many.
#include "ingest/json_stage1.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../fuzz/json_stage1_diff.h"
#include "ingest/json_implementation.h"

namespace partplay {
namespace {

using simdjson::stage1_mode;
const stage1_mode kModes[] = {stage1_mode::regular, stage1_mode::streaming_partial,
                              stage1_mode::streaming_final};
const uint8_t kPads[] = {' ', 0, 0x80, '"', 0xBF, '\\'};

void ExpectSame(const std::string& input) {
  for (stage1_mode mode : kModes) {
    for (uint8_t pad : kPads) {
      std::string diff = stage1_diff::Compare(reinterpret_cast<const uint8_t*>(input.data()),
                                              input.size(), mode, pad);
      ASSERT_TRUE(diff.empty()) << diff << " mode " << static_cast<int>(mode) << " pad "
                                << int(pad) << " input (" << input.size() << " bytes) "
                                << testing::PrintToString(input);
    }
  }
}

// Bytes that matter to stage 1: quotes, backslashes, operators, whitespace, atoms, control
// characters and UTF-8 of every class (leads, continuations, overlong, surrogate, too large).
const std::vector<std::string> kPieces = {
    "\"", "\\", "\\\\", "\\\"", " ", "\n", "\t", "\r", "{", "}", "[", "]", ",", ":", "a", "1",
    "true", "-2.5e3", "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
    "\xc3", "\xa9", "\xe2\x82", "\xf0\x9f", "\xf0\x9f\x98", "\xc0\x80", "\xc1\xbf",
    "\xe0\x80\x80", "\xed\xa0\x80", "\xf0\x80\x80\x80", "\xf4\x90\x80\x80", "\xf5", "\xff",
    "\"abc\"", "{\"k\":\"v\"}", "[1,2]", "\"\xc3\xa9\\n\"", "\"\\u00e9\""};

std::string RandomInput(std::mt19937_64& rng, size_t target) {
  std::string s;
  while (s.size() < target) {
    uint64_t r = rng();
    if (r % 4 == 0) {
      s.append(r / 4 % 40, (r >> 20) % 2 ? ' ' : 'x');  // runs that move pieces across blocks
    } else {
      s += kPieces[r / 4 % kPieces.size()];
    }
  }
  s.resize(target);
  return s;
}

TEST(JsonStage1Test, HasSimdWhereExpected) {
#if defined(__SSE2__) || defined(__wasm_simd128__)
  EXPECT_TRUE(json_stage1::HasSimd());
#endif
}

TEST(JsonStage1Test, EmptyAndWhitespace) {
  for (size_t n = 0; n <= 200; ++n) {
    ExpectSame(std::string(n, ' '));
    ExpectSame(std::string(n, '\n'));
  }
}

TEST(JsonStage1Test, RandomPiecesEveryLength) {
  std::mt19937_64 rng(20261127);
  for (size_t len = 0; len <= 300; ++len) {
    for (int k = 0; k < 12; ++k) ExpectSame(RandomInput(rng, len));
  }
}

TEST(JsonStage1Test, MostlyValidDocumentsCutEverywhere) {
  std::string docs;
  for (int i = 0; i < 6; ++i) {
    docs += "{\"id\":\"" + std::to_string(i * 7919) + "\",\"name\":\"J\xc3\xa9r\xc3\xb4me \\\"" +
            std::string(i * 5, 'z') + "\\\\\",\"n\":[1,-2.5,true,null,{\"a\":\"\xe2\x82\xac\"}]}\n";
  }
  for (size_t cut = 0; cut <= docs.size(); ++cut) ExpectSame(docs.substr(0, cut));
  for (size_t from = 0; from < 200; ++from) ExpectSame(docs.substr(from));
}

TEST(JsonStage1Test, BackslashRunsAcrossBlockEdges) {
  for (size_t at = 50; at < 140; ++at) {
    for (size_t run = 1; run <= 5; ++run) {
      std::string s = "[\"" + std::string(at, 'a') + std::string(run, '\\') + "\"b\", 1]";
      ExpectSame(s);
      ExpectSame("[" + std::string(at, ' ') + std::string(run, '\\') + "\"b\"]");
    }
  }
}

TEST(JsonStage1Test, Utf8AcrossBlockEdges) {
  const std::vector<std::string> chars = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                          "\xed\xa0\x80", "\xc3", "\xe2\x82", "\xa9"};
  for (size_t at = 55; at < 135; ++at) {
    for (const auto& c : chars) {
      ExpectSame("{\"a\":\"" + std::string(at, 'b') + c + "c\"}");
      ExpectSame("{\"a\":\"" + std::string(at, 'b') + c);
      ExpectSame(std::string(at, ' ') + "x" + c + " 1");
    }
  }
}

TEST(JsonStage1Test, QuotesInAtomsAndControlCharacters) {
  for (size_t at = 0; at < 130; ++at) {
    std::string pad(at, ' ');
    ExpectSame(pad + "tru\"e\" , \"x\"");
    ExpectSame(pad + "\"a\"\"b\"x\"c\"");
    ExpectSame(pad + "\"a\x01\" \"b\t\" \"\\\x01\"");
    ExpectSame(pad + "1\\\"2 \"ok\"");
  }
}

// Parses an NDJSON text with the active implementation: each document minified, or its error.
std::string ParseAll(const std::string& text) {
  std::string result;
  simdjson::dom::parser dom;
  simdjson::dom::document_stream docs;
  if (auto e = dom.parse_many(text.data(), text.size(), 256).get(docs)) return simdjson::error_message(e);
  for (auto doc : docs) {
    simdjson::dom::element element;
    if (auto e = doc.get(element)) {
      result += std::string("error ") + simdjson::error_message(e) + "\n";
      break;
    }
    result += simdjson::minify(element) + "\n";
  }
  simdjson::ondemand::parser od;
  simdjson::padded_string padded(text);
  simdjson::ondemand::document_stream stream;
  if (auto e = od.iterate_many(padded, 256).get(stream)) return result + simdjson::error_message(e);
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    auto doc = *it;
    std::string_view json;
    simdjson::ondemand::document_reference ref;
    auto e = std::move(doc).get(ref);
    if (!e) e = ref.raw_json().get(json);
    if (e) {
      result += std::string("od error ") + simdjson::error_message(e) + "\n";
      break;
    }
    result += std::string(json) + " @" + std::to_string(it.current_index()) + "\n";
  }
  return result;
}

TEST(JsonStage1Test, ImplementationParsesAsTheFallback) {
  const simdjson::implementation* simd = SimdStage1Implementation();
  const simdjson::implementation* fallback = simdjson::get_available_implementations()["fallback"];
  if (!simd || !fallback) GTEST_SKIP() << "no fallback kernel in this simdjson build";
  const simdjson::implementation* before = simdjson::get_active_implementation();
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += "{\"id\":\"" + std::to_string(i) + "\",\"s\":\"caf\xc3\xa9 \\\"q\\\"\",\"v\":[" +
            std::to_string(i * 3) + ",{\"x\":null}]}\n";
  }
  std::vector<std::string> inputs = {text, text + "{\"bad\":tru}\n", text + "{\"cut\":\"abc",
                                     "[1,2] [3] {\"a\":{}}", "   ", ""};
  for (const auto& input : inputs) {
    simdjson::get_active_implementation() = fallback;
    std::string want = ParseAll(input);
    simdjson::get_active_implementation() = simd;
    std::string got = ParseAll(input);
    simdjson::get_active_implementation() = before;
    EXPECT_EQ(got, want) << input;
  }
}

}  // namespace
}  // namespace partplay
