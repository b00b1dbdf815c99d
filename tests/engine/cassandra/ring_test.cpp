// The token ring: vnode tokens, ownership, and replicas under SimpleStrategy and
// NetworkTopologyStrategy (Cassandra's calculateNaturalReplicas), worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {
namespace {

ReplicationStrategy Simple(int rf) {
  ReplicationStrategy s;
  s.strategy = ReplicationStrategy::Class::kSimple;
  s.replication_factor = rf;
  return s;
}

ReplicationStrategy Nts(std::vector<std::pair<std::string, int>> dcs) {
  ReplicationStrategy s;
  s.strategy = ReplicationStrategy::Class::kNetworkTopology;
  s.datacenters = std::move(dcs);
  return s;
}

TEST(CqlRingTest, EvenTokensAndOwners) {
  RingOptions o;
  o.nodes = 4;
  o.num_tokens = 1;
  StatusOr<Ring> ring = Ring::Build(o);
  ASSERT_TRUE(ring.ok());
  // step = 2^64 / 4 = 2^62
  const std::vector<int64_t> expected = {INT64_MIN, -4611686018427387904, 0, 4611686018427387904};
  ASSERT_EQ(ring->tokens().size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ring->tokens()[i].token, expected[i]);
    EXPECT_EQ(ring->tokens()[i].node, static_cast<int>(i));
  }
  EXPECT_EQ(ring->Owner(1), 3);          // the first vnode token >= 1
  EXPECT_EQ(ring->Owner(0), 2);          // a token equal to a vnode token is that node's
  EXPECT_EQ(ring->Owner(INT64_MAX), 0);  // past the last token: wraps to the first
  EXPECT_EQ(ring->Replicas(1, Simple(3)), (std::vector<int>{3, 0, 1}));
  EXPECT_EQ(ring->Replicas(1, Simple(9)), (std::vector<int>{3, 0, 1, 2}));
  std::vector<double> own = ring->Ownership();
  double sum = 0;
  for (double d : own) {
    EXPECT_EQ(d, 0.25);
    sum += d;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  std::vector<double> effective = ring->EffectiveOwnership(Simple(3));
  for (double d : effective) EXPECT_NEAR(d, 0.75, 1e-12);
}

TEST(CqlRingTest, VnodesInterleaveNodesAroundTheRing) {
  RingOptions o;
  o.nodes = 3;
  o.num_tokens = 4;
  StatusOr<Ring> ring = Ring::Build(o);
  ASSERT_TRUE(ring.ok());
  ASSERT_EQ(ring->tokens().size(), 12u);
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(ring->tokens()[i].node, static_cast<int>(i % 3));
  // Random tokens: the same seed gives the same ring.
  o.random_tokens = true;
  o.seed = 7;
  StatusOr<Ring> a = Ring::Build(o);
  StatusOr<Ring> b = Ring::Build(o);
  ASSERT_TRUE(a.ok() && b.ok());
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(a->tokens()[i].token, b->tokens()[i].token);
  double sum = 0;
  for (double d : a->Ownership()) sum += d;
  EXPECT_NEAR(sum, 1.0, 1e-9);
}

TEST(CqlRingTest, NetworkTopologyStrategyPerDatacenter) {
  RingOptions o;
  o.num_tokens = 1;
  o.datacenters = {{"dc1", 3, 3}, {"dc2", 2, 1}};
  StatusOr<Ring> ring = Ring::Build(o);
  ASSERT_TRUE(ring.ok());
  ASSERT_EQ(ring->nodes().size(), 5u);
  EXPECT_EQ(ring->nodes()[3].datacenter, "dc2");
  // From node 0's token: dc1 takes nodes 0 and 1 (new racks), skips 2 (dc1 done); dc2 takes 3,
  // then 4 although its rack repeats (dc2 has one rack, so RF 2 - 1 rack = 1 repeat allowed).
  EXPECT_EQ(ring->Replicas(INT64_MIN, Nts({{"dc1", 2}, {"dc2", 2}})),
            (std::vector<int>{0, 1, 3, 4}));
  EXPECT_EQ(ring->Replicas(INT64_MIN, Nts({{"dc2", 1}})), (std::vector<int>{3}));
  EXPECT_EQ(ring->Replicas(INT64_MIN, Nts({{"dc3", 3}})), std::vector<int>{});
}

TEST(CqlRingTest, NetworkTopologyStrategyPrefersDistinctRacks) {
  // dc1: A (rack1) at token 0, B (rack1) at 10, C (rack2) at 20.
  std::vector<Node> nodes = {{"A", "10.0.0.1", "dc1", "rack1"},
                             {"B", "10.0.0.2", "dc1", "rack1"},
                             {"C", "10.0.0.3", "dc1", "rack2"}};
  StatusOr<Ring> ring = Ring::FromTokens(nodes, {{0, 0}, {10, 1}, {20, 2}});
  ASSERT_TRUE(ring.ok());
  // RF 2 with 2 racks: B repeats rack1 and is passed over for C.
  EXPECT_EQ(ring->Replicas(-5, Nts({{"dc1", 2}})), (std::vector<int>{0, 2}));
  // SimpleStrategy ignores racks.
  EXPECT_EQ(ring->Replicas(-5, Simple(2)), (std::vector<int>{0, 1}));
  // RF 3 with 2 racks: one repeat is acceptable, taken by the first node met.
  EXPECT_EQ(ring->Replicas(-5, Nts({{"dc1", 3}})), (std::vector<int>{0, 1, 2}));
  // From B: B (rack1), C (rack2).
  EXPECT_EQ(ring->Replicas(5, Nts({{"dc1", 2}})), (std::vector<int>{1, 2}));
}

TEST(CqlRingTest, TooManyNodesAreRefusedBeforeAnyIsMade) {
  // Found by tests/fuzz/options_fuzz (corpus/options_fuzz/regression-million-nodes): the count
  // was checked after making every node, and two datacenters of 2^31 - 1 nodes overflowed it.
  RingOptions million;
  million.nodes = 1676756;
  StatusOr<Ring> a = Ring::Build(million);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(a.status().message(), "a ring has 1 to 1000 nodes, not 1676756");
  RingOptions huge;
  huge.datacenters = {{"dc1", INT32_MAX, 1}, {"dc2", INT32_MAX, 1}};
  StatusOr<Ring> b = Ring::Build(huge);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "a ring has 1 to 1000 nodes, not 4294967294");
}

