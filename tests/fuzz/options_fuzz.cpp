// The options JSON readers (analysis, container, key comparison, ring and table-layout options),
// each fed the input, and every option set that reads is then used: an analysis of a small fixed
// input with the container model under the container options, a key comparison of the same
// input, a ring built and written out, a layout. The input is also read as a --candidate spec
// and as one synthetic key part ("month(/date)"), whose pieces of a value are checked against
// each other (a month is the start of its day, a LEFT at most its length).
#include <cstdint>
#include <memory>
#include <string_view>

#include "fuzz_common.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "partplay/ingest/synthetic_key.h"
#include "partplay/report/candidate_spec.h"
#include "partplay/report/key_comparison.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_builder.h"

namespace {

constexpr std::string_view kItems =
    R"({"id":"1","a":"x","b":2,"c":{"d":true},"userId":"u1","w":3}
{"id":"2","a":"y","b":2.5,"c":{"d":false},"userId":"u1","w":1}
{"id":"3","a":"x","b":null,"userId":"u2","date":"2024-01-01"}
)";

constexpr std::string_view kScript =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};"
    "CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c));"
    "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'a'); INSERT INTO ks.t (k, c, v) VALUES (2, 1, 'b');"
    "INSERT INTO ks.t (k, c, v) VALUES (3, 2, 'c');";

void Analyze(const partplay::AnalysisOptions& options,
             const std::optional<partplay::ContainerOptions>& container) {
  using namespace partplay;
  auto created = Analyzer::Create(options);
  if (!created.ok()) return;
  Analyzer& analyzer = *created.value();
  if (!analyzer.Feed(kItems).ok() || !analyzer.Finish().ok()) return;
  ReportRequest request;
  request.max_partitions = 10;
  request.container = container;
  (void)BuildFullReport(analyzer, options, request);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  std::string_view json(reinterpret_cast<const char*>(data), size);

  StatusOr<AnalysisOptions> analysis = ParseAnalysisOptionsJson(json);
  if (analysis.ok()) Analyze(analysis.value(), std::nullopt);
  StatusOr<ContainerOptions> container = ParseContainerOptionsJson(json);
  if (container.ok()) {
    AnalysisOptions o;
    o.key_paths = {"/a"};
    if (container.value().version == PartitionKeyHashVersion::kMultiHash) {
      o.key_paths = {"/a", "/b"};
    }
    Analyze(o, container.value());
  }

  StatusOr<AnalysisOptions> candidate = ParseCandidateSpec(json);
  if (candidate.ok()) Analyze(candidate.value(), std::nullopt);
  StatusOr<KeyPart> part = ParseKeyPart(json);
  if (part.ok()) {
    const KeyPart& p = part.value();
    for (std::string_view value : {"2024-03-15T10:22:05Z", "sku-\xC3\xA9\xF0\x9F\x98\x80", ""}) {
      std::string out;
      if (AppendKeyPartText(p, KeyKind::kString, 0, value, out)) {
        if (p.fn == KeyPart::Fn::kWhole) fuzz::Check(out == value, "a whole part is the value");
        if (p.fn == KeyPart::Fn::kLeft || p.fn == KeyPart::Fn::kSubstring) {
          fuzz::Check(out.size() <= value.size() && value.find(out) != std::string_view::npos,
                      "a LEFT or SUBSTRING is a piece of the value");
        }
      }
    }
    std::string month, day;
    KeyPart m = p, d = p;
    m.fn = KeyPart::Fn::kMonth;
    d.fn = KeyPart::Fn::kDay;
    for (double n : {1.7e9, 1.7e12, 2024.0}) {
      month.clear();
      day.clear();
      const bool a = AppendKeyPartText(m, KeyKind::kNumber, n, {}, month);
      const bool b = AppendKeyPartText(d, KeyKind::kNumber, n, {}, day);
      fuzz::Check(a == b && day.rfind(month, 0) == 0, "a day starts with its month");
    }
  }

  // A key comparison request: every key over the fixed items, compared under its container.
  StatusOr<ComparisonRequest> comparison = ParseComparisonRequestJson(json);
  if (comparison.ok()) {
    auto created = KeyComparison::Create(comparison.value().keys);
    if (created.ok() && created.value()->Feed(kItems).ok() && created.value()->Finish().ok()) {
      auto compared =
          created.value()->Compare(comparison.value().container, comparison.value().queries);
      if (compared.ok()) (void)ComparisonToJson(compared.value());
    }
  }

  StatusOr<cql::RingOptions> ring = cql::ParseRingOptionsJson(json);
  StatusOr<cql::TableLayoutOptions> layout = cql::ParseTableLayoutOptionsJson(json);
  if (ring.ok() || layout.ok()) {
    cql::Session session;
    (void)session.Execute(kScript);
    if (ring.ok()) {
      StatusOr<cql::Ring> built = cql::Ring::Build(ring.value());
      Status configured = session.ConfigureRing(ring.value());
      fuzz::Check(built.ok() == configured.ok(), "Ring::Build and ConfigureRing agree");
    }
    auto table = session.FindTable("ks.t");
    auto keyspace = session.FindKeyspace("ks");
    fuzz::Check(table.ok() && keyspace.ok(), "the fixed script makes ks.t");
    (void)cql::RingToJson(session.ring(), &keyspace.value()->schema);
    cql::TableLayoutOptions options = layout.ok() ? layout.value() : cql::TableLayoutOptions{};
    (void)cql::TableLayoutToJson(*table.value(), session.ring(), keyspace.value()->schema, options);
  }
  return 0;
}
