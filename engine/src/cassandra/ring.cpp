#include "partplay/cassandra/ring.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace partplay::cql {
namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The size of the token range (a, b] going clockwise, as a fraction of the 2^64 tokens.
double RangeFraction(int64_t a, int64_t b) {
  uint64_t size = static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
  if (size == 0) return 1.0;  // a single token owns everything
  return static_cast<double>(size) / 18446744073709551616.0;
}

}  // namespace

StatusOr<Ring> Ring::Build(const RingOptions& options) {
  Ring ring;
  ring.options_ = options;
  std::vector<DatacenterSpec> dcs = options.datacenters;
  if (dcs.empty()) dcs.push_back(DatacenterSpec{"datacenter1", options.nodes, 1});
  // The node count is checked before any node is made: a ring of millions took seconds to
  // refuse, and datacenters of 2^31 nodes overflowed the count (found by fuzzing).
  int64_t requested = 0;
  for (const DatacenterSpec& dc : dcs) requested += std::max(dc.nodes, 0);
  if (requested > kCassandraRingMaxNodes) {
    return Status(ErrorCode::kBadOption, fmt::format("a ring has 1 to {} nodes, not {}",
                                                     kCassandraRingMaxNodes, requested));
  }
  int total = 0;
  for (size_t d = 0; d < dcs.size(); ++d) {
    const DatacenterSpec& dc = dcs[d];
    if (dc.nodes < 1 || dc.racks < 1 || dc.name.empty()) {
      return Status(
          ErrorCode::kBadOption,
          fmt::format("datacenter '{}' needs a name, at least one node and one rack", dc.name));
    }
    for (int n = 0; n < dc.nodes; ++n) {
      ++total;
      ring.nodes_.push_back(Node{fmt::format("node{}", total), fmt::format("10.0.{}.{}", d, n + 1),
                                 dc.name, fmt::format("rack{}", n % dc.racks + 1)});
    }
  }
  if (total < 1 || total > kCassandraRingMaxNodes) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("a ring has 1 to {} nodes, not {}", kCassandraRingMaxNodes, total));
  }
  if (options.num_tokens < 1 || options.num_tokens > kCassandraRingMaxNumTokens) {
    return Status(ErrorCode::kBadOption, fmt::format("num_tokens is 1 to {}, not {}",
                                                     kCassandraRingMaxNumTokens, options.num_tokens));
  }
  size_t count = static_cast<size_t>(total) * static_cast<size_t>(options.num_tokens);
  if (options.random_tokens) {
    uint64_t state = options.seed;
    std::set<int64_t> used;
    for (int n = 0; n < total; ++n) {
      for (int v = 0; v < options.num_tokens; ++v) {
        int64_t t;
        do {
          t = static_cast<int64_t>(SplitMix64(state));
        } while (!used.insert(t).second);
        ring.tokens_.push_back(VnodeToken{t, n});
      }
    }
  } else {
    // floor(2^64 / count), without 128-bit arithmetic.
    uint64_t step = UINT64_MAX / count + (UINT64_MAX % count + 1 == count ? 1 : 0);
    for (size_t i = 0; i < count; ++i) {
      uint64_t offset = step * i;
      int64_t t = static_cast<int64_t>(static_cast<uint64_t>(INT64_MIN) + offset);
      ring.tokens_.push_back(VnodeToken{t, static_cast<int>(i % static_cast<size_t>(total))});
    }
  }
  std::sort(ring.tokens_.begin(), ring.tokens_.end(),
            [](const VnodeToken& a, const VnodeToken& b) { return a.token < b.token; });
  return ring;
}

StatusOr<Ring> Ring::FromTokens(std::vector<Node> nodes, std::vector<VnodeToken> tokens) {
  if (nodes.empty() || tokens.empty()) {
    return Status(ErrorCode::kBadOption, "a ring needs at least one node and one token");
  }
  std::sort(tokens.begin(), tokens.end(),
            [](const VnodeToken& a, const VnodeToken& b) { return a.token < b.token; });
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].node < 0 || static_cast<size_t>(tokens[i].node) >= nodes.size()) {
      return Status(ErrorCode::kBadOption, fmt::format("token {} names no node", tokens[i].token));
    }
    if (i > 0 && tokens[i].token == tokens[i - 1].token) {
      return Status(ErrorCode::kBadOption, fmt::format("token {} is given twice", tokens[i].token));
    }
  }
  Ring ring;
  ring.options_.nodes = static_cast<int>(nodes.size());
  ring.options_.num_tokens = static_cast<int>(tokens.size() / nodes.size());
  ring.nodes_ = std::move(nodes);
  ring.tokens_ = std::move(tokens);
  return ring;
}

