// The three ways an item is read (item_stream.h) give the same analysis: the validated path with
// its scanner (json_scan.h: simdjson's stage 1, then its own stage 2 reading only the tracked
// paths), the validated path with simdjson's DOM stage 2 for every item, and the walked path
// alone (On Demand, every value visited), on seeded random inputs with every kind of value a key path can
// meet, in NDJSON, array and pretty-printed layouts, fed whole and in chunks, with every option
// that changes what is tracked — and on every bad-input class, where the error (code, message,
// location) must be the walked path's. The validated path must also really take the items.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ingest/item_stream.h"
#include "partplay/ingest/analysis.h"
#include "partplay/core/json_diagnostics.h"
#include "partplay/report/report_builder.h"
#include "sanitizer_scale.h"

namespace partplay {
namespace {

struct Outcome {
  Status status;
  std::string json;
  uint64_t items = 0;
  uint64_t validated = 0;
  uint64_t scanned = 0;
};

Outcome Run(const AnalysisOptions& options, std::string_view text, size_t chunk, bool validated,
            bool scan = true) {
  internal::SetValidatedPathEnabled(validated);
  internal::SetScanEnabled(scan);
  Outcome out;
  auto created = Analyzer::Create(options);
  EXPECT_TRUE(created.ok()) << created.status().ToString();
  if (!created.ok()) return out;
  Analyzer& a = *created.value();
  for (size_t at = 0; at < text.size() && out.status.ok(); at += chunk) {
    out.status = a.Feed(text.substr(at, chunk));
  }
  if (out.status.ok()) out.status = a.Finish();
  internal::SetValidatedPathEnabled(true);
  internal::SetScanEnabled(true);
  out.items = a.items_seen();
  out.validated = a.items_validated();
  out.scanned = a.items_scanned();
  if (!out.status.ok()) return out;
  ReportRequest request;
  request.max_partitions = 100000;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 40000;
  if (options.key_paths.size() > 1) {
    request.container->version = PartitionKeyHashVersion::kMultiHash;
  }
  auto built = BuildFullReport(a, options, request);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  if (built.ok()) out.json = built.value().json;
  return out;
}

std::string Describe(const Status& s) {
  const SourceLocation& w = s.where();
  return s.ToString() + " @" + std::to_string(w.byte_offset) + " line " +
         std::to_string(w.line) + " col " + std::to_string(w.column) + " item " +
         std::to_string(w.item_index);
}

// The three readers, the same outcome; returns the scanning run's.
Outcome ExpectSame(const AnalysisOptions& options, std::string_view text, size_t chunk) {
  Outcome fast = Run(options, text, chunk, true);
  Outcome dom = Run(options, text, chunk, true, false);
  Outcome walked = Run(options, text, chunk, false);
  EXPECT_EQ(Describe(fast.status), Describe(walked.status)) << "chunk " << chunk;
  EXPECT_EQ(fast.json, walked.json) << "chunk " << chunk;
  EXPECT_EQ(Describe(dom.status), Describe(walked.status)) << "chunk " << chunk;
  EXPECT_EQ(dom.json, walked.json) << "chunk " << chunk;
  EXPECT_EQ(walked.validated, 0u);
  EXPECT_EQ(dom.scanned, 0u);
  EXPECT_LE(fast.scanned, fast.validated);
  return fast;
}

// A scalar or container a tracked path may meet.
std::string Value(std::mt19937_64& rng, int depth) {
  static const char* kScalars[] = {
      R"("alpha")", R"("é")", R"("line\nbreak")", R"("\u00e4")", R"("\ud83d\ude00")",
      R"("a\"q")", R"("")", "0", "-0", "-0.0", "7", "-12", "1.5", "1e5", "2.5E-3",
      "9007199254740993", "-9007199254740993", "18446744073709551615", "1e20", "9.1e15",
      "true", "false", "null", R"("5")", "5", "5.0", "9223372036854775807"};
  // An integer beyond 64 bits stops simdjson's DOM parser (the walk takes the rest of its
  // region): rare, so most regions stay on the validated path.
  if (rng() % 300 == 0) return "123456789012345678901234567890";
  std::uniform_int_distribution<int> pick(0, depth > 2 ? 26 : 30);
  int k = pick(rng);
  if (k < 27) return kScalars[k];
  if (k < 29) {
    std::string o = "{";
    int n = static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) {
      if (i) o += ",";
      o += (rng() % 2) ? R"("d":)" : R"("e":)";
      o += Value(rng, depth + 1);
    }
    return o + "}";
  }
  return "[" + Value(rng, depth + 1) + "," + Value(rng, depth + 1) + "]";
}

