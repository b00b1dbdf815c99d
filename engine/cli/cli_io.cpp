#include "cli_io.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace partplay::cli {
namespace {

constexpr size_t kChunkBytes = 1u << 20;

// zlib's gz* reader: gzip members are decompressed (one after another when concatenated), other
// bytes pass through unchanged.
StatusOr<gzFile> Open(const std::string& file) {
  gzFile in = file == "-" ? gzdopen(fileno(stdin), "rb") : gzopen(file.c_str(), "rb");
  if (in == nullptr) {
    return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file,
                                              errno ? std::strerror(errno) : "out of memory"));
  }
  gzbuffer(in, 1u << 17);
  return in;
}

// Up to n bytes; 0 at the end.
StatusOr<size_t> Read(gzFile in, const std::string& file, void* at, size_t n) {
  int got = gzread(in, at, static_cast<unsigned>(n < INT_MAX ? n : INT_MAX));
  int state = Z_OK;
  // A gzip stream cut short ends reads with Z_BUF_ERROR, which gzread does not count as failing.
  if (got == 0) gzerror(in, &state);
  if (got < 0 || state != Z_OK) {
    int code = 0;
    std::string_view why = gzerror(in, &code);
    // zlib writes "<path>: <reason>"; the path is in our message already.
    if (size_t colon = why.rfind(": "); colon != std::string_view::npos) {
      why.remove_prefix(colon + 2);
    }
    return Status(
        ErrorCode::kIo,
        fmt::format("cannot read {}: {}", file,
                    code == Z_ERRNO ? std::strerror(errno)
                                    : fmt::format("gzip: {}", why.empty() ? "corrupt" : why)));
  }
  return static_cast<size_t>(got);
}

void Close(gzFile in) { gzclose_r(in); }

}  // namespace

StatusOr<std::string> ReadWholeFile(const std::string& file) {
  PARTPLAY_ASSIGN_OR_RETURN(gzFile in, Open(file));
  std::string out;
  char buffer[1 << 16];
  while (true) {
    StatusOr<size_t> n = Read(in, file, buffer, sizeof buffer);
    if (!n.ok()) {
      Close(in);
      return n.status();
    }
    if (n.value() == 0) break;
    out.append(buffer, n.value());
  }
  Close(in);
  return out;
}

Status FeedAnalyzer(Analyzer& analyzer, const std::string& file) {
  PARTPLAY_ASSIGN_OR_RETURN(gzFile in, Open(file));
  Status status;
  while (status.ok()) {
    uint8_t* at = analyzer.WritableChunk(kChunkBytes);
    if (at == nullptr) {
      status = Status(ErrorCode::kOutOfMemory, "no memory for the input buffer");
      break;
    }
    StatusOr<size_t> n = Read(in, file, at, kChunkBytes);
    if (!n.ok()) {
      status = n.status();
      break;
    }
    if (n.value() == 0) break;
    status = analyzer.CommitChunk(n.value());
  }
  Close(in);
  if (status.ok()) status = analyzer.Finish();
  return status;
}

}  // namespace partplay::cli
