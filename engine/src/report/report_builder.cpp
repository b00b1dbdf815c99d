#include "partplay/report/report_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>

#include "partplay/core/json_writer.h"
#include "partplay/cosmos/key_advisor.h"
#include "partplay/report/judgements.h"
#include "partplay/report/options_json.h"
#include "partplay/report/report_format.h"

namespace partplay {

std::string RuNeededToJson(const RuNeeded& r) {
  std::string s = "{";
  JsonMembers o{s};
  o.Bool("judged", r.judged);
  o.Bool("possible", r.possible);
  o.Str("reason", r.reason);
  o.Num("hottest_logical_ru", r.hottest_logical_ru);
  auto ru = [&](const char* name, double v) {
    if (v > 0) {
      o.Num(name, v);
    } else {
      o.Raw(name, "null");
    }
  };
  ru("manual_ru_per_second", r.manual_ru_per_second);
  o.Int("manual_partitions", r.manual_partitions);
  ru("manual_rescaled_ru_per_second", r.manual_rescaled_ru_per_second);
  ru("manual_rescaled_created_ru_per_second", r.manual_rescaled_created_ru_per_second);
  o.Int("manual_rescaled_partitions", r.manual_rescaled_partitions);
  ru("autoscale_max_ru_per_second", r.autoscale_max_ru_per_second);
  o.Int("autoscale_partitions", r.autoscale_partitions);
  s.push_back('}');
  return s;
}

namespace {

std::string KeysJson(const std::vector<PartitionKey>& keys) {
  return JsonArray(keys, [](const PartitionKey& k, std::string& s) { s += k.ToJson(); });
}

std::string StringsJson(const std::vector<std::string>& list) {
  return JsonArray(list, [](const std::string& v, std::string& s) { AppendJsonString(v, s); });
}

std::string PlacedJson(const PlacedPartition& p) {
  std::string s = "{";
  JsonMembers o{s};
  o.Raw("key", p.key.ToJson());
  o.Str("epk", p.epk);
  o.UInt("items", p.items);
  o.Num("bytes", p.bytes);
  o.Num("demand_ru", p.demand_ru);
  o.Bool("hot", p.hot);
  s.push_back('}');
  return s;
}

std::string PlacedListJson(const std::vector<PlacedPartition>& list) {
  return JsonArray(list, [](const PlacedPartition& p, std::string& s) { s += PlacedJson(p); });
}

std::string ChangeJson(const ThroughputChange& c) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("from_ru_per_second", c.from_ru_per_second);
  o.Num("to_ru_per_second", c.to_ru_per_second);
  o.Int("partitions_before", c.partitions_before);
  o.Num("instant_maximum_ru_per_second", c.instant_maximum_ru_per_second);
  o.Str("kind", c.kind);
  o.Int("partitions_after", c.partitions_after);
  o.Int("splits", c.splits);
  o.Bool("uneven", c.uneven);
  if (c.kind == "splits" && c.even_split_ru_per_second > 0) {
    o.Num("even_split_ru_per_second", c.even_split_ru_per_second);
  } else {
    o.Raw("even_split_ru_per_second", "null");
  }
  s.push_back('}');
  return s;
}

std::string LayoutJson(const LayoutView& v) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("throughput_mode", v.throughput_mode);
  o.Num("ru_per_second", v.ru_per_second);
  o.Num("created_ru_per_second", v.created_ru_per_second);
  o.Int("partitions_at_creation", v.partitions_at_creation);
  o.Num("instant_maximum_ru_per_second", v.instant_maximum_ru_per_second);
  o.Raw("change", ChangeJson(v.change));
  o.Num("minimum_ru_per_second", v.minimum_ru_per_second);
  o.Str("minimum_rule", v.minimum_rule);
  o.Num("highest_ru_per_second", v.highest_ru_per_second);
  o.Num("storage_bytes", v.storage_bytes);
  o.Int("partitions_for_throughput", v.partitions_for_throughput);
  o.Int("partitions_for_storage", v.partitions_for_storage);
  o.Int("partitions_needed", v.partitions_needed);
  o.Num("demand_ru", v.demand_ru);
  o.Num("throttled_fraction", v.throttled_fraction);
  o.Num("autoscale_billed_ru_per_second", v.autoscale_billed_ru_per_second);
  o.Num("autoscale_dynamic_billed_ru_per_second", v.autoscale_dynamic_billed_ru_per_second);
  o.Raw("ranges", JsonArray(v.ranges, [&](const PhysicalPartition& r, std::string& ranges) {
    ranges.push_back('{');
    JsonMembers q{ranges};
    q.Int("id", r.range.id);
    q.Str("min", r.range.min_inclusive);
    q.Str("max", r.range.max_exclusive);
    q.UInt("logical_partitions", r.logical_partitions);
    q.UInt("items", r.items);
    q.Num("bytes", r.bytes);
    q.Num("ru_share", r.ru_share);
    q.Num("keyspace_fraction", r.keyspace_fraction);
    q.Num("demand_ru", r.demand_ru);
    q.Num("throttled_fraction", r.throttled_fraction);
    q.Bool("burst_eligible", r.burst_eligible);
    q.Num("burst_bank_ru", r.burst_bank_ru);
    q.Num("burst_seconds", r.burst_seconds);
    q.Raw("top", PlacedListJson(r.top));
    q.UInt("others_partitions", r.others_partitions);
    q.Num("others_bytes", r.others_bytes);
    ranges.push_back('}');
  }));
  o.Raw("storage_balance", StorageBalanceJson(v.ranges));  // report/judgements.h
  o.Str("throttled_level", ThrottledLevel(v.throttled_fraction));
  s.push_back('}');
  return s;
}

