// A keyspace's replication as figures on a ring (cassandra/replication_figures.h): replicas asked
// for and placed, per datacenter and in all, and the replicas QUORUM and LOCAL_QUORUM wait for.
#include "partplay/cassandra/replication_figures.h"

#include <fmt/format.h>

#include <algorithm>

#include "partplay/core/json_writer.h"

namespace partplay::cql {
namespace {

// ConsistencyLevel.quorumFor: a majority of the replicas.
int QuorumOf(int replicas) { return replicas / 2 + 1; }

std::string StringsJson(const std::vector<std::string>& list) {
  return JsonArray(list, [](const std::string& s, std::string& o) { AppendJsonString(s, o); });
}

}  // namespace

ReplicationFigures FigureReplication(const Ring& ring, const ReplicationStrategy& strategy) {
  ReplicationFigures f;
  for (const Node& n : ring.nodes()) {
    if (std::find(f.ring_datacenters.begin(), f.ring_datacenters.end(), n.datacenter) ==
        f.ring_datacenters.end()) {
      f.ring_datacenters.push_back(n.datacenter);
    }
  }
  const int ring_nodes = static_cast<int>(ring.nodes().size());
  f.network_topology = strategy.strategy == ReplicationStrategy::Class::kNetworkTopology;
  if (!f.network_topology) {
    f.replicas = strategy.replication_factor;
    f.placed = std::min(f.replicas, ring_nodes);
  } else {
    for (const auto& [name, factor] : strategy.datacenters) {
      DatacenterReplication dc{name, factor, 0, 0, QuorumOf(factor)};
      for (const Node& n : ring.nodes()) dc.nodes += n.datacenter == dc.name ? 1 : 0;
      dc.placed = std::min(dc.replicas, dc.nodes);
      if (dc.nodes == 0) f.missing_datacenters.push_back(dc.name);
      f.replicas += dc.replicas;
      f.placed += dc.placed;
      f.datacenters.push_back(std::move(dc));
    }
  }
  f.quorum = QuorumOf(f.replicas);
  return f;
}

std::string ReplicationFiguresToJson(const ReplicationFigures& f) {
  std::string out = "{\"strategy\":";
  AppendJsonString(f.network_topology ? "NetworkTopologyStrategy" : "SimpleStrategy", out);
  out += fmt::format(",\"replicas\":{},\"placed\":{},\"quorum\":{},\"local_quorum\":", f.replicas,
                     f.placed, f.quorum);
  out += f.network_topology ? "null" : std::to_string(f.quorum);
  out += ",\"datacenters\":";
  out += JsonArray(f.datacenters, [](const DatacenterReplication& dc, std::string& o) {
    o += "{\"name\":";
    AppendJsonString(dc.name, o);
    o += fmt::format(",\"replicas\":{},\"nodes\":{},\"placed\":{},\"local_quorum\":{}}}",
                     dc.replicas, dc.nodes, dc.placed, dc.local_quorum);
  });
  out += ",\"missing_datacenters\":" + StringsJson(f.missing_datacenters);
  out += ",\"ring_datacenters\":" + StringsJson(f.ring_datacenters) + "}";
  return out;
}

}  // namespace partplay::cql
