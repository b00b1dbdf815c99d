// Sizing a CQL table: the hotel example from examples/cql/hotel_sizing.cql, the replication factor
// from the keyspace, the worst case and growth, the redesign advisor (its recomputation equals a
// direct computation on the redesigned table written by hand, and its CREATE TABLE sizes the
// same when parsed back), the JSON request and report, and located errors.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <sstream>

#include "partplay/sizing/sizing_request.h"
#include "partplay/sizing/table_sizing.h"
#include "partplay/sizing/table_sizing_writers.h"

namespace partplay {
namespace {

std::string HotelCql() {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/cql/hotel_sizing.cql");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TableSizingRequest HotelRequest() {
  TableSizingRequest r;
  r.cql = HotelCql();
  r.table = "available_rooms_by_hotel_date";
  r.rows_per_partition = ParseRowsFormula("100*730").value();
  r.avg_sizes = {{"hotel_id", 5}};
  r.partitions = 5000;
  return r;
}

const RedesignOption* FindOption(const TableSizingReport& r, SplitKind kind) {
  for (const RedesignOption& o : r.options) {
    if (o.split.kind == kind) return &o;
  }
  return nullptr;
}

void ExpectSameTerms(const SizingTerms& a, const SizingTerms& b) {
  EXPECT_EQ(a.nr, b.nr);
  EXPECT_EQ(a.nc, b.nc);
  EXPECT_EQ(a.npk, b.npk);
  EXPECT_EQ(a.ns, b.ns);
  EXPECT_EQ(a.nv, b.nv);
  EXPECT_EQ(a.sum_partition_key, b.sum_partition_key);
  EXPECT_EQ(a.sum_static, b.sum_static);
  EXPECT_EQ(a.sum_regular, b.sum_regular);
  EXPECT_EQ(a.sum_clustering, b.sum_clustering);
  EXPECT_EQ(a.rows_term, b.rows_term);
  EXPECT_EQ(a.metadata_term, b.metadata_term);
  EXPECT_EQ(a.st_bytes, b.st_bytes);
  EXPECT_EQ(a.partitions, b.partitions);
  EXPECT_EQ(a.replication_factor, b.replication_factor);
  EXPECT_EQ(a.table_bytes, b.table_bytes);
}

TEST(SizingTable, HotelExampleFromTheShippedSchema) {
  ASSERT_FALSE(HotelCql().empty());
  auto r = SizeTable(HotelRequest());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->keyspace, "hotel");
  EXPECT_EQ(r->table, "available_rooms_by_hotel_date");
  EXPECT_EQ(r->partition_key, std::vector<std::string>{"hotel_id"});
  EXPECT_EQ(r->clustering, (std::vector<std::string>{"date", "room_number"}));
  const SizingTerms& t = r->average.terms;
  EXPECT_EQ(t.nc, 4);
  EXPECT_EQ(t.npk, 3);
  EXPECT_EQ(t.ns, 0);
  EXPECT_EQ(t.nr, 73000);
  EXPECT_EQ(t.nv, 73000);
  EXPECT_EQ(t.sum_partition_key, 5);
  EXPECT_EQ(t.sum_static, 0);
  EXPECT_EQ(t.sum_regular, 1);
  EXPECT_EQ(t.sum_clustering, 6);
  EXPECT_EQ(t.rows_term, 511000);
  EXPECT_EQ(t.metadata_term, 584000);
  EXPECT_EQ(t.st_bytes, 1095005);
  EXPECT_EQ(t.replication_factor, 3);  // the keyspace's SimpleStrategy
  EXPECT_EQ(t.table_bytes, 1095005.0 * 5000 * 3);
  EXPECT_EQ(r->replication_source, "keyspace hotel: SimpleStrategy, replication_factor 3");
  EXPECT_EQ(r->average.rows_expression, "100 × 730");
  EXPECT_TRUE(r->average.findings.empty());
  EXPECT_FALSE(r->needs_redesign);
  EXPECT_TRUE(r->options.empty());  // nothing asked, nothing too big
  EXPECT_EQ(r->create_table.rfind("CREATE TABLE available_rooms_by_hotel_date (", 0), 0u);

