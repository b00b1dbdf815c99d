// The figures a keyspace's replication gives on a ring: how many replicas of each partition it asks
// for (per datacenter under NetworkTopologyStrategy, and in all), how many the ring can place (a
// datacenter places at most one replica per node, none when the ring has no node there), and
// the replicas QUORUM and LOCAL_QUORUM wait for: sum(RF) / 2 + 1 and RF(datacenter) / 2 + 1
// (Cassandra's ConsistencyLevel.quorumFor and localQuorumFor; under SimpleStrategy LOCAL_QUORUM
// is QUORUM).
//
//   ReplicationFigures f = FigureReplication(ring, keyspace.replication);
//   f.replicas;             // 3 for SimpleStrategy RF 3, 5 for {dc1: 3, dc2: 2}
//   f.quorum;               // 2, 3
//   f.missing_datacenters;  // {"dc2"} when the ring has no node in dc2
#pragma once

#include <string>
#include <vector>

#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/schema.h"

namespace partplay::cql {

struct DatacenterReplication {
  std::string name;
  int replicas = 0;      // the replication factor the keyspace names for it
  int nodes = 0;         // the ring's nodes in it
  int placed = 0;        // min(replicas, nodes): the replicas the ring holds there
  int local_quorum = 0;  // replicas / 2 + 1
};

struct ReplicationFigures {
  bool network_topology = false;
  int replicas = 0;  // asked for in all: the replication factor, or its sum over datacenters
  int placed = 0;    // held in all: at most one per node in each datacenter
  int quorum = 0;    // replicas / 2 + 1
  std::vector<DatacenterReplication> datacenters;  // NetworkTopologyStrategy's, by name
  std::vector<std::string> missing_datacenters;    // named, but without a node in the ring
  std::vector<std::string> ring_datacenters;       // the ring's, in node order
};

ReplicationFigures FigureReplication(const Ring& ring, const ReplicationStrategy& strategy);

// {"strategy": "SimpleStrategy" | "NetworkTopologyStrategy", "replicas", "placed", "quorum",
//  "local_quorum" (SimpleStrategy; null under NetworkTopologyStrategy, where it is per datacenter),
//  "datacenters": [{"name", "replicas", "nodes", "placed", "local_quorum"}],
//  "missing_datacenters": [...], "ring_datacenters": [...]}
std::string ReplicationFiguresToJson(const ReplicationFigures& figures);

}  // namespace partplay::cql
