#include "cli_io.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace partplay::cli {
namespace {

constexpr size_t kChunkBytes = 1u << 20;

StatusOr<FILE*> Open(const std::string& file) {
  FILE* in = file == "-" ? stdin : std::fopen(file.c_str(), "rb");
  if (in == nullptr) {
    return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file, std::strerror(errno)));
  }
  return in;
}

void Close(FILE* in) {
  if (in != stdin) std::fclose(in);
}

}  // namespace

StatusOr<std::string> ReadWholeFile(const std::string& file) {
  PARTPLAY_ASSIGN_OR_RETURN(FILE * in, Open(file));
  std::string out;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0) out.append(buffer, n);
  bool failed = std::ferror(in) != 0;
  Close(in);
  if (failed) return Status(ErrorCode::kIo, fmt::format("cannot read {}", file));
  return out;
}

Status FeedAnalyzer(Analyzer& analyzer, const std::string& file) {
  PARTPLAY_ASSIGN_OR_RETURN(FILE * in, Open(file));
  Status status;
  while (status.ok()) {
    uint8_t* at = analyzer.WritableChunk(kChunkBytes);
    if (at == nullptr) {
      status = Status(ErrorCode::kOutOfMemory, "no memory for the input buffer");
      break;
    }
    size_t n = std::fread(at, 1, kChunkBytes, in);
    if (n == 0) {
      if (std::ferror(in)) status = Status(ErrorCode::kIo, fmt::format("cannot read {}", file));
      break;
    }
    status = analyzer.CommitChunk(n);
  }
  Close(in);
  if (status.ok()) status = analyzer.Finish();
  return status;
}

}  // namespace partplay::cli
