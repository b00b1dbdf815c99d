#include "partplay/cassandra/result_format.h"

#include <fmt/format.h>

#include <algorithm>

#include "partplay/cassandra/cosmos_cassandra_api.h"
#include "partplay/cassandra/replication_figures.h"
#include "partplay/core/json_writer.h"

namespace partplay::cql {
namespace {

void Location(const SourceLocation& w, std::string& out) {
  out +=
      fmt::format("\"line\":{},\"column\":{},\"byte_offset\":{}", w.line, w.column, w.byte_offset);
}

// A failed statement among the results (as cqlsh reports it, the script goes on): its message,
// line and column in the script, the error code and, when known, the byte offset.
void ErrorObject(const Status& s, std::string& out) {
  out += "{\"message\":";
  AppendJsonString(s.message(), out);
  out += fmt::format(",\"line\":{},\"column\":{},\"code\":{},\"name\":", s.where().line,
                     s.where().column, static_cast<int>(s.code()));
  AppendJsonString(ErrorCodeName(s.code()), out);
  if (s.where().byte_offset >= 0) out += fmt::format(",\"byte_offset\":{}", s.where().byte_offset);
  out += '}';
}

// Display width: code points (continuation bytes do not count).
size_t Width(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string_view KindName(StatementResult::Kind k) {
  switch (k) {
    case StatementResult::Kind::kRows:
      return "rows";
    case StatementResult::Kind::kSchemaChange:
      return "schema_change";
    case StatementResult::Kind::kVoid:
      return "void";
    case StatementResult::Kind::kDescribe:
      return "describe";
    case StatementResult::Kind::kError:
      return "error";
    case StatementResult::Kind::kShell:
      return "shell";
  }
  return "?";
}

// {"consistency", "serial_consistency", "coordinator", "write", "scan", "steps": [{"token",
// "replicas", "required"}]}
void TraceObject(const StatementTrace& t, std::string& out) {
  out += "{\"consistency\":";
  AppendJsonString(t.consistency, out);
  if (!t.serial_consistency.empty()) {
    out += ",\"serial_consistency\":";
    AppendJsonString(t.serial_consistency, out);
  }
  out += fmt::format(",\"coordinator\":{},\"write\":{},\"scan\":{},\"steps\":[", t.coordinator,
                     t.write ? "true" : "false", t.scan ? "true" : "false");
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const TraceStep& step = t.steps[i];
    if (i) out += ',';
    out += fmt::format("{{\"token\":\"{}\",\"replicas\":[", step.token);
    for (size_t k = 0; k < step.replicas.size(); ++k) {
      out += (k ? "," : "") + std::to_string(step.replicas[k]);
    }
    out += fmt::format("],\"required\":{}}}", step.required);
  }
  out += "]}";
}

void KeyComponents(const std::vector<CqlType>& types, const std::vector<Bytes>& key,
                   std::string& out) {
  out += '[';
  for (size_t i = 0; i < key.size(); ++i) {
    if (i) out += ',';
    AppendJsonString(i < types.size() ? FormatCqlsh(types[i], key[i]) : key[i], out);
  }
  out += ']';
}

// The paging state a paging client holds after each page but the last: where the page ended
// (its last row's partition, and the row's place in the result), as [{"rows", "token", "key"}].
std::string PageEnds(const StatementResult& r) {
  std::string out = "[";
  const ResultSet& rs = r.rows;
  const int64_t pages = PageCount(r);
  for (int64_t page = 0; page + 1 < pages; ++page) {
    size_t last = static_cast<size_t>((page + 1) * r.page_size - 1);
    if (page) out += ',';
    out += fmt::format("{{\"rows\":{}", last + 1);
    int32_t part = last < rs.row_partition.size() ? rs.row_partition[last] : -1;
    if (part >= 0 && static_cast<size_t>(part) < rs.partitions.size()) {
      const ResultPartition& p = rs.partitions[static_cast<size_t>(part)];
      out += fmt::format(",\"token\":\"{}\",\"key\":", p.token);
      KeyComponents(rs.partition_key_types, p.key, out);
    }
    out += '}';
  }
  return out + "]";
}

// What cqlsh's trace would say, modelled: one line per partition (or for the scan).
std::string TraceLines(const StatementTrace& t) {
  std::string out = fmt::format("\nTracing (modelled): coordinator node{}, consistency {}{}\n",
                                t.coordinator + 1, t.consistency,
                                t.serial_consistency.empty()
                                    ? ""
                                    : ", Paxos at " + t.serial_consistency);
  for (const TraceStep& step : t.steps) {
    std::string nodes;
    for (size_t k = 0; k < step.replicas.size(); ++k) {
      nodes += fmt::format("{}node{}", k ? ", " : "", step.replicas[k] + 1);
    }
    if (t.scan) {
      out += fmt::format(" {} every token range: {} ({} answer{} per range)\n",
                         t.write ? "writes" : "reads", nodes, step.required,
                         step.required == 1 ? "s" : "");
    } else {
      out += fmt::format(" {} token {}: {} ({} must answer)\n", t.write ? "writes" : "reads",
                         step.token, nodes, step.required);
    }
  }
  return out;
}


}  // namespace

std::string ErrorToJson(const Status& s) {
  std::string out = fmt::format("{{\"code\":{},\"name\":", static_cast<int>(s.code()));
  AppendJsonString(ErrorCodeName(s.code()), out);
  out += ",\"message\":";
  AppendJsonString(s.message(), out);
  const SourceLocation& w = s.where();
  if (w.known()) {
    out += fmt::format(
        ",\"location\":{{\"byte_offset\":{},\"line\":{},\"column\":{},\"item_index\":{}}}}}",
        w.byte_offset, w.line, w.column, w.item_index);
  } else {
    out += ",\"location\":null}";
  }
  return out;
}

std::string ResultToJsonLine(const StatementResult& r) {
  std::string out;
  if (r.kind == StatementResult::Kind::kError) {
    out = "{\"error\":";
    ErrorObject(r.status, out);
    out += "}\n";
    return out;
  }
  if (r.verb == "COPY") {
    // {"copy": {"message": "N rows imported ...", "failures": ["file line L, column C: ..."]}}
    out = "{\"copy\":{\"message\":";
    AppendJsonString(r.message, out);
    out += ",\"failures\":[";
    for (size_t i = 0; i < r.warnings.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(r.warnings[i], out);
    }
    return out + "]}}\n";
  }
  if (r.kind == StatementResult::Kind::kShell) {
    out = "{\"shell\":";
    AppendJsonString(r.message, out);
    return out + "}\n";
  }
  if (r.kind != StatementResult::Kind::kRows) {  // SELECT, and the [applied] row of IF
    if (!r.trace) return out;
    out = "{\"trace\":";
    TraceObject(*r.trace, out);
    return out + "}\n";
  }
  out = "{\"columns\":[";
  for (size_t i = 0; i < r.rows.columns.size(); ++i) {
    if (i) out += ',';
    AppendJsonString(r.rows.columns[i], out);
  }
  out += "],\"rows\":[";
  for (size_t k = 0; k < r.rows.rows.size(); ++k) {
    if (k) out += ',';
    out += '[';
    const auto& row = r.rows.rows[k];
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      AppendJson(r.rows.types[i], row[i], out);
    }
    out += ']';
  }
  out += ']';
  // A paging client gets the rows in several requests: say how many when it is more than one.
  if (PageCount(r) > 1) {
    out += fmt::format(",\"page_size\":{},\"pages\":{},\"page_ends\":{}", r.page_size,
                       PageCount(r), PageEnds(r));
  }
  if (r.trace) {
    out += ",\"trace\":";
    TraceObject(*r.trace, out);
  }
  out += "}\n";
  return out;
}