// The published per-size charges the model interpolates (container.h), for the page to show.
std::string CostsTableJson() {
  std::string s = "[";
  bool first = true;
  for (double kb : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048}) {
    if (!first) s.push_back(',');
    first = false;
    s.push_back('{');
    JsonMembers o{s};
    o.Num("kb", kb);
    o.Num("read_ru", PointReadCharge(kb * 1024));
    o.Num("write_ru", WriteCharge(kb * 1024));
    s.push_back('}');
  }
  s.push_back(']');
  return s;
}

std::string SplitsJson(const std::vector<Split>& list) {
  return JsonArray(list, [&](const Split& x, std::string& splits) {
    splits.push_back('{');
    JsonMembers q{splits};
    q.Int("parent", x.parent);
    q.Int("left", x.left);
    q.Int("right", x.right);
    q.Str("reason", x.reason);
    q.UInt("moved_to_left", x.moved_to_left);
    q.UInt("moved_to_right", x.moved_to_right);
    q.Num("bytes_left", x.bytes_left);
    q.Num("bytes_right", x.bytes_right);
    splits.push_back('}');
  });
}

std::string RedistributionJson(const Redistribution& r) {
  std::string s = "{";
  JsonMembers o{s};
  o.Bool("judged", r.judged);
  o.Bool("possible", r.possible);
  o.Bool("same_total", r.same_total);
  o.Num("total_ru_per_second", r.total_ru_per_second);
  o.Raw("targets", JsonArray(r.targets, [](const PartitionThroughput& t, std::string& out) {
          out.push_back('{');
          JsonMembers q{out};
          q.Int("id", t.id);
          q.Num("ru_per_second", t.ru_per_second);
          q.Num("demand_ru", t.demand_ru);
          out.push_back('}');
        }));
  o.Num("throttled_fraction", r.throttled_fraction);
  o.Str("reason", r.reason);
  o.Raw("azure_cli", StringsJson(r.azure_cli));
  o.Str("powershell", r.powershell);
  s.push_back('}');
  return s;
}

std::string MergeJson(const MergeView& v) {
  std::string s = "{";
  JsonMembers o{s};
  o.Bool("judged", v.judged);
  o.Num("ru_per_partition", v.ru_per_partition);
  o.Num("average_bytes_per_partition", v.average_bytes_per_partition);
  o.Bool("low_throughput", v.low_throughput);
  o.Bool("low_storage", v.low_storage);
  o.Bool("eligible", v.eligible);
  o.Int("partitions_before", v.partitions_before);
  o.Int("partitions_after", v.partitions_after);
  o.Num("ru_per_partition_after", v.ru_per_partition_after);
  o.Num("throttled_fraction_before", v.throttled_fraction_before);
  o.Num("throttled_fraction_after", v.throttled_fraction_after);
  o.Str("reason", v.reason);
  o.Str("azure_cli", v.azure_cli);
  o.Str("powershell", v.powershell);
  s.push_back('}');
  return s;
}

