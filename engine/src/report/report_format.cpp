#include "partplay/report/report_format.h"

#include <fmt/format.h>

#include <cstring>

#include "partplay/core/json_writer.h"
#include "partplay/report/insights.h"
#include "partplay/report/judgements.h"

namespace partplay {
namespace {

using JsonOut = JsonMembers;

void Location(JsonOut& o, const SourceLocation& w) {
  o.Int("byte_offset", w.byte_offset);
  o.Int("line", w.line);
  o.Int("column", w.column);
}

// Appends the partition's JSON object to s.
void AppendPartition(const LogicalPartition& p, bool detail, std::string& s) {
  s.push_back('{');
  JsonOut o{s};
  o.Key("key");
  p.key.AppendJson(s);
  o.UInt("items", p.items);
  o.UInt("bytes", p.bytes);
  if (!p.epk.empty()) o.Str("epk", p.epk);
  if (detail) {
    o.UInt("largest_item_bytes", p.largest_item_bytes);
    o.Int("largest_item_index", p.largest_item_index);
  }
  s.push_back('}');
}

std::string Partition(const LogicalPartition& p, bool detail) {
  std::string s;
  AppendPartition(p, detail, s);
  return s;
}

std::string HumanBytes(double b) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} {}", b, kUnits[u]) : fmt::format("{:.1f} {}", b, kUnits[u]);
}

}  // namespace

void AppendPartitionJson(const LogicalPartition& p, std::string& out) {
  // A listing of a million uuid-keyed partitions spent about 180 ns on each the general way.
  if (!internal::AppendPlainPartitionJson(p, out)) AppendPartition(p, true, out);
}

namespace internal {

void AppendPartitionJsonGeneral(const LogicalPartition& p, std::string& out) {
  AppendPartition(p, true, out);
}

bool AppendPlainPartitionJson(const LogicalPartition& p, std::string& out) {
  constexpr size_t kMaxText = 256;
  if (p.key.components.size() != 1 || p.key.components[0].kind != KeyKind::kString) return false;
  const std::string& text = p.key.components[0].text;
  if (text.size() > kMaxText || p.epk.size() > kMaxText) return false;
  auto plain = [](std::string_view v) {
    for (char ch : v) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
    }
    return true;
  };
  if (!plain(text) || !plain(p.epk)) return false;
  char buf[2 * kMaxText + 200];
  char* w = buf;
  auto put = [&w](std::string_view v) {
    std::memcpy(w, v.data(), v.size());
    w += v.size();
  };
  auto number = [&w](uint64_t v) {
    char digits[20];
    const char* from = FormatJsonUIntBackwards(v, digits + sizeof digits);
    const size_t n = static_cast<size_t>(digits + sizeof digits - from);
    std::memcpy(w, from, n);
    w += n;
  };
  put("{\"key\":[\"");
  put(text);
  put("\"],\"items\":");
  number(p.items);
  put(",\"bytes\":");
  number(p.bytes);
  if (!p.epk.empty()) {
    put(",\"epk\":\"");
    put(p.epk);
    put("\"");
  }
  put(",\"largest_item_bytes\":");
  number(p.largest_item_bytes);
  put(",\"largest_item_index\":");
  if (p.largest_item_index < 0) {
    put("-");
    number(uint64_t{0} - static_cast<uint64_t>(p.largest_item_index));
  } else {
    number(static_cast<uint64_t>(p.largest_item_index));
  }
  put("}");
  out.append(buf, static_cast<size_t>(w - buf));
  return true;
}

}  // namespace internal

