// The token ring of an Apache Cassandra cluster: nodes (optionally in datacenters and racks), each
// owning `num_tokens` vnode tokens; a token belongs to the node of the first vnode token at or
// after it (wrapping), and its replicas are what `nodetool getendpoints` answers for the
// keyspace's strategy:
//   SimpleStrategy          — walking clockwise from the token, the first RF distinct nodes;
//   NetworkTopologyStrategy — per datacenter, walking clockwise, nodes of racks not yet used
//                             first, repeating racks only when there are fewer racks than RF
//                             (Cassandra's NetworkTopologyStrategy.calculateNaturalReplicas).
// Ownership is the share of the token space each node owns (nodetool status without a
// keyspace) and, for a keyspace, the share it holds a replica of (nodetool status <keyspace>).
//
// Vnode tokens are evenly spaced (token i of N*V is -2^63 + i * floor(2^64 / (N*V)), given
// to node i mod N so every node's vnodes spread around the ring) or random: splitmix64 from a
// seed, num_tokens draws per node in node order (Cassandra draws uniformly random longs too).
//
// The same data placed by Azure Cosmos DB's Cassandra API instead: cosmos_cassandra_api.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/schema.h"
#include "partplay/core/limits.h"
#include "partplay/core/status.h"

namespace partplay::cql {

struct DatacenterSpec {
  std::string name;
  int nodes = 1;
  int racks = 1;  // nodes are dealt to racks round-robin
};

struct RingOptions {
  // used when `datacenters` is empty: one datacenter "datacenter1", rack "rack1"
  int nodes = kCassandraDefaultRingNodes;
  int num_tokens = kCassandraDefaultNumTokens;  // Cassandra 4's default
  bool random_tokens = false;
  uint64_t seed = 1;
  std::vector<DatacenterSpec> datacenters;
};

struct Node {
  std::string name;     // node1, node2, ...
  std::string address;  // 10.0.<datacenter>.<n>, what nodetool would print
  std::string datacenter;
  std::string rack;
};

struct VnodeToken {
  int64_t token;
  int node;
};

// A ring picture draws an arc per vnode up to this many; past it, kRingPictureBuckets owner slices.
inline constexpr size_t kRingPictureMaxArcs = 4096;
inline constexpr size_t kRingPictureBuckets = 1440;

class Ring {
 public:
  // Limits: 1..kCassandraRingMaxNodes nodes, 1..kCassandraRingMaxNumTokens tokens per node.
  static StatusOr<Ring> Build(const RingOptions& options);
  // A ring with explicit tokens (initial_token), each naming its node by index.
  static StatusOr<Ring> FromTokens(std::vector<Node> nodes, std::vector<VnodeToken> tokens);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<VnodeToken>& tokens() const { return tokens_; }  // sorted by token
  const RingOptions& options() const { return options_; }

  // The index in tokens() of the first vnode token >= token (0 past the last).
  size_t FirstTokenIndex(int64_t token) const;
  int Owner(int64_t token) const { return tokens_[FirstTokenIndex(token)].node; }
  // The replica nodes of a token, primary first.
  std::vector<int> Replicas(int64_t token, const ReplicationStrategy& strategy) const;
  // The same replicas as the vnodes (indexes into tokens()) at which the clockwise walk from the
  // token picked each node: where a ring picture marks them.
  std::vector<size_t> ReplicaVnodes(int64_t token, const ReplicationStrategy& strategy) const;

  // The token range of vnode i, (VnodeStart(i), tokens()[i].token]: it starts after the previous
  // vnode token (the first wraps around from the last); VnodeShare is its fraction of the ring.
  int64_t VnodeStart(size_t i) const;
  double VnodeShare(size_t i) const;
  // The owner of the middle token of each of `buckets` equal slices of the ring, from -2^63
  // clockwise: how a picture draws a ring with too many vnodes for an arc each.
  std::vector<int> OwnerBuckets(size_t buckets) const;

  // Per node, the fraction of the token space it owns (sums to 1).
  std::vector<double> Ownership() const;
  // Per node, the fraction of the token space it holds a replica of (sums to the total RF).
  std::vector<double> EffectiveOwnership(const ReplicationStrategy& strategy) const;

 private:
  RingOptions options_;
  std::vector<Node> nodes_;
  std::vector<VnodeToken> tokens_;
};

// Ring options as JSON: {"nodes", "num_tokens", "random_tokens", "seed", "datacenters": [{"name",
// "nodes", "racks"}]}, every field optional (the defaults above); unknown fields are errors.
StatusOr<RingOptions> ParseRingOptionsJson(std::string_view json);

}  // namespace partplay::cql