std::string SharedJson(const SharedDatabaseView& v) {
  std::string s = "{";
  JsonMembers o{s};
  o.Bool("judged", v.judged);
  o.Num("ru_per_second", v.ru_per_second);
  o.Int("partitions", v.partitions);
  o.Num("ru_per_partition", v.ru_per_partition);
  o.Raw("containers", JsonArray(v.containers, [](const SharedContainerView& c, std::string& out) {
          out.push_back('{');
          JsonMembers q{out};
          q.Str("name", c.name);
          q.Num("storage_bytes", c.storage_bytes);
          q.Num("demand_ru", c.demand_ru);
          q.Num("throttled_fraction", c.throttled_fraction);
          out.push_back('}');
        }));
  o.Str("reason", v.reason);
  s.push_back('}');
  return s;
}

std::string ContainerJson(const ContainerOptions& opt, const ContainerReport& c) {
  std::string s = "{";
  JsonMembers o{s};
  o.Str("hash_version", HashVersionName(opt.version));
  o.Bool("large_partition_keys", opt.large_partition_keys);
  o.Num("ru_per_second", c.before.ru_per_second);
  o.Bool("autoscale", opt.autoscale);
  o.Bool("serverless", opt.serverless);
  o.Num("created_ru_per_second", c.before.created_ru_per_second);
  o.Str("quota_increase_reason", opt.quota_increase_reason);
  if (opt.autoscale) {
    o.Num("autoscale_min_ru_per_second", opt.ru_per_second / kCosmosAutoscaleFloorDivisor);
  } else {
    o.Raw("autoscale_min_ru_per_second", "null");
  }
  o.Num("growth", opt.growth);
  o.Num("grown_ru_per_second", opt.grown_ru_per_second);
  o.Raw("workload", WorkloadToJson(opt.workload));
  o.Raw("before", LayoutJson(c.before));
  // The smallest whole growth that takes the data past one physical partition's storage quota:
  // the page's "show a storage split" preset.
  o.Num("growth_to_split",
        c.before.storage_bytes > 0
            ? std::floor(kCosmosPhysicalPartitionBytes / c.before.storage_bytes) + 1
            : 1);
  o.Raw("before_splits", SplitsJson(c.before_splits));
  o.Raw("after", c.grown ? LayoutJson(c.after) : "null");
  o.Raw("splits", SplitsJson(c.splits));
  o.Raw("merge", MergeJson(c.merge));
  o.Raw("shared_database", SharedJson(c.shared));
  {
    std::string moved = "{";
    JsonMembers q{moved};
    q.UInt("count", c.moved_count);
    q.UInt("into_split_children", c.moved_into_split_children);
    q.Raw("examples", JsonArray(c.moved, [](const auto& m, std::string& examples) {
            examples.push_back('{');
            JsonMembers e{examples};
            e.Raw("key", m.key.ToJson());
            e.Int("from", m.from);
            e.Int("to", m.to);
            examples.push_back('}');
          }));
    moved.push_back('}');
    o.Raw("moved", moved);
  }
  o.Bool("split_cannot_help", c.split_cannot_help);
  o.Raw("ru_needed", RuNeededToJson(c.ru_needed));
  o.Raw("redistribution", RedistributionJson(c.redistribution));
  o.Raw("hot", PlacedListJson(c.hot));
  o.Raw("findings", JsonArray(c.findings, [&](const Finding& f, std::string& findings) {
    findings.push_back('{');
    JsonMembers q{findings};
    q.Str("code", f.code);
    q.Str("severity", f.severity);
    q.Str("message", f.message);
    q.UInt("count", f.count);
    q.Raw("keys", KeysJson(f.keys));
    q.Raw("items", ItemFindingsToJson(f.items, "type"));
    findings.push_back('}');
  }));
  const auto route_json = [](const std::optional<RouteResult>& r) -> std::string {
    if (!r) return "null";
    std::string route = "{";
    JsonMembers q{route};
    q.Raw("filter", r->filter.ToJson());
    q.Str("kind", r->kind);
    q.Str("epk_min", r->epk_min);
    q.Str("epk_max", r->epk_max);
    q.Raw("range_ids", JsonArray(r->range_ids, [](int id, std::string& s) {
            fmt::format_to(std::back_inserter(s), "{}", id);
          }));
    route.push_back('}');
    return route;
  };
  o.Raw("route", route_json(c.route));
  o.Raw("route_after", route_json(c.route_after));
  o.Raw("costs_table", CostsTableJson());
  s.push_back('}');
  return s;
}