// One item: the tracked fields in a random order, sometimes missing or repeated, sometimes with
// an escaped name.
std::string Item(std::mt19937_64& rng, int index, bool pretty) {
  std::vector<std::string> fields;
  auto add = [&](const std::string& name, const std::string& value) {
    fields.push_back("\"" + name + "\":" + value);
  };
  if (rng() % 10) {
    // Ids repeat now and then (duplicates in one partition), are sometimes not strings.
    std::string id = (rng() % 8 == 0) ? std::to_string(rng() % 20) : std::to_string(index);
    add("id", rng() % 25 ? "\"" + id + "\"" : Value(rng, 0));
  }
  if (rng() % 6) add("userId", rng() % 2 ? "\"user-" + std::to_string(rng() % 30) + "\"" : Value(rng, 0));
  if (rng() % 4) add("a", rng() % 3 ? std::to_string(rng() % 5) : Value(rng, 0));
  if (rng() % 4) add(rng() % 5 ? "b" : "\\u0062", Value(rng, 0));
  if (rng() % 3) add("c", rng() % 2 ? "{\"d\":" + Value(rng, 1) + ",\"z\":1}" : Value(rng, 0));
  if (rng() % 3) add("w", rng() % 4 ? std::to_string(rng() % 1000) + ".25" : Value(rng, 0));
  if (rng() % 5 == 0) add("x/y", Value(rng, 0));
  if (rng() % 5 == 0) add("tags", "[{\"name\":" + Value(rng, 1) + "}]");
  if (rng() % 7 == 0) add("a", "\"second a\"");  // a repeated name: the first one counts
  if (rng() % 7 == 0) add("c", rng() % 2 ? "{\"d\":" + Value(rng, 1) + "}" : Value(rng, 0));
  add("pad", Value(rng, 0));
  std::shuffle(fields.begin(), fields.end(), rng);
  std::string out = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += pretty ? ",\n  " : ",";
    out += fields[i];
  }
  return out + (pretty ? "\n}" : "}");
}

enum class Layout { kNdjson, kCrlf, kArray, kPretty };

std::string Input(uint64_t seed, int items, Layout layout) {
  std::mt19937_64 rng(seed);
  std::string out = layout == Layout::kArray ? "[\n" : "";
  for (int i = 0; i < items; ++i) {
    out += Item(rng, i, layout == Layout::kPretty);
    switch (layout) {
      case Layout::kNdjson:
      case Layout::kPretty:
        out += "\n";
        break;
      case Layout::kCrlf:
        out += "\r\n";
        break;
      case Layout::kArray:
        out += i + 1 < items ? ",\n" : "\n]";
        break;
    }
  }
  return out;
}

std::vector<AnalysisOptions> OptionSets() {
  std::vector<AnalysisOptions> all;
  auto with = [&](std::vector<std::string> keys) {
    AnalysisOptions o;
    o.key_paths = std::move(keys);
    o.discover_items = 0;
    return o;
  };
  all.push_back(with({"/id"}));
  all.push_back(with({"/userId"}));
  all.push_back(with({"/a", "/b"}));
  all.push_back(with({"/c/d", "/a", "/x~1y"}));
  all.push_back(with({"/tags/0/name"}));
  AnalysisOptions weight = with({"/userId"});
  weight.weight_path = "/w";
  all.push_back(weight);
  AnalysisOptions concat = with({"/a"});
  concat.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
  concat.synthetic.paths = {"/a", "/b", "/c/d"};
  all.push_back(concat);
  AnalysisOptions suffix = with({"/userId"});
  suffix.synthetic.kind = SyntheticKeyOptions::Kind::kHashSuffix;
  suffix.synthetic.suffix_path = "/id";
  suffix.synthetic.buckets = 17;
  all.push_back(suffix);
  AnalysisOptions no_ids = with({"/userId"});
  no_ids.check_ids = false;
  all.push_back(no_ids);
  AnalysisOptions sampled = with({"/userId"});
  sampled.discover_items = 25;  // the first 25 items sampled (their whole DOM), the rest scanned
  all.push_back(sampled);
  AnalysisOptions all_sampled = with({"/c/d", "/a"});
  all_sampled.discover_items = -1;  // every item sampled: every value of every item compared
  all.push_back(all_sampled);
  return all;
}

