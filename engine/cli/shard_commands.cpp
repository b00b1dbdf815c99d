#include "shard_commands.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

#include "cli_io.h"
#include "partplay/core/tasks.h"
#include "partplay/ingest/split_points.h"

namespace partplay::cli {
namespace {

constexpr size_t kChunkBytes = 1u << 20;

// A file read by ranges with pread (not mapped: mapped pages would count in the process's
// memory, and each part needs only its 1 MiB chunk at a time).
class RangeFile {
 public:
  ~RangeFile() {
    if (fd_ >= 0) close(fd_);
  }
  Status Open(const std::string& file) {
    name_ = file;
    fd_ = open(file.c_str(), O_RDONLY);
    if (fd_ < 0) {
      return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file, std::strerror(errno)));
    }
    struct stat st;
    if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      return Status(ErrorCode::kIo, fmt::format("cannot read {} by ranges", file));
    }
    size_ = static_cast<uint64_t>(st.st_size);
    return Status::Ok();
  }
  uint64_t size() const { return size_; }
  // Up to n bytes at `offset` into `out` (fewer only at the end of the file).
  Status Read(uint64_t offset, size_t n, char* out, size_t& got) const {
    got = 0;
    while (got < n) {
      ssize_t r = pread(fd_, out + got, n - got, static_cast<off_t>(offset + got));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return Status(ErrorCode::kIo, fmt::format("cannot read {}", name_));
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    return Status::Ok();
  }
  std::string Window(uint64_t offset, size_t n) const {
    std::string out(n, '\0');
    size_t got = 0;
    if (!Read(offset, n, out.data(), got).ok()) got = 0;
    out.resize(got);
    return out;
  }

 private:
  std::string name_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

// What a part's thread has done so far, read by the thread that draws the progress line.
struct PartProgress {
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> items{0};
};

// Feeds bytes [begin, end) of the file into the analyzer 1 MiB at a time, straight into its
// buffer, then finishes it; stops between chunks on Ctrl-C.
Status FeedRange(Analyzer& analyzer, const RangeFile& file, uint64_t begin, uint64_t end,
                 PartProgress& progress) {
  analyzer.ExpectInputBytes(end - begin);
  for (uint64_t at = begin; at < end; at += kChunkBytes) {
    if (Interrupted()) return InterruptedStatus();
    size_t n = static_cast<size_t>(std::min<uint64_t>(kChunkBytes, end - at));
    uint8_t* into = analyzer.WritableChunk(n);
    if (into == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input buffer");
    size_t got = 0;
    PARTPLAY_RETURN_IF_ERROR(file.Read(at, n, reinterpret_cast<char*>(into), got));
    if (got != n) return Status(ErrorCode::kIo, "the file shrank while it was read");
    PARTPLAY_RETURN_IF_ERROR(analyzer.CommitChunk(n));
    progress.bytes.store(at + n - begin, std::memory_order_relaxed);
    progress.items.store(analyzer.items_seen(), std::memory_order_relaxed);
  }
  return analyzer.Finish();
}

// The cuts of SplitSearch (ingest/split_points.h), reading the windows it asks for.
std::vector<uint64_t> FileSplitPoints(const RangeFile& file, const PartsPlan& plan) {
  SplitSearch search(file.size(), static_cast<size_t>(plan.parts), plan.min_part_bytes,
                     plan.first_part_weight);
  while (!search.done()) search.Offer(file.Window(search.window_offset(), search.window_length()));
  return search.cuts();
}

StatusOr<std::unique_ptr<Analyzer>> OnePass(const AnalysisOptions& options,
                                            const std::string& file, Progress* progress) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> analyzer, Analyzer::Create(options));
  PARTPLAY_RETURN_IF_ERROR(FeedAnalyzer(*analyzer, file, progress));
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

// The error of a merge of `files`, the part it names ("part 3 ...") named by its file too.
Status NamePart(const Status& s, const std::vector<std::string>& files) {
  std::string_view m = s.message();
  size_t digits = 0;
  while (m.size() > 5 + digits && m.substr(0, 5) == "part " &&
         m[5 + digits] >= '0' && m[5 + digits] <= '9') {
    ++digits;
  }
  uint64_t k = 0;
  for (size_t i = 0; i < digits && k < files.size() + 1; ++i) k = k * 10 + (m[5 + i] - '0');
  if (digits == 0 || k < 1 || k > files.size()) return s;
  return Status(s.code(), fmt::format("{}: {}", files[k - 1], m), s.where());
}

// Reads the partial states FILES, each error named by its file, for a merge in their order.
StatusOr<std::vector<std::unique_ptr<Analyzer>>> ReadParts(const std::vector<std::string>& files,
                                                           Progress* progress) {
  std::vector<std::unique_ptr<Analyzer>> parts;
  uint64_t bytes_read = 0;
  for (const std::string& file : files) {
    if (Interrupted()) return InterruptedStatus();
    PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(file));
    bytes_read += bytes.size();
    auto part = Analyzer::ParsePartial(bytes);
    if (!part.ok()) {
      return Status(part.status().code(), fmt::format("{}: {}", file, part.status().message()),
                    part.status().where());
    }
    parts.push_back(std::move(part).value());
    if (progress) progress->Update(bytes_read, parts.size());
  }
  if (progress) progress->Step(fmt::format("{} parts read; merging", parts.size()));
  return parts;
}