std::string AdvisorJson(const AdvisorOptions& opt, uint64_t sampled_items,
                        const std::vector<CandidateAssessment>& list) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("ru_per_second", opt.ru_per_second);
  o.Num("growth", opt.growth);
  o.UInt("sampled_items", sampled_items);
  auto candidate = [&](const CandidateAssessment& a, std::string& candidates) {
    candidates.push_back('{');
    JsonMembers q{candidates};
    q.Str("path", a.path);
    q.Int("rank", a.rank);
    q.Num("score", a.score);
    q.UInt("cardinality", a.cardinality);
    q.Bool("cardinality_capped", a.cardinality_capped);
    q.Num("coverage", a.coverage);
    q.Num("largest_bytes_projected", a.largest_bytes_projected);
    q.Num("gini", a.gini);
    q.Int("physical_partitions", a.physical_partitions);
    q.Num("physical_max_over_mean", a.physical_max_over_mean);
    q.Bool("risk_20gb", a.risk_20gb);
    q.Str("immutability", a.immutability);
    q.Bool("monotonic", a.monotonic);
    if (a.rises_with_input >= 0) {
      q.Num("rises_with_input", a.rises_with_input);
    } else {
      q.Raw("rises_with_input", "null");
    }
    q.Bool("measure_like", !a.measure_reason.empty());
    q.Bool("system_property", !a.system_reason.empty());
    q.Str("verdict", a.verdict);
    q.Raw("reasons", StringsJson(a.reasons));
    candidates.push_back('}');
  };
  o.Raw("candidates", JsonArray(list, candidate));
  s.push_back('}');
  return s;
}

// Describes the synthetic key and what it costs a read by the original value.
std::string SyntheticJson(const SyntheticKeyOptions& syn, const AnalysisReport& r) {
  using Kind = SyntheticKeyOptions::Kind;
  std::string s = "{";
  JsonMembers o{s};
  o.Str("kind", SyntheticKindName(syn.kind));
  o.Raw("paths", StringsJson(syn.paths));
  o.Str("separator", syn.separator);
  o.UInt("buckets", syn.buckets);
  o.UInt("seed", syn.seed);
  o.Str("suffix_path", syn.suffix_path);
  // A read by the original value: every suffix when it is random, the one computed otherwise.
  o.UInt("read_fanout", syn.kind == Kind::kRandomSuffix ? syn.buckets : 1);
  std::vector<PartitionKey> examples;
  for (size_t i = 0; i < r.partitions.size() && examples.size() < 5; ++i) {
    examples.push_back(r.partitions[i].key);
  }
  o.Raw("example_keys", KeysJson(examples));
  s.push_back('}');
  return s;
}

}  // namespace

StatusOr<BuiltReport> BuildFullReport(const Analyzer& analyzer, const AnalysisOptions& options,
                                      const ReportRequest& request) {
  // Only the listed partitions are built; the container model reads every partition from the
  // analyzer's table. The candidates' values serve only the key advisor of a container. What
  // reads every partition in size order next (the model, a streamed listing) has the report
  // sort and keep that order, and read its sizes and largest partitions off it.
  AnalysisReport r = analyzer.BuildReport(
      {.max_partitions = request.max_partitions,
       .candidate_values = request.container.has_value(),
       .keep_size_order = request.container.has_value() || request.stream_partitions});
  std::unique_ptr<PartitionList> all;
  if (request.container) all = analyzer.AllPartitions();
  return BuildFullReportFrom(std::move(r), all.get(), options, request);
}