TEST(ValidatedPathTest, RandomInputsEveryLayoutOptionAndChunking) {
  const Layout layouts[] = {Layout::kNdjson, Layout::kCrlf, Layout::kArray, Layout::kPretty};
  uint64_t items = 0, validated = 0, scanned = 0;
  for (uint64_t seed = 1; seed <= scale::Count<uint64_t>(6, 2); ++seed) {
    for (Layout layout : layouts) {
      std::string text = Input(seed * 977 + static_cast<uint64_t>(layout), 300, layout);
      for (const AnalysisOptions& options : OptionSets()) {
        for (size_t chunk : {text.size(), size_t{4096}, size_t{613}}) {
          SCOPED_TRACE("seed " + std::to_string(seed) + " layout " +
                       std::to_string(static_cast<int>(layout)) + " key " +
                       options.key_paths[0] + " chunk " + std::to_string(chunk));
          Outcome fast = ExpectSame(options, text, chunk);
          ASSERT_TRUE(fast.status.ok()) << Describe(fast.status);
          EXPECT_EQ(fast.items, 300u);
          items += fast.items;
          validated += fast.validated;
          scanned += fast.scanned;
        }
      }
    }
  }
  // A key number a double hides sends the rest of its region to the walk; the rest is taken.
  std::printf("validated %llu of %llu items, %llu of them scanned\n",
              static_cast<unsigned long long>(validated), static_cast<unsigned long long>(items),
              static_cast<unsigned long long>(scanned));
  EXPECT_GT(validated, items / 4);
  // The generator puts escapes and decimals at tracked paths often: the DOM takes those.
  EXPECT_GT(scanned, validated / 10);
}

// Clean items (no number a double hides): the validated path takes every item, the sampled ones
// through their DOM (the scanner reads only the tracked paths), across several DOM batches (a 3
// MB input), and still agrees with the walk.
TEST(ValidatedPathTest, TakesEveryCleanItemAcrossBatches) {
  std::string text;
  for (int i = 0; i < 30000; ++i) {
    text += R"({"id":")" + std::to_string(i % 29000) + R"(","userId":"user-)" +
            std::to_string(i % 777) + R"(","amount":)" + std::to_string(i % 1000) +
            R"(.5,"tags":["a","b"],"address":{"city":"Caf\u00e9","zip":")" +
            std::to_string(10000 + i) + R"("},"note":"plain text to make it longer"})" + "\n";
  }
  ASSERT_GT(text.size(), 3u << 20);
  for (const char* key : {"/userId", "/id", "/address/city"}) {
    AnalysisOptions options;
    options.key_paths = {key};
    options.discover_items = 100;
    for (size_t chunk : {text.size(), size_t{1} << 20, size_t{65536}}) {
      SCOPED_TRACE(std::string(key) + " chunk " + std::to_string(chunk));
      Outcome fast = ExpectSame(options, text, chunk);
      ASSERT_TRUE(fast.status.ok()) << Describe(fast.status);
      EXPECT_EQ(fast.items, 30000u);
      EXPECT_EQ(fast.validated, 30000u);
      // "Caf\u00e9" is escaped: the scanner leaves /address/city's items to the DOM, and the
      // 100 sampled items are the DOM's whatever the key.
      EXPECT_EQ(fast.scanned, std::string(key) == "/address/city" ? 0u : 30000u - 100u);
    }
  }
}

