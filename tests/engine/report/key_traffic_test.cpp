// The traffic pass (report/key_traffic.h): items placed as the analyzer and the container model
// place them, write spread over time windows, monotonicity, and the ISO-8601 reader. Authored.
#include "partplay/report/key_traffic.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "partplay/report/key_comparison.h"
#include "partplay/report/report_builder.h"

namespace partplay {
namespace {

using Kind = SyntheticKeyOptions::Kind;

class MatchAll : public ItemQuery {
 public:
  StatusOr<uint64_t> Rows(const simdjson::dom::element&, int64_t) override { return uint64_t{1}; }
};

// Items whose /status is "open".
class StatusOpen : public ItemQuery {
 public:
  StatusOr<uint64_t> Rows(const simdjson::dom::element& item, int64_t) override {
    std::string_view s;
    return uint64_t{!item["status"].get_string().get(s) && s == "open"};
  }
};

AnalysisOptions Key(std::vector<std::string> paths) {
  AnalysisOptions o;
  o.key_paths = std::move(paths);
  o.discover_items = 0;
  return o;
}

std::string ReadExample(const std::string& name) {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The analyzer's own container model of `key` at `ru` RU/s, and a traffic pass over the same
// bytes under that layout, fed in chunks of `chunk` bytes.
struct Both {
  ContainerReport model;
  AnalysisReport analysis;
  KeyTraffic traffic;
};

Both RunBoth(const std::string& input, const AnalysisOptions& key, double ru,
         std::vector<ItemQuery*> queries, WriteSpreadOptions writes = {},
         size_t chunk = 1 << 20) {
  Both out;
  auto analyzer = Analyzer::Create(key);
  EXPECT_TRUE(analyzer.ok());
  EXPECT_TRUE(analyzer.value()->Feed(input).ok());
  EXPECT_TRUE(analyzer.value()->Finish().ok());
  ContainerOptions container;
  container.ru_per_second = ru;
  container.version = key.key_paths.size() > 1 ? PartitionKeyHashVersion::kMultiHash
                                               : PartitionKeyHashVersion::kV2;
  ReportRequest request;
  request.max_partitions = 1;
  request.container = container;
  auto built = BuildFullReport(*analyzer.value(), key, request);
  EXPECT_TRUE(built.ok()) << built.status().ToString();
  out.model = *built->container;
  out.analysis = built->analysis;
  TrafficKey t{key, container.version, {}};
  t.layout.version = container.version;
  for (const PhysicalPartition& r : out.model.before.ranges) t.layout.ranges.push_back(r.range);
  auto pass = KeyTrafficPass::Create({t}, std::move(queries), writes);
  EXPECT_TRUE(pass.ok()) << pass.status().ToString();
  for (size_t at = 0; at < input.size(); at += chunk) {
    Status s = pass.value()->Feed(std::string_view(input).substr(at, chunk));
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  Status s = pass.value()->Finish();
  EXPECT_TRUE(s.ok()) << s.ToString();
  out.traffic = pass.value()->result();
  return out;
}

// Every item lands in the physical partition the container model counts it in, for plain,
// hierarchical and every kind of synthetic key, on every example, in any chunking.
TEST(KeyTrafficTest, PlacesEveryItemWhereTheContainerModelCountsIt) {
  AnalysisOptions concat = Key({"/customerId"});
  concat.synthetic.kind = Kind::kConcat;
  concat.synthetic.paths = {"/customerId", "/status"};
  AnalysisOptions random = Key({"/status"});
  random.synthetic.kind = Kind::kRandomSuffix;
  random.synthetic.buckets = 7;
  random.synthetic.seed = 42;
  AnalysisOptions hashed = Key({"/status"});
  hashed.synthetic.kind = Kind::kHashSuffix;
  hashed.synthetic.buckets = 5;
  hashed.synthetic.suffix_path = "/total";
  const std::string orders = ReadExample("orders.ndjson");
  MatchAll all;
  for (const AnalysisOptions& key :
       {Key({"/id"}), Key({"/customerId"}), Key({"/status", "/customerId"}),
        Key({"/address/city"}), concat, random, hashed}) {
    for (size_t chunk : {size_t{1} << 20, size_t{977}}) {
      SCOPED_TRACE(fmt::format("{} chunk {}", KeyLabel(key), chunk));
      Both b = RunBoth(orders, key, 40000, {&all}, {}, chunk);
      ASSERT_EQ(b.traffic.keys.size(), 1u);
      const QueryTraffic& q = b.traffic.keys[0].queries[0];
      ASSERT_EQ(q.items_per_range.size(), b.model.before.ranges.size());
      EXPECT_GT(b.model.before.ranges.size(), 1u);
      for (size_t r = 0; r < q.items_per_range.size(); ++r) {
        EXPECT_EQ(q.items_per_range[r], b.model.before.ranges[r].items) << "range " << r;
      }
      EXPECT_EQ(q.unplaced_items, b.analysis.invalid_key_items);
      EXPECT_EQ(q.matching_items, b.analysis.items);
      EXPECT_EQ(b.traffic.items, b.analysis.items);
    }
  }
}

TEST(KeyTrafficTest, CountsAQuerysMatchesPerPhysicalPartition) {
  std::string input;
  for (int i = 0; i < 300; ++i) {
    input += fmt::format(R"({{"id":"i{}","tenant":"t{}","status":"{}"}})", i, i % 30,
                         i % 3 == 0 ? "open" : "closed") +
             "\n";
  }
  StatusOpen open;
  Both b = RunBoth(input, Key({"/tenant"}), 40000, {&open});
  const QueryTraffic& q = b.traffic.keys[0].queries[0];
  EXPECT_EQ(q.matching_items, 100u);
  EXPECT_EQ(q.rows, 100u);
  // The open items are those of tenants t0, t3, ..., t27: count their ranges independently.
  std::vector<uint64_t> expected(b.model.before.ranges.size(), 0);
  for (int t = 0; t < 30; t += 3) {
    PartitionKey k{{KeyComponent::String(fmt::format("t{}", t))}};
    auto epk = EffectivePartitionKey(k, PartitionKeyHashVersion::kV2);
    ASSERT_TRUE(epk.ok());
    PhysicalLayout layout;
    for (const PhysicalPartition& r : b.model.before.ranges) layout.ranges.push_back(r.range);
    auto at = Locate(layout, epk.value());
    ASSERT_TRUE(at.ok());
    expected[at.value()] += 10;
  }
  EXPECT_EQ(q.items_per_range, expected);
  uint64_t with = 0;
  for (uint64_t n : expected) with += n > 0;
  EXPECT_EQ(q.ranges_with_matches, with);
}

// An export written over 60 days, 500 orders a day in time order: keyed by the day, each day's
// writes go to one physical partition; keyed by a random id, they spread over all of them.
std::string TimeOrderedExport(int days, int per_day, uint32_t seed = 11) {
  std::mt19937_64 rng(seed);
  std::string s;
  for (int d = 0; d < days; ++d) {
    for (int i = 0; i < per_day; ++i) {
      const int second = i * 86400 / per_day;
      s += fmt::format(
          R"({{"id":"{:016x}","date":"2024-03-{:02}","orderDate":"2024-03-{:02}T{:02}:{:02}:{:02}.{:03}Z","n":{}}})",
          rng(), 1 + d % 31, 1 + d % 31, second / 3600, second / 60 % 60, second % 60, i % 1000,
          i) +
           "\n";
    }
    if (d == 30) break;  // March only
  }
  return s;
}

TEST(KeyTrafficTest, ADateKeySendsEachDaysWritesToOnePartitionAndAnIdSpreadsThem) {
  const std::string input = TimeOrderedExport(31, 500);
  MatchAll all;
  WriteSpreadOptions writes;
  writes.window_seconds = 86400;
  Both date = RunBoth(input, Key({"/date"}), 40000, {}, writes);
  const WriteSpread& d = date.traffic.keys[0].write_spread;
  ASSERT_TRUE(d.measured) << d.why_not;
  EXPECT_EQ(d.time_path, "/orderDate");  // a time of day before a date alone
  EXPECT_TRUE(d.time_path_detected);
  EXPECT_EQ(d.time_form, "iso8601");
  EXPECT_EQ(d.windows, 31u);
  EXPECT_EQ(d.timed_items, 31u * 500);
  EXPECT_DOUBLE_EQ(d.logical_per_window, 1);
  EXPECT_DOUBLE_EQ(d.physical_per_window, 1);
  EXPECT_DOUBLE_EQ(d.busiest_share, 1);
  EXPECT_EQ(d.physical_partitions, 7);
  EXPECT_TRUE(date.traffic.keys[0].monotonicity.monotonic);
  EXPECT_DOUBLE_EQ(date.traffic.keys[0].monotonicity.follows_time, 1);

  Both id = RunBoth(input, Key({"/id"}), 40000, {}, writes);
  const WriteSpread& w = id.traffic.keys[0].write_spread;
  ASSERT_TRUE(w.measured);
  EXPECT_DOUBLE_EQ(w.logical_per_window, 500);
  EXPECT_EQ(w.max_physical_per_window, 7u);
  EXPECT_GT(w.physical_per_window, 6.99);
  EXPECT_LT(w.busiest_share, 0.25);  // 1/7 evenly; a day's 500 writes stray a little
  const Monotonicity& m = id.traffic.keys[0].monotonicity;
  EXPECT_FALSE(m.monotonic);
  EXPECT_GT(m.follows_time, 0.4);
  EXPECT_LT(m.follows_time, 0.6);
}

TEST(KeyTrafficTest, PicksTheSmallestWindowHoldingEnoughWrites) {
  // 31 days x 500: an hour holds about 21 writes, a day 500 (>= 100).
  Both b = RunBoth(TimeOrderedExport(31, 500), Key({"/id"}), 400, {});
  EXPECT_EQ(b.traffic.keys[0].write_spread.window_seconds, 86400);
  // 2 days x 5,000: an hour holds about 208.
  Both c = RunBoth(TimeOrderedExport(2, 5000), Key({"/id"}), 400, {});
  EXPECT_EQ(c.traffic.keys[0].write_spread.window_seconds, 3600);
}

TEST(KeyTrafficTest, SaysWhyTheWriteSpreadIsNotMeasured) {
  Both none = RunBoth(R"({"id":"a","k":1})" "\n", Key({"/id"}), 400, {});
  EXPECT_FALSE(none.traffic.keys[0].write_spread.measured);
  EXPECT_NE(none.traffic.keys[0].write_spread.why_not.find("no time field"), std::string::npos);
  std::string few;
  for (int i = 0; i < 50; ++i) few += fmt::format(R"({{"id":"a{}","ts":{}}})", i, 1700000000 + i) + "\n";
  Both b = RunBoth(few, Key({"/id"}), 400, {});
  const WriteSpread& w = b.traffic.keys[0].write_spread;
  EXPECT_FALSE(w.measured);
  EXPECT_EQ(w.time_form, "epoch_seconds");
  EXPECT_EQ(w.why_not, "only 50 items have a time at /ts (at least 100 are needed)");
}

TEST(KeyTrafficTest, ReadsEpochMillisecondsAndANamedTimePath) {
  std::string s;
  for (int i = 0; i < 400; ++i) {
    s += fmt::format(R"({{"id":"a{}","when":{{"ms":{}}},"k":"k{}"}})", i,
                     int64_t{1700000000000} + int64_t{i} * 3600000, i % 4) +
         "\n";
  }
  WriteSpreadOptions writes;
  writes.time_path = "/when/ms";
  Both b = RunBoth(s, Key({"/k"}), 400, {}, writes);
  const WriteSpread& w = b.traffic.keys[0].write_spread;
  ASSERT_TRUE(w.measured) << w.why_not;
  EXPECT_EQ(w.time_form, "epoch_milliseconds");
  EXPECT_FALSE(w.time_path_detected);
  EXPECT_EQ(w.window_seconds, 7 * 86400);  // an hour apart: a day holds 24 writes, a week 168
  EXPECT_EQ(w.timed_items, 400u);
}

TEST(KeyTrafficTest, RefusesABadTimePath) {
  WriteSpreadOptions writes;
  writes.time_path = "createdAt";
  auto pass = KeyTrafficPass::Create({}, {}, writes);
  ASSERT_FALSE(pass.ok());
  EXPECT_EQ(pass.status().code(), ErrorCode::kBadKeyPath);
  TrafficKey empty;
  auto no_layout = KeyTrafficPass::Create({empty}, {}, {});
  ASSERT_FALSE(no_layout.ok());
  EXPECT_EQ(no_layout.status().code(), ErrorCode::kBadOption);
}

TEST(KeyTrafficTest, StopsAtMalformedInputWithItsLocation) {
  TrafficKey t{Key({"/id"}), PartitionKeyHashVersion::kV2, {}};
  auto layout = InitialLayout(2, PartitionKeyHashVersion::kV2);
  ASSERT_TRUE(layout.ok());
  t.layout = layout.value();
  auto pass = KeyTrafficPass::Create({t}, {}, {});
  ASSERT_TRUE(pass.ok());
  // The error comes from Feed or, for the last item, from Finish.
  Status s = pass.value()->Feed("{\"id\":\"a\"}\n{\"id\":tru}\n");
  if (s.ok()) s = pass.value()->Finish();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.where().line, 2);
  EXPECT_EQ(s.where().item_index, 1);
}

TEST(KeyTrafficTest, ParsesIsoDatesAndTimes) {
  int64_t ms = 0;
  ASSERT_TRUE(ParseIsoTimeMillis("1970-01-01", ms));
  EXPECT_EQ(ms, 0);
  ASSERT_TRUE(ParseIsoTimeMillis("2024-06-11T08:30:00Z", ms));
  EXPECT_EQ(ms, 1718094600000);
  ASSERT_TRUE(ParseIsoTimeMillis("2024-06-11T10:30:00+02:00", ms));
  EXPECT_EQ(ms, 1718094600000);
  ASSERT_TRUE(ParseIsoTimeMillis("2024-06-11 08:30:00.1234567", ms));
  EXPECT_EQ(ms, 1718094600123);
  ASSERT_TRUE(ParseIsoTimeMillis("2024-06-11T03:00-0530", ms));
  EXPECT_EQ(ms, 1718094600000);
  ASSERT_TRUE(ParseIsoTimeMillis("2024-02-29T00:00", ms));
  ASSERT_TRUE(ParseIsoTimeMillis("1969-12-31T23:59:59.999Z", ms));
  EXPECT_EQ(ms, -1);
  for (const char* bad : {"2023-02-29", "2024-13-01", "2024-00-10", "2024-06-31", "2024-6-11",
                          "2024-06-11T", "2024-06-11T24:00", "2024-06-11T08:60",
                          "2024-06-11T08:30:00.", "2024-06-11T08:30:00X", "2024-06-11T08:30+2",
                          "20240611", "", "next tuesday", "2024-06-11Z"}) {
    EXPECT_FALSE(ParseIsoTimeMillis(bad, ms)) << bad;
  }
}

}  // namespace
}  // namespace partplay

namespace partplay {
namespace {

// The comparison with its traffic pass: a unique millisecond timestamp no longer ties with (or
// beats) a random id, and a date key's concentrated writes are a problem in words.
TEST(KeyTrafficTest, TheComparisonRanksAMonotonicTimestampBelowARandomId) {
  const std::string input = TimeOrderedExport(31, 500);
  auto cmp = KeyComparison::Create({Key({"/orderDate"}), Key({"/id"}), Key({"/date"})});
  ASSERT_TRUE(cmp.ok());
  ASSERT_TRUE(cmp.value()->Feed(input).ok());
  ASSERT_TRUE(cmp.value()->Finish().ok());
  ContainerOptions container;
  container.ru_per_second = 40000;
  auto report = cmp.value()->Compare(container, {});
  ASSERT_TRUE(report.ok());
  auto pass = KeyTrafficPass::Create(TrafficKeysOf(report.value()), {}, {});
  ASSERT_TRUE(pass.ok());
  ASSERT_TRUE(pass.value()->Feed(input).ok());
  ASSERT_TRUE(pass.value()->Finish().ok());
  ASSERT_TRUE(ApplyTraffic(report.value(), pass.value()->result()).ok());
  const ComparisonReport& r = report.value();
  EXPECT_TRUE(r.traffic);
  EXPECT_EQ(r.best, 1) << r.why;  // /id
  EXPECT_EQ(r.keys[0].rank, 2);
  EXPECT_TRUE(r.keys[0].monotonicity.monotonic);
  EXPECT_FALSE(r.keys[1].monotonicity.monotonic);
  EXPECT_NE(r.why.find("next, /orderDate is monotonic: it rises with the time field in 100.0% of "
                       "consecutive items"),
            std::string::npos)
      << r.why;
  // /date: 31 values, a day's writes in one of 7 physical partitions.
  ASSERT_TRUE(r.keys[2].writes_concentrated);
  EXPECT_EQ(r.keys[2].rank, 3);
  bool said = false;
  for (const std::string& p : r.keys[2].problems) {
    said |= p == "writes concentrate in time: in any day (by /orderDate), 100.0% of the writes go "
                 "to one physical partition, and they touch 1.0 of the 7 physical partitions";
  }
  EXPECT_TRUE(said);
  const std::string json = ComparisonToJson(r);
  EXPECT_NE(json.find(R"("traffic_measured":true)"), std::string::npos);
  EXPECT_NE(json.find(R"("write_spread":{"measured":true,"time_path":"/orderDate")"),
            std::string::npos);
  EXPECT_NE(json.find(R"("monotonicity":{"key_changes":)"), std::string::npos);
  // Without the pass: null figures, and the two keys tie on everything but storage.
  auto plain = cmp.value()->Compare(container, {});
  ASSERT_TRUE(plain.ok());
  EXPECT_NE(ComparisonToJson(plain.value()).find(R"("write_spread":null,"monotonicity":null)"),
            std::string::npos);
  auto other = KeyTrafficPass::Create({}, {}, {});
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(other.value()->Feed(R"({"id":"x"})").ok());
  ASSERT_TRUE(other.value()->Finish().ok());
  EXPECT_EQ(ApplyTraffic(report.value(), other.value()->result()).code(),
            ErrorCode::kInvalidState);
}

}  // namespace
}  // namespace partplay