  std::string text = TableSizingToText(r.value());
  EXPECT_NE(text.find("Nv = 73,000 × (4 − 3 − 0) + 0 = 73,000"), std::string::npos) << text;
  EXPECT_NE(text.find("St = 5 + 0 + 73,000 × (1 + 6) + 73,000 × 8 = 5 + 0 + 511,000 + 584,000 "
                      "= 1,095,005 bytes (1.1 MB)"),
            std::string::npos)
      << text;
}

TEST(SizingTable, AdvisorRecomputationEqualsTheRedesignedTable) {
  TableSizingRequest req = HotelRequest();
  req.splits = {{SplitKind::kTimeBucket, "date", 0, TimeBucketUnit::kMonth, 730},
                {SplitKind::kMoveClusteringColumn, "date", 730},
                {SplitKind::kHashBucket, "", 0, TimeBucketUnit::kMonth, 0, 4}};
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->options.size(), 3u);

  // The guide's month bucket: PRIMARY KEY ((hotel_id, month), date, room_number), month int.
  const RedesignOption& month = r->options[0];
  EXPECT_FALSE(month.suggested);
  EXPECT_EQ(month.primary_key, "PRIMARY KEY ((hotel_id, month), date, room_number)");
  EXPECT_EQ(month.create_table,
            "CREATE TABLE hotel.available_rooms_by_hotel_date (\n"
            "    hotel_id text,\n"
            "    month int,\n"
            "    date date,\n"
            "    room_number smallint,\n"
            "    is_available boolean,\n"
            "    PRIMARY KEY ((hotel_id, month), date, room_number)\n"
            ");");
  SizingInput month_by_hand;
  month_by_hand.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                           {"month", "int", ColumnRole::kPartitionKey},
                           {"date", "date", ColumnRole::kClustering},
                           {"room_number", "smallint", ColumnRole::kClustering},
                           {"is_available", "boolean", ColumnRole::kRegular}};
  month_by_hand.rows_per_partition = 3042;  // ceil(73,000 / 24 months)
  month_by_hand.partitions = 5000 * 24;
  month_by_hand.replication_factor = 3;
  auto direct = ComputePartitionSize(month_by_hand);
  ASSERT_TRUE(direct.ok());
  ExpectSameTerms(month.average.terms, direct.value());
  EXPECT_EQ(month.average.terms.st_bytes, 45639);  // 9 + 3,042 x 7 + 3,042 x 8
  EXPECT_EQ(month.average.partitions_per_query, 24);
  EXPECT_EQ(month.average.rows_expression, "⌈73,000 / 24⌉ = 3,042");
  EXPECT_TRUE(month.clears_limits);
  EXPECT_NE(month.query_cost.find("touches 24 partitions"), std::string::npos) << month.query_cost;

  // date moved: PRIMARY KEY ((hotel_id, date), room_number), 100 rows per partition.
  const RedesignOption& moved = r->options[1];
  EXPECT_EQ(moved.primary_key, "PRIMARY KEY ((hotel_id, date), room_number)");
  SizingInput moved_by_hand;
  moved_by_hand.columns = {{"hotel_id", "text", ColumnRole::kPartitionKey, 5},
                           {"date", "date", ColumnRole::kPartitionKey},
                           {"room_number", "smallint", ColumnRole::kClustering},
                           {"is_available", "boolean", ColumnRole::kRegular}};
  moved_by_hand.rows_per_partition = 100;
  moved_by_hand.partitions = 5000 * 730;
  moved_by_hand.replication_factor = 3;
  auto moved_direct = ComputePartitionSize(moved_by_hand);
  ASSERT_TRUE(moved_direct.ok());
  ExpectSameTerms(moved.average.terms, moved_direct.value());
  EXPECT_EQ(moved.average.partitions_per_query, 730);

  // Hash bucket of 4: PRIMARY KEY ((hotel_id, bucket), date, room_number).
  const RedesignOption& hash = r->options[2];
  EXPECT_EQ(hash.primary_key, "PRIMARY KEY ((hotel_id, bucket), date, room_number)");
  EXPECT_EQ(hash.average.terms.nr, 18250);
  EXPECT_EQ(hash.average.terms.partitions, 20000);
  EXPECT_EQ(hash.average.partitions_per_query, 4);
  EXPECT_NE(hash.cosmos.find("hash:PATH:4"), std::string::npos) << hash.cosmos;

  // Each CREATE TABLE, parsed back and sized with the option's rows, gives the same terms.
  for (const RedesignOption& o : r->options) {
    TableSizingRequest again;
    again.cql = o.create_table;
    again.table = "hotel.available_rooms_by_hotel_date";
    again.rows_per_partition = RowsEstimate{{{"", o.average.terms.nr}}};
    again.avg_sizes = {{"hotel_id", 5}};
    again.partitions = o.average.terms.partitions;
    again.replication_factor = 3;
    auto parsed = SizeTable(again);
    ASSERT_TRUE(parsed.ok()) << o.title << ": " << parsed.status().ToString() << "\n"
                             << o.create_table;
    ExpectSameTerms(parsed->average.terms, o.average.terms);
  }
}

