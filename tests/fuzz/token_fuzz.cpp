// Cassandra tokens, as `partplay token` and the page's cassandraToken take them: the input's
// first line is a type list ("text,frozen<map<int, text>>", commas inside <> belong to the
// type), every further line one CQL literal. Each literal becomes a value of its type, is
// written the ways the engine writes values (cqlsh, JSON, CQL literal); then the key's token. The
// raw input also goes through Murmur3 and the composite-key splitter (split then rejoined must give
// the input back).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/token.h"
#include "partplay/cassandra/value.h"

namespace partplay::fuzz {
namespace {

// Splits at top-level commas, as the CLI's --types list is read.
std::vector<std::string_view> SplitTypes(std::string_view list) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    char c = i < list.size() ? list[i] : ',';
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(list.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

void CheckValue(const cql::CqlType& type, const cql::Literal& literal) {
  cql::ValueGenerator generator(1700000000000);
  StatusOr<cql::Value> value = cql::LiteralToValue(type, literal, "key", generator);
  if (!value.ok() || !value.value()) return;
  const cql::Bytes& bytes = *value.value();
  Check(cql::Compare(type, bytes, bytes) == 0, "a value compares equal to itself", type.ToCql());
  std::string sink = cql::FormatCqlsh(type, bytes);
  cql::AppendJson(type, value.value(), sink);
  sink += cql::FormatCqlLiteral(type, bytes);
}

}  // namespace
}  // namespace partplay::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace partplay;
  std::string_view input(reinterpret_cast<const char*>(data), size);

  (void)cql::CassandraMurmur3H1(input);
  std::vector<std::string_view> parts = cql::SplitCompositeKey(input);
  if (parts.size() >= 2) {
    fuzz::Check(cql::PartitionKeyBytes(parts) == input, "a split composite key rejoins");
  }

  size_t newline = input.find('\n');
  std::string_view type_list = input.substr(0, newline);
  std::vector<std::string> literals;
  if (newline != std::string_view::npos) {
    std::string_view rest = input.substr(newline + 1);
    while (!rest.empty()) {
      size_t end = rest.find('\n');
      literals.emplace_back(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  std::vector<cql::CqlType> types;
  for (std::string_view name : fuzz::SplitTypes(type_list)) {
    StatusOr<cql::CqlType> type = cql::ParseType(name);
    if (!type.ok()) return 0;
    StatusOr<cql::CqlType> again = cql::ParseType(type.value().ToCql());
    fuzz::Check(again.ok() && again.value().ToCql() == type.value().ToCql(),
                "a type written as CQL reads back", type.value().ToCql());
    types.push_back(std::move(type).value());
  }
  for (size_t i = 0; i < literals.size() && i < types.size(); ++i) {
    StatusOr<cql::Literal> literal = cql::ParseLiteral(literals[i]);
    if (literal.ok()) fuzz::CheckValue(types[i], literal.value());
  }
  (void)cql::TokenOfLiterals(types, literals);
  return 0;
}
