#include "partplay/report/vocabulary.h"

#include <gtest/gtest.h>

#include <string>

#include "partplay/core/defaults.h"
#include "partplay/core/limits.h"
#include "partplay/report/options_json.h"

namespace partplay {
namespace {

// The container defaults the vocabulary states, as the JSON between "container": and "synthetic".
std::string ContainerDefaults(const std::string& json) {
  const size_t from = json.find("\"container\":") + 12;
  const size_t to = json.find(",\"synthetic\":", from);
  return json.substr(from, to - from);
}

TEST(Vocabulary, DefaultsAreWhatTheOptionsParserAssumes) {
  const std::string json = VocabularyToJson();
  const std::string defaults = ContainerDefaults(json);
  // Read back by the parser, the stated defaults are the defaults of ContainerOptions.
  auto read = ParseContainerOptionsJson(defaults);
  ASSERT_TRUE(read.ok()) << read.status().ToString() << "\n" << defaults;
  const ContainerOptions fresh;
  EXPECT_EQ(read->ru_per_second, fresh.ru_per_second);
  EXPECT_EQ(read->ru_per_second, kCosmosDefaultRuPerSecond);
  EXPECT_EQ(read->top_per_range, kCosmosDefaultTopPerRange);
  EXPECT_EQ(read->workload.costs.query_ru, kCosmosDefaultQueryRu);
  EXPECT_EQ(read->version, fresh.version);
  EXPECT_EQ(read->workload.spread, fresh.workload.spread);
  EXPECT_NE(json.find("\"buckets\":400"), std::string::npos);
}

TEST(Vocabulary, EnumsAreEveryNameTheParserAccepts) {
  const std::string json = VocabularyToJson();
  EXPECT_NE(json.find(R"("hash_versions":["1","2","multihash"])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("spread_kinds":["uniform","field","zipf"])"), std::string::npos);
  EXPECT_NE(json.find(R"("synthetic_kinds":["none","concat","random_suffix","hash_suffix"])"),
            std::string::npos);
  for (const char* v : {"1", "2", "multihash"}) {
    EXPECT_TRUE(ParseContainerOptionsJson(std::string(R"({"hash_version":")") + v + "\"}").ok());
  }
  for (const char* s : {"uniform", "field", "zipf"}) {
    EXPECT_TRUE(
        ParseContainerOptionsJson(std::string(R"({"workload":{"spread":")") + s + "\"}}").ok())
        << s;
  }
  EXPECT_FALSE(ParseContainerOptionsJson(R"({"workload":{"spread":"even"}})").ok());
}

}  // namespace
}  // namespace partplay