TEST(SizingTable, DescendingClusteringOrderIsKept) {
  TableSizingRequest req;
  req.cql =
      "CREATE TABLE readings (sensor uuid, day date, at timestamp, value double, "
      "PRIMARY KEY (sensor, day, at)) WITH CLUSTERING ORDER BY (day DESC, at DESC);";
  req.table = "readings";
  req.rows_per_partition = ParseRowsFormula("86400*365").value();
  req.splits = {{SplitKind::kMoveClusteringColumn, "day", 365}};
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->options.size(), 2u);  // the move asked for, and a suggested hash bucket
  EXPECT_EQ(r->options[0].create_table,
            "CREATE TABLE readings (\n"
            "    sensor uuid,\n"
            "    day date,\n"
            "    at timestamp,\n"
            "    value double,\n"
            "    PRIMARY KEY ((sensor, day), at)\n"
            ") WITH CLUSTERING ORDER BY (at DESC);");
  EXPECT_EQ(r->replication_source, "default: the table has no keyspace");
  EXPECT_EQ(r->average.terms.replication_factor, 1);
  // 31,536,000 values: over the 100,000 recommendation; 86,400 per day after the split.
  EXPECT_TRUE(r->needs_redesign);
  EXPECT_EQ(r->options[0].average.terms.nv, 86400);
  // ceil(31,536,000 / 315) = 100,115 is over 100,000 values; / 316 = 99,798 is not.
  EXPECT_TRUE(r->options[1].suggested);
  EXPECT_EQ(r->options[1].split.buckets, 316);
  EXPECT_EQ(r->options[1].average.terms.nv, 99798);
}

TEST(SizingTable, WorstCaseAndTheSuggestedHashBucket) {
  TableSizingRequest req = HotelRequest();
  req.worst_rows_per_partition = ParseRowsFormula("150 x 730").value();  // 109,500 rows
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->worst_case.has_value());
  EXPECT_EQ(r->worst_case->terms.nv, 109500);
  EXPECT_EQ(r->worst_case->terms.st_bytes, 5 + 109500.0 * 15);
  ASSERT_EQ(r->worst_case->findings.size(), 1u);
  EXPECT_EQ(r->worst_case->findings[0].code, "values_over_100k");
  EXPECT_TRUE(r->average.findings.empty());
  EXPECT_TRUE(r->needs_redesign);
  ASSERT_EQ(r->redesign_reasons.size(), 1u);
  EXPECT_EQ(r->redesign_reasons[0].rfind("worst case: 109,500 values", 0), 0u)
      << r->redesign_reasons[0];
  // Two buckets bring the worst case to 54,750 values.
  ASSERT_EQ(r->options.size(), 1u);
  const RedesignOption& o = r->options[0];
  EXPECT_TRUE(o.suggested);
  EXPECT_EQ(o.split.kind, SplitKind::kHashBucket);
  EXPECT_EQ(o.split.buckets, 2);
  ASSERT_TRUE(o.worst_case.has_value());
  EXPECT_EQ(o.worst_case->terms.nv, 54750);
  EXPECT_EQ(o.average.terms.nv, 36500);
  EXPECT_TRUE(o.clears_limits);

  req.suggest_splits = false;
  auto quiet = SizeTable(req);
  ASSERT_TRUE(quiet.ok());
  EXPECT_TRUE(quiet->options.empty());
}

