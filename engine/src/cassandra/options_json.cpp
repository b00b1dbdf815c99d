// The Cassandra calls' options as JSON (ring.h ParseRingOptionsJson, result_format.h
// ParseTableLayoutOptionsJson, bulk_load.h ParseBulkLoadOptionsJson): read with simdjson's DOM,
// every field checked, an unknown field an error naming it, so the page and the tests hand the
// engine the same JSON.
#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <functional>
#include <map>

#include "core/json_options.h"
#include "partplay/cassandra/bulk_load.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/cosmos_cassandra_api.h"
#include "partplay/cassandra/ring.h"
#include "partplay/core/json_diagnostics.h"

namespace partplay::cql {
namespace {

// At most the Cosmos model's bound on physical partitions (core/limits.h) worth of RU/s: the
// layout lists every partition's token range.
constexpr int64_t kMaxLayoutRu = int64_t{kCosmosMaxModelledPhysicalPartitions} *
                                 CosmosCassandraApi::kRequestUnitsPerPhysicalPartition;

namespace dom = simdjson::dom;

Status Bad(std::string_view field, std::string_view what) {
  return internal::BadOptionField(field, what);
}

StatusOr<dom::object> ParseObject(dom::parser& parser, std::string_view json,
                                  std::string_view what) {
  return internal::ParseOptionsObject(parser, json, what);
}

StatusOr<int64_t> Whole(dom::element e, std::string_view field, double min, double max) {
  double d;
  if (e.get_double().get(d) || !std::isfinite(d) || d < min || d > max || d != std::floor(d)) {
    return Bad(field, fmt::format("must be a whole number from {} to {}", min, max));
  }
  return static_cast<int64_t>(d);
}

using FieldReader = internal::OptionFieldReader;

// A bad field of the load options: "option load.<name>: ..." with the field /<name>.
Status BadLoad(std::string_view name, std::string_view what) {
  return Bad(fmt::format("load.{}", name), what).WithField(fmt::format("/{}", name));
}

Status ReadFields(dom::object object, std::string_view what,
                  const std::map<std::string, FieldReader, std::less<>>& readers) {
  return internal::ReadOptionFields(object, what, readers);
}

// A whole-number field read into `out` (int or int64_t).
template <typename T>
FieldReader WholeInto(T& out, const char* name, double min, double max) {
  return [&out, name, min, max](dom::element v) -> Status {
    PARTPLAY_ASSIGN_OR_RETURN(int64_t n, Whole(v, name, min, max));
    out = static_cast<T>(n);
    return Status::Ok();
  };
}

// Ring sizes are checked by Ring::Build; these bounds only keep the numbers representable.
constexpr double kMaxInt = 2147483647.0;
constexpr double kMaxSafe = 9007199254740991.0;  // 2^53 - 1, the largest exact JS integer

}  // namespace

StatusOr<RingOptions> ParseRingOptionsJson(std::string_view json) {
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object, ParseObject(parser, json, "ring options"));
  RingOptions o;
  PARTPLAY_RETURN_IF_ERROR(ReadFields(
      object, "ring",
      {
          {"nodes", WholeInto(o.nodes, "ring.nodes", 0, kMaxInt)},
          {"num_tokens", WholeInto(o.num_tokens, "ring.num_tokens", 0, kMaxInt)},
          {"random_tokens",
           [&](dom::element v) -> Status {
             if (v.get_bool().get(o.random_tokens)) {
               return Bad("ring.random_tokens", "must be true or false");
             }
             return Status::Ok();
           }},
          {"seed", WholeInto(o.seed, "ring.seed", 0, kMaxSafe)},
          {"datacenters",
           [&](dom::element v) -> Status {
             dom::array dcs;
             if (v.get_array().get(dcs)) return Bad("ring.datacenters", "must be an array");
             for (dom::element d : dcs) {
               dom::object dc;
               if (d.get_object().get(dc)) {
                 return Bad("ring.datacenters", "each datacenter must be an object");
               }
               DatacenterSpec spec;
               PARTPLAY_RETURN_IF_ERROR(ReadFields(
                   dc, "ring.datacenters[]",
                   {
                       {"name",
                        [&](dom::element n) -> Status {
                          std::string_view s;
                          if (n.get_string().get(s)) {
                            return Bad("ring.datacenters[].name", "must be a string");
                          }
                          spec.name = std::string(s);
                          return Status::Ok();
                        }},
                       {"nodes", WholeInto(spec.nodes, "ring.datacenters[].nodes", 0, kMaxInt)},
                       {"racks", WholeInto(spec.racks, "ring.datacenters[].racks", 0, kMaxInt)},
                   }));
               o.datacenters.push_back(std::move(spec));
             }
             return Status::Ok();
           }},
      }));
  return o;
}

