#include "partplay/report/options_json.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <functional>
#include <map>

#include "core/json_options.h"
#include "partplay/core/json_writer.h"
#include "partplay/core/limits.h"
#include "partplay/core/json_diagnostics.h"

namespace partplay {
namespace {

namespace dom = simdjson::dom;

Status Bad(std::string_view field, std::string_view what) {
  return internal::BadOptionField(field, what);
}

StatusOr<dom::object> ParseObject(dom::parser& parser, std::string_view json,
                                  std::string_view what) {
  return internal::ParseOptionsObject(parser, json, what);
}

StatusOr<double> Number(dom::element e, std::string_view field) {
  double d;
  if (e.get_double().get(d) || !std::isfinite(d)) return Bad(field, "must be a finite number");
  return d;
}

StatusOr<bool> Boolean(dom::element e, std::string_view field) {
  bool b;
  if (e.get_bool().get(b)) return Bad(field, "must be true or false");
  return b;
}

StatusOr<std::string> String(dom::element e, std::string_view field) {
  std::string_view v;
  if (e.get_string().get(v)) return Bad(field, "must be a string");
  return std::string(v);
}

StatusOr<std::vector<std::string>> Strings(dom::element e, std::string_view field) {
  dom::array array;
  if (e.get_array().get(array)) return Bad(field, "must be an array of strings");
  std::vector<std::string> out;
  for (dom::element item : array) {
    PARTPLAY_ASSIGN_OR_RETURN(std::string s, String(item, field));
    out.push_back(std::move(s));
  }
  return out;
}

StatusOr<uint64_t> Unsigned(dom::element e, std::string_view field, double max) {
  PARTPLAY_ASSIGN_OR_RETURN(double d, Number(e, field));
  if (d < 0 || d > max || d != std::floor(d)) {
    return Bad(field, fmt::format("must be a whole number from 0 to {}", max));
  }
  return static_cast<uint64_t>(d);
}

using FieldReader = internal::OptionFieldReader;

Status ReadFields(dom::object object, std::string_view what,
                  const std::map<std::string, FieldReader, std::less<>>& readers) {
  return internal::ReadOptionFields(object, what, readers);
}

Status ReadSynthetic(dom::element e, SyntheticKeyOptions& syn) {
  dom::object object;
  if (e.is_null()) return Status::Ok();
  if (e.get_object().get(object)) return Bad("synthetic", "must be an object or null");
  return ReadFields(
      object, "synthetic",
      {
          {"kind",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(std::string k, String(v, "synthetic.kind"));
             using Kind = SyntheticKeyOptions::Kind;
             if (k == "none")
               syn.kind = Kind::kNone;
             else if (k == "concat")
               syn.kind = Kind::kConcat;
             else if (k == "random_suffix")
               syn.kind = Kind::kRandomSuffix;
             else if (k == "hash_suffix")
               syn.kind = Kind::kHashSuffix;
             else {
               return Bad("synthetic.kind", "must be none, concat, random_suffix or hash_suffix");
             }
             return Status::Ok();
           }},
          {"paths",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(syn.paths, Strings(v, "synthetic.paths"));
             return Status::Ok();
           }},
          {"separator",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(syn.separator, String(v, "synthetic.separator"));
             return Status::Ok();
           }},
          {"buckets",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(uint64_t n, Unsigned(v, "synthetic.buckets", 1e6));
             syn.buckets = static_cast<uint32_t>(n);
             return Status::Ok();
           }},
          {"seed",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(syn.seed, Unsigned(v, "synthetic.seed", 9007199254740991.0));
             return Status::Ok();
           }},
          {"suffix_path",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(syn.suffix_path, String(v, "synthetic.suffix_path"));
             return Status::Ok();
           }},
      });
}

// shared_with: [{name, storage_gb, demand_ru}], the other containers of a shared database.
Status ReadSharedWith(dom::element e, std::vector<SharedContainer>& out) {
  dom::array array;
  if (e.get_array().get(array)) return Bad("shared_with", "must be an array of containers");
  // More than the service allows is refused by the model, naming the limit; this bounds the read.
  if (array.size() > static_cast<size_t>(kCosmosSharedDatabaseMaxContainers)) {
    return Bad("shared_with", fmt::format("lists more than the {} containers a database shares",
                                          kCosmosSharedDatabaseMaxContainers));
  }
  out.clear();
  for (dom::element item : array) {
    dom::object object;
    if (item.get_object().get(object)) {
      return Bad("shared_with", "must hold objects {name, storage_gb, demand_ru}");
    }
    SharedContainer c;
    PARTPLAY_RETURN_IF_ERROR(ReadFields(
        object, "shared_with[]",
        {
            {"name",
             [&](dom::element v) -> Status {
               PARTPLAY_ASSIGN_OR_RETURN(c.name, String(v, "shared_with[].name"));
               return Status::Ok();
             }},
            {"storage_gb",
             [&](dom::element v) -> Status {
               PARTPLAY_ASSIGN_OR_RETURN(double gb, Number(v, "shared_with[].storage_gb"));
               c.storage_bytes = gb * kBytesPerGigabyte;
               return Status::Ok();
             }},
            {"demand_ru",
             [&](dom::element v) -> Status {
               PARTPLAY_ASSIGN_OR_RETURN(c.demand_ru, Number(v, "shared_with[].demand_ru"));
               return Status::Ok();
             }},
        }));
    out.push_back(std::move(c));
  }
  return Status::Ok();
}