TEST(CqlRingTest, OptionsFromJson) {
  StatusOr<RingOptions> o = ParseRingOptionsJson(
      "{\"nodes\": 6, \"num_tokens\": 8, \"random_tokens\": true, \"seed\": 7,"
      " \"datacenters\": [{\"name\": \"dc1\", \"nodes\": 3, \"racks\": 2}]}");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->nodes, 6);
  EXPECT_EQ(o->num_tokens, 8);
  EXPECT_TRUE(o->random_tokens);
  EXPECT_EQ(o->seed, 7u);
  ASSERT_EQ(o->datacenters.size(), 1u);
  EXPECT_EQ(o->datacenters[0].name, "dc1");
  EXPECT_EQ(o->datacenters[0].racks, 2);
  // Every field is optional.
  StatusOr<RingOptions> empty = ParseRingOptionsJson("{}");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->nodes, RingOptions{}.nodes);

  StatusOr<RingOptions> unknown = ParseRingOptionsJson("{\"node\": 3}");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), ErrorCode::kBadOption);
  EXPECT_NE(unknown.status().message().find("ring.node"), std::string::npos);
  StatusOr<RingOptions> fraction = ParseRingOptionsJson("{\"nodes\": 2.5}");
  ASSERT_FALSE(fraction.ok());
  EXPECT_EQ(fraction.status().code(), ErrorCode::kBadOption);
  StatusOr<RingOptions> broken = ParseRingOptionsJson("{\"nodes\": }");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), ErrorCode::kMalformedJson);
  EXPECT_EQ(broken.status().where().byte_offset, 10);
}

TEST(CqlRingTest, SessionRowsCarryTheirReplicas) {
  SessionOptions options;
  options.ring.nodes = 4;
  options.ring.num_tokens = 1;
  Session session(options);
  std::vector<StatementResult> r = session.Execute(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};"
      "CREATE TABLE ks.t (k int PRIMARY KEY);"
      "INSERT INTO ks.t (k) VALUES (1);"
      "SELECT k FROM ks.t;");
  ASSERT_EQ(r.back().kind, StatementResult::Kind::kRows);
  ASSERT_EQ(r.back().rows.partitions.size(), 1u);
  // token(1) = -4069959284402364209 lies in (-2^62, 0]: node 2, then node 3.
  EXPECT_EQ(r.back().rows.partitions[0].token, -4069959284402364209);
  EXPECT_EQ(r.back().rows.partitions[0].replicas, (std::vector<int>{2, 3}));
  // ... found at vnodes 2 and 3 (one token per node: node i's token is vnode i).
  EXPECT_EQ(r.back().rows.partitions[0].replica_vnodes, (std::vector<size_t>{2, 3}));
}