TEST(SizingTable, GrowthDrivesTheAdvice) {
  TableSizingRequest req = HotelRequest();
  req.growth = GrowthOptions{.rows_per_day = 100};  // kept forever, 10 years
  req.splits = {{SplitKind::kTimeBucket, "date", 0, TimeBucketUnit::kMonth, 730}};
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->grown.has_value());
  EXPECT_EQ(r->grown->terms.nv, 365000);  // 100 x 3,650
  EXPECT_EQ(r->grown->rows_expression, "100 rows per day × 3,650 days kept");
  EXPECT_TRUE(r->needs_redesign);
  ASSERT_EQ(r->options.size(), 2u);  // the month bucket asked for, and a suggested hash bucket
  const RedesignOption& month = r->options[0];
  ASSERT_TRUE(month.growth.has_value());
  // 3,650 days are 120 months (119.9); ceil(365,000 / 120) = 3,042 rows per month.
  EXPECT_EQ(month.growth->partitions_per_query, 120);
  EXPECT_EQ(month.growth->terms.nv, 3042);
  EXPECT_TRUE(month.clears_limits);
  const RedesignOption& hash = r->options[1];
  EXPECT_TRUE(hash.suggested);
  EXPECT_EQ(hash.split.buckets, 4);  // 365,000 / 3 = 121,667 is over; / 4 = 91,250 is not
  EXPECT_EQ(hash.growth->terms.nv, 91250);
}

TEST(SizingTable, ReplicationFromTheKeyspace) {
  TableSizingRequest req;
  req.cql =
      "CREATE KEYSPACE iot WITH replication = {'class': 'NetworkTopologyStrategy', 'east': 3, "
      "'west': 2};\n"
      "CREATE TABLE iot.sensors (id uuid, at timestamp, site text static, v double, "
      "PRIMARY KEY (id, at)) WITH default_time_to_live = 2592000;";
  req.table = "iot.sensors";
  req.rows_per_partition = ParseRowsFormula("1000").value();
  req.avg_sizes = {{"site", 20}, {"at", 99}};
  req.partitions = 10;
  req.growth = GrowthOptions{.rows_per_day = 10};
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->average.terms.replication_factor, 5);
  EXPECT_EQ(r->replication_source, "keyspace iot: NetworkTopologyStrategy, east 3 + west 2 = 5");
  // Nv = 1,000 (4 - 2 - 1) + 1; St = 16 + 20 + 1,000 (8 + 8) + 1,001 x 8
  EXPECT_EQ(r->average.terms.nv, 1001);
  EXPECT_EQ(r->average.terms.st_bytes, 16 + 20 + 16000 + 8008);
  EXPECT_EQ(r->average.terms.table_bytes, (16 + 20 + 16000 + 8008) * 10.0 * 5);
  ASSERT_EQ(r->notes.size(), 2u);
  EXPECT_NE(r->notes[0].find("at is ignored"), std::string::npos) << r->notes[0];
  EXPECT_NE(r->notes[1].find("30 days"), std::string::npos) << r->notes[1];

  TableSizingRequest one_dc;
  one_dc.cql =
      "CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};"
      "CREATE TABLE k.t (a int PRIMARY KEY, b int);";
  one_dc.table = "k.t";
  auto dc = SizeTable(one_dc);
  ASSERT_TRUE(dc.ok()) << dc.status().ToString();
  EXPECT_EQ(dc->replication_source, "keyspace k: NetworkTopologyStrategy, dc1 3");
  EXPECT_EQ(dc->average.terms.replication_factor, 3);

  req.replication_factor = 4;  // e.g. Cosmos DB's Cassandra API
  auto option = SizeTable(req);
  ASSERT_TRUE(option.ok());
  EXPECT_EQ(option->average.terms.replication_factor, 4);
  EXPECT_EQ(option->replication_source, "option");
}