// FILES read and merged in their order (`keep_state`: into a part again, Analyzer::MergeToPart),
// an error about one of them naming its file.
StatusOr<std::unique_ptr<Analyzer>> MergeNamed(const std::vector<std::string>& files,
                                               bool keep_state, Progress* progress) {
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<std::unique_ptr<Analyzer>> parts,
                            ReadParts(files, progress));
  auto merged = keep_state ? Analyzer::MergeToPart(std::move(parts))
                           : Analyzer::Merge(std::move(parts));
  if (!merged.ok()) return NamePart(merged.status(), files);
  return merged;
}

// The parts between `cuts` (the file's start and end included) on a thread each, merged.
StatusOr<std::unique_ptr<Analyzer>> RunParts(const AnalysisOptions& options,
                                             const std::string& file, const RangeFile& input,
                                             const std::vector<uint64_t>& cuts, PartIds ids,
                                             Progress* progress) {
  size_t n = cuts.size() - 1;
  std::vector<std::unique_ptr<Analyzer>> parts(n);
  std::vector<Status> results(n);
  for (size_t k = 0; k < n; ++k) {
    PARTPLAY_ASSIGN_OR_RETURN(parts[k], Analyzer::CreatePart(options, /*first=*/k == 0, ids));
  }
  std::vector<PartProgress> read(n);
  std::mutex mutex;
  std::condition_variable ended;
  size_t parts_ended = 0;
  std::vector<std::thread> threads;
  for (size_t k = 0; k < n; ++k) {
    threads.emplace_back([&, k] {
      results[k] = FeedRange(*parts[k], input, cuts[k], cuts[k + 1], read[k]);
      std::lock_guard<std::mutex> lock(mutex);
      ++parts_ended;
      ended.notify_one();
    });
  }
  // This thread draws the parts' progress, summed, every 20 ms until they have all ended, and
  // goes on as soon as the last one has.
  for (;;) {
    if (progress) {
      uint64_t bytes = 0, items = 0;
      for (const PartProgress& p : read) {
        bytes += p.bytes.load(std::memory_order_relaxed);
        items += p.items.load(std::memory_order_relaxed);
      }
      progress->Update(bytes, items);
    }
    std::unique_lock<std::mutex> lock(mutex);
    if (ended.wait_for(lock, std::chrono::milliseconds(20), [&] { return parts_ended == n; })) {
      break;
    }
  }
  for (auto& t : threads) t.join();
  for (const Status& s : results) {
    // Ctrl-C: no second pass.
    if (!s.ok() && RetryParts(s.code(), ids == PartIds::kRecorded) == PartsRetry::kStop) return s;
  }
  for (const Status& s : results) {
    // A cut can only misplace an error, never a success; one pass gives the exact error.
    if (!s.ok()) return OnePass(options, file, progress);
  }
  if (progress) progress->Step(fmt::format("{} parts read; merging", n));
  return Analyzer::Merge(std::move(parts));
}

}  // namespace

int MachineCores() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min(n, 1u << 16));
}