std::string ResultToCqlsh(const StatementResult& r, std::string_view source) {
  std::string out;
  switch (r.kind) {
    case StatementResult::Kind::kError: {
      const Status& s = r.status;
      // cqlsh's own commands fail with cqlsh's words ("Improper CONSISTENCY command.").
      if (r.verb == "CONSISTENCY" || r.verb == "SERIAL" || r.verb == "TRACING" ||
          r.verb == "PAGING" || r.verb == "GUARDRAIL") {
        return fmt::format("{}:{}:{}\n", source, s.where().line, s.message());
      }
      if (s.code() == ErrorCode::kCqlUnavailable) {
        return fmt::format("{}:{}:Unavailable: Error from server: code=1000 [Unavailable "
                           "exception] message=\"{}\"\n",
                           source, s.where().line, s.message());
      }
      if (s.code() == ErrorCode::kCqlSyntax) {
        return fmt::format("{}:{}:SyntaxException: line {}:{} {}\n", source, s.where().line,
                           s.where().line, s.where().column, s.message());
      }
      return fmt::format(
          "{}:{}:InvalidRequest: Error from server: code=2200 [Invalid query] message=\"{}\"\n",
          source, s.where().line, s.message());
    }
    case StatementResult::Kind::kDescribe:
      return "\n" + r.message + "\n\n";
    case StatementResult::Kind::kShell:
      return r.message + "\n";
    case StatementResult::Kind::kRows:
      break;
    default:
      // COPY's summary, and the notes of statements accepted without being modelled.
      if (r.verb == "COPY") out += r.message + "\n";
      for (const std::string& w : r.warnings) out += "\nWarnings :\n" + w + "\n";
      if (r.trace) out += TraceLines(*r.trace);
      return out;
  }
  const ResultSet& rs = r.rows;
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths;
  for (const std::string& c : rs.columns) widths.push_back(Width(c));
  for (const auto& row : rs.rows) {
    std::vector<std::string> line;
    for (size_t i = 0; i < row.size(); ++i) {
      line.push_back(FormatCqlshValue(rs.types[i], row[i]));
      widths[i] = std::max(widths[i], Width(line.back()));
    }
    cells.push_back(std::move(line));
  }
  // cqlsh: headers left-aligned, values right-aligned, " | " between columns.
  out += "\n";
  std::string header;
  for (size_t i = 0; i < rs.columns.size(); ++i) {
    if (i) header += " | ";
    header += rs.columns[i];
    header.append(widths[i] - Width(rs.columns[i]), ' ');
  }
  while (!header.empty() && header.back() == ' ') header.pop_back();
  out += " " + header + "\n";
  std::string rule;
  for (size_t i = 0; i < widths.size(); ++i) {
    if (i) rule += "-+-";
    rule.append(widths[i], '-');
  }
  out += "-" + rule + "-\n";
  for (const auto& line : cells) {
    std::string text;
    for (size_t i = 0; i < line.size(); ++i) {
      if (i) text += " | ";
      text.append(widths[i] - Width(line[i]), ' ');
      text += line[i];
    }
    out += " " + text + "\n";
  }
  out += fmt::format("\n({} row{})\n", rs.rows.size(), rs.rows.size() == 1 ? "" : "s");
  for (const std::string& w : r.warnings) out += "\nWarnings :\n" + w + "\n";
  if (r.trace) out += TraceLines(*r.trace);
  return out;
}