TEST(SizingTable, UseAndQualifiedNames) {
  TableSizingRequest req;
  req.cql =
      "CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};"
      "CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 5};"
      "USE a; CREATE TABLE t (k int PRIMARY KEY, v int);"
      "USE b; CREATE TABLE t (k int PRIMARY KEY, v int, w int);"
      "INSERT INTO t (k, v, w) VALUES (1, 2, 3);";
  req.rows_per_partition = ParseRowsFormula("1").value();
  req.table = "t";
  auto ambiguous = SizeTable(req);
  EXPECT_EQ(ambiguous.status().code(), ErrorCode::kCqlUnknown);
  EXPECT_NE(ambiguous.status().message().find("a.t, b.t"), std::string::npos)
      << ambiguous.status().message();
  req.table = "B.T";  // unquoted names are case-insensitive
  auto b = SizeTable(req);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->average.terms.nc, 3);
  EXPECT_EQ(b->average.terms.replication_factor, 5);
  req.table = "c.t";
  auto missing = SizeTable(req);
  EXPECT_EQ(missing.status().code(), ErrorCode::kCqlUnknown);
  EXPECT_NE(missing.status().message().find("it creates a.t, b.t"), std::string::npos)
      << missing.status().message();
}

TEST(SizingTable, ErrorsNameTheColumnAndTheCqlPosition) {
  TableSizingRequest req = HotelRequest();
  req.avg_sizes.clear();
  auto no_size = SizeTable(req);
  EXPECT_EQ(no_size.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(no_size.status().message().find("hotel_id"), std::string::npos);

  req = HotelRequest();
  req.avg_sizes.push_back({"floor", 3});
  auto unknown = SizeTable(req);
  EXPECT_EQ(unknown.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(unknown.status().message().find("floor"), std::string::npos);

  req = HotelRequest();
  req.cql = "CREATE TABLE t (\n  a int,\n  b int,\n  PRIMARY KEY (c)\n);";
  req.table = "t";
  auto bad_key = SizeTable(req);
  EXPECT_EQ(bad_key.status().code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_EQ(bad_key.status().where().line, 4);
  EXPECT_EQ(bad_key.status().where().column, 16);

  req.cql = "CREATE TABLE t (\n  a int PRIMARY KEY,\n  b int,,\n);";
  auto syntax = SizeTable(req);
  EXPECT_EQ(syntax.status().code(), ErrorCode::kCqlSyntax);
  EXPECT_EQ(syntax.status().where().line, 3);

  req = HotelRequest();
  req.splits = {{SplitKind::kMoveClusteringColumn, "is_available", 2}};
  auto bad_split = SizeTable(req);
  EXPECT_EQ(bad_split.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(bad_split.status().message().find("is_available"), std::string::npos);
}

TEST(SizingTable, JsonRequestWithNamedFactors) {
  std::string json = R"({"table": "hotel.available_rooms_by_hotel_date",
      "rows_per_partition": [{"name": "rooms per hotel", "value": 100},
                             {"name": "nights", "value": 730}],
      "worst_rows_per_partition": "150*730",
      "avg_sizes": {"hotel_id": 5}, "partitions": 5000, "t_avg": 8,
      "replication_factor": null,
      "splits": [{"kind": "time_bucket", "column": "date", "unit": "month", "span_days": 730}],
      "growth": {"rows_per_day": 100, "retention_days": 730, "horizon_days": 1000},
      "suggest_splits": false})";
  auto req = ParseTableSizingRequestJson(json);
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  req->cql = HotelCql();
  EXPECT_EQ(req->rows_per_partition.Expression(), "100 (rooms per hotel) × 730 (nights)");
  auto r = SizeTable(req.value());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->average.terms.st_bytes, 1095005);
  EXPECT_EQ(r->worst_case->terms.nr, 109500);
  EXPECT_EQ(r->growth->options.horizon_days, 1000);
  ASSERT_EQ(r->options.size(), 1u);

  for (const char* bad :
       {R"({"rows_per_partition": 1, "colour": 2})", R"({"rows_per_partition": "100**2"})",
        R"({"table": "t"})", R"({"rows_per_partition": 1, "splits": [{"kind": "zigzag"}]})",
        R"({"rows_per_partition": 1, "growth": {"retention_days": 1.5}})"}) {
    auto parsed = ParseTableSizingRequestJson(bad);
    EXPECT_EQ(parsed.status().code(), ErrorCode::kBadOption) << bad;
  }
  EXPECT_EQ(ParseTableSizingRequestJson("{\"table\": ").status().code(), ErrorCode::kMalformedJson);

  // The page's one call gives the CLI's JSON for the same request.
  std::string one_call = R"({"cql": "CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));",
      "table": "t", "rows_per_partition": 10, "avg_sizes": {"v": 20}})";
  auto report_json = SizeTableJson(one_call);
  ASSERT_TRUE(report_json.ok()) << report_json.status().ToString();
  auto direct = SizeTable(ParseTableSizingRequestJson(one_call).value());
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(report_json.value(), TableSizingToJson(direct.value()));
  // Nv = 10 (3 - 2 - 0); St = 4 + 0 + 10 (20 + 4) + 10 x 8 = 324
  EXPECT_NE(report_json.value().find("\"st_bytes\":324,"), std::string::npos);
  EXPECT_EQ(SizeTableJson(R"({"rows_per_partition": 1, "table": "t", "cql": ""})").status().code(),
            ErrorCode::kCqlUnknown);
}