void LendThreads(int threads) {
  SetTaskRunner(
      [](size_t n, const std::function<void(size_t)>& task) {
        std::vector<std::thread> others;
        others.reserve(n - 1);
        for (size_t k = 1; k < n; ++k) others.emplace_back([&task, k] { task(k); });
        task(0);
        for (std::thread& t : others) t.join();
      },
      threads);
}

StatusOr<std::unique_ptr<Analyzer>> RunAnalysis(const AnalysisOptions& options,
                                                const std::string& file, const PartsPlan& plan,
                                                const std::string& partial_out,
                                                uint32_t buckets, Progress* progress) {
  if (!partial_out.empty()) {
    PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> part, Analyzer::CreatePart(options));
    Status fed = FeedAnalyzer(*part, file, progress);
    // A part that failed still writes its state: its error is what a merge reports, located.
    if (buckets > 0) {
      PARTPLAY_RETURN_IF_ERROR(WriteBucketFiles(*part, partial_out, buckets, progress));
      PARTPLAY_RETURN_IF_ERROR(fed);
      return part;  // its report is the merge's
    } else {
      PARTPLAY_ASSIGN_OR_RETURN(std::string bytes, part->SerializePartial());
      PARTPLAY_RETURN_IF_ERROR(WriteFileAtomically(partial_out, bytes));
    }
    PARTPLAY_RETURN_IF_ERROR(fed);
    std::vector<std::unique_ptr<Analyzer>> one;
    one.push_back(std::move(part));
    return Analyzer::Merge(std::move(one));
  }
  if (plan.parts <= 1) return OnePass(options, file, progress);
  RangeFile input;
  if (!input.Open(file).ok()) return OnePass(options, file, progress);  // a pipe: stream it
  std::vector<uint64_t> cuts = FileSplitPoints(input, plan);
  if (cuts.empty()) return OnePass(options, file, progress);
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(input.size());
  // The parts keep their ids' hashes only; an id repeated across parts, which they cannot name,
  // makes the merge refuse them (kBadPartial), and the parts are read again with records.
  StatusOr<std::unique_ptr<Analyzer>> merged =
      RunParts(options, file, input, cuts, PartIds::kHashed, progress);
  if (merged.ok()) return merged;
  switch (RetryParts(merged.status().code(), /*id_records=*/false)) {
    case PartsRetry::kStop:
      return merged;
    case PartsRetry::kWithIdRecords:
      break;
    case PartsRetry::kOnePass:
      return OnePass(options, file, progress);
  }
  if (progress) progress->Step("an id repeats across parts; reading the parts again to name it");
  merged = RunParts(options, file, input, cuts, PartIds::kRecorded, progress);
  if (merged.ok() || RetryParts(merged.status().code(), true) == PartsRetry::kStop) return merged;
  return OnePass(options, file, progress);
}

StatusOr<std::unique_ptr<Analyzer>> MergePartialFiles(const std::vector<std::string>& files,
                                                      Progress* progress) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> merged, MergeNamed(files, false, progress));
  if (merged->shard_kind() != "whole") {
    return Status(ErrorCode::kBadPartial,
                  fmt::format("{} is a file of a part cut into {} buckets (analyze --buckets): "
                              "merge --bucket B and merge --summaries read those (docs/sharding.md)",
                              files[0], merged->shard_buckets()));
  }
  return merged;
}

StatusOr<std::string> MergeToPartialState(const std::vector<std::string>& files,
                                          Progress* progress) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> merged, MergeNamed(files, true, progress));
  return merged->SerializePartial();
}

// FILE mapped read-only: its pages are the file's (the kernel drops and reads them again as
// it needs), so summaries far larger than the memory are read in passes, never held.
StatusOr<NamedBytes> MapFile(const std::string& file) {
  const int fd = open(file.c_str(), O_RDONLY);
  if (fd < 0) {
    return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file, std::strerror(errno)));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status(ErrorCode::kIo, fmt::format("cannot map {}: not a regular file", file));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    close(fd);
    return NamedBytes{file, std::string_view(), nullptr};
  }
  void* at = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int error = errno;
  close(fd);
  if (at == MAP_FAILED) {
    return Status(ErrorCode::kIo, fmt::format("cannot map {}: {}", file, std::strerror(error)));
  }
  madvise(at, size, MADV_SEQUENTIAL);
  std::shared_ptr<const void> owner(at, [size](const void* p) {
    munmap(const_cast<void*>(p), size);
  });
  return NamedBytes{file, std::string_view(static_cast<const char*>(at), size), owner};
}