size_t Ring::FirstTokenIndex(int64_t token) const {
  auto it = std::lower_bound(tokens_.begin(), tokens_.end(), token,
                             [](const VnodeToken& v, int64_t t) { return v.token < t; });
  return it == tokens_.end() ? 0 : static_cast<size_t>(it - tokens_.begin());
}

std::vector<int> Ring::Replicas(int64_t token, const ReplicationStrategy& strategy) const {
  std::vector<int> out;
  for (size_t vnode : ReplicaVnodes(token, strategy)) out.push_back(tokens_[vnode].node);
  return out;
}

std::vector<size_t> Ring::ReplicaVnodes(int64_t token, const ReplicationStrategy& strategy) const {
  std::vector<size_t> out;  // vnode indexes; `has` asks whether a node is already among them
  auto has = [&](int node) {
    return std::any_of(out.begin(), out.end(), [&](size_t v) { return tokens_[v].node == node; });
  };
  size_t start = FirstTokenIndex(token);
  size_t n = tokens_.size();
  if (strategy.strategy == ReplicationStrategy::Class::kSimple) {
    size_t want = std::min<size_t>(static_cast<size_t>(std::max(strategy.replication_factor, 0)),
                                   nodes_.size());
    for (size_t k = 0; k < n && out.size() < want; ++k) {
      size_t vnode = (start + k) % n;
      if (!has(tokens_[vnode].node)) out.push_back(vnode);
    }
    return out;
  }
  // NetworkTopologyStrategy.calculateNaturalReplicas, DatacenterEndpoints per datacenter.
  struct DcState {
    int rf_left = 0;
    int acceptable_rack_repeats = 0;
  };
  std::map<std::string, DcState> dcs;
  std::map<std::string, int> node_count;
  std::map<std::string, std::set<std::string>> racks;
  for (const Node& node : nodes_) {
    ++node_count[node.datacenter];
    racks[node.datacenter].insert(node.rack);
  }
  int to_fill = 0;
  for (const auto& [dc, rf] : strategy.datacenters) {
    int nodes = node_count.count(dc) ? node_count[dc] : 0;
    if (rf <= 0 || nodes <= 0) continue;
    DcState s;
    s.rf_left = std::min(rf, nodes);
    s.acceptable_rack_repeats = rf - static_cast<int>(racks[dc].size());
    dcs[dc] = s;
    ++to_fill;
  }
  std::set<std::pair<std::string, std::string>> seen_racks;
  for (size_t k = 0; k < n && to_fill > 0; ++k) {
    size_t vnode = (start + k) % n;
    int node = tokens_[vnode].node;
    const Node& ep = nodes_[static_cast<size_t>(node)];
    auto it = dcs.find(ep.datacenter);
    if (it == dcs.end()) continue;
    DcState& s = it->second;
    if (s.rf_left == 0) continue;
    if (has(node)) continue;
    if (seen_racks.insert({ep.datacenter, ep.rack}).second) {
      --s.rf_left;
      out.push_back(vnode);
    } else if (s.acceptable_rack_repeats > 0) {
      --s.acceptable_rack_repeats;
      --s.rf_left;
      out.push_back(vnode);
    } else {
      continue;
    }
    if (s.rf_left == 0) --to_fill;
  }
  return out;
}

int64_t Ring::VnodeStart(size_t i) const {
  return tokens_[(i + tokens_.size() - 1) % tokens_.size()].token;
}

double Ring::VnodeShare(size_t i) const { return RangeFraction(VnodeStart(i), tokens_[i].token); }

std::vector<int> Ring::OwnerBuckets(size_t buckets) const {
  std::vector<int> out;
  out.reserve(buckets);
  for (size_t b = 0; b < buckets; ++b) {
    // The middle of slice b: -2^63 + (2b + 1) * 2^64 / (2 * buckets), in unsigned arithmetic.
    unsigned __int128 offset = (static_cast<unsigned __int128>(2 * b + 1) << 64) / (2 * buckets);
    uint64_t mid = static_cast<uint64_t>(offset) + (uint64_t{1} << 63);
    out.push_back(Owner(static_cast<int64_t>(mid)));
  }
  return out;
}

std::vector<double> Ring::Ownership() const {
  std::vector<double> out(nodes_.size(), 0.0);
  for (size_t i = 0; i < tokens_.size(); ++i)
    out[static_cast<size_t>(tokens_[i].node)] += VnodeShare(i);
  return out;
}

std::vector<double> Ring::EffectiveOwnership(const ReplicationStrategy& strategy) const {
  std::vector<double> out(nodes_.size(), 0.0);
  for (size_t i = 0; i < tokens_.size(); ++i) {
    double share = VnodeShare(i);
    for (int node : Replicas(tokens_[i].token, strategy)) out[static_cast<size_t>(node)] += share;
  }
  return out;
}

}  // namespace partplay::cql