StatusOr<BuiltReport> BuildFullReportFrom(AnalysisReport report, const PartitionList* all,
                                          const AnalysisOptions& options,
                                          const ReportRequest& request) {
  BuiltReport out;
  out.analysis = std::move(report);
  AnalysisReport& r = out.analysis;
  std::string extra;
  JsonMembers e{extra};
  if (request.container) {
    if (!all) return Status(ErrorCode::kInvalidState, "the container model needs every partition");
    PARTPLAY_ASSIGN_OR_RETURN(ContainerReport c,
                              ModelContainer(r, *all, *request.container, r.partitions.size(),
                                             request.stream_partitions));
    // The model hashed every partition already; the listed ones carry their EPK.
    for (size_t i = 0; i < r.partitions.size(); ++i) {
      r.partitions[i].epk = std::move(c.partition_epks[i]);
    }
    e.Raw("container", ContainerJson(*request.container, c));
    AdvisorOptions advisor_options;
    // Candidates are single paths: hashed as V1 in a V1 container, else as V2.
    advisor_options.version = request.container->version == PartitionKeyHashVersion::kV1
                                  ? PartitionKeyHashVersion::kV1
                                  : PartitionKeyHashVersion::kV2;
    advisor_options.ru_per_second = request.container->ru_per_second;
    advisor_options.growth = request.container->growth;
    advisor_options.autoscale = request.container->autoscale;
    advisor_options.serverless = request.container->serverless;
    advisor_options.created_ru_per_second = request.container->created_ru_per_second;
    e.Raw("advisor", AdvisorJson(advisor_options, r.sampled_items, AdviseKeys(r, advisor_options)));
    out.container = std::move(c);
  }
  if (options.synthetic.kind != SyntheticKeyOptions::Kind::kNone) {
    e.Raw("synthetic", SyntheticJson(options.synthetic, r));
  } else {
    e.Raw("synthetic", "null");
  }
  e.Str("weight_path", options.weight_path);
  out.partition_bytes = r.partition_bytes;
  if (request.stream_partitions) {
    r.partitions_omitted = 0;  // the caller streams the others
    out.json = ReportToJson(r, extra, &out.json_tail);
  } else {
    out.json = ReportToJson(r, extra);
  }
  return out;
}

PartitionsJson::PartitionsJson(const Analyzer& analyzer, const ReportRequest& request,
                               const EpkColumn* epks)
    : owned_(analyzer.AllPartitions()), all_(owned_.get()), request_(request), epks_(epks) {}

PartitionsJson::PartitionsJson(const PartitionList& all, const ReportRequest& request,
                               const EpkColumn* epks)
    : all_(&all), request_(request), epks_(epks) {}

Status PartitionsJson::Append(size_t begin, size_t end, std::string& out) const {
  LogicalPartition p;  // reused: its key's memory serves every partition
  end = std::min(end, size());
  for (size_t i = begin; i < end; ++i) {
    all_->read_ahead(i);
    all_->partition_into(i, p);
    if (request_.container && epks_ && i < epks_->size()) {
      epks_->HexInto(i, p.epk);
    } else if (request_.container) {
      PARTPLAY_RETURN_IF_ERROR(
          EffectivePartitionKeyInto(p.key, request_.container->version, EpkForm::kHex, p.epk));
    }
    if (i > 0) out.push_back(',');
    AppendPartitionJson(p, out);
  }
  return Status::Ok();
}