std::string FiguresFile(const std::string& dir) { return dir + "/figures.part"; }

std::string BucketFile(const std::string& dir, uint32_t bucket) {
  return fmt::format("{}/bucket-{:04}.part", dir, bucket);
}

Status WriteBucketFiles(Analyzer& part, const std::string& dir, uint32_t buckets,
                        Progress* progress) {
  // DIR and any directory above it that is missing (as mkdir -p).
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string step = dir.substr(0, slash);
    if (mkdir(step.c_str(), 0777) != 0 && errno != EEXIST) {
      return Status(ErrorCode::kIo, fmt::format("cannot make {}: {}", step, std::strerror(errno)));
    }
    if (slash == std::string::npos) break;
  }
  if (progress) progress->Step(fmt::format("writing {}: its figures and {} buckets", dir, buckets));
  return part.SerializeBuckets(buckets, [&](int file, std::string bytes) {
    return WriteFileAtomically(file < 0 ? FiguresFile(dir)
                                        : BucketFile(dir, static_cast<uint32_t>(file)),
                               bytes);
  });
}

StatusOr<std::string> MergeBucketFiles(const std::vector<std::string>& dirs, uint32_t bucket,
                                       Progress* progress) {
  std::vector<std::string> files;
  for (const std::string& dir : dirs) files.push_back(BucketFile(dir, bucket));
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> merged, MergeNamed(files, false, progress));
  const Analyzer& m = *merged;
  if (m.shard_kind() != "bucket") {
    return Status(ErrorCode::kBadPartial,
                  fmt::format("{} is not a bucket file (analyze --partial-out DIR --buckets K "
                              "writes them)",
                              files[0]));
  }
  // The files hold their bucket's number: one renamed into another's place is refused.
  if (m.shard_bucket() != bucket) {
    return Status(ErrorCode::kBadPartial,
                  fmt::format("{} holds bucket {} of {}, not bucket {}", files[0],
                              m.shard_bucket(), m.shard_buckets(), bucket));
  }
  return m.SerializeBucketSummary();
}

StatusOr<std::unique_ptr<Analyzer>> MergeFiguresFiles(const std::vector<std::string>& dirs,
                                                      Progress* progress) {
  std::vector<std::string> figures;
  for (const std::string& dir : dirs) figures.push_back(FiguresFile(dir));
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Analyzer> merged,
                            MergeNamed(figures, false, progress));
  if (merged->shard_kind() != "figures") {
    return Status(ErrorCode::kBadPartial,
                  fmt::format("{} is not a figures file (analyze --partial-out DIR --buckets K "
                              "writes them)",
                              figures[0]));
  }
  return merged;
}

StatusOr<SummaryMerge> MergeSummaryFiles(const std::string& summaries_dir,
                                         const Analyzer& figures, const ReportOptions& options,
                                         bool every_partition, Progress* progress) {
  DIR* listing = opendir(summaries_dir.c_str());
  if (listing == nullptr) {
    return Status(ErrorCode::kIo,
                  fmt::format("cannot list {}: {}", summaries_dir, std::strerror(errno)));
  }
  std::vector<std::string> names;
  while (dirent* entry = readdir(listing)) {
    std::string_view name = entry->d_name;
    if (name.size() > 4 && name.substr(name.size() - 4) == ".sum") names.emplace_back(name);
  }
  closedir(listing);
  std::sort(names.begin(), names.end());
  std::vector<NamedBytes> summaries;
  for (const std::string& name : names) {
    if (Interrupted()) return InterruptedStatus();
    PARTPLAY_ASSIGN_OR_RETURN(NamedBytes s, MapFile(summaries_dir + "/" + name));
    summaries.push_back(std::move(s));
  }
  if (progress) progress->Step(fmt::format("{} summaries mapped; merging", summaries.size()));
  return MergeBucketSummaries(figures, std::move(summaries), options, every_partition);
}

}  // namespace partplay::cli
