#include "partplay/report/insights.h"

#include <fmt/format.h>

#include <cmath>

#include "core/message_format.h"
#include "partplay/core/defaults.h"
#include "partplay/core/json_writer.h"
#include "partplay/core/limits.h"

namespace partplay {
namespace {

using internal::FormatPercent;
using internal::FormatSize;
using internal::GroupThousands;
using internal::OneDecimal;

std::string Plural(uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", GroupThousands(n), n == 1 ? one : many);
}

// " First: line 3, column 1, item #2." for the first example, if any.
std::string FirstAt(const std::vector<ItemFinding>& examples, bool with_bytes) {
  if (examples.empty()) return "";
  const ItemFinding& f = examples.front();
  std::string where;
  auto add = [&](std::string part) { where += (where.empty() ? "" : ", ") + part; };
  if (f.where.line > 0) add(fmt::format("line {}", GroupThousands(uint64_t(f.where.line))));
  if (f.where.column > 0) add(fmt::format("column {}", GroupThousands(uint64_t(f.where.column))));
  if (f.item_index >= 0) add(fmt::format("item #{}", GroupThousands(uint64_t(f.item_index))));
  if (with_bytes) return fmt::format(" First: {} ({}).", where, FormatSize(double(f.bytes)));
  return fmt::format(" First: {}.", where);
}

std::string Paths(const AnalysisReport& r) {
  std::string out;
  for (const std::string& p : r.key_paths) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

std::vector<Insight> JudgeReport(const AnalysisReport& r) {
  std::vector<Insight> out;
  auto add = [&](std::string code, std::string level, std::string message,
                 std::vector<PartitionKey> keys = {}) {
    out.push_back({std::move(code), std::move(level), std::move(message), std::move(keys)});
  };
  const std::string paths = Paths(r);
  const double partitioned = double(r.bytes) - double(r.invalid_key_bytes);

  if (r.items == 0) add("no_items", "warn", "The input holds no items.");
  if (r.items > 0 && r.undefined_key_items == r.items) {
    add("all_undefined", "bad",
        fmt::format("No item has a value at {}: everything lands in the undefined partition. "
                    "Pick a key from the candidate paths above.",
                    paths));
  } else if (r.undefined_key_items > 0) {
    add("some_undefined", "warn",
        fmt::format("{} ({}) have no value at {}. Cosmos DB accepts them, but they all share one "
                    "partition: {{0}}.",
                    Plural(r.undefined_key_items, "item", "items"),
                    FormatPercent(double(r.undefined_key_items) / double(r.items)), paths),
        {PartitionKey{{KeyComponent::Undefined()}}});
  }
  if (r.partition_count == 1 && r.items > 1 && r.undefined_key_items != r.items) {
    add("one_partition", "bad",
        fmt::format("All {} items share one logical partition: this key does not spread the data "
                    "at all.",
                    GroupThousands(r.items - r.invalid_key_items)));
  }
  if (r.has_largest && r.partition_count > 1 && partitioned > 0) {
    const double share = double(r.largest.bytes) / partitioned;
    add("largest_share", share > 0.2 && r.partition_count > 5 ? "warn" : "",
        fmt::format("The largest partition, {{0}}, holds {} of the data ({}, {}).",
                    FormatPercent(share), Plural(r.largest.items, "item", "items"),
                    FormatSize(double(r.largest.bytes))),
        {r.largest.key});
  }
  if (r.has_largest && r.largest.bytes > 0) {
    const double room = kCosmosLogicalPartitionBytes / double(r.largest.bytes);
    const std::string limit = LimitBytesText(kCosmosLogicalPartitionBytes);
    if (room < 1) {
      add("largest_over_limit", "bad",
          fmt::format("The largest partition is over the {} limit of a logical partition ({}).",
                      limit, FormatSize(double(r.largest.bytes))));
    } else {
      add("largest_vs_limit", room < 4 ? "warn" : "",
          fmt::format(
              "The largest partition uses {} of the {} limit: it could grow about {}x "
              "before reaching it.",
              room > 1000 ? std::string("under 0.1%") : FormatPercent(1 / room), limit,
              room >= 100 ? GroupThousands(uint64_t(std::llround(room))) : OneDecimal(room)));
    }
  }
  if (r.key_paths.size() == 1) {
    for (const CandidatePath& c : r.candidate_paths) {
      if (c.path != r.key_paths[0]) continue;
      std::vector<std::string> kinds;
      if (c.strings) kinds.push_back("string");
      if (c.numbers) kinds.push_back("number");
      if (c.booleans) kinds.push_back("boolean");
      if (c.nulls) kinds.push_back("null");
      if (kinds.size() > 1) {
        std::string list;
        for (const std::string& k : kinds) list += (list.empty() ? "" : ", ") + k;
        add("mixed_types", "warn",
            fmt::format("{} holds values of several types ({}). Types matter: {{0}} and {{1}} are "
                        "different partitions.",
                        paths, list),
            {PartitionKey{{KeyComponent::String("5")}}, PartitionKey{{KeyComponent::Number(5)}}});
      }
    }
  }
  if (r.partition_count > 1 && r.partition_count < 10 && r.items >= 100) {
    add("few_values", "warn",
        fmt::format("Only {} distinct key values: the data can never spread over more than {} "
                    "logical partitions, however much it grows.",
                    GroupThousands(r.partition_count), GroupThousands(r.partition_count)));
  }
  if (r.invalid_key_items > 0) {
    add("invalid_key", "bad",
        fmt::format("{} an object or array at {}; Cosmos DB would reject {}.{}",
                    Plural(r.invalid_key_items, "item has", "items have"), paths,
                    r.invalid_key_items == 1 ? "it" : "them",
                    FirstAt(r.invalid_key_examples, false)));
  }
  if (r.oversized_items > 0) {
    add("oversized_items", "bad",
        fmt::format("{} larger than {}, the Cosmos DB item limit.{}",
                    Plural(r.oversized_items, "item is", "items are"),
                    LimitBytesText(kCosmosItemBytes), FirstAt(r.oversized_examples, true)));
  }
  if (r.partition_count >= 100 && r.gini < kSpreadEvenMaxGini &&
      !(double(r.undefined_key_items) > double(r.items) * 0.05)) {
    add("even_spread", "good",
        fmt::format("Sizes are fairly even across {} partitions (Gini {:.2f}): a good spread.",
                    GroupThousands(r.partition_count), r.gini));
  }
  return out;
}

std::string InsightsToJson(const std::vector<Insight>& insights) {
  return JsonArray(insights, [](const Insight& i, std::string& s) {
    s += '{';
    JsonMembers o{s};
    o.Str("code", i.code);
    o.Str("level", i.level);
    o.Str("message", i.message);
    o.Raw("keys",
          JsonArray(i.keys, [](const PartitionKey& k, std::string& t) { t += k.ToJson(); }));
    s += '}';
  });
}

}  // namespace partplay