Status ReadWorkload(dom::element e, Workload& w) {
  dom::object object;
  if (e.get_object().get(object)) return Bad("workload", "must be an object");
  auto rate = [](double& out, const char* name) {
    return [&out, name](dom::element v) -> Status {
      PARTPLAY_ASSIGN_OR_RETURN(double d, Number(v, name));
      if (d < 0) return Bad(name, "must be 0 or more");
      out = d;
      return Status::Ok();
    };
  };
  return ReadFields(
      object, "workload",
      {
          {"point_reads_per_second",
           rate(w.point_reads_per_second, "workload.point_reads_per_second")},
          {"writes_per_second", rate(w.writes_per_second, "workload.writes_per_second")},
          {"queries_per_second", rate(w.queries_per_second, "workload.queries_per_second")},
          {"zipf_exponent", rate(w.zipf_exponent, "workload.zipf_exponent")},
          {"read_factor", rate(w.costs.read_factor, "workload.read_factor")},
          {"write_factor", rate(w.costs.write_factor, "workload.write_factor")},
          {"query_ru", rate(w.costs.query_ru, "workload.query_ru")},
          {"spread",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(std::string s, String(v, "workload.spread"));
             if (s == "uniform")
               w.spread = RequestSpread::kUniformItems;
             else if (s == "field")
               w.spread = RequestSpread::kField;
             else if (s == "zipf")
               w.spread = RequestSpread::kZipf;
             else
               return Bad("workload.spread", "must be uniform, field or zipf");
             return Status::Ok();
           }},
      });
}

}  // namespace

const char* HashVersionName(PartitionKeyHashVersion version) {
  switch (version) {
    case PartitionKeyHashVersion::kV1:
      return "1";
    case PartitionKeyHashVersion::kV2:
      return "2";
    case PartitionKeyHashVersion::kMultiHash:
      return "multihash";
  }
  return "2";
}

const char* RequestSpreadName(RequestSpread spread) {
  switch (spread) {
    case RequestSpread::kUniformItems:
      return "uniform";
    case RequestSpread::kField:
      return "field";
    case RequestSpread::kZipf:
      return "zipf";
  }
  return "uniform";
}

const char* SyntheticKindName(SyntheticKeyOptions::Kind kind) {
  using Kind = SyntheticKeyOptions::Kind;
  switch (kind) {
    case Kind::kNone:
      return "none";
    case Kind::kConcat:
      return "concat";
    case Kind::kRandomSuffix:
      return "random_suffix";
    case Kind::kHashSuffix:
      return "hash_suffix";
  }
  return "none";
}

StatusOr<AnalysisOptions> ParseAnalysisOptionsJson(std::string_view json) {
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object, ParseObject(parser, json, "analysis options"));
  AnalysisOptions o;
  PARTPLAY_RETURN_IF_ERROR(
      ReadFields(object, "analysis",
                 {
                     {"key_paths",
                      [&](dom::element v) -> Status {
                        PARTPLAY_ASSIGN_OR_RETURN(o.key_paths, Strings(v, "key_paths"));
                        return Status::Ok();
                      }},
                     {"discover_items",
                      [&](dom::element v) -> Status {
                        PARTPLAY_ASSIGN_OR_RETURN(double d, Number(v, "discover_items"));
                        if (d < -1 || d != std::floor(d) || d > kCosmosMaxSafeInteger) {
                          return Bad("discover_items", "must be -1 (all), 0 (none) or a count");
                        }
                        o.discover_items = static_cast<int64_t>(d);
                        return Status::Ok();
                      }},
                     {"weight_path",
                      [&](dom::element v) -> Status {
                        if (v.is_null()) return Status::Ok();
                        PARTPLAY_ASSIGN_OR_RETURN(o.weight_path, String(v, "weight_path"));
                        return Status::Ok();
                      }},
                     {"check_ids",
                      [&](dom::element v) -> Status {
                        PARTPLAY_ASSIGN_OR_RETURN(o.check_ids, Boolean(v, "check_ids"));
                        return Status::Ok();
                      }},
                     {"synthetic", [&](dom::element v) { return ReadSynthetic(v, o.synthetic); }},
                 }));
  return o;
}

