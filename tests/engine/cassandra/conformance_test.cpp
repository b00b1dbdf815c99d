// The CQL example scripts (examples/cql/) with their expected output, line for line as
// `partplay cql` prints it. Partition orders follow tokens published by npm cassandra-driver
// 4.10.0 (Murmur3Tokenizer over its encoders): 'theo' -1457224325554927207, 'ann'
// 1535150931237112236, ('theo', 'smith') -9139139850531603606, ('theo', 'van kraay')
// 4866665925948061485, uuid 3b1f5e2a-... -9137399247499052175, d2c1b0a9-... -6627606272431361920,
// 6ab09bec-... 3066791452337107542.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {
namespace {

std::string RunExample(const std::string& name) {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/cql/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream script;
  script << in.rdbuf();
  Session session;
  std::string out;
  for (const StatementResult& r : session.Execute(script.str())) out += ResultToJsonLine(r);
  return out;
}

constexpr char kFiltering[] =
    "Cannot execute this query as it might involve data filtering and thus may have unpredictable "
    "performance. If you want to execute this query despite the performance unpredictability, use "
    "ALLOW FILTERING";

TEST(CqlConformanceTest, PrimaryKey) {
  EXPECT_EQ(
      RunExample("uprofile-primary-key.cql"),
      "{\"columns\":[\"id\",\"user\",\"message\",\"system.token(id)\"],\"rows\":["
      "[\"3b1f5e2a-7c4d-4e8f-9a0b-1c2d3e4f5a6b\",\"theo\",\"hello again\",-9137399247499052175],"
      "[\"d2c1b0a9-8f7e-4d6c-b5a4-938271605f4e\",\"ann\",\"hi\",-6627606272431361920],"
      "[\"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\",\"theo\",\"hello\",3066791452337107542]]}\n"
      // SELECT *: the key, then the other columns alphabetically.
      "{\"columns\":[\"id\",\"message\",\"user\"],\"rows\":["
      "[\"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\",\"hello\",\"theo\"]]}\n");
}

TEST(CqlConformanceTest, CompoundKey) {
  EXPECT_EQ(RunExample("uprofile-compound-key.cql"),
            "{\"columns\":[\"user\",\"id\",\"message\"],\"rows\":[[\"theo\",1,\"hello\"],"
            "[\"theo\",2,\"hello again\"],[\"ann\",1,\"first\"],[\"ann\",2,\"second\"]]}\n"
            "{\"columns\":[\"user\",\"id\",\"message\"],\"rows\":[[\"theo\",1,\"hello\"],"
            "[\"theo\",2,\"hello again\"]]}\n"
            "{\"columns\":[\"user\",\"id\",\"message\"],\"rows\":[[\"theo\",2,\"hello again\"],"
            "[\"theo\",1,\"hello\"]]}\n"
            "{\"error\":{\"message\":\"" +
                std::string(kFiltering) +
                "\",\"line\":24,\"column\":1,\"code\":41,\"name\":\"cql_invalid_request\","
                "\"byte_offset\":1035}}\n"
                "{\"columns\":[\"user\",\"id\",\"message\"],\"rows\":[[\"theo\",1,\"hello\"],"
                "[\"ann\",1,\"first\"]]}\n");
}

TEST(CqlConformanceTest, CompositeKey) {
  EXPECT_EQ(
      RunExample("uprofile-composite-key.cql"),
      "{\"columns\":[\"firstname\",\"lastname\",\"id\",\"system.token(firstname, lastname)\"],"
      "\"rows\":[[\"theo\",\"smith\",1,-9139139850531603606],"
      "[\"theo\",\"van kraay\",1,4866665925948061485],"
      "[\"theo\",\"van kraay\",2,4866665925948061485]]}\n"
      "{\"columns\":[\"firstname\",\"lastname\",\"id\",\"message\"],\"rows\":["
      "[\"theo\",\"van kraay\",1,\"hello\"],[\"theo\",\"van kraay\",2,\"hello again\"]]}\n"
      "{\"error\":{\"message\":\"" +
          std::string(kFiltering) +
          "\",\"line\":21,\"column\":1,\"code\":41,\"name\":\"cql_invalid_request\","
          "\"byte_offset\":995}}\n");
}

TEST(CqlConformanceTest, HotelAvailability) {
  EXPECT_EQ(RunExample("hotel-availability.cql"),
            "{\"columns\":[\"date\",\"room_number\",\"is_available\"],\"rows\":["
            "[\"2016-01-04\",101,true],[\"2016-01-05\",101,true],[\"2016-01-05\",102,false]]}\n"
            "{\"columns\":[\"room_number\"],\"rows\":[[102]]}\n"
            "{\"error\":{\"message\":\"PRIMARY KEY column \\\"room_number\\\" cannot be restricted "
            "as preceding column \\\"date\\\" is not restricted\",\"line\":30,\"column\":74,"
            "\"code\":41,\"name\":\"cql_invalid_request\",\"byte_offset\":1838}}\n"
            // IN keys in the order of their values: month 201601 before 201602.
            "{\"columns\":[\"hotel_id\",\"month\",\"date\",\"room_number\"],\"rows\":["
            "[\"AZ123\",201601,\"2016-01-05\",101],[\"AZ123\",201602,\"2016-02-05\",101]]}\n");
}

TEST(CqlConformanceTest, SensorReadings) {
  EXPECT_EQ(RunExample("sensor-readings.cql"),
            "{\"columns\":[\"reading_time\",\"temperature\",\"location\"],\"rows\":["
            "[\"2021-06-01 10:00:00.000Z\",23,\"greenhouse 1\"],"
            "[\"2021-06-01 09:00:00.000Z\",22.25,\"greenhouse 1\"]]}\n"
            "{\"columns\":[\"reading_time\",\"temperature\"],\"rows\":["
            "[\"2021-06-01 09:00:00.000Z\",22.25],[\"2021-06-01 10:00:00.000Z\",23]]}\n"
            "{\"columns\":[\"count\"],\"rows\":[[4]]}\n");
}

// Every prefix of every example (statements cut anywhere: inside strings, comments, names) runs
// without crashing, and every failure names a line and a column.
TEST(CqlConformanceTest, EveryPrefixOfTheExamplesFailsCleanly) {
  for (const char* name :
       {"uprofile-primary-key.cql", "uprofile-compound-key.cql", "uprofile-composite-key.cql",
        "hotel-availability.cql", "sensor-readings.cql"}) {
    std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/cql/" + name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string script = buffer.str();
    for (size_t n = 0; n <= script.size(); n += 7) {
      Session session;
      for (const StatementResult& r : session.Execute(std::string_view(script).substr(0, n))) {
        if (r.kind != StatementResult::Kind::kError) continue;
        EXPECT_GT(r.status.where().line, 0)
            << name << " cut at " << n << ": " << r.status.ToString();
        EXPECT_GT(r.status.where().column, 0) << name << " cut at " << n;
      }
    }
  }
}

}  // namespace
}  // namespace partplay::cql
