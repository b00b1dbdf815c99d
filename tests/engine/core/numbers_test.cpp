// Checked number parsing: the whole text, within range, or false (never an abort).
#include "partplay/core/numbers.h"

#include <gtest/gtest.h>

#include <string>

namespace partplay {
namespace {

TEST(Numbers, Int64TakesTheWholeTextWithinRange) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInt64("42", v));
  EXPECT_EQ(v, 42);
  EXPECT_TRUE(ParseInt64("+7", v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(ParseInt64("-9223372036854775808", v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(ParseInt64("9223372036854775807", v));
  EXPECT_EQ(v, INT64_MAX);
  for (const char* bad : {"", "+", "-", "9223372036854775808", "99999999999999999999", "1x", " 1",
                          "1 ", "+-1", "--1", "0x10", "1.0"}) {
    EXPECT_FALSE(ParseInt64(bad, v)) << bad;
  }
  EXPECT_FALSE(ParseInt64(std::string(200000, '9'), v));
}

TEST(Numbers, HexTakesFourDigitEscapesAndNothingElse) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseHexUint64("00e9", v));
  EXPECT_EQ(v, 0xE9u);
  EXPECT_TRUE(ParseHexUint64("FFFF", v));
  EXPECT_EQ(v, 0xFFFFu);
  for (const char* bad : {"", "ZZZZ", "12G4", "-1", "+1", "0x1", "1 "}) {
    EXPECT_FALSE(ParseHexUint64(bad, v)) << bad;
  }
}

TEST(Numbers, FiniteDoubleIsDecimalOnly) {
  double d = 0;
  EXPECT_TRUE(ParseFiniteDouble("1e3", d));
  EXPECT_EQ(d, 1000);
  EXPECT_TRUE(ParseFiniteDouble("-.5", d));
  EXPECT_EQ(d, -0.5);
  EXPECT_TRUE(ParseFiniteDouble("1e-400", d));  // underflows to 0, still a number
  EXPECT_EQ(d, 0);
  for (const char* bad :
       {"", ".", "e5", "1e", "1e+", "inf", "nan", "0x1p3", " 1", "1 ", "1e400", "1..2", "--1"}) {
    EXPECT_FALSE(ParseFiniteDouble(bad, d)) << bad;
  }
  EXPECT_FALSE(ParseFiniteDouble(std::string(401, '1'), d));  // longer than any double needs
}

}  // namespace
}  // namespace partplay
