// The options of CREATE TABLE ... WITH and ALTER TABLE ... WITH: those the model uses
// (default_time_to_live, comment) and the checks of Cassandra 4.1's CompressionParams.fromMap
// and CompactionParams.fromMap, with their messages; the others are accepted as given.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "partplay/cassandra/schema.h"
#include "partplay/core/limits.h"
#include "partplay/core/numbers.h"
#include "partplay/core/utf8.h"

namespace partplay::cql {
namespace {

Status Config(std::string message, const SourceLocation& where) {
  return Status(ErrorCode::kCqlInvalidRequest, std::move(message), where);
}

// A map option's entries as Cassandra reads them (strings), in order.
std::vector<std::pair<std::string, const Literal*>> Entries(const Literal& map) {
  std::vector<std::pair<std::string, const Literal*>> out;
  for (size_t i = 0; i + 1 < map.elements.size(); i += 2) {
    out.emplace_back(map.elements[i].text, &map.elements[i + 1]);
  }
  return out;
}

// Java's Boolean.parseBoolean: true only for "true", any case.
bool JavaTrue(std::string_view s) {
  if (s.size() != 4) return false;
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return lower == "true";
}

Status CheckCompression(const Literal& value) {
  if (value.kind != LiteralKind::kMap) {
    return Config("Invalid value for property 'compression'. It should be a map.", value.where);
  }
  std::map<std::string, const Literal*> options;
  for (const auto& [k, v] : Entries(value)) options[k] = v;
  auto has = [&](const char* k) { return options.count(k) > 0; };
  bool enabled = !has("enabled") || JavaTrue(options["enabled"]->text);
  if (!options.empty() && enabled && !has("class") && !has("sstable_compression")) {
    return Config("Missing sub-option 'class' for the 'compression' option.", value.where);
  }
  options.erase("enabled");
  if (!enabled) {
    if (!options.empty()) {
      return Config("If the 'enabled' option is set to false no other options must be specified",
                    value.where);
    }
    return Status::Ok();
  }
  if (has("class")) {
    if (has("sstable_compression")) {
      return Config("The 'sstable_compression' option must not be used if the compression "
                    "algorithm is already specified by the 'class' option",
                    value.where);
    }
    if (options["class"]->text.empty()) {
      return Config("The 'class' option must not be empty. To disable compression use "
                    "'enabled' : false",
                    value.where);
    }
  }
  int64_t chunk_kb = 16;
  const char* chunk_key = has("chunk_length_in_kb") ? "chunk_length_in_kb"
                          : has("chunk_length_kb")  ? "chunk_length_kb"
                                                    : nullptr;
  if (has("chunk_length_in_kb") && has("chunk_length_kb")) {
    return Config("The 'chunk_length_kb' option must not be used if the chunk length is already "
                  "specified by the 'chunk_length_in_kb' option",
                  value.where);
  }
  if (chunk_key != nullptr) {
    const std::string& text = options[chunk_key]->text;
    if (!ParseInt64(text, chunk_kb) || chunk_kb < INT32_MIN || chunk_kb > INT32_MAX) {
      return Config("Invalid value for chunk_length_in_kb", options[chunk_key]->where);
    }
    if (chunk_kb > INT32_MAX / 1024) {
      return Config(fmt::format("Value of chunk_length_in_kb is too large ({})", chunk_kb),
                    options[chunk_key]->where);
    }
  }
  double ratio = 0;
  if (has("min_compress_ratio")) {
    const Literal& r = *options["min_compress_ratio"];
    if (!ParseFiniteDouble(r.text, ratio)) {
      return Config(fmt::format("Invalid value for min_compress_ratio: {}", PrintableText(r.text)),
                    r.where);
    }
  }
  // CompressionParams.validate, on the chunk in bytes and calcMaxCompressedLength.
  int64_t chunk = chunk_kb * 1024;
  if (chunk <= 0) return Config("Invalid negative or null chunk_length_in_kb", value.where);
  if ((chunk & (chunk - 1)) != 0) {
    return Config("chunk_length_in_kb must be a power of 2", value.where);
  }
  double max_compressed = std::min(static_cast<double>(chunk) / ratio, 2147483647.0);
  if (max_compressed < 0) return Config("Invalid negative min_compress_ratio", value.where);
  if (max_compressed > static_cast<double>(chunk) && max_compressed < 2147483647.0) {
    return Config("min_compress_ratio can either be 0 or greater than or equal to 1", value.where);
  }
  return Status::Ok();
}

Status CheckCompaction(const Literal& value) {
  if (value.kind != LiteralKind::kMap) {
    return Config("Invalid value for property 'compaction'. It should be a map.", value.where);
  }
  for (const auto& [k, v] : Entries(value)) {
    if (k == "class") return Status::Ok();
  }
  return Config("Missing sub-option 'class' for the 'compaction' option", value.where);
}

}  // namespace

Status ApplyTableOptions(const std::vector<Property>& properties, TableSchema& t) {
  for (const Property& p : properties) {
    if (p.name.text == "default_time_to_live") {
      // TableParams.validate: 0 <= default_time_to_live <= MAX_TTL (20 years).
      int64_t ttl = 0;
      if (p.value.kind != LiteralKind::kInteger || p.value.text.empty()) {
        return Config(fmt::format("Invalid integer value {} for 'default_time_to_live'",
                                  PrintableText(p.value.text)),
                      p.value.where);
      }
      if (p.value.text[0] == '-') {
        return Config(fmt::format("default_time_to_live must be greater than or equal to 0 (got "
                                  "{})",
                                  PrintableText(p.value.text)),
                      p.value.where);
      }
      if (!ParseInt64(p.value.text, ttl) || ttl > kCassandraMaxTtlSeconds) {
        return Config(fmt::format("default_time_to_live must be less than or equal to {} (got "
                                  "{})",
                                  kCassandraMaxTtlSeconds, PrintableText(p.value.text)),
                      p.value.where);
      }
      if (ttl > 0 && t.is_counter()) {
        return Config("Cannot set default_time_to_live on a table with counters", p.value.where);
      }
      t.default_ttl = ttl;
    } else if (p.name.text == "comment") {
      t.comment = p.value.text;
    } else if (p.name.text == "compression") {
      PARTPLAY_RETURN_IF_ERROR(CheckCompression(p.value));
    } else if (p.name.text == "compaction") {
      PARTPLAY_RETURN_IF_ERROR(CheckCompaction(p.value));
    }
  }
  return Status::Ok();
}

}  // namespace partplay::cql
