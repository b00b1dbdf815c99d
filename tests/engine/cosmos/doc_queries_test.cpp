// The Cosmos DB documentation's own queries (tests/engine/cosmos/doc_queries.txt: every query
// copied from the MicrosoftDocs/azure-databases-docs page, or the Azure-Samples file a page
// embeds, named on its "source:" line). Each one parses, prints back to a text that parses to
// the same, and pins the properties the corpus's "filters:" line reads off its WHERE clause (the
// targeting of cosmos/query_targeting.h); where the page shows the items a query runs over and its
// result, the evaluator yields as many rows as the page shows.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "partplay/cosmos/query.h"
#include "partplay/cosmos/query_targeting.h"

namespace partplay {
namespace {

using cosmosql::Value;

struct DocQuery {
  std::string source, query, filters, items, expected;
  std::vector<std::string> notes;  // "# ..." lines
  int line = 0;
};

std::vector<DocQuery> ReadCorpus() {
  std::ifstream in(std::string(PP_TESTS_DIR) + "/engine/cosmos/doc_queries.txt");
  std::vector<DocQuery> out;
  DocQuery current;
  std::string line;
  int number = 0;
  const auto flush = [&] {
    if (!current.query.empty()) out.push_back(current);
    current = DocQuery{};
  };
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) {
      flush();
      continue;
    }
    const auto field = [&](std::string_view name, std::string& into) {
      if (line.rfind(name, 0) != 0) return false;
      into = line.substr(name.size());
      return true;
    };
    if (field("source: ", current.source)) {
      current.line = number;
      continue;
    }
    if (field("query: ", current.query) || field("filters: ", current.filters) ||
        field("items: ", current.items) || field("expected: ", current.expected)) {
      continue;
    }
    if (line[0] == '#' && !current.source.empty()) current.notes.push_back(line);
  }
  flush();
  return out;
}

// Splits at `separator` outside double- or single-quoted strings and brackets.
std::vector<std::string> SplitOutside(std::string_view s, std::string_view separator) {
  std::vector<std::string> parts;
  std::string part;
  char quote = 0;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      part += c;
      if (c == '\\' && i + 1 < s.size()) {
        part += s[++i];
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth == 0 && s.substr(i, separator.size()) == separator) {
      parts.push_back(part);
      part.clear();
      i += separator.size() - 1;
      continue;
    }
    part += c;
  }
  parts.push_back(part);
  return parts;
}

std::string Trim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

// pointer -> the sorted texts of its values and parameters, from a "filters:" line.
std::map<std::string, std::set<std::string>> ExpectedPins(const std::string& filters) {
  std::map<std::string, std::set<std::string>> pins;
  if (filters == "none") return pins;
  for (std::string condition : SplitOutside(filters, " ; ")) {
    condition = Trim(condition);
    const size_t space = condition.find(' ');
    const std::string pointer = condition.substr(0, space);
    std::string rest = Trim(condition.substr(space + 1));
    std::vector<std::string> operands;
    if (rest.rfind("IN ", 0) == 0) {
      rest = Trim(rest.substr(3));
      operands = SplitOutside(rest.substr(1, rest.size() - 2), ",");
    } else {
      EXPECT_EQ(rest.rfind("= ", 0), 0u) << condition;
      operands = {rest.substr(2)};
    }
    for (std::string operand : operands) {
      operand = Trim(operand);
      if (operand[0] == '@') {
        pins[pointer].insert(operand);
        continue;
      }
      auto value = cosmosql::ParseValueJson(operand);
      EXPECT_TRUE(value.ok()) << operand;
      if (value.ok()) pins[pointer].insert(value.value().ToJson());
    }
  }
  return pins;
}

std::map<std::string, std::set<std::string>> ActualPins(const cosmosql::Query& q) {
  std::map<std::string, std::set<std::string>> pins;
  for (const PinnedPath& p : PinnedPaths(q)) {
    auto& set = pins[p.pointer];
    for (const Value& v : p.values) set.insert(v.ToJson());
    for (const std::string& name : p.parameters) set.insert(name);
  }
  return pins;
}