namespace {

std::string Gigabytes(double bytes) { return fmt::format("{:.2f} GB", bytes / kBytesPerGigabyte); }

// The change that led to a layout, in words.
std::string ChangeText(const ThroughputChange& c) {
  if (c.kind == "instant") {
    return fmt::format(
        "raised from {:.0f} to {:.0f} RU/s: instant (up to {} x 10,000 = {:.0f} "
        "RU/s needs no split)",
        c.from_ru_per_second, c.to_ru_per_second, c.partitions_before,
        c.instant_maximum_ru_per_second);
  }
  if (c.kind == "down") {
    return fmt::format(
        "lowered from {:.0f} to {:.0f} RU/s: a scale-down, instant, the same {} "
        "partition(s) with less RU/s each",
        c.from_ru_per_second, c.to_ru_per_second, c.partitions_after);
  }
  if (c.kind == "splits" && c.even_split_ru_per_second > 0) {
    std::string s = fmt::format(
        "raised from {:.0f} to {:.0f} RU/s, past the instant maximum {:.0f} RU/s: {} split(s), "
        "{} -> {} partitions (asynchronous, typically 4-6 hours)",
        c.from_ru_per_second, c.to_ru_per_second, c.instant_maximum_ru_per_second, c.splits,
        c.partitions_before, c.partitions_after);
    if (c.uneven) {
      s += fmt::format(
          "; the keyspace is now uneven: to split every partition evenly, raise to {:.0f} RU/s "
          "first, then lower to {:.0f}",
          c.even_split_ru_per_second, c.to_ru_per_second);
    }
    return s;
  }
  return "";
}

void LayoutTable(const char* title, const LayoutView& v, std::string& s) {
  s += fmt::format(
      "{}: {} physical partition(s) for {:.0f} RU/s{} and {} "
      "(throughput needs {}, storage needs {})\n",
      title, v.ranges.size(), v.ru_per_second,
      v.throughput_mode == "serverless"  ? " (serverless capacity)"
      : v.throughput_mode == "autoscale" ? " (autoscale max)"
                                         : "",
      Gigabytes(v.storage_bytes), v.partitions_for_throughput, v.partitions_for_storage);
  if (v.partitions_at_creation > 0 && v.throughput_mode != "serverless") {
    s += fmt::format("  created with {:.0f} RU/s {}: {} physical partition(s)\n",
                     v.created_ru_per_second, v.throughput_mode, v.partitions_at_creation);
  }
  if (std::string change = ChangeText(v.change); !change.empty()) s += "  " + change + "\n";
  if (v.autoscale_billed_ru_per_second > 0) {
    s += fmt::format(
        "  autoscale billed per hour of this workload: {:.0f} RU/s (every partition scaled to "
        "the busiest one's need), {:.0f} RU/s with dynamic scaling (each partition on its own)\n",
        v.autoscale_billed_ru_per_second, v.autoscale_dynamic_billed_ru_per_second);
  }
  if (v.throughput_mode != "serverless") {
    s += fmt::format("  instant maximum {:.0f} RU/s; minimum {:.0f} RU/s{} (rule: {})\n",
                     v.instant_maximum_ru_per_second, std::ceil(v.minimum_ru_per_second),
                     v.throughput_mode == "autoscale" ? " as the autoscale maximum" : "",
                     v.minimum_rule);
  }
  s += fmt::format("{:>5}  {:<34} {:>10} {:>10} {:>12} {:>9} {:>11} {:>11} {:>6}\n", "range",
                   "EPK [min, max)", "logical", "items", "storage", "keyspace", "RU/s share",
                   "RU/s demand", "429 %");
  for (const PhysicalPartition& r : v.ranges) {
    std::string span = fmt::format("[{}, {})", r.range.min_inclusive.substr(0, 14),
                                   r.range.max_exclusive.substr(0, 14));
    s +=
        fmt::format("{:>5}  {:<34} {:>10} {:>10} {:>12} {:>8.1f}% {:>11.0f} {:>11.0f} {:>6.1f}\n",
                    r.range.id, span, r.logical_partitions, r.items, Gigabytes(r.bytes),
                    r.keyspace_fraction * 100, r.ru_share, r.demand_ru, r.throttled_fraction * 100);
  }
}

}  // namespace