std::string ResultsToJson(const std::vector<StatementResult>& results) {
  std::string out = "{\"results\":[";
  for (size_t n = 0; n < results.size(); ++n) {
    const StatementResult& r = results[n];
    if (n) out += ',';
    out += "{\"kind\":";
    AppendJsonString(KindName(r.kind), out);
    out += ",\"verb\":";
    AppendJsonString(r.verb, out);
    out += ",\"statement\":";
    AppendJsonString(r.statement, out);
    out += ',';
    Location(r.where, out);
    if (r.source_begin >= 0) {
      out += fmt::format(",\"source_begin\":{},\"source_end\":{}", r.source_begin, r.source_end);
    }
    if (!r.table.empty()) {
      out += ",\"table\":";
      AppendJsonString(r.table, out);
    }
    if (r.kind == StatementResult::Kind::kError) {
      out += ",\"error\":";
      ErrorObject(r.status, out);
    }
    if (!r.message.empty()) {
      out += ",\"message\":";
      AppendJsonString(r.message, out);
    }
    out += ",\"warnings\":[";
    for (size_t i = 0; i < r.warnings.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(r.warnings[i], out);
    }
    out += ']';
    if (r.batch) {
      const BatchSummary& b = *r.batch;
      out += ",\"batch\":{\"type\":";
      AppendJsonString(b.type, out);
      out += fmt::format(
          ",\"statements\":{},\"mutations\":{},\"distinct_keys\":{},\"data_size\":{},"
          "\"partitions\":[",
          b.statements, b.mutations, b.distinct_keys, b.data_size);
      for (size_t k = 0; k < b.partitions.size(); ++k) {
        const BatchPartition& p = b.partitions[k];
        if (k) out += ',';
        out += "{\"table\":";
        AppendJsonString(p.table, out);
        out += fmt::format(",\"token\":\"{}\",\"key\":", p.partition.token);
        KeyComponents(p.key_types, p.partition.key, out);
        out += ",\"replicas\":";
        out += JsonArray(p.partition.replicas, [](int n, std::string& o) { o += std::to_string(n); });
        out += ",\"replica_vnodes\":";
        out += JsonArray(p.partition.replica_vnodes,
                         [](size_t v, std::string& o) { o += std::to_string(v); });
        out += '}';
      }
      out += "]}";
    }
    if (r.trace) {
      out += ",\"trace\":";
      TraceObject(*r.trace, out);
    }
    if (r.page_size > 0) out += fmt::format(",\"page_size\":{}", r.page_size);
    if (PageCount(r) > 1) out += ",\"page_ends\":" + PageEnds(r);
    if (r.kind == StatementResult::Kind::kRows) {
      const ResultSet& rs = r.rows;
      out += ",\"columns\":[";
      for (size_t i = 0; i < rs.columns.size(); ++i) {
        if (i) out += ',';
        out += "{\"name\":";
        AppendJsonString(rs.columns[i], out);
        out += ",\"type\":";
        AppendJsonString(rs.types[i].ToCql(), out);
        out += '}';
      }
      out += "],\"rows\":[";
      for (size_t k = 0; k < rs.rows.size(); ++k) {
        if (k) out += ',';
        out += '[';
        for (size_t i = 0; i < rs.rows[k].size(); ++i) {
          if (i) out += ',';
          AppendJson(rs.types[i], rs.rows[k][i], out);
        }
        out += ']';
      }
      out += "],\"cells\":[";
      for (size_t k = 0; k < rs.rows.size(); ++k) {
        if (k) out += ',';
        out += '[';
        for (size_t i = 0; i < rs.rows[k].size(); ++i) {
          if (i) out += ',';
          AppendJsonString(FormatCqlshValue(rs.types[i], rs.rows[k][i]), out);
        }
        out += ']';
      }
      out += "],\"row_partition\":[";
      for (size_t k = 0; k < rs.row_partition.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(rs.row_partition[k]);
      }
      out += "],\"partition_key\":[";
      for (size_t i = 0; i < rs.partition_key_names.size(); ++i) {
        if (i) out += ',';
        AppendJsonString(rs.partition_key_names[i], out);
      }
      out += "],\"partitions\":[";
      for (size_t k = 0; k < rs.partitions.size(); ++k) {
        const ResultPartition& p = rs.partitions[k];
        if (k) out += ',';
        out += fmt::format("{{\"token\":\"{}\",\"key\":", p.token);
        KeyComponents(rs.partition_key_types, p.key, out);
        out += ",\"replicas\":";
        out += JsonArray(p.replicas, [](int n, std::string& o) { o += std::to_string(n); });
        out += ",\"replica_vnodes\":";
        out +=
            JsonArray(p.replica_vnodes, [](size_t v, std::string& o) { o += std::to_string(v); });
        out += '}';
      }
      out += ']';
    }
    out += '}';
  }
  out += "]}";
  return out;
}