TEST(CqlRingTest, ReplicaVnodesAreWhereTheWalkPicksEachNode) {
  // 3 nodes x 2 vnodes, evenly spaced: vnode i belongs to node i % 3.
  RingOptions o;
  o.nodes = 3;
  o.num_tokens = 2;
  StatusOr<Ring> ring = Ring::Build(o);
  ASSERT_TRUE(ring.ok());
  // Just past vnode 4's token the walk starts at vnode 5 (node 2), then 0 (node 0), 1 (node 1).
  int64_t t = ring->tokens()[4].token + 1;
  EXPECT_EQ(ring->ReplicaVnodes(t, Simple(3)), (std::vector<size_t>{5, 0, 1}));
  EXPECT_EQ(ring->Replicas(t, Simple(3)), (std::vector<int>{2, 0, 1}));
  // NetworkTopologyStrategy: dc1 A, B on rack1, C on rack2 (tokens 0, 10, 20). RF 2 from -5
  // takes A at vnode 0, passes B over (rack1 again), takes C at vnode 2.
  std::vector<Node> nodes = {{"A", "10.0.0.1", "dc1", "rack1"},
                             {"B", "10.0.0.2", "dc1", "rack1"},
                             {"C", "10.0.0.3", "dc1", "rack2"}};
  StatusOr<Ring> racks = Ring::FromTokens(nodes, {{0, 0}, {10, 1}, {20, 2}});
  ASSERT_TRUE(racks.ok());
  EXPECT_EQ(racks->ReplicaVnodes(-5, Nts({{"dc1", 2}})), (std::vector<size_t>{0, 2}));
  // Past the last token the walk wraps to vnode 0.
  EXPECT_EQ(racks->ReplicaVnodes(25, Simple(1)), (std::vector<size_t>{0}));
}

TEST(CqlRingTest, VnodeRangesShareTheRing) {
  std::vector<Node> nodes = {{"A", "10.0.0.1", "dc1", "rack1"}, {"B", "10.0.0.2", "dc1", "rack1"}};
  StatusOr<Ring> ring = Ring::FromTokens(nodes, {{0, 0}, {INT64_MAX, 1}});
  ASSERT_TRUE(ring.ok());
  // Vnode 0 owns (2^63 - 1, 0] wrapping past -2^63: 2^63 + 1 tokens; vnode 1 owns (0, 2^63 - 1].
  EXPECT_EQ(ring->VnodeStart(0), INT64_MAX);
  EXPECT_EQ(ring->VnodeStart(1), 0);
  EXPECT_DOUBLE_EQ(ring->VnodeShare(0), (9223372036854775808.0 + 1) / 18446744073709551616.0);
  EXPECT_DOUBLE_EQ(ring->VnodeShare(1), 9223372036854775807.0 / 18446744073709551616.0);
  // A single token owns the whole ring.
  StatusOr<Ring> one = Ring::FromTokens({nodes[0]}, {{42, 0}});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->VnodeShare(0), 1.0);
}

TEST(CqlRingTest, OwnerBucketsColourEqualSlices) {
  // Two nodes, tokens at -2^62 (A) and 2^62 (B): A owns (2^62, -2^62], B owns (-2^62, 2^62].
  std::vector<Node> nodes = {{"A", "10.0.0.1", "dc1", "rack1"}, {"B", "10.0.0.2", "dc1", "rack1"}};
  StatusOr<Ring> ring =
      Ring::FromTokens(nodes, {{-4611686018427387904, 0}, {4611686018427387904, 1}});
  ASSERT_TRUE(ring.ok());
  // Eight slices from -2^63: the middles of slices 0, 1 and 6, 7 are A's; 2..5 are B's.
  EXPECT_EQ(ring->OwnerBuckets(8), (std::vector<int>{0, 0, 1, 1, 1, 1, 0, 0}));
}

}  // namespace
}  // namespace partplay::cql