bool Noted(const DocQuery& d, std::string_view what) {
  for (const std::string& n : d.notes) {
    if (n.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(DocQueriesTest, TheCorpusHoldsAtLeastSixtyQueriesEachWithItsSource) {
  const std::vector<DocQuery> corpus = ReadCorpus();
  EXPECT_GE(corpus.size(), 60u);
  for (const DocQuery& d : corpus) {
    EXPECT_TRUE(d.source.rfind("MicrosoftDocs/azure-databases-docs ", 0) == 0 ||
                d.source.rfind("Azure-Samples/cosmos-db-nosql-query-samples ", 0) == 0)
        << "line " << d.line;
    EXPECT_NE(d.source.find(" @ "), std::string::npos) << "line " << d.line;
    EXPECT_FALSE(d.filters.empty()) << "line " << d.line;
  }
}

TEST(DocQueriesTest, EveryQueryParsesPrintsBackAndPinsWhatItsFilterSays) {
  int parsed = 0, pinned = 0;
  for (const DocQuery& d : ReadCorpus()) {
    SCOPED_TRACE(fmt::format("doc_queries.txt line {}: {}", d.line, d.query));
    auto q = cosmosql::ParseQuery(d.query);
    if (!q.ok()) {
      // Only a query the page itself prints wrongly fails, and the corpus says so.
      EXPECT_TRUE(Noted(d, "# note:")) << q.status().ToString();
      EXPECT_EQ(q.status().code(), ErrorCode::kQuerySyntax);
      EXPECT_GT(q.status().where().column, 0);
      continue;
    }
    ++parsed;
    const std::string printed = cosmosql::ToString(q.value());
    auto again = cosmosql::ParseQuery(printed);
    ASSERT_TRUE(again.ok()) << printed << "\n" << again.status().ToString();
    EXPECT_EQ(cosmosql::ToString(again.value()), printed);
    const auto expected = ExpectedPins(d.filters);
    EXPECT_EQ(ActualPins(q.value()), expected) << d.filters;
    pinned += !expected.empty();
  }
  EXPECT_GE(parsed, 60);
  EXPECT_GE(pinned, 20);
}

// Where the page shows the items and the result: as many rows as the page shows, for a query
// that projects one row per match (no aggregate, DISTINCT, TOP, OFFSET, GROUP BY, ORDER BY
// RANK, subquery or function the playground does not evaluate).
TEST(DocQueriesTest, RowCountsMatchThePagesResults) {
  int checked = 0;
  simdjson::dom::parser parser;
  for (const DocQuery& d : ReadCorpus()) {
    if (d.items.empty() || d.expected.empty() || Noted(d, "does not match")) continue;
    auto q = cosmosql::ParseQuery(d.query);
    if (!q.ok()) continue;
    const cosmosql::Query& query = q.value();
    if (query.has_aggregates || query.distinct || query.top || query.offset ||
        !query.group_by.empty() || query.select == cosmosql::Query::Select::kValue) {
      continue;
    }
    auto evaluator = cosmosql::QueryEvaluator::Create(query, {});
    if (!evaluator.ok()) continue;  // a construct the playground does not evaluate, said so
    SCOPED_TRACE(fmt::format("doc_queries.txt line {}: {}", d.line, d.query));
    simdjson::dom::element items, expected;
    ASSERT_FALSE(parser.parse(d.items).get(items));
    uint64_t rows = 0;
    simdjson::dom::array list;
    if (items.get_array().get(list)) {
      auto r = evaluator.value().Rows(items);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      rows = r.value();
    } else {
      for (simdjson::dom::element item : list) {
        auto r = evaluator.value().Rows(item);
        ASSERT_TRUE(r.ok()) << r.status().ToString();
        rows += r.value();
      }
    }
    simdjson::dom::parser result_parser;
    ASSERT_FALSE(result_parser.parse(d.expected).get(expected));
    simdjson::dom::array result;
    const uint64_t shown = expected.get_array().get(result) ? 1 : result.size();
    EXPECT_EQ(rows, shown);
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

}  // namespace
}  // namespace partplay
