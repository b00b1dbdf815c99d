#include "shard_commands.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include "cli_io.h"

namespace partplay::cli {
namespace {

constexpr size_t kChunkBytes = 1u << 20;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A read-only mapping of a whole file (empty for an empty file).
class MappedFile {
 public:
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
  }
  Status Open(const std::string& file) {
    int fd = open(file.c_str(), O_RDONLY);
    if (fd < 0) {
      return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file, std::strerror(errno)));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      return Status(ErrorCode::kIo, fmt::format("cannot map {}: not a regular file", file));
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        close(fd);
        return Status(ErrorCode::kIo, fmt::format("cannot map {}: {}", file, std::strerror(errno)));
      }
      data_ = p;
    }
    close(fd);
    return Status::Ok();
  }
  std::string_view text() const {
    return data_ == nullptr ? std::string_view()
                            : std::string_view(static_cast<char*>(data_), size_);
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

// Feeds `text` into the analyzer 1 MiB at a time (the engine buffers one item, not the part).
Status FeedText(Analyzer& analyzer, std::string_view text) {
  for (size_t at = 0; at < text.size(); at += kChunkBytes) {
    size_t n = std::min(kChunkBytes, text.size() - at);
    uint8_t* into = analyzer.WritableChunk(n);
    if (into == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input buffer");
    std::memcpy(into, text.data() + at, n);
    PARTPLAY_RETURN_IF_ERROR(analyzer.CommitChunk(n));
  }
  return analyzer.Finish();
}

StatusOr<std::unique_ptr<Analyzer>> OnePass(const AnalysisOptions& options,
                                            const std::string& file) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> analyzer, Analyzer::Create(options));
  PARTPLAY_RETURN_IF_ERROR(FeedAnalyzer(*analyzer, file));
  return analyzer;
}

// Writes `bytes` to FILE through FILE.tmp-PID renamed into place: a reader never sees half.
Status WriteFileAtomically(const std::string& file, std::string_view bytes) {
  std::string temp = fmt::format("{}.tmp-{}", file, static_cast<long>(getpid()));
  FILE* out = std::fopen(temp.c_str(), "wb");
  if (out == nullptr) {
    return Status(ErrorCode::kIo, fmt::format("cannot write {}: {}", temp, std::strerror(errno)));
  }
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  ok = std::fflush(out) == 0 && ok;
  ok = fsync(fileno(out)) == 0 && ok;
  ok = std::fclose(out) == 0 && ok;
  if (!ok || std::rename(temp.c_str(), file.c_str()) != 0) {
    int err = errno;
    std::remove(temp.c_str());
    return Status(ErrorCode::kIo, fmt::format("cannot write {}: {}", file, std::strerror(err)));
  }
  return Status::Ok();
}

}  // namespace

int DefaultJobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min(n, 64u));
}

std::vector<size_t> SafeSplitPoints(std::string_view text, size_t parts, uint64_t min_part_bytes) {
  std::vector<size_t> cuts;
  size_t first = 0;
  while (first < text.size() && IsSpace(text[first])) ++first;
  if (parts < 2 || first >= text.size() || text[first] != '{') return cuts;  // arrays: one part
  size_t step = std::max<size_t>(text.size() / parts, std::max<uint64_t>(min_part_bytes, 1));
  size_t from = first + 1;
  for (size_t k = 1; k < parts; ++k) {
    size_t target = std::max(from, k * step);
    size_t cut = 0;
    for (size_t nl = target; nl < text.size(); ++nl) {
      nl = text.find('\n', nl);
      if (nl == std::string_view::npos) break;
      size_t before = nl;
      while (before > 0 && IsSpace(text[before - 1])) --before;
      size_t after = nl + 1;
      while (after < text.size() && IsSpace(text[after])) ++after;
      if (before > 0 && text[before - 1] == '}' && after < text.size() && text[after] == '{') {
        cut = nl + 1;
        break;
      }
    }
    if (cut == 0) break;
    cuts.push_back(cut);
    from = cut + 1;
  }
  return cuts;
}

StatusOr<std::unique_ptr<Analyzer>> RunAnalysis(const AnalysisOptions& options,
                                                const std::string& file, int jobs,
                                                uint64_t min_part_bytes,
                                                const std::string& partial_out) {
  if (!partial_out.empty()) {
    PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> part, Analyzer::CreatePart(options));
    Status fed = FeedAnalyzer(*part, file);
    // A part that failed still writes its state: its error is what a merge reports, located.
    PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, part->SerializePartial());
    PARTPLAY_RETURN_IF_ERROR(WriteFileAtomically(partial_out, bytes));
    PARTPLAY_RETURN_IF_ERROR(fed);
    std::vector<std::unique_ptr<Analyzer>> one;
    one.push_back(std::move(part));
    return Analyzer::Merge(std::move(one));
  }
  bool random_suffix = options.synthetic.kind == SyntheticKeyOptions::Kind::kRandomSuffix;
  if (jobs <= 1 || file == "-" || random_suffix) return OnePass(options, file);
  MappedFile mapped;
  if (!mapped.Open(file).ok()) return OnePass(options, file);  // a pipe or device: stream it
  std::string_view text = mapped.text();
  std::vector<size_t> cuts = SafeSplitPoints(text, static_cast<size_t>(jobs), min_part_bytes);
  if (cuts.empty()) return OnePass(options, file);
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(text.size());
  size_t n = cuts.size() - 1;
  std::vector<std::unique_ptr<Analyzer>> parts(n);
  std::vector<Status> results(n);
  for (size_t k = 0; k < n; ++k) {
    PARTPLAY_ASSIGN_OR_RETURN(parts[k], Analyzer::CreatePart(options));
  }
  std::vector<std::thread> threads;
  for (size_t k = 0; k < n; ++k) {
    threads.emplace_back(
        [&, k] { results[k] = FeedText(*parts[k], text.substr(cuts[k], cuts[k + 1] - cuts[k])); });
  }
  for (auto& t : threads) t.join();
  for (const Status& s : results) {
    // A cut can only misplace an error, never a success; one pass gives the exact error.
    if (!s.ok()) return OnePass(options, file);
  }
  return Analyzer::Merge(std::move(parts));
}

StatusOr<std::unique_ptr<Analyzer>> MergePartialFiles(const std::vector<std::string>& files) {
  std::vector<std::unique_ptr<Analyzer>> parts;
  for (const std::string& file : files) {
    PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(file));
    auto part = Analyzer::ParsePartial(bytes);
    if (!part.ok()) {
      return Status(part.status().code(), fmt::format("{}: {}", file, part.status().message()),
                    part.status().where());
    }
    parts.push_back(std::move(part).value());
  }
  return Analyzer::Merge(std::move(parts));
}

}  // namespace partplay::cli
