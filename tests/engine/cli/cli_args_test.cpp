// The CLI's options table: values, flags, --opt=value, operands, help and usage errors.
#include "cli_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace partplay::cli {
namespace {

const CommandSpec kSpec = {.name = "demo",
                           .synopsis = "--key PATH [options] FILE\n --continued",
                           .description = "A demo.\n"};

// Runs ParseCommandLine over `args` with a --key PATH, a --flag and a --count N option.
struct Parsed {
  std::optional<int> done;
  std::vector<std::string> keys, operands;
  bool flag = false;
  int64_t count = -1;
};

Parsed Parse(std::vector<std::string> args, const CommandSpec& spec = kSpec) {
  Parsed p;
  std::vector<Option> options = {
      {"--key", "-k", "PATH", "a key",
       [&](std::string_view v) {
         p.keys.emplace_back(v);
         return Status::Ok();
       }},
      {"--flag", "", "", "a flag",
       [&](std::string_view) {
         p.flag = true;
         return Status::Ok();
       }},
      {"--count", "", "N", "a count",
       [&](std::string_view v) {
         return ParseCount(v, p.count) ? Status::Ok()
                                       : Status(ErrorCode::kUsage, "--count takes a number");
       }},
  };
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  p.done = ParseCommandLine(spec, options, static_cast<int>(argv.size()), argv.data(),
                            [&](std::string_view v) {
                              p.operands.emplace_back(v);
                              return Status::Ok();
                            });
  return p;
}

TEST(CliArgsTest, ReadsValuesFlagsAndOperandsInOrder) {
  Parsed p = Parse({"--key", "/a", "-k", "/b", "--key=/c", "--flag", "file.json", "--count=7"});
  EXPECT_FALSE(p.done.has_value());
  EXPECT_EQ(p.keys, (std::vector<std::string>{"/a", "/b", "/c"}));
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.count, 7);
  EXPECT_EQ(p.operands, (std::vector<std::string>{"file.json"}));
}

TEST(CliArgsTest, DashNegativeNumbersAndWhatFollowsDoubleDashAreOperands) {
  Parsed p = Parse({"-", "-5", "-.5", "--", "--flag", "-k"});
  EXPECT_FALSE(p.done.has_value());
  EXPECT_FALSE(p.flag);
  EXPECT_EQ(p.operands, (std::vector<std::string>{"-", "-5", "-.5", "--flag", "-k"}));
}

TEST(CliArgsTest, SingleDashOperandsKeepCqlLiterals) {
  CommandSpec spec = kSpec;
  spec.single_dash_operands = true;
  Parsed p = Parse({"-Infinity", "-x", "--flag"}, spec);
  EXPECT_FALSE(p.done.has_value());
  EXPECT_TRUE(p.flag);
  EXPECT_EQ(p.operands, (std::vector<std::string>{"-Infinity", "-x"}));
}

TEST(CliArgsTest, UsageErrorsExitWithTheUsageCode) {
  const int usage = static_cast<int>(ErrorCode::kUsage);
  EXPECT_EQ(Parse({"--nope"}).done, usage);
  EXPECT_EQ(Parse({"-z"}).done, usage);
  EXPECT_EQ(Parse({"--key"}).done, usage);            // no value
  EXPECT_EQ(Parse({"--flag=yes"}).done, usage);       // a flag takes none
  EXPECT_EQ(Parse({"--count", "many"}).done, usage);  // refused by the option
  EXPECT_EQ(Parse({"--count", "3"}).count, 3);
}

TEST(CliArgsTest, HelpAnywhereBeforeDoubleDashWinsAndRunsNothing) {
  testing::internal::CaptureStdout();
  Parsed p = Parse({"--count", "x", "--nope", "-h"});
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(p.done, 0);
  EXPECT_EQ(p.count, -1);  // the options were not applied
  EXPECT_EQ(out.substr(0, 32), "usage: partplay demo --key PATH ");
  // A value that reads "-h" and a "-h" after "--" are not requests for help.
  EXPECT_FALSE(Parse({"--key", "-h"}).done.has_value());
  EXPECT_FALSE(Parse({"--", "-h"}).done.has_value());
}

TEST(CliArgsTest, HelpTextListsEveryOptionWrapped) {
  std::string long_help;
  for (int i = 0; i < 40; ++i) long_help += "wrapped ";
  std::vector<Option> options = {
      {"--key", "-k", "PATH", long_help, nullptr},
      {"--a-very-long-option-name", "", "WITH_A_VALUE", "short", nullptr},
  };
  std::string help = HelpText(kSpec, options);
  EXPECT_NE(help.find("usage: partplay demo --key PATH [options] FILE\n"
                      "                     --continued\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("\n  -k, --key PATH            wrapped wrapped"), std::string::npos) << help;
  // A spelling longer than the column puts its help on the next line.
  EXPECT_NE(help.find("\n      --a-very-long-option-name WITH_A_VALUE\n"
                      "                            short\n"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("\n  -h, --help                print this help and exit\n"),
            std::string::npos);
  size_t start = 0;
  while (start < help.size()) {
    size_t end = help.find('\n', start);
    EXPECT_LE(end - start, 80u) << help.substr(start, end - start);
    start = end + 1;
  }
}

TEST(CliArgsTest, Numbers) {
  double d = 0;
  EXPECT_TRUE(ParseNumber("2.5e3", d));
  EXPECT_EQ(d, 2500);
  EXPECT_FALSE(ParseNumber("1e400", d));
  EXPECT_FALSE(ParseNumber("12x", d));
  EXPECT_FALSE(ParseNumber("", d));
  int64_t n = 0;
  EXPECT_TRUE(ParseCount("123456789012345678", n));
  EXPECT_FALSE(ParseCount("1234567890123456789", n));  // 19 digits could overflow
  EXPECT_FALSE(ParseCount("-1", n));
}

}  // namespace
}  // namespace partplay::cli