// Every bad-input class: the same error, located the same, whichever path met the item first.
TEST(ValidatedPathTest, BadInputsGiveTheWalkedPathsError) {
  std::string good;
  for (int i = 0; i < 200; ++i) {
    good += R"({"id":")" + std::to_string(i) + R"(","userId":"u)" + std::to_string(i % 9) +
            R"(","n":)" + std::to_string(i) + "}\n";
  }
  const std::vector<std::string> bad_items = {
      R"({"id":"x","userId":"u1","n":tru})",             // a bad literal
      R"({"id":"x","userId":"u1","n":01})",              // a bad number
      R"({"id":"x","userId":"u1","n":1e400})",           // out of a double's range
      R"({"id":"x","userId":1e400})",                    // ... at the key path
      R"({"id":"x","userId":"u1",})",                    // a trailing comma
      R"({"id":"x","userId":"u1" "n":1})",               // a missing comma
      R"({"id":"x","userId":"\x"})",                     // a bad escape
      R"({"id":"x","userId":"\ud800"})",                 // a lone surrogate
      "{\"id\":\"x\",\"userId\":\"a\xff\"}",             // invalid UTF-8
      "{\"id\":\"x\",\"userId\":\"a\tb\"}",              // a raw control character
      "{\"id\":\"x\",\"userId\":\"u1\"}\x00",            // a NUL byte
      R"([1,2])",                                        // not an object
      R"("text")",                                       // not an object
      "\xEF\xBB\xBF{\"id\":\"x\"}",                      // a byte order mark mid-input
      std::string(600, '[') + std::string(600, ']'),     // deep, not an object
      "{\"a\":" + std::string(700, '[') + std::string(700, ']') + "}",  // deep (walked)
      "{\"a\":" + std::string(1100, '[') + std::string(1100, ']') + "}",  // too deep
      R"({"id":"x","userId":"u1")",                      // cut short (then more items)
      R"({"id":"x","userId":"u1"}})",                    // one brace too many
  };
  for (size_t k = 0; k < bad_items.size(); ++k) {
    for (bool at_end : {false, true}) {
      std::string text = good + bad_items[k] + "\n";
      if (!at_end) text += good;
      for (const char* key : {"/userId", "/id"}) {
        AnalysisOptions options;
        options.key_paths = {key};
        options.discover_items = 0;
        for (size_t chunk : {text.size(), size_t{1000}, size_t{97}}) {
          SCOPED_TRACE("bad item " + std::to_string(k) + (at_end ? " at the end" : "") +
                       " key " + key + " chunk " + std::to_string(chunk));
          ExpectSame(options, text, chunk);
        }
      }
    }
  }
  // A byte order mark right after an item: a region of the walked path can start at it (found
  // by ingest_fuzz), where iterate_many would skip it.
  for (const char* key : {"/id", "/userId"}) {
    AnalysisOptions o;
    o.key_paths = {key};
    o.discover_items = 0;
    std::string bom = good + "{\"id\":\"x\"}\xEF\xBB\xBF\n" + good;
    for (size_t chunk : {bom.size(), size_t{1000}, size_t{61}}) {
      Outcome out = ExpectSame(o, bom, chunk);
      EXPECT_EQ(out.status.code(), ErrorCode::kMalformedJson) << Describe(out.status);
      EXPECT_EQ(out.status.where().byte_offset, static_cast<int64_t>(good.size() + 10));
    }
  }
  // A truncated last item, and an input cut inside a string.
  AnalysisOptions options;
  options.key_paths = {"/userId"};
  options.discover_items = 0;
  Outcome cut = ExpectSame(options, good + R"({"id":"x","userId":"u)", 1000);
  EXPECT_EQ(cut.status.code(), ErrorCode::kTruncatedInput);
}

