// cqlsh's own commands (CONSISTENCY, SERIAL CONSISTENCY, TRACING, PAGING) with cqlsh 4.1's
// replies (bin/cqlsh.py: do_consistency, do_serial, SwitchCommand), and what the console's level
// asks of the ring for each statement: Cassandra's checks of the level, and the trace.
#include <fmt/format.h>

#include "cassandra/datetime.h"
#include "cassandra/session_results.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/numbers.h"

namespace partplay::cql {

using internal::Failed;

namespace {

StatementResult Reply(StatementResult r, std::string message) {
  r.kind = StatementResult::Kind::kShell;
  r.message = std::move(message);
  return r;
}

Status Improper(std::string_view command, const SourceLocation& where) {
  return Status(ErrorCode::kCqlSyntax, fmt::format("Improper {} command.", command), where);
}

// cqlsh's SwitchCommand: ON / OFF / nothing, with its replies; `state` changes on success.
std::string Switch(std::string_view command, std::string_view description,
                   const std::string& argument, bool& state) {
  if (argument.empty()) {
    return state ? fmt::format("{} is currently enabled. Use {} OFF to disable", description,
                               command)
                 : fmt::format("{} is currently disabled. Use {} ON to enable.", description,
                               command);
  }
  if (argument == "ON") {
    if (state) {
      return fmt::format("{} is already enabled. Use {} OFF to disable.", description, command);
    }
    state = true;
    return fmt::format("Now {} is enabled", description);
  }
  if (!state) return fmt::format("{} is not enabled.", description);
  state = false;
  return fmt::format("Disabled {}.", description);
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace

StatementResult Session::RunShellCommand(const ShellCommand& c, StatementResult result) {
  switch (c.kind) {
    case ShellCommand::Kind::kConsistency: {
      if (c.argument.empty()) {
        return Reply(std::move(result), fmt::format("Current consistency level is {}.",
                                                    ConsistencyName(consistency_)));
      }
      std::optional<Consistency> level = ParseConsistency(c.argument);
      if (!level) return Failed(std::move(result), Improper("CONSISTENCY", c.argument_where));
      consistency_ = *level;
      return Reply(std::move(result), fmt::format("Consistency level set to {}.", c.argument));
    }
    case ShellCommand::Kind::kSerialConsistency: {
      if (c.argument.empty()) {
        return Reply(std::move(result), fmt::format("Current serial consistency level is {}.",
                                                    ConsistencyName(serial_consistency_)));
      }
      std::optional<Consistency> level = ParseConsistency(c.argument);
      if (!level || (*level != Consistency::kSerial && *level != Consistency::kLocalSerial)) {
        return Failed(std::move(result), Improper("SERIAL", c.argument_where));
      }
      serial_consistency_ = *level;
      return Reply(std::move(result),
                   fmt::format("Serial consistency level set to {}.", c.argument));
    }
    case ShellCommand::Kind::kTracing: {
      if (!c.argument.empty() && c.argument != "ON" && c.argument != "OFF") {
        return Failed(std::move(result), Improper("TRACING", c.argument_where));
      }
      return Reply(std::move(result), Switch("TRACING", "Tracing", c.argument, tracing_));
    }
    case ShellCommand::Kind::kAdvanceClock: {
      StatusOr<Bytes> bytes = ValueFromString(CqlType::Native(TypeKind::kDuration), c.value,
                                              c.value_where);
      Duration d;
      if (!bytes.ok() || !DecodeDuration(bytes.value(), d)) {
        return Failed(std::move(result),
                      Status(ErrorCode::kCqlSyntax,
                             "ADVANCE CLOCK takes a duration: 30s, 2h, 1d, 1h30m, 500ms",
                             c.value_where));
      }
      if (d.months != 0 || d.days < 0 || d.nanos < 0 || (d.days == 0 && d.nanos == 0)) {
        return Failed(std::move(result),
                      Status(ErrorCode::kBadOption,
                             "ADVANCE CLOCK moves the clock forward by days and smaller units (a "
                             "month has no fixed length)",
                             c.value_where));
      }
      if (d.days > 36500 || d.nanos / 86400000000000LL > 36500) {
        return Failed(std::move(result),
                      Status(ErrorCode::kBadOption,
                             "ADVANCE CLOCK moves the clock at most 100 years (36500 days) at a "
                             "time",
                             c.value_where));
      }
      int64_t micros = static_cast<int64_t>(d.days) * 86400000000LL + d.nanos / 1000;
      generator_.AdvanceClock(micros);
      // Expiring cells whose time has come become tombstones, everywhere.
      const int64_t now = generator_.NowSeconds();
      for (auto& [name, ks] : keyspaces_) {
        for (auto& [table_name, table] : ks.tables) table->Expire(now);
      }
      return Reply(std::move(result),
                   fmt::format("Clock advanced by {} to {}.", FormatDuration(d),
                               internal::FormatTimestampJson(generator_.ClockMicros() / 1000)));
    }
    case ShellCommand::Kind::kGuardrail: {
      if (c.argument.empty()) return Reply(std::move(result), DescribeGuardrails(guardrails_));
      if (c.value.empty()) {
        const std::string all = DescribeGuardrails(guardrails_);
        for (std::string_view line : Lines(all)) {
          if (line.substr(0, c.argument.size() + 1) == c.argument + ":") {
            return Reply(std::move(result), std::string(line));
          }
        }
        return Failed(std::move(result),
                      Status(ErrorCode::kBadOption, "Unknown guardrail " + c.argument,
                             c.argument_where));
      }
      Status set = SetGuardrail(guardrails_, c.argument, c.value, c.value_where);
      if (!set.ok()) return Failed(std::move(result), set);
      return Reply(std::move(result), fmt::format("{}: {}", c.argument, c.value));
    }
    case ShellCommand::Kind::kPaging: {
      std::string reply;
      if (c.argument.empty() || c.argument == "ON" || c.argument == "OFF") {
        reply = Switch("PAGING", "Query paging", c.argument, paging_);
      } else {
        // A page size turns paging on (SwitchCommandWithValue).
        int64_t n = 0;
        if (!ParseInt64(c.argument, n) || n > INT32_MAX) {
          return Failed(std::move(result), Improper("PAGING", c.argument_where));
        }
        paging_ = true;
        page_size_ = static_cast<int32_t>(n);
      }
      if (paging_) {
        reply += (reply.empty() ? "" : "\n") + fmt::format("Page size: {}", page_size_);
      } else {
        page_size_ = options_.page_size > 0 ? options_.page_size : 100;  // cqlsh's default
      }
      return Reply(std::move(result), std::move(reply));
    }
  }
  return result;
}

Status Session::CheckLevel(Access access, const KeyspaceSchema& keyspace, std::string_view table,
                           const SourceLocation& where) const {
  PARTPLAY_RETURN_IF_ERROR(
      CheckConsistency(consistency_, access, ring_, keyspace.replication, table, where));
  if (access == Access::kConditionalWrite) {
    // The Paxos rounds run at the serial level (StorageProxy.cas).
    return CheckAvailable(serial_consistency_, ring_, keyspace.replication, where);
  }
  return Status::Ok();
}

void Session::TraceAccess(StatementResult& result, Access access, const KeyspaceSchema& keyspace,
                          const std::vector<int64_t>& tokens, bool scan) const {
  if (!tracing_) return;
  StatementTrace t;
  t.consistency = std::string(ConsistencyName(consistency_));
  if (access == Access::kConditionalWrite) {
    t.serial_consistency = std::string(ConsistencyName(serial_consistency_));
  }
  t.write = access != Access::kRead;
  t.scan = scan;
  const int required = BlockFor(consistency_, keyspace.replication, LocalDatacenter(ring_));
  if (scan) {
    // A range scan reads every token range, so every node that holds one.
    TraceStep step;
    for (size_t n = 0; n < ring_.nodes().size(); ++n) step.replicas.push_back(static_cast<int>(n));
    step.required = required;
    t.steps.push_back(std::move(step));
  }
  for (int64_t token : tokens) {
    if (scan) break;
    TraceStep step;
    step.token = token;
    step.replicas = ContactedReplicas(consistency_, access, ring_,
                                      ring_.Replicas(token, keyspace.replication),
                                      keyspace.replication);
    step.required = required;
    t.steps.push_back(std::move(step));
  }
  result.trace = std::move(t);
}

}  // namespace partplay::cql
