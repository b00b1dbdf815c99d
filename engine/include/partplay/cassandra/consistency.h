// Consistency levels as cqlsh sets them (CONSISTENCY, SERIAL CONSISTENCY) and what they ask of
// the ring: Cassandra 4.1's ConsistencyLevel checks (validateForRead, validateForWrite,
// validateCounterForWrite, validateForCasCommit), blockFor, and the Unavailable error of
// ReplicaPlans.assureSufficientLiveReplicas with every node up: a level needing more replicas
// than the keyspace has on the ring (RF 3 on two nodes asks QUORUM for 2 of 3 and finds 2;
// ALL finds 2 of 3 and fails).
//
//   std::optional<Consistency> c = ParseConsistency("QUORUM");
//   Status s = CheckConsistency(*c, Access::kRead, ring, keyspace.replication, "t", where);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/schema.h"
#include "partplay/core/status.h"

namespace partplay::cql {

enum class Consistency : uint8_t {
  kAny, kOne, kTwo, kThree, kQuorum, kAll, kLocalQuorum, kEachQuorum, kSerial, kLocalSerial,
  kLocalOne
};

std::string_view ConsistencyName(Consistency level);
// The level named (upper case, as cqlsh accepts them), or nothing.
std::optional<Consistency> ParseConsistency(std::string_view name);

enum class Access : uint8_t { kRead, kWrite, kCounterWrite, kConditionalWrite };

// The datacenter the console's coordinator (the ring's first node) is in: LOCAL_* levels count
// replicas there.
std::string LocalDatacenter(const Ring& ring);

// How many replicas must answer (ConsistencyLevel.blockFor).
int BlockFor(Consistency level, const ReplicationStrategy& replication,
             const std::string& local_dc);

// Cassandra's refusal of the level for the access, or its Unavailable error when the ring holds
// fewer replicas than the level needs ("Cannot achieve consistency level QUORUM").
Status CheckConsistency(Consistency level, Access access, const Ring& ring,
                        const ReplicationStrategy& replication, std::string_view table,
                        const SourceLocation& where);

// The Unavailable check alone (the Paxos rounds of a conditional write at the serial level).
Status CheckAvailable(Consistency level, const Ring& ring, const ReplicationStrategy& replication,
                      const SourceLocation& where);

// Of the replicas of a token (primary first), those a request at the level sends to: every one
// for a write; for a read the first blockFor (counting only local ones for LOCAL_* levels).
std::vector<int> ContactedReplicas(Consistency level, Access access, const Ring& ring,
                                   const std::vector<int>& replicas,
                                   const ReplicationStrategy& replication);

}  // namespace partplay::cql
