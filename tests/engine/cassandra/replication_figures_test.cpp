// A keyspace's replication as figures on a ring (replication_figures.h): replicas asked for and
// placed, QUORUM and LOCAL_QUORUM, datacenters the ring lacks, and the JSON the page shows.
#include "partplay/cassandra/replication_figures.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/cosmos_cassandra_api.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

Ring MakeRing(std::vector<DatacenterSpec> datacenters, int nodes = 3) {
  RingOptions o;
  o.nodes = nodes;
  o.num_tokens = 4;
  o.datacenters = std::move(datacenters);
  StatusOr<Ring> ring = Ring::Build(o);
  EXPECT_TRUE(ring.ok()) << ring.status().ToString();
  return std::move(ring).value();
}

ReplicationStrategy Simple(int rf) {
  ReplicationStrategy s;
  s.replication_factor = rf;
  return s;
}

ReplicationStrategy Nts(std::vector<std::pair<std::string, int>> dcs) {
  ReplicationStrategy s;
  s.strategy = ReplicationStrategy::Class::kNetworkTopology;
  s.datacenters = std::move(dcs);
  return s;
}

TEST(ReplicationFigures, SimpleStrategyQuorumIsAMajority) {
  const Ring ring = MakeRing({}, 3);
  for (auto [rf, quorum, placed] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 1}, {2, 2, 2}, {3, 2, 3}, {4, 3, 3}, {5, 3, 3}}) {
    ReplicationFigures f = FigureReplication(ring, Simple(rf));
    EXPECT_FALSE(f.network_topology);
    EXPECT_EQ(f.replicas, rf);
    EXPECT_EQ(f.quorum, quorum) << "RF " << rf;
    EXPECT_EQ(f.placed, placed) << "RF " << rf << " on 3 nodes";
    EXPECT_TRUE(f.datacenters.empty());
    EXPECT_TRUE(f.missing_datacenters.empty());
  }
  EXPECT_EQ(FigureReplication(ring, Simple(3)).ring_datacenters,
            std::vector<std::string>{"datacenter1"});
}

TEST(ReplicationFigures, NetworkTopologySumsDatacentersAndFindsMissingOnes) {
  const Ring ring = MakeRing({{"dc1", 3, 1}, {"dc2", 1, 1}});
  ReplicationFigures f = FigureReplication(ring, Nts({{"dc1", 3}, {"dc2", 2}, {"dc3", 1}}));
  EXPECT_TRUE(f.network_topology);
  EXPECT_EQ(f.replicas, 6);
  EXPECT_EQ(f.quorum, 4);           // 6 / 2 + 1
  EXPECT_EQ(f.placed, 3 + 1 + 0);  // dc2 has one node, dc3 none
  ASSERT_EQ(f.datacenters.size(), 3u);
  EXPECT_EQ(f.datacenters[0].name, "dc1");
  EXPECT_EQ(f.datacenters[0].nodes, 3);
  EXPECT_EQ(f.datacenters[0].local_quorum, 2);
  EXPECT_EQ(f.datacenters[1].placed, 1);
  EXPECT_EQ(f.datacenters[1].local_quorum, 2);
  EXPECT_EQ(f.datacenters[2].nodes, 0);
  EXPECT_EQ(f.missing_datacenters, std::vector<std::string>{"dc3"});
  EXPECT_EQ(f.ring_datacenters, (std::vector<std::string>{"dc1", "dc2"}));
}

TEST(ReplicationFigures, JsonCarriesEveryFigure) {
  const Ring ring = MakeRing({{"dc1", 3, 1}});
  const std::string json = ReplicationFiguresToJson(FigureReplication(ring, Nts({{"dc1", 3}, {"dc2", 2}})));
  EXPECT_EQ(json,
            "{\"strategy\":\"NetworkTopologyStrategy\",\"replicas\":5,\"placed\":3,\"quorum\":3,"
            "\"local_quorum\":null,\"datacenters\":[{\"name\":\"dc1\",\"replicas\":3,\"nodes\":3,"
            "\"placed\":3,\"local_quorum\":2},{\"name\":\"dc2\",\"replicas\":2,\"nodes\":0,"
            "\"placed\":0,\"local_quorum\":2}],\"missing_datacenters\":[\"dc2\"],"
            "\"ring_datacenters\":[\"dc1\"]}");
  const std::string simple = ReplicationFiguresToJson(FigureReplication(ring, Simple(2)));
  EXPECT_NE(simple.find("\"strategy\":\"SimpleStrategy\",\"replicas\":2,\"placed\":2,"
                        "\"quorum\":2,\"local_quorum\":2,\"datacenters\":[]"),
            std::string::npos)
      << simple;
}

TEST(ReplicationFigures, RingJsonCarriesThemOnlyForAKeyspace) {
  const Ring ring = MakeRing({}, 4);
  KeyspaceSchema ks;
  ks.name = "shop";
  ks.replication = Simple(3);
  EXPECT_EQ(RingToJson(ring, nullptr).find("\"replication\""), std::string::npos);
  const std::string json = RingToJson(ring, &ks);
  EXPECT_NE(json.find("\"replication\":{\"strategy\":\"SimpleStrategy\",\"replicas\":3,"
                      "\"placed\":3,\"quorum\":2,"),
            std::string::npos)
      << json;
}

TEST(ReplicationFigures, TheCassandraModeFiguresAreLimitsRows) {
  // The page reads these rows, never its own copies: they must be what the engine uses.
  EXPECT_EQ(FindLimit("cosmos_cassandra_api_replicas")->value, CosmosCassandraApi::kReplicas);
  EXPECT_EQ(FindLimit("cosmos_cassandra_api_quorum")->value, CosmosCassandraApi::kQuorum);
  EXPECT_EQ(FindLimit("cassandra_default_ring_nodes")->value, RingOptions{}.nodes);
  EXPECT_EQ(FindLimit("cassandra_default_num_tokens")->value, RingOptions{}.num_tokens);
  EXPECT_EQ(FindLimit("cassandra_default_ring_nodes")->kind, "default");
  EXPECT_EQ(FindLimit("cosmos_cassandra_api_default_ru_per_second")->kind, "default");
  EXPECT_LE(FindLimit("cosmos_cassandra_api_default_ru_per_second")->value,
            FindLimit("cosmos_cassandra_api_max_ru_per_second")->value);
}

}  // namespace
}  // namespace partplay::cql
