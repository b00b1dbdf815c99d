#include "partplay/sizing/sizing_request.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>

#include "partplay/core/limits.h"
#include "partplay/core/json_diagnostics.h"
#include "partplay/ingest/key_path.h"
#include "partplay/sizing/table_sizing_writers.h"
#include "sizing/table_sizing_internal.h"

namespace partplay {

using namespace sizing_internal;

// ---- The request as JSON --------------------------------------------------------------------

namespace {

namespace dom = simdjson::dom;

// "avg_sizes.comment" -> "/avg_sizes/comment": the request field as a JSON pointer.
std::string FieldPointer(std::string_view field) {
  std::string pointer;
  size_t dot = field.find('.');
  KeyPath::AppendSegment(field.substr(0, dot), pointer);
  if (dot != std::string_view::npos) KeyPath::AppendSegment(field.substr(dot + 1), pointer);
  return pointer;
}

Status BadField(std::string_view field, std::string_view what) {
  return Status(ErrorCode::kBadOption, fmt::format("sizing request {}: {}", field, what))
      .WithField(FieldPointer(field));
}

// `s`, naming `field` unless it already names a more precise one.
Status InField(Status s, std::string_view field) {
  if (!s.field().empty()) return s;
  return std::move(s).WithField(FieldPointer(field));
}

StatusOr<double> NumberField(dom::element e, std::string_view field, double min = 0) {
  double d;
  if (e.get_double().get(d) || !std::isfinite(d)) return BadField(field, "must be a number");
  if (d < min) return BadField(field, fmt::format("must be {} or more", FormatQuantity(min)));
  return d;
}

StatusOr<int64_t> DaysField(dom::element e, std::string_view field) {
  PARTPLAY_ASSIGN_OR_RETURN(double d, NumberField(e, field));
  if (d != std::floor(d) || d > 1e15) return BadField(field, "must be a whole number of days");
  return static_cast<int64_t>(d);
}

StatusOr<std::string> StringField(dom::element e, std::string_view field) {
  std::string_view v;
  if (e.get_string().get(v)) return BadField(field, "must be a string");
  return std::string(v);
}

StatusOr<bool> BoolField(dom::element e, std::string_view field) {
  bool b;
  if (e.get_bool().get(b)) return BadField(field, "must be true or false");
  return b;
}

// 73000 | "100*730" | [100, 730] | [{"name": "rooms per hotel", "value": 100}, ...]
StatusOr<RowsEstimate> RowsField(dom::element e, std::string_view field) {
  if (e.is_string()) {
    PARTPLAY_ASSIGN_OR_RETURN(std::string text, StringField(e, field));
    StatusOr<RowsEstimate> parsed = ParseRowsFormula(text);
    if (!parsed.ok()) return InField(parsed.status(), field);
    return parsed;
  }
  RowsEstimate rows;
  // Past 2^53 a row count is no longer exact (and the bucket search would not end).
  auto bounded = [&]() -> StatusOr<RowsEstimate> {
    if (rows.value() > kSizingMaxRowsPerPartition) {
      return BadField(field, fmt::format("the product {} is past 2^53 ({}), the most rows the "
                                         "sizing counts exactly",
                                         FormatQuantity(rows.value()),
                                         FormatQuantity(kSizingMaxRowsPerPartition)));
    }
    return rows;
  };
  dom::array array;
  if (e.get_array().get(array)) {
    PARTPLAY_ASSIGN_OR_RETURN(double v, NumberField(e, field));
    rows.factors.push_back({"", v});
    return bounded();
  }
  for (dom::element item : array) {
    RowsFactor factor;
    dom::object object;
    if (item.get_object().get(object)) {
      PARTPLAY_ASSIGN_OR_RETURN(factor.value, NumberField(item, field));
    } else {
      bool has_value = false;
      for (dom::key_value_pair m : object) {
        if (m.key == "name") {
          PARTPLAY_ASSIGN_OR_RETURN(factor.name, StringField(m.value, field));
        } else if (m.key == "value") {
          PARTPLAY_ASSIGN_OR_RETURN(factor.value, NumberField(m.value, field));
          has_value = true;
        } else {
          return BadField(fmt::format("{}.{}", field, m.key), "unknown (known: name, value)");
        }
      }
      if (!has_value) return BadField(field, "a factor needs a value");
    }
    rows.factors.push_back(std::move(factor));
  }
  if (rows.factors.empty()) return BadField(field, "needs at least one factor");
  return bounded();
}

StatusOr<PartitionSplit> SplitField(dom::element e) {
  dom::object object;
  if (e.get_object().get(object)) return BadField("splits", "each split must be an object");
  PartitionSplit split;
  bool has_kind = false;
  for (dom::key_value_pair m : object) {
    if (m.key == "kind") {
      PARTPLAY_ASSIGN_OR_RETURN(std::string kind, StringField(m.value, "splits.kind"));
      if (kind == "move_clustering_column")
        split.kind = SplitKind::kMoveClusteringColumn;
      else if (kind == "time_bucket")
        split.kind = SplitKind::kTimeBucket;
      else if (kind == "hash_bucket")
        split.kind = SplitKind::kHashBucket;
      else {
        return BadField("splits.kind",
                        "must be move_clustering_column, time_bucket or hash_bucket");
      }
      has_kind = true;
    } else if (m.key == "column") {
      PARTPLAY_ASSIGN_OR_RETURN(split.column, StringField(m.value, "splits.column"));
      split.column = CqlName(split.column);
    } else if (m.key == "distinct_values") {
      PARTPLAY_ASSIGN_OR_RETURN(split.distinct_values,
                                NumberField(m.value, "splits.distinct_values", 1));
    } else if (m.key == "unit") {
      PARTPLAY_ASSIGN_OR_RETURN(std::string unit, StringField(m.value, "splits.unit"));
      PARTPLAY_ASSIGN_OR_RETURN(split.unit, ParseTimeBucketUnit(unit));
    } else if (m.key == "span_days") {
      PARTPLAY_ASSIGN_OR_RETURN(split.span_days, NumberField(m.value, "splits.span_days"));
    } else if (m.key == "buckets") {
      PARTPLAY_ASSIGN_OR_RETURN(split.buckets, NumberField(m.value, "splits.buckets", 2));
    } else if (m.key == "new_column") {
      PARTPLAY_ASSIGN_OR_RETURN(split.new_column, StringField(m.value, "splits.new_column"));
      split.new_column = CqlName(split.new_column);
    } else {
      return BadField(fmt::format("splits.{}", m.key),
                      "unknown (known: kind, column, distinct_values, unit, span_days, buckets, "
                      "new_column)");
    }
  }
  if (!has_kind) return BadField("splits", "each split needs a kind");
  return split;
}

StatusOr<GrowthOptions> GrowthField(dom::element e) {
  dom::object object;
  if (e.get_object().get(object)) return BadField("growth", "must be an object or null");
  GrowthOptions g;
  for (dom::key_value_pair m : object) {
    if (m.key == "rows_per_day") {
      PARTPLAY_ASSIGN_OR_RETURN(g.rows_per_day, NumberField(m.value, "growth.rows_per_day"));
    } else if (m.key == "retention_days") {
      PARTPLAY_ASSIGN_OR_RETURN(g.retention_days, DaysField(m.value, "growth.retention_days"));
    } else if (m.key == "horizon_days") {
      PARTPLAY_ASSIGN_OR_RETURN(g.horizon_days, DaysField(m.value, "growth.horizon_days"));
    } else {
      return BadField(fmt::format("growth.{}", m.key),
                      "unknown (known: rows_per_day, retention_days, horizon_days)");
    }
  }
  return g;
}

}  // namespace

StatusOr<TableSizingRequest> ParseTableSizingRequestJson(std::string_view json) {
  JsonDiagnosis d = DiagnoseJsonValue(json);
  if (d.found) {
    return Status(ErrorCode::kMalformedJson, fmt::format("sizing request: {}", d.message),
                  SourceLocation{static_cast<int64_t>(d.offset)});
  }
  dom::parser parser;
  dom::element root;
  if (parser.parse(json.data(), json.size()).get(root)) {
    return Status(ErrorCode::kMalformedJson, "sizing request: not valid JSON");
  }
  dom::object object;
  if (root.get_object().get(object)) return BadField("", "must be a JSON object");
  TableSizingRequest r;
  bool has_rows = false;
  for (dom::key_value_pair m : object) {
    std::string_view k = m.key;
    dom::element v = m.value;
    if (k == "cql") {
      PARTPLAY_ASSIGN_OR_RETURN(r.cql, StringField(v, k));
    } else if (k == "table") {
      PARTPLAY_ASSIGN_OR_RETURN(r.table, StringField(v, k));
    } else if (k == "rows_per_partition") {
      PARTPLAY_ASSIGN_OR_RETURN(r.rows_per_partition, RowsField(v, k));
      has_rows = true;
    } else if (k == "worst_rows_per_partition") {
      if (!v.is_null()) {
        PARTPLAY_ASSIGN_OR_RETURN(r.worst_rows_per_partition, RowsField(v, k));
      }
    } else if (k == "avg_sizes") {
      dom::object sizes;
      if (v.get_object().get(sizes)) return BadField(k, "must be an object: column -> bytes");
      for (dom::key_value_pair size : sizes) {
        PARTPLAY_ASSIGN_OR_RETURN(double bytes,
                                  NumberField(size.value, fmt::format("avg_sizes.{}", size.key)));
        r.avg_sizes.emplace_back(std::string(size.key), bytes);
      }
    } else if (k == "partitions") {
      PARTPLAY_ASSIGN_OR_RETURN(r.partitions, NumberField(v, k));
    } else if (k == "replication_factor") {
      if (!v.is_null()) {
        PARTPLAY_ASSIGN_OR_RETURN(double rf, NumberField(v, k));
        r.replication_factor = rf;
      }
    } else if (k == "t_avg") {
      PARTPLAY_ASSIGN_OR_RETURN(r.t_avg, NumberField(v, k));
    } else if (k == "splits") {
      dom::array splits;
      if (v.get_array().get(splits)) return BadField(k, "must be an array");
      for (dom::element e : splits) {
        PARTPLAY_ASSIGN_OR_RETURN(PartitionSplit split, SplitField(e));
        r.splits.push_back(std::move(split));
      }
    } else if (k == "growth") {
      if (!v.is_null()) {
        PARTPLAY_ASSIGN_OR_RETURN(GrowthOptions g, GrowthField(v));
        r.growth = g;
      }
    } else if (k == "suggest_splits") {
      PARTPLAY_ASSIGN_OR_RETURN(r.suggest_splits, BoolField(v, k));
    } else {
      return BadField(k,
                      "unknown (known: cql, table, rows_per_partition, "
                      "worst_rows_per_partition, avg_sizes, partitions, replication_factor, "
                      "t_avg, splits, growth, suggest_splits)");
    }
  }
  if (!has_rows) return BadField("rows_per_partition", "is required");
  return r;
}

StatusOr<std::string> SizeTableJson(std::string_view request_json) {
  PARTPLAY_ASSIGN_OR_RETURN(TableSizingRequest request, ParseTableSizingRequestJson(request_json));
  PARTPLAY_ASSIGN_OR_RETURN(TableSizingReport report, SizeTable(request));
  return TableSizingToJson(report);
}

StatusOr<std::string> SizingTablesJson(std::string_view cql) {
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<SizingTableInfo> tables, ListSizingTables(cql));
  return SizingTablesToJson(tables);
}

}  // namespace partplay