// A key number beyond +-2^53: the imprecise-key finding quotes the literal, which the validated
// path rebuilds from an integer and hands to the walk when it cannot (a double).
TEST(ValidatedPathTest, ImpreciseKeysQuoteTheLiteral) {
  std::string text;
  for (const char* n : {"9007199254740993", "-9007199254740993", "18446744073709551615",
                        "123456789012345678901234567890", "1e20", "9007199254740992.0", "42"}) {
    text += std::string(R"({"id":")") + n + R"(","k":)" + n + "}\n";
  }
  AnalysisOptions options;
  options.key_paths = {"/k"};
  options.discover_items = 0;
  Outcome fast = ExpectSame(options, text, text.size());
  ASSERT_TRUE(fast.status.ok()) << Describe(fast.status);
  EXPECT_NE(fast.json.find("9007199254740993"), std::string::npos);
  EXPECT_NE(fast.json.find("123456789012345678901234567890"), std::string::npos);
}

// A property named twice: the first occurrence is the key, so only its literal can make the
// key imprecise, in the walk (sampled items) and in the validated path alike.
TEST(ValidatedPathTest, ARepeatedPropertysLiteralIsNotTheKeys) {
  const std::string text =
      R"({"id":"a","k":1,"k":12345678901234567890})" "\n"
      R"({"id":"b","k":12345678901234567891,"k":2})" "\n"
      R"({"id":"c","k":3,"k":123456789012345678901234567890})" "\n";
  for (int64_t discover : {0, -1}) {
    AnalysisOptions options;
    options.key_paths = {"/k"};
    options.discover_items = discover;
    Outcome out = ExpectSame(options, text, text.size());
    ASSERT_TRUE(out.status.ok()) << Describe(out.status);
    EXPECT_NE(out.json.find(R"("imprecise_number_key":{"count":1,)"), std::string::npos)
        << discover << ": " << out.json.substr(0, 600);
    EXPECT_NE(out.json.find("12345678901234567891"), std::string::npos) << discover;
    EXPECT_EQ(out.json.find("12345678901234567890"), std::string::npos) << discover;
    EXPECT_EQ(out.json.find("123456789012345678901234567890"), std::string::npos) << discover;
  }
}

// The validated path stops reading an item's fields once every tracked component has its first
// occurrence: a later repeat that the DOM cannot tell apart from its literal (1e300 at the key)
// changes nothing, so the item stays on the validated path; a component not yet found (/c/d in a
// second "c") is still looked for.
TEST(ValidatedPathTest, TheFirstOccurrencesEndTheSearch) {
  const std::string text =
      R"({"id":"a","k":1,"c":{"d":"x"},"k":1e300})" "\n"
      R"({"id":"b","c":{"z":1},"k":2,"c":{"d":"y"},"c":{"d":"z"}})" "\n"
      R"({"k":3,"id":"c","c":5,"c":{"d":"w"},"k":123456789012345678901234567890})" "\n";
  AnalysisOptions options;
  options.key_paths = {"/k", "/c/d"};
  options.discover_items = 0;
  Outcome out = ExpectSame(options, text, text.size());
  ASSERT_TRUE(out.status.ok()) << Describe(out.status);
  EXPECT_EQ(out.validated, 2u);  // the third's 30-digit integer stops the DOM parser
  EXPECT_NE(out.json.find(R"([1,"x"])"), std::string::npos) << out.json.substr(0, 800);
  EXPECT_NE(out.json.find(R"([2,"y"])"), std::string::npos);
  EXPECT_EQ(out.json.find(R"([2,"z"])"), std::string::npos);
  EXPECT_NE(out.json.find(R"([3,"w"])"), std::string::npos);  // a scalar "c" holds no /c/d
}

TEST(CountNewlinesTest, MatchesACountAtEveryLengthAndAlignment) {
  std::mt19937 rng(7);
  std::string text(3000, 'a');
  for (char& c : text) c = "ab\n\r{}"[rng() % 6];
  for (size_t start = 0; start < 9; ++start) {
    for (size_t len = 0; start + len <= text.size(); len += (len < 40 ? 1 : 97)) {
      std::string_view part(text.data() + start, len);
      EXPECT_EQ(CountNewlines(part), static_cast<size_t>(std::count(part.begin(), part.end(), '\n')));
    }
  }
  std::string lines(255 * 8 * 3 + 5, '\n');  // every byte a newline: lane sums at their limit
  EXPECT_EQ(CountNewlines(lines), lines.size());
}

}  // namespace
}  // namespace partplay