TEST(SizingTable, JsonReport) {
  TableSizingRequest req = HotelRequest();
  req.splits = {{SplitKind::kTimeBucket, "date", 0, TimeBucketUnit::kMonth, 730}};
  req.growth = GrowthOptions{.rows_per_day = 100, .retention_days = 730};
  auto r = SizeTable(req);
  ASSERT_TRUE(r.ok());
  std::string json = TableSizingToJson(r.value());
  ASSERT_EQ(json.back(), '\n');
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  double nv = 0, st = 0, per_query = 0;
  std::string_view arithmetic, primary_key, role;
  EXPECT_EQ(root["average"]["terms"]["nv"].get(nv), simdjson::SUCCESS);
  EXPECT_EQ(nv, 73000);
  EXPECT_EQ(root["average"]["terms"]["st_bytes"].get(st), simdjson::SUCCESS);
  EXPECT_EQ(st, 1095005);
  EXPECT_EQ(root["average"]["arithmetic"]["st"].get(arithmetic), simdjson::SUCCESS);
  EXPECT_EQ(arithmetic,
            "St = 5 + 0 + 73,000 × (1 + 6) + 73,000 × 8 = 5 + 0 + 511,000 + 584,000 "
            "= 1,095,005 bytes (1.1 MB)");
  EXPECT_EQ(root["columns"].at(0)["role"].get(role), simdjson::SUCCESS);
  EXPECT_EQ(role, "partition_key");
  EXPECT_EQ(root["options"].at(0)["primary_key"].get(primary_key), simdjson::SUCCESS);
  EXPECT_EQ(primary_key, "PRIMARY KEY ((hotel_id, month), date, room_number)");
  EXPECT_EQ(root["options"].at(0)["average"]["partitions_per_query"].get(per_query),
            simdjson::SUCCESS);
  EXPECT_EQ(per_query, 24);
  EXPECT_TRUE(root["worst_case"].is_null());
  simdjson::dom::array crossings;
  ASSERT_EQ(root["growth"]["crossings"].get(crossings), simdjson::SUCCESS);
  EXPECT_EQ(crossings.size(), 4u);
  EXPECT_TRUE(crossings.at(1)["day"].is_null());  // 73,000 values at most: never over 100,000
}

}  // namespace
}  // namespace partplay

