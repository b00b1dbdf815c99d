#include "partplay/cassandra/consistency.h"

#include <fmt/format.h>

#include <array>
#include <map>

namespace partplay::cql {
namespace {

constexpr std::array<std::string_view, 11> kNames = {
    "ANY",          "ONE",         "TWO",    "THREE",        "QUORUM",   "ALL",
    "LOCAL_QUORUM", "EACH_QUORUM", "SERIAL", "LOCAL_SERIAL", "LOCAL_ONE"};

Status Invalid(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

Status Unavailable(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlUnavailable, std::move(message), where);
}

bool IsNts(const ReplicationStrategy& r) {
  return r.strategy == ReplicationStrategy::Class::kNetworkTopology;
}

// ReplicationFactor.allReplicas: the copies the keyspace asks for.
int AllReplicas(const ReplicationStrategy& r) {
  if (!IsNts(r)) return r.replication_factor;
  int n = 0;
  for (const auto& [dc, rf] : r.datacenters) n += rf;
  return n;
}

int DatacenterFactor(const ReplicationStrategy& r, const std::string& dc) {
  for (const auto& [name, rf] : r.datacenters) {
    if (name == dc) return rf;
  }
  return 0;
}

bool IsLocal(Consistency c) {
  return c == Consistency::kLocalOne || c == Consistency::kLocalQuorum ||
         c == Consistency::kLocalSerial;
}

}  // namespace

std::string_view ConsistencyName(Consistency level) {
  return kNames[static_cast<size_t>(level)];
}

std::optional<Consistency> ParseConsistency(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<Consistency>(i);
  }
  return std::nullopt;
}

std::string LocalDatacenter(const Ring& ring) {
  return ring.nodes().empty() ? std::string() : ring.nodes()[0].datacenter;
}

int BlockFor(Consistency level, const ReplicationStrategy& r, const std::string& local_dc) {
  auto quorum = [](int rf) { return rf / 2 + 1; };
  switch (level) {
    case Consistency::kOne:
    case Consistency::kLocalOne:
    case Consistency::kAny:
      return 1;
    case Consistency::kTwo:
      return 2;
    case Consistency::kThree:
      return 3;
    case Consistency::kQuorum:
    case Consistency::kSerial:
      return quorum(AllReplicas(r));
    case Consistency::kAll:
      return AllReplicas(r);
    case Consistency::kLocalQuorum:
    case Consistency::kLocalSerial:
      return IsNts(r) ? quorum(DatacenterFactor(r, local_dc)) : quorum(AllReplicas(r));
    case Consistency::kEachQuorum: {
      if (!IsNts(r)) return quorum(AllReplicas(r));
      int n = 0;
      for (const auto& [dc, rf] : r.datacenters) n += quorum(rf);
      return n;
    }
  }
  return 1;
}

Status CheckConsistency(Consistency level, Access access, const Ring& ring,
                        const ReplicationStrategy& r, std::string_view table,
                        const SourceLocation& where) {
  const bool serial = level == Consistency::kSerial || level == Consistency::kLocalSerial;
  switch (access) {
    case Access::kRead:
      if (level == Consistency::kAny) {
        return Invalid("ANY ConsistencyLevel is only supported for writes", where);
      }
      break;
    case Access::kWrite:
      if (serial) return Invalid("You must use conditional updates for serializable writes", where);
      break;
    case Access::kCounterWrite:
      if (level == Consistency::kAny) {
        return Invalid(
            fmt::format("Consistency level ANY is not yet supported for counter table {}", table),
            where);
      }
      if (serial) return Invalid("Counter operations are inherently non-serializable", where);
      break;
    case Access::kConditionalWrite:
      // The level is the commit's (validateForCasCommit); the Paxos rounds use SERIAL.
      if (level == Consistency::kEachQuorum && !IsNts(r)) {
        return Invalid("consistency level EACH_QUORUM not compatible with replication strategy "
                       "(org.apache.cassandra.locator.SimpleStrategy)",
                       where);
      }
      if (serial) {
        return Invalid(fmt::format("{} is not supported as conditional update commit "
                                   "consistency. Use ANY if you mean \"make sure it is accepted "
                                   "but I don't care how many replicas commit it for non-SERIAL "
                                   "reads\"",
                                   ConsistencyName(level)),
                       where);
      }
      break;
  }
  if (level == Consistency::kAny && access != Access::kRead) return Status::Ok();  // a hint will do
  return CheckAvailable(level, ring, r, where);
}

Status CheckAvailable(Consistency level, const Ring& ring, const ReplicationStrategy& given,
                      const SourceLocation& where) {
  // The ring is configured apart from the schema: datacenters it does not have are left out,
  // and a keyspace with none of its datacenters on the ring is not checked.
  ReplicationStrategy r = given;
  if (IsNts(r)) {
    std::vector<std::pair<std::string, int>> present;
    for (const auto& dc : r.datacenters) {
      for (const Node& n : ring.nodes()) {
        if (n.datacenter == dc.first) {
          present.push_back(dc);
          break;
        }
      }
    }
    if (present.empty()) return Status::Ok();
    r.datacenters = std::move(present);
  }
  // Every node is up, so the live replicas are the replicas: the same count for every token.
  const std::vector<int> replicas = ring.Replicas(0, r);
  const std::string local = LocalDatacenter(ring);
  std::map<std::string, int> per_dc;
  for (int node : replicas) ++per_dc[ring.nodes()[static_cast<size_t>(node)].datacenter];
  const std::string name(ConsistencyName(level));
  if (level == Consistency::kEachQuorum && IsNts(r)) {
    for (const auto& [dc, rf] : r.datacenters) {
      if (per_dc[dc] < rf / 2 + 1) {
        return Unavailable(fmt::format("Cannot achieve consistency level {} in DC {}", name, dc),
                           where);
      }
    }
    return Status::Ok();
  }
  int live = IsLocal(level) ? per_dc[local] : static_cast<int>(replicas.size());
  if (live < BlockFor(level, r, local)) {
    return Unavailable("Cannot achieve consistency level " + name, where);
  }
  return Status::Ok();
}

std::vector<int> ContactedReplicas(Consistency level, Access access, const Ring& ring,
                                   const std::vector<int>& replicas,
                                   const ReplicationStrategy& r) {
  if (access != Access::kRead) return replicas;
  const std::string local = LocalDatacenter(ring);
  int need = BlockFor(level, r, local);
  std::vector<int> out;
  for (int node : replicas) {
    if (static_cast<int>(out.size()) >= need) break;
    if (IsLocal(level) && ring.nodes()[static_cast<size_t>(node)].datacenter != local) continue;
    out.push_back(node);
  }
  return out;
}

}  // namespace partplay::cql
