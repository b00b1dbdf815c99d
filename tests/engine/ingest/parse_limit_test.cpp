// The benchmark's ceiling (parse_limit.h) counts documents as the parser sees them and reports
// bad JSON as an error naming the document, never a short count.
#include "partplay/ingest/parse_limit.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace partplay {
namespace {

StatusOr<uint64_t> Count(const std::string& text, size_t batch = size_t{1} << 24) {
  ParseLimitProbe probe;
  uint8_t* at = probe.Buffer(text.size());
  EXPECT_NE(at, nullptr);
  if (!text.empty()) std::memcpy(at, text.data(), text.size());
  return probe.Parse(batch);
}

TEST(ParseLimitProbeTest, CountsDocuments) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += R"({"id":")" + std::to_string(i) + R"(","v":[1,2,{"x":null}]})" "\n";
  auto n = Count(text);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n.value(), 5000u);
  auto batched = Count(text, 4096);  // many batches
  ASSERT_TRUE(batched.ok()) << batched.status().ToString();
  EXPECT_EQ(batched.value(), 5000u);
  auto empty = Count("");
  EXPECT_TRUE(!empty.ok() || empty.value() == 0u);
}

TEST(ParseLimitProbeTest, BadJsonIsAnErrorNamingTheDocument) {
  auto bad = Count("{\"a\":1}\n{\"a\":tru}\n{\"a\":3}\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kMalformedJson);
  EXPECT_NE(bad.status().message().find("document 1"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(Count("{\"a\":\"\xff\"}\n").ok());
  ParseLimitProbe unfed;
  EXPECT_FALSE(unfed.Parse().ok());
}

}  // namespace
}  // namespace partplay