namespace partplay {
namespace {

TEST(SizingTables, ListsEveryCreatedTableWithItsVariableColumns) {
  auto tables = ListSizingTables(
      "CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 3};\n"
      "USE hotel;\n"
      "CREATE TABLE rooms (hotel_id text, date date, room_number smallint, is_available boolean,"
      " PRIMARY KEY (hotel_id, date, room_number));\n"
      "CREATE TABLE other.\"Notes\" (id uuid PRIMARY KEY, body text, tags set<text>);\n"
      "CREATE TABLE IF NOT EXISTS rooms (k int PRIMARY KEY);\n");
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  ASSERT_EQ(tables->size(), 2u);
  EXPECT_EQ(tables.value()[0].name, "hotel.rooms");
  EXPECT_EQ(tables.value()[0].variable_columns, std::vector<std::string>{"hotel_id"});
  EXPECT_EQ(tables.value()[0].columns.size(), 4u);
  EXPECT_EQ(tables.value()[1].name, "other.\"Notes\"");
  EXPECT_EQ(tables.value()[1].variable_columns, (std::vector<std::string>{"body", "tags"}));
  const std::string json = SizingTablesToJson(tables.value());
  EXPECT_NE(json.find("{\"name\":\"hotel_id\",\"type\":\"text\",\"role\":\"partition_key\","
                      "\"fixed_bytes\":null,\"time_bucket\":false}"),
            std::string::npos)
      << json;
  // date: fixed, and a clustering column a time bucket can come from.
  EXPECT_NE(json.find("\"fixed_bytes\":4,\"time_bucket\":true"), std::string::npos) << json;
}

TEST(SizingTables, ASyntaxErrorIsReportedOnlyWhenNoTableIsLeft) {
  auto none = ListSizingTables("CREATE TABLE t (k int PRIMARY KEY;");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), ErrorCode::kCqlSyntax);
  EXPECT_EQ(none.status().where().line, 1);
  auto some = ListSizingTables("CREATE TABLE bad (;\nCREATE TABLE t (k int PRIMARY KEY, v text);");
  ASSERT_TRUE(some.ok());
  ASSERT_EQ(some->size(), 1u);
  EXPECT_EQ(some.value()[0].name, "t");
  auto empty = ListSizingTables("-- nothing here\n");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(SizingTables, AMissingAverageNamesItsFieldAsAJsonPointer) {
  auto sized = SizeTableJson(
      R"({"cql": "CREATE TABLE t (k int, c int, \"a/b\" text, PRIMARY KEY (k, c));",
          "table": "t", "rows_per_partition": 10})");
  ASSERT_FALSE(sized.ok());
  EXPECT_EQ(sized.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(sized.status().field(), "/avg_sizes/a~1b");
}

TEST(SizingTables, ABadRowsFormulaNamesWhichFormula) {
  for (const char* field : {"rows_per_partition", "worst_rows_per_partition"}) {
    std::string request = std::string(R"({"cql": "CREATE TABLE t (k int PRIMARY KEY);", )") +
                          R"("table": "t", "rows_per_partition": 10, ")" + field +
                          R"(": "100*x*"})";
    if (std::string(field) == "rows_per_partition") {
      request = R"({"cql": "CREATE TABLE t (k int PRIMARY KEY);", "table": "t", )"
                R"("rows_per_partition": "100*x*"})";
    }
    auto sized = SizeTableJson(request);
    ASSERT_FALSE(sized.ok()) << field;
    EXPECT_EQ(sized.status().field(), std::string("/") + field);
  }
  auto bad_type = SizeTableJson(
      R"({"cql": "CREATE TABLE t (k int PRIMARY KEY);", "table": "t", "rows_per_partition": 1,
          "partitions": "many"})");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.status().field(), "/partitions");
}

}  // namespace
}  // namespace partplay

namespace partplay {
namespace {

TEST(SizingTable, ColumnsSayWhichCanGiveATimeBucket) {
  auto r = SizeTable(HotelRequest());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::string json = TableSizingToJson(r.value());
  EXPECT_NE(json.find(R"("name":"date","type":"date","role":"clustering","bytes":4,)"
                      R"("estimated":false,"time_bucket":true})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("name":"hotel_id","type":"text","role":"partition_key","bytes":5,)"
                      R"("estimated":true,"time_bucket":false})"),
            std::string::npos)
      << json;
  EXPECT_TRUE(CanTimeBucket("TIMESTAMP"));
  EXPECT_FALSE(CanTimeBucket("time"));
}

}  // namespace
}  // namespace partplay