StatusOr<TableLayoutOptions> ParseTableLayoutOptionsJson(std::string_view json) {
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object, ParseObject(parser, json, "layout options"));
  TableLayoutOptions o;
  PARTPLAY_RETURN_IF_ERROR(ReadFields(
      object, "layout",
      {
          {"scan_partitions", WholeInto(o.scan_partitions, "layout.scan_partitions", -1, kMaxSafe)},
          {"max_partitions", WholeInto(o.max_partitions, "layout.max_partitions", -1, kMaxSafe)},
          {"ru_per_second", WholeInto(o.ru_per_second, "layout.ru_per_second", 0, kMaxLayoutRu)},
      }));
  return o;
}

StatusOr<BulkLoadOptions> ParseBulkLoadOptionsJson(std::string_view json) {
  if (json.empty()) json = "{}";
  dom::parser parser;
  PARTPLAY_ASSIGN_OR_RETURN(dom::object object, ParseObject(parser, json, "load options"));
  BulkLoadOptions o;
  std::string csv_field;  // the first CSV-only field given
  // A COPY option given as a string, read by the same routine as COPY's WITH.
  auto copy_option = [&](const char* name) -> FieldReader {
    return [&, name](dom::element v) -> Status {
      if (csv_field.empty()) csv_field = name;
      std::string_view text;
      if (v.get_string().get(text)) return BadLoad(name, "must be a string");
      StatusOr<bool> set = SetCsvLoadOption(o.csv, name, text, SourceLocation{});
      if (!set.ok()) return BadLoad(name, set.status().message());
      return Status::Ok();
    };
  };
  PARTPLAY_RETURN_IF_ERROR(ReadFields(
      object, "load",
      {
          {"format",
           [&](dom::element v) -> Status {
             std::string_view f;
             if (v.get_string().get(f) || (f != "json" && f != "csv")) {
               return BadLoad("format", "must be 'json' or 'csv'");
             }
             o.format = f == "csv" ? BulkLoadOptions::Format::kCsv : BulkLoadOptions::Format::kJson;
             return Status::Ok();
           }},
          {"header",
           [&](dom::element v) -> Status {
             if (csv_field.empty()) csv_field = "header";
             if (v.get_bool().get(o.csv.header)) return BadLoad("header", "must be true or false");
             return Status::Ok();
           }},
          {"delimiter", copy_option("delimiter")},
          {"quote", copy_option("quote")},
          {"escape", copy_option("escape")},
          {"null", copy_option("null")},
          {"datetimeformat", copy_option("datetimeformat")},
          {"columns",
           [&](dom::element v) -> Status {
             if (csv_field.empty()) csv_field = "columns";
             dom::array names;
             if (v.get_array().get(names)) return BadLoad("columns", "must be an array of names");
             for (dom::element n : names) {
               std::string_view name;
               if (n.get_string().get(name) || name.empty()) {
                 return BadLoad("columns", "must be an array of names");
               }
               o.csv.columns.emplace_back(name);
             }
             if (o.csv.columns.empty()) {
               return BadLoad("columns", "must name at least one column (leave it out for all)");
             }
             return Status::Ok();
           }},
      }));
  if (o.format != BulkLoadOptions::Format::kCsv && !csv_field.empty()) {
    return BadLoad(csv_field, "is a CSV option: it needs format 'csv'");
  }
  return o;
}

}  // namespace partplay::cql