std::string RingToJson(const Ring& ring, const KeyspaceSchema* keyspace) {
  std::string out = "{\"nodes\":[";
  std::vector<double> own = ring.Ownership();
  std::vector<double> effective;
  if (keyspace != nullptr) effective = ring.EffectiveOwnership(keyspace->replication);
  for (size_t i = 0; i < ring.nodes().size(); ++i) {
    const Node& n = ring.nodes()[i];
    if (i) out += ',';
    out += "{\"name\":";
    AppendJsonString(n.name, out);
    out += ",\"address\":";
    AppendJsonString(n.address, out);
    out += ",\"datacenter\":";
    AppendJsonString(n.datacenter, out);
    out += ",\"rack\":";
    AppendJsonString(n.rack, out);
    out += ",\"ownership\":";
    AppendJsonNumber(own[i], out);
    if (keyspace != nullptr) {
      out += ",\"effective_ownership\":";
      AppendJsonNumber(effective[i], out);
    }
    out += '}';
  }
  out += "],\"tokens\":[";
  for (size_t i = 0; i < ring.tokens().size(); ++i) {
    if (i) out += ',';
    out += fmt::format("{{\"token\":\"{}\",\"node\":{},\"start\":\"{}\",\"share\":",
                       ring.tokens()[i].token, ring.tokens()[i].node, ring.VnodeStart(i));
    AppendJsonNumber(ring.VnodeShare(i), out);
    out += '}';
  }
  out += ']';
  if (ring.tokens().size() > kRingPictureMaxArcs) {
    out += ",\"owner_buckets\":";
    out += JsonArray(ring.OwnerBuckets(kRingPictureBuckets),
                     [](int n, std::string& o) { o += std::to_string(n); });
  }
  if (keyspace != nullptr) {
    out += ",\"replication\":";
    out += ReplicationFiguresToJson(FigureReplication(ring, keyspace->replication));
  }
  out += fmt::format(",\"num_tokens\":{},\"random_tokens\":{}}}", ring.options().num_tokens,
                     ring.options().random_tokens ? "true" : "false");
  return out;
}

