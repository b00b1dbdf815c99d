#include "partplay/cassandra/guardrails.h"

#include <fmt/format.h>

#include "partplay/core/numbers.h"

namespace partplay::cql {
namespace {

struct Spec {
  std::string_view name;
  bool size;                // a DataStorageSpec (bytes) rather than a count
  std::string_view reason;  // appended to the message, or empty
};

constexpr std::array<Spec, 5> kSpecs = {{
    {"items_per_collection", false, ""},
    {"partition_keys_in_select", false, ""},
    {"page_size", false, ""},
    {"partition_size", true, "Too large partitions can cause performance problems."},
    {"partition_tombstones", false,
     "Partitions with too many tombstones can cause performance problems."},
}};

// The message of each guardrail (Guardrails.java), for a warning or a failure.
std::string Message(Guardrail g, bool warning, std::string_view what, int64_t value,
                    int64_t threshold) {
  switch (g) {
    case Guardrail::kItemsPerCollection:
      return fmt::format("Detected collection {} with {} items, this exceeds the {} threshold of {}.",
                         what, value, warning ? "warning" : "failure", threshold);
    case Guardrail::kPartitionKeysInSelect:
      return warning ? fmt::format("Query with partition keys in IN clause on table {}, with "
                                   "number of partition keys {} exceeds warning threshold of {}.",
                                   what, value, threshold)
                     : fmt::format("Aborting query with partition keys in IN clause on table {}, "
                                   "number of partition keys {} exceeds fail threshold of {}.",
                                   what, value, threshold);
    case Guardrail::kPageSize:
      return warning ? fmt::format("Query for table {} with page size {} exceeds warning threshold "
                                   "of {}.",
                                   what, value, threshold)
                     : fmt::format("Aborting query for table {}, page size {} exceeds fail "
                                   "threshold of {}.",
                                   what, value, threshold);
    case Guardrail::kPartitionSize:
      return fmt::format("Partition {} has size {}, this exceeds the {} threshold of {}.", what,
                         value, warning ? "warning" : "failure", threshold);
    case Guardrail::kPartitionTombstones:
      return fmt::format("Partition {} has {} tombstones, this exceeds the {} threshold of {}.",
                         what, value, warning ? "warning" : "failure", threshold);
  }
  return "";
}

// Guardrail.decorateMessage.
std::string Decorate(Guardrail g, const std::string& message) {
  const Spec& spec = kSpecs[static_cast<size_t>(g)];
  std::string out = fmt::format("Guardrail {} violated: {}", spec.name, message);
  if (!spec.reason.empty()) out += std::string(message.back() == '.' ? " " : ". ") += spec.reason;
  return out;
}

// A DataStorageSpec: a number and a unit (B, KiB, MiB, GiB; bytes without one).
bool ParseSize(std::string_view text, int64_t& bytes) {
  static constexpr std::pair<std::string_view, int64_t> kUnits[] = {
      {"GiB", int64_t{1} << 30}, {"MiB", int64_t{1} << 20}, {"KiB", int64_t{1} << 10}, {"B", 1}};
  int64_t scale = 1;
  for (const auto& [unit, factor] : kUnits) {
    if (text.size() > unit.size() && text.substr(text.size() - unit.size()) == unit) {
      text.remove_suffix(unit.size());
      scale = factor;
      break;
    }
  }
  int64_t n = 0;
  if (!ParseInt64(text, n) || n < 0 || n > INT64_MAX / scale) return false;
  bytes = n * scale;
  return true;
}

}  // namespace

Status SetGuardrail(Guardrails& guardrails, std::string_view name, std::string_view value,
                    const SourceLocation& where) {
  auto bad = [&](std::string message) {
    return Status(ErrorCode::kBadOption, std::move(message), where);
  };
  for (size_t i = 0; i < kSpecs.size(); ++i) {
    const Spec& spec = kSpecs[i];
    bool warn = name == std::string(spec.name) + "_warn_threshold";
    bool fail = name == std::string(spec.name) + "_fail_threshold";
    if (!warn && !fail) continue;
    int64_t n = 0;
    if (value == "-1") {
      n = -1;
    } else if (spec.size ? !ParseSize(value, n) : !ParseInt64(value, n)) {
      return bad(fmt::format("Invalid value {} for {}: {}", value, name,
                             spec.size ? "a size (bytes, or a number with B, KiB, MiB or GiB)"
                                       : "a whole number"));
    }
    // GuardrailsOptions.validatePositiveNumeric and validateWarnLowerThanFail.
    if (n == 0) {
      return bad(fmt::format("Invalid value for {}: 0 is not allowed; if attempting to disable "
                             "use -1",
                             name));
    }
    if (n < -1) {
      return bad(fmt::format("Invalid value {} for {}: negative values are not allowed, outside "
                             "of -1 which disables the guardrail",
                             n, name));
    }
    if (!spec.size && n > INT32_MAX) {
      return bad(fmt::format("Invalid value {} for {}: maximum allowed value is {}", n, name,
                             INT32_MAX));
    }
    GuardrailThresholds next = guardrails.thresholds[i];
    (warn ? next.warn : next.fail) = n;
    if (next.warn > 0 && next.fail > 0 && next.fail < next.warn) {
      return bad(fmt::format("The warn threshold {} for {}_warn_threshold should be lower than the "
                             "fail threshold {}",
                             next.warn, spec.name, next.fail));
    }
    guardrails.thresholds[i] = next;
    return Status::Ok();
  }
  return bad(fmt::format("Unknown guardrail {}: one of items_per_collection, "
                         "partition_keys_in_select, page_size, partition_size and "
                         "partition_tombstones, with _warn_threshold or _fail_threshold",
                         name));
}

std::string DescribeGuardrails(const Guardrails& guardrails) {
  std::string out;
  for (size_t i = 0; i < kSpecs.size(); ++i) {
    const GuardrailThresholds& t = guardrails.thresholds[i];
    out += fmt::format("{}{}_warn_threshold: {}\n{}_fail_threshold: {}", i ? "\n" : "",
                       kSpecs[i].name, t.warn, kSpecs[i].name, t.fail);
  }
  return out;
}

Status Guard(const Guardrails& guardrails, Guardrail g, int64_t value, std::string_view what,
             std::vector<std::string>& warnings, const SourceLocation& where) {
  const GuardrailThresholds& t = guardrails.of(g);
  if (t.fail > 0 && value > t.fail) {
    std::string message = Decorate(g, Message(g, false, what, value, t.fail));
    if (g == Guardrail::kPartitionSize || g == Guardrail::kPartitionTombstones) {
      // found writing an sstable: logged, never refused
      warnings.push_back(std::move(message));
      return Status::Ok();
    }
    return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
  }
  if (t.warn > 0 && value > t.warn) warnings.push_back(Decorate(g, Message(g, true, what, value, t.warn)));
  return Status::Ok();
}

}  // namespace partplay::cql