namespace {

StatusOr<ContainerOptions> ReadContainer(dom::object object) {
  ContainerOptions o;
  bool ru_given = false;
  auto number = [](double& out, const char* name) {
    return [&out, name](dom::element v) -> Status {
      PARTPLAY_ASSIGN_OR_RETURN(out, Number(v, name));
      return Status::Ok();
    };
  };
  PARTPLAY_RETURN_IF_ERROR(ReadFields(
      object, "container",
      {
          {"hash_version",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(std::string s, String(v, "hash_version"));
             auto parsed = ParsePartitionKeyHashVersion(s);
             if (!parsed.ok()) return Bad("hash_version", "must be \"1\", \"2\" or \"multihash\"");
             o.version = parsed.value();
             return Status::Ok();
           }},
          {"large_partition_keys",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(o.large_partition_keys, Boolean(v, "large_partition_keys"));
             return Status::Ok();
           }},
          {"autoscale",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(o.autoscale, Boolean(v, "autoscale"));
             return Status::Ok();
           }},
          {"ru_per_second",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(o.ru_per_second, Number(v, "ru_per_second"));
             ru_given = true;
             return Status::Ok();
           }},
          {"created_ru_per_second", number(o.created_ru_per_second, "created_ru_per_second")},
          {"serverless",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(o.serverless, Boolean(v, "serverless"));
             return Status::Ok();
           }},
          {"shared_database",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(o.shared_database, Boolean(v, "shared_database"));
             return Status::Ok();
           }},
          {"shared_with", [&](dom::element v) { return ReadSharedWith(v, o.shared_with); }},
          {"quota_increase_reason",
           [&](dom::element v) -> Status {
             if (v.is_null()) return Status::Ok();
             PARTPLAY_ASSIGN_OR_RETURN(o.quota_increase_reason, String(v, "quota_increase_reason"));
             return Status::Ok();
           }},
          {"growth", number(o.growth, "growth")},
          {"grown_ru_per_second", number(o.grown_ru_per_second, "grown_ru_per_second")},
          {"top_per_range",
           [&](dom::element v) -> Status {
             PARTPLAY_ASSIGN_OR_RETURN(uint64_t n, Unsigned(v, "top_per_range", 1000));
             o.top_per_range = static_cast<int>(n);
             return Status::Ok();
           }},
          {"workload", [&](dom::element v) { return ReadWorkload(v, o.workload); }},
          {"route",
           [&](dom::element v) -> Status {
             if (v.is_null()) return Status::Ok();
             std::string text = simdjson::minify(v);
             auto key = ParsePartitionKeyJson(text);
             if (!key.ok()) return Bad("route", key.status().message());
             o.route = std::move(key).value();
             return Status::Ok();
           }},
      }));
  if (o.serverless && ru_given) {
    return Bad("ru_per_second",
               "is not set on a serverless container (its capacity follows its storage)");
  }
  return o;
}

}  // namespace

StatusOr<ContainerOptions> ParseContainerOptionsJson(std::string_view json) {
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object, ParseObject(parser, json, "container options"));
  return ReadContainer(object);
}

StatusOr<ReportRequest> ParseReportRequestJson(std::string_view json) {
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object, ParseObject(parser, json, "report request"));
  ReportRequest r;
  PARTPLAY_RETURN_IF_ERROR(
      ReadFields(object, "report",
                 {
                     {"max_partitions",
                      [&](dom::element v) -> Status {
                        PARTPLAY_ASSIGN_OR_RETURN(double d, Number(v, "max_partitions"));
                        if (d < -1 || d != std::floor(d) || d > 9007199254740992.0) {
                          return Bad("max_partitions", "must be -1 (all) or a count");
                        }
                        r.max_partitions = static_cast<int64_t>(d);
                        return Status::Ok();
                      }},
                     {"container",
                      [&](dom::element v) -> Status {
                        if (v.is_null()) return Status::Ok();
                        dom::object container;
                        if (v.get_object().get(container))
                          return Bad("container", "must be an object or null");
                        PARTPLAY_ASSIGN_OR_RETURN(r.container, ReadContainer(container));
                        return Status::Ok();
                      }},
                 }));
  return r;
}

std::string WorkloadToJson(const Workload& w) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num("point_reads_per_second", w.point_reads_per_second);
  o.Num("writes_per_second", w.writes_per_second);
  o.Num("queries_per_second", w.queries_per_second);
  o.Str("spread", RequestSpreadName(w.spread));
  o.Num("zipf_exponent", w.zipf_exponent);
  o.Num("read_factor", w.costs.read_factor);
  o.Num("write_factor", w.costs.write_factor);
  o.Num("query_ru", w.costs.query_ru);
  s.push_back('}');
  return s;
}

}  // namespace partplay