std::string KeyspacesToJson(const std::vector<KeyspaceListing>& keyspaces) {
  std::string out = "[";
  for (size_t k = 0; k < keyspaces.size(); ++k) {
    const KeyspaceListing& ks = keyspaces[k];
    if (k) out += ',';
    out += "{\"name\":";
    AppendJsonString(ks.name, out);
    out += ",\"replication\":{\"class\":";
    AppendJsonString(ks.replication_class, out);
    out += ",\"options\":{";
    for (size_t i = 0; i < ks.replication_options.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(ks.replication_options[i].first, out);
      out += ':';
      AppendJsonString(ks.replication_options[i].second, out);
    }
    out += fmt::format("}}}},\"copies\":{},\"text\":", ks.copies);
    AppendJsonString(ks.cql, out);
    out += ",\"tables\":[";
    for (size_t i = 0; i < ks.tables.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(ks.tables[i], out);
    }
    out += "]}";
  }
  out += ']';
  return out;
}

std::string TableLayoutToJson(const Table& table, const Ring& ring, const KeyspaceSchema& keyspace,
                              const TableLayoutOptions& options) {
  const TableSchema& t = table.schema();
  std::vector<CqlType> key_types;
  for (int c : t.partition_key) key_types.push_back(t.columns[static_cast<size_t>(c)].type);
  struct Load {
    int64_t partitions = 0, rows = 0, bytes = 0, primary_partitions = 0, primary_rows = 0,
            primary_bytes = 0;
  };
  // Sizes first: the Cosmos DB placement's number of physical partitions needs the total.
  std::vector<PartitionSize> sizes;
  sizes.reserve(table.partitions().size());
  int64_t total_bytes = 0;
  int64_t largest = 0;
  for (const auto& [key, p] : table.partitions()) {
    sizes.push_back(table.SizeOf(p));
    total_bytes += sizes.back().bytes;
    largest = std::max(largest, sizes.back().bytes);
  }
  int64_t count = static_cast<int64_t>(sizes.size());
  int64_t scanned = options.scan_partitions < 0 ? count : std::min(count, options.scan_partitions);
  int64_t every = 1;
  if (options.max_partitions >= 0) {
    int64_t cap = std::max<int64_t>(1, options.max_partitions);
    every = std::max<int64_t>(1, (scanned + cap - 1) / cap);
  }
  CassandraApiPlacement cosmos =
      PlanCassandraApi(static_cast<double>(total_bytes), options.ru_per_second);
  std::vector<Load> load(ring.nodes().size());
  std::string parts;
  int64_t index = 0;
  bool first = true;
  for (const auto& [key, p] : table.partitions()) {
    const PartitionSize& size = sizes[static_cast<size_t>(index)];
    std::vector<size_t> vnodes = ring.ReplicaVnodes(key.token, keyspace.replication);
    std::vector<int> replicas;
    for (size_t v : vnodes) replicas.push_back(ring.tokens()[v].node);
    for (size_t i = 0; i < replicas.size(); ++i) {
      Load& l = load[static_cast<size_t>(replicas[i])];
      ++l.partitions;
      l.rows += size.rows;
      l.bytes += size.bytes;
      if (i == 0) {
        ++l.primary_partitions;
        l.primary_rows += size.rows;
        l.primary_bytes += size.bytes;
      }
    }
    int64_t physical = cosmos.Place(key.token, size.rows, size.bytes);
    bool listed = index < scanned && index % every == 0;
    ++index;
    if (!listed) continue;
    if (!first) parts += ',';
    first = false;
    parts += fmt::format("{{\"token\":\"{}\",\"key\":", key.token);
    KeyComponents(key_types, p.key, parts);
    parts += fmt::format(
        ",\"rows\":{},\"cells\":{},\"bytes\":{},\"tombstones\":{},\"physical_partition\":{},"
        "\"replicas\":",
        size.rows, size.cells, size.bytes, size.tombstones, physical);
    parts += JsonArray(replicas, [](int n, std::string& o) { o += std::to_string(n); });
    parts += ",\"replica_vnodes\":";
    parts += JsonArray(vnodes, [](size_t v, std::string& o) { o += std::to_string(v); });
    parts += '}';
  }
  std::string out = "{\"table\":";
  AppendJsonString(t.QualifiedName(), out);
  out += fmt::format(
      ",\"partition_count\":{},\"row_count\":{},\"bytes\":{},\"largest_partition_bytes\":{},"
      "\"partitions_scanned\":{},\"sample_every\":{}",
      count, table.row_count(), total_bytes, largest, scanned, every);
  out += ",\"partitions\":[" + parts + "],\"nodes\":[";
  for (size_t i = 0; i < load.size(); ++i) {
    if (i) out += ',';
    const Load& l = load[i];
    out += fmt::format(
        "{{\"partitions\":{},\"rows\":{},\"bytes\":{},\"primary_partitions\":{},"
        "\"primary_rows\":{},\"primary_bytes\":{}}}",
        l.partitions, l.rows, l.bytes, l.primary_partitions, l.primary_rows, l.primary_bytes);
  }
  out += fmt::format(
      "],\"cosmos\":{{\"replicas\":{},\"quorum\":{},\"physical_partition_bytes\":{},"
      "\"logical_partition_bytes\":{},\"largest_partition_over_limit\":{},"
      "\"ru_per_second\":{},\"ru_per_physical_partition\":{},"
      "\"initial_ru_per_physical_partition\":{},\"for_storage\":{},"
      "\"for_throughput\":{},\"physical_partitions\":{},\"ranges\":[",
      CosmosCassandraApi::kReplicas, CosmosCassandraApi::kQuorum,
      static_cast<int64_t>(CosmosCassandraApi::kPhysicalPartitionBytes),
      static_cast<int64_t>(CosmosCassandraApi::kLogicalPartitionBytes),
      static_cast<double>(largest) > CosmosCassandraApi::kLogicalPartitionBytes ? "true" : "false",
      cosmos.ru_per_second, CosmosCassandraApi::kRequestUnitsPerPhysicalPartition,
      CosmosCassandraApi::kInitialRequestUnitsPerPhysicalPartition, cosmos.for_storage, cosmos.for_throughput, cosmos.physical_partitions);
  for (size_t i = 0; i < cosmos.ranges.size(); ++i) {
    const CassandraApiRange& r = cosmos.ranges[i];
    if (i) out += ',';
    out += fmt::format(
        "{{\"id\":{},\"min\":\"{}\",\"max\":\"{}\",\"partitions\":{},\"rows\":{},\"bytes\":{}}}",
        r.id, r.min_token, r.max_token, r.partitions, r.rows, r.bytes);
  }
  out += "]}}";
  return out;
}

}  // namespace partplay::cql