std::string ReportToJson(const AnalysisReport& r, std::string_view extra_fields,
                         std::string* tail) {
  std::string s = "{";
  JsonOut o{s};
  o.Str("schema", "partplay.analysis/1");
  o.Str("format", r.format);
  o.Raw("key_paths", JsonArray(r.key_paths, [](const std::string& path, std::string& paths) {
          AppendJsonString(path, paths);
        }));
  o.UInt("items", r.items);
  o.UInt("bytes", r.bytes);
  o.UInt("input_bytes", r.input_bytes);
  o.UInt("partition_count", r.partition_count);
  o.Raw("largest_partition", r.has_largest ? Partition(r.largest, false) : "null");
  o.Num("mean_partition_bytes", r.mean_partition_bytes);
  {
    std::string t = "{";
    JsonOut q{t};
    q.UInt("partitions", r.top1_partitions);
    q.UInt("bytes", r.top1_bytes);
    q.Num("share", r.top1_share);
    t.push_back('}');
    o.Raw("top1_percent", t);
  }
  o.Num("gini", r.gini);
  o.Raw("spread", SpreadJson(r.gini, r.partition_count));  // report/judgements.h
  o.Raw("levels", SummaryLevelsJson(r));
  o.UInt("undefined_key_items", r.undefined_key_items);
  {
    std::string t = "{";
    JsonOut q{t};
    q.UInt("items", r.invalid_key_items);
    q.UInt("bytes", r.invalid_key_bytes);
    q.Raw("examples", ItemFindingsToJson(r.invalid_key_examples, "type"));
    t.push_back('}');
    o.Raw("invalid_key", t);
  }
  {
    std::string t = "{";
    JsonOut q{t};
    q.UInt("limit_bytes", kCosmosItemBytes);
    q.UInt("count", r.oversized_items);
    q.Raw("examples", ItemFindingsToJson(r.oversized_examples, ""));
    t.push_back('}');
    o.Raw("oversized_items", t);
  }
  auto item_list = [&](const char* name, uint64_t count, const std::vector<ItemFinding>& list,
                       const char* type_name) {
    std::string t = "{";
    JsonOut q{t};
    q.UInt("count", count);
    // Each example also names what was found ("missing", the id, the literal) under type_name.
    q.Raw("examples", ItemFindingsToJson(list, type_name));
    t.push_back('}');
    o.Raw(name, t);
  };
  item_list("missing_id", r.missing_id_items, r.missing_id_examples, "found");
  item_list("duplicate_id", r.duplicate_id_items, r.duplicate_id_examples, "id");
  item_list("imprecise_number_key", r.imprecise_number_items, r.imprecise_number_examples,
            "literal");
  o.UInt("weight_missing_items", r.weight_missing_items);
  std::string partitions = JsonArray(r.partitions, [](const LogicalPartition& p, std::string& out) {
    AppendPartition(p, true, out);
  });
  if (tail) partitions.pop_back();  // the caller writes more partitions, then the tail's "]"
  o.Raw("partitions", partitions);
  size_t split = s.size();
  if (tail) s.push_back(']');
  o.UInt("partitions_omitted", r.partitions_omitted);
  {
    std::string t = "{";
    JsonOut q{t};
    q.UInt("sampled_items", r.sampled_items);
    q.Raw("paths", JsonArray(r.candidate_paths, [&](const CandidatePath& c, std::string& list) {
      list.push_back('{');
      JsonOut p{list};
      p.Str("path", c.path);
      p.UInt("items", c.items);
      p.UInt("distinct", c.distinct);
      p.Bool("distinct_capped", c.distinct_capped);
      std::string types = "{";
      JsonOut ty{types};
      ty.UInt("string", c.strings);
      ty.UInt("number", c.numbers);
      ty.UInt("boolean", c.booleans);
      ty.UInt("null", c.nulls);
      types.push_back('}');
      p.Raw("types", types);
      list.push_back('}');
    }));
    t.push_back('}');
    o.Raw("candidate_paths", t);
  }
  o.Raw("insights", InsightsToJson(JudgeReport(r)));
  if (!extra_fields.empty()) {
    s.push_back(',');
    s += extra_fields;
  }
  s += "}\n";
  if (tail) {
    *tail = s.substr(split);
    s.resize(split);
  }
  return s;
}

std::string ReportToTable(const AnalysisReport& r, size_t max_rows) {
  std::string s;
  auto line = [&](std::string_view label, const std::string& value) {
    s += fmt::format("{:<28}{}\n", label, value);
  };
  std::string paths;
  for (const auto& p : r.key_paths) paths += (paths.empty() ? "" : ", ") + p;
  line("partition key", paths);
  line("format", r.format);
  line("items", fmt::format("{}", r.items));
  line("bytes", fmt::format("{} ({})", r.bytes, HumanBytes(double(r.bytes))));
  line("logical partitions", fmt::format("{}", r.partition_count));
  if (r.has_largest) {
    line("largest partition", fmt::format("{} {} ({} items)", r.largest.key.ToJson(),
                                          HumanBytes(double(r.largest.bytes)), r.largest.items));
  }
  line("mean partition", HumanBytes(r.mean_partition_bytes));
  line("top 1% of partitions hold",
       fmt::format("{:.1f}% ({} partitions)", r.top1_share * 100, r.top1_partitions));
  line("skew (Gini)", fmt::format("{:.3f}", r.gini));
  line("items without the key", fmt::format("{}", r.undefined_key_items));
  line("items with an invalid key", fmt::format("{}", r.invalid_key_items));
  line("items over 2 MB", fmt::format("{}", r.oversized_items));
  s += "\n";
  s += fmt::format("{:>12} {:>14} {:>14}  {}\n", "items", "bytes", "largest item", "key");
  size_t n = std::min(max_rows, r.partitions.size());
  for (size_t i = 0; i < n; ++i) {
    const auto& p = r.partitions[i];
    s += fmt::format("{:>12} {:>14} {:>14}  {}\n", p.items, p.bytes, p.largest_item_bytes,
                     p.key.ToJson());
  }
  if (uint64_t more = r.partitions.size() - n + r.partitions_omitted; more > 0) {
    s += fmt::format("... and {} more partitions (use --format json for all)\n", more);
  }
  return s;
}

std::string ItemFindingsToJson(const std::vector<ItemFinding>& list, std::string_view type_field) {
  return JsonArray(list, [&](const ItemFinding& f, std::string& s) {
    s.push_back('{');
    JsonOut o{s};
    o.Int("item_index", f.item_index);
    o.UInt("bytes", f.bytes);
    Location(o, f.where);
    if (!type_field.empty()) o.Str(type_field, f.type);
    s.push_back('}');
  });
}

std::string StatusToJson(const Status& status) {
  std::string s = "{\"error\":{";
  JsonOut o{s};
  o.Int("code", static_cast<int>(status.code()));
  o.Str("name", ErrorCodeName(status.code()));
  o.Str("message", status.message());
  const SourceLocation& w = status.where();
  if (w.byte_offset >= 0) o.Int("byte_offset", w.byte_offset);
  if (w.line > 0) {
    o.Int("line", w.line);
    o.Int("column", w.column);
  }
  if (w.item_index >= 0) o.Int("item_index", w.item_index);
  s += "}}\n";
  return s;
}

}  // namespace partplay
