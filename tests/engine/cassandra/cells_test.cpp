// A row's cells packed into one block (cells.h): nulls, empty values and values of any length
// read back as written; writing one cell leaves the others as they were; copies are deep.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/cells.h"

namespace partplay::cql {
namespace {

TEST(CellsTest, EmptyHoldsNothing) {
  Cells c;
  EXPECT_EQ(c.size(), 0u);
  EXPECT_TRUE(c.empty());
  EXPECT_FALSE(c.any());
  EXPECT_EQ(c.value_bytes(), 0u);
  Cells none(std::vector<Value>{});
  EXPECT_EQ(none.size(), 0u);
}

TEST(CellsTest, NullsUntilSet) {
  Cells c(3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_FALSE(c.any());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_FALSE(c.has(i));
    EXPECT_EQ(c[i], Value());
  }
  c.set(1, Bytes("abc"));
  EXPECT_TRUE(c.any());
  EXPECT_FALSE(c.has(0));
  EXPECT_EQ(c[1], Value("abc"));
  EXPECT_FALSE(c.has(2));
  EXPECT_EQ(c.value_bytes(), 3u);
}

TEST(CellsTest, ValuesReadBackAsWritten) {
  const std::string long_text(300, 'x');
  std::vector<Value> values{Bytes("\x00\x00\x00\x2a", 4), Value(), Bytes(), long_text,
                            Bytes("\xff")};
  Cells c(values);
  ASSERT_EQ(c.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(c[i], values[i]) << i;
  EXPECT_TRUE(c.has(2));  // an empty value is not a null
  EXPECT_EQ(c.view(3), long_text);
  EXPECT_EQ(c.value_bytes(), 4u + 0 + 0 + 300 + 1);
  EXPECT_EQ(c.values(), values);
}

TEST(CellsTest, SetKeepsTheOthers) {
  std::vector<Value> values{Bytes("one"), Bytes("two"), Value(), Bytes("four")};
  Cells c(values);
  c.set(1, Bytes("a much longer second value"));
  values[1] = Bytes("a much longer second value");
  EXPECT_EQ(c.values(), values);
  c.set(0, Value());
  values[0] = Value();
  EXPECT_EQ(c.values(), values);
  c.set(2, Bytes());
  values[2] = Bytes();
  EXPECT_EQ(c.values(), values);
  c.reset(3);
  values[3] = Value();
  EXPECT_EQ(c.values(), values);
  c.set(3, Bytes("z"));
  values[3] = Bytes("z");
  EXPECT_EQ(c.values(), values);
}

TEST(CellsTest, WideBlocks) {
  // 32,767 bytes and more (or as many cells) take the wide form: the same reads and writes.
  const std::string big(40000, 'b');
  std::vector<Value> values{Bytes("a"), big, Value(), Bytes("c")};
  Cells c(values);
  EXPECT_EQ(c.values(), values);
  EXPECT_EQ(c.value_bytes(), 40002u);
  c.set(1, Bytes("small again"));
  values[1] = Bytes("small again");
  EXPECT_EQ(c.values(), values);
  c.set(2, Bytes(32767, 'x'));  // exactly past the narrow form's bytes with the others
  values[2] = Bytes(32767, 'x');
  EXPECT_EQ(c.values(), values);
  Cells many(40000);
  EXPECT_EQ(many.size(), 40000u);
  many.set(39999, Bytes("last"));
  EXPECT_EQ(many[39999], Value("last"));
  EXPECT_FALSE(many.has(0));
  Cells copy(many);
  EXPECT_EQ(copy[39999], Value("last"));
}

TEST(CellsTest, CopiesAreDeep) {
  Cells a(std::vector<Value>{Bytes("x"), Bytes("y")});
  Cells b(a);
  b.set(0, Bytes("changed"));
  EXPECT_EQ(a[0], Value("x"));
  EXPECT_EQ(b[0], Value("changed"));
  Cells c;
  c = b;
  EXPECT_EQ(c.values(), b.values());
  Cells d(std::move(c));
  EXPECT_EQ(d.values(), b.values());
  EXPECT_TRUE(c.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  a = std::move(d);
  EXPECT_EQ(a.values(), b.values());
}

}  // namespace
}  // namespace partplay::cql
