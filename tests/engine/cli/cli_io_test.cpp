// The CLI's output files (whole or not at all) and its chunked input.
#include "cli_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace partplay::cli {
namespace {

namespace fs = std::filesystem;

// A fresh directory, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "pp-cli-io-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
};

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CliOutputTest, CommitRenamesTheWholeFileIntoPlace) {
  TempDir dir;
  std::string file = (dir.path / "out.json").string();
  auto out = Output::Open(file);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  out.value()->Write("{\"a\":");
  // Until the commit only the temporary file exists, beside the target.
  std::vector<std::string> during = dir.Names();
  ASSERT_EQ(during.size(), 1u);
  EXPECT_EQ(during[0].rfind(".out.json.partplay-", 0), 0u) << during[0];
  out.value()->Write("1}\n");
  ASSERT_TRUE(out.value()->Commit().ok());
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"out.json"});
  EXPECT_EQ(Read(file), "{\"a\":1}\n");
}

// A file of many mebibytes (its disk writes start every 1 MiB, before the commit's fsync) holds
// every byte written, in order.
TEST(CliOutputTest, ALargeFileKeepsEveryByteInOrder) {
  TempDir dir;
  std::string file = (dir.path / "big.json").string();
  auto out = Output::Open(file);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  std::string expected;
  for (size_t i = 0; expected.size() < (27u << 20); ++i) {
    std::string piece(1 + (i * 7919) % (3u << 20), static_cast<char>('a' + i % 26));
    out.value()->Write(piece);
    expected += piece;
  }
  ASSERT_TRUE(out.value()->Commit().ok());
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"big.json"});
  std::string written = Read(file);
  EXPECT_EQ(written.size(), expected.size());
  EXPECT_TRUE(written == expected);
}

TEST(CliOutputTest, AnUncommittedOutputLeavesNothingAndKeepsAnOldFile) {
  TempDir dir;
  std::string file = (dir.path / "out.json").string();
  {
    auto out = Output::Open(file);
    ASSERT_TRUE(out.ok());
    out.value()->Write("partial");
  }
  EXPECT_TRUE(dir.Names().empty());
  std::ofstream(file) << "before";
  {
    auto out = Output::Open(file);
    ASSERT_TRUE(out.ok());
    out.value()->Write("partial");
  }
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"out.json"});
  EXPECT_EQ(Read(file), "before");
}

TEST(CliOutputTest, AnUnwritablePlaceIsAnIoError) {
  TempDir dir;
  auto missing = Output::Open((dir.path / "no-such-dir" / "out.json").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kIo);
  auto directory = Output::Open(dir.path.string() + "/");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().code(), ErrorCode::kIo);
}

TEST(CliOutputTest, DashIsStdout) {
  auto out = Output::Open("-");
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out.value()->is_file());
  EXPECT_EQ(out.value()->stream(), stdout);
}

// A sink collecting the bytes and counting commits.
struct Collector {
  std::string buffer, committed;
  int commits = 0;
  bool finished = false;
  uint8_t* WritableChunk(size_t n) {
    buffer.resize(n);
    return reinterpret_cast<uint8_t*>(buffer.data());
  }
  Status CommitChunk(size_t n) {
    committed.append(buffer, 0, n);
    ++commits;
    return Status::Ok();
  }
  Status Finish() {
    finished = true;
    return Status::Ok();
  }
};

TEST(CliFeedTest, StreamsAFileInMebibyteChunksThenFinishes) {
  TempDir dir;
  std::string file = (dir.path / "in.ndjson").string();
  std::string text;
  for (int i = 0; text.size() < (5u << 19); ++i) text += "{\"i\":" + std::to_string(i) + "}\n";
  std::ofstream(file, std::ios::binary) << text;
  EXPECT_EQ(InputSize(file), text.size());
  Collector c;
  Status s = FeedFile(file, SinkOf(c, [&c] { return static_cast<uint64_t>(c.commits); }));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(c.committed, text);
  EXPECT_EQ(c.commits, 3);  // 2.5 MiB: two full chunks and a half one
  EXPECT_TRUE(c.finished);
}

TEST(CliFeedTest, AMissingFileIsAnIoErrorNamingIt) {
  Collector c;
  Status s = FeedFile("/no/such/file.json", SinkOf(c, [] { return uint64_t{0}; }));
  EXPECT_EQ(s.code(), ErrorCode::kIo);
  EXPECT_NE(s.message().find("/no/such/file.json"), std::string::npos);
  EXPECT_FALSE(c.finished);
  EXPECT_FALSE(InputSize("/no/such/file.json").has_value());
}

TEST(CliProgressTest, OffMeansNothingIsDrawn) {
  testing::internal::CaptureStderr();
  {
    Progress p(ProgressMode::kOff, "partplay test", "items", 100);
    EXPECT_FALSE(p.enabled());
    p.Update(50, 5);
    p.Step("later");
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(CliProgressTest, OnDrawsTheFirstUpdateAndErasesAtTheEnd) {
  testing::internal::CaptureStderr();
  {
    Progress p(ProgressMode::kOn, "partplay test", "rows", 2'000'000);
    p.Update(1'000'000, 12345);
  }
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("\rpartplay test: 1.0 MB of 2.0 MB (50%), 12,345 rows", 0), 0u) << err;
  EXPECT_EQ(err.substr(err.size() - 4), "\r\x1b[K");
}

}  // namespace
}  // namespace partplay::cli