std::string ContainerToTable(const ContainerOptions& options, const ContainerReport& c) {
  std::string s;
  s += fmt::format("Cosmos DB container: hash version {}, {:.0f} RU/s{}\n",
                   HashVersionName(options.version), c.before.ru_per_second,
                   options.serverless  ? " (serverless)"
                   : options.autoscale ? " (autoscale max)"
                                       : "");
  LayoutTable("before", c.before, s);
  for (const Split& x : c.before_splits) {
    s += fmt::format("split {} -> {} + {} ({}): {} / {} logical partitions\n", x.parent, x.left,
                     x.right, x.reason, x.moved_to_left, x.moved_to_right);
  }
  if (c.grown) {
    s += "\n";
    LayoutTable(fmt::format("after growth x{}", options.growth).c_str(), c.after, s);
    for (const Split& x : c.splits) {
      s += fmt::format("split {} -> {} + {} ({}): {} / {} logical partitions\n", x.parent, x.left,
                       x.right, x.reason, x.moved_to_left, x.moved_to_right);
    }
    s += fmt::format("logical partitions that changed physical partition: {} ({} into the children "
                     "of their own partition's split)\n",
                     c.moved_count, c.moved_into_split_children);
  }
  if (c.split_cannot_help) {
    s += "a split cannot help: one logical partition alone breaks a physical partition's limit\n";
  }
  for (const PlacedPartition& p : c.hot) {
    s += fmt::format("hot: {} needs {:.0f} RU/s\n", p.key.ToJson(), p.demand_ru);
  }
  if (c.ru_needed.judged) {
    const RuNeeded& r = c.ru_needed;
    auto figure = [](double ru) {
      return ru > 0 ? fmt::format("{:.0f} RU/s", ru) : std::string("none");
    };
    s += fmt::format(
        "RU/s needed so that no physical partition throttles: manual {}, created then set {} "
        "(created at {}), autoscale max {}\n  {}\n",
        figure(r.manual_ru_per_second), figure(r.manual_rescaled_ru_per_second),
        figure(r.manual_rescaled_created_ru_per_second), figure(r.autoscale_max_ru_per_second),
        r.reason);
  }
  for (const PhysicalPartition& p : c.before.ranges) {
    if (p.burst_seconds > 0) {
      s += fmt::format(
          "burst capacity: physical partition {} ({:.0f} RU/s) banks up to {:.0f} RU; a spike "
          "of its {:.0f} RU/s is absorbed for {:.1f} s before throttling starts\n",
          p.range.id, p.ru_share, p.burst_bank_ru, p.demand_ru, p.burst_seconds);
    }
  }
  if (c.redistribution.judged) {
    const Redistribution& r = c.redistribution;
    s += fmt::format("throughput redistribution: {}\n", r.reason);
    for (const std::string& command : r.azure_cli) s += "  " + command + "\n";
  }
  if (c.shared.judged) {
    s += fmt::format("shared-throughput database: {}\n", c.shared.reason);
    for (const SharedContainerView& v : c.shared.containers) {
      s += fmt::format("  {}: {:.0f} RU/s asked, {:.1f}% throttled\n", v.name, v.demand_ru,
                       v.throttled_fraction * 100);
    }
  }
  if (c.merge.judged) {
    s += fmt::format("merge: {}\n", c.merge.reason);
    if (c.merge.eligible) s += "  " + c.merge.azure_cli + "\n";
  }
  if (c.route) {
    std::string ids;
    for (int id : c.route->range_ids) ids += fmt::format("{}{}", ids.empty() ? "" : ", ", id);
    s += fmt::format("query on {} ({}): physical partition(s) {}\n", c.route->filter.ToJson(),
                     c.route->kind, ids);
  }
  if (c.route_after) {
    std::string ids;
    for (int id : c.route_after->range_ids) ids += fmt::format("{}{}", ids.empty() ? "" : ", ", id);
    s += fmt::format("  after growing: physical partition(s) {}\n", ids);
  }
  if (!c.findings.empty()) s += "\nfindings:\n";
  for (const Finding& f : c.findings) {
    s += fmt::format("  {:<8} {}: {}\n", f.severity, f.code, f.message);
    for (size_t i = 0; i < f.items.size() && i < 3; ++i) {
      const ItemFinding& it = f.items[i];
      s += fmt::format("           item {} at line {}, column {} (byte {})\n", it.item_index,
                       it.where.line, it.where.column, it.where.byte_offset);
    }
  }
  return s;
}

}  // namespace partplay
