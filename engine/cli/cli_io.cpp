#include "cli_io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "partplay/report/report_format.h"

namespace partplay::cli {
namespace {

constexpr size_t kChunkBytes = 1u << 20;
constexpr int64_t kRedrawNs = 250'000'000;  // at most 4 redraws a second

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void OnInterrupt(int) { g_interrupted = 1; }

// The temporary files of the Outputs not yet committed, so the watchdog can remove them; the
// mutex also keeps the watchdog from running while Commit decides whether to rename.
std::mutex g_outputs_mutex;
std::vector<std::string>& PendingOutputs() {
  static auto* files = new std::vector<std::string>();  // never destroyed: the watchdog reads it
  return *files;
}

// Ctrl-C is normally seen between two chunks, within milliseconds. Work that cannot look at
// the flag (building a report over millions of partitions) could hold the exit for seconds, so
// a thread started by CatchInterrupts waits for the flag and, if the command has not ended
// kGraceMs later, removes the pending output files and ends the process with status 130.
constexpr int kGraceMs = 500;

// What the watchdog prints, made before any signal (as the command prints errors).
std::string& WatchdogMessage() {
  static auto* message = new std::string();
  return *message;
}

[[noreturn]] void Watchdog() {
  while (g_interrupted == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(kGraceMs));
  std::lock_guard<std::mutex> lock(g_outputs_mutex);
  for (const std::string& temp : PendingOutputs()) ::unlink(temp.c_str());
  const std::string& message = WatchdogMessage();
  ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
  static_cast<void>(ignored);
  ::_exit(static_cast<int>(ErrorCode::kInterrupted));
}

void Forget(const std::string& temp) {
  auto& pending = PendingOutputs();
  for (size_t i = 0; i < pending.size(); ++i) {
    if (pending[i] == temp) {
      pending.erase(pending.begin() + static_cast<ptrdiff_t>(i));
      break;
    }
  }
}

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Decimal units, as MB/s reads: "812 KB", "1.2 GB".
std::string Bytes(double b) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    ++u;
  }
  return u == 0 || b >= 100 ? fmt::format("{:.0f} {}", b, units[u])
                            : fmt::format("{:.1f} {}", b, units[u]);
}

std::string Duration(double seconds) {
  auto s = static_cast<int64_t>(seconds + 0.5);
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, s % 3600 / 60);
}

struct Input {
  int fd;
  bool owned;
};

StatusOr<Input> OpenInput(const std::string& file) {
  if (file == "-") return Input{STDIN_FILENO, false};
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file, std::strerror(errno)));
  }
  return Input{fd, true};
}

// A gzip stream over an input: gzip members are decompressed (one after another when
// concatenated), other bytes pass through unchanged, so sizes are the uncompressed bytes'.
// zlib owns the descriptor it is given (stdin is duplicated, so closing the stream keeps it).
StatusOr<gzFile> OpenGzip(const std::string& file, Input in) {
  int fd = in.owned ? in.fd : ::dup(in.fd);
  gzFile gz = fd < 0 ? nullptr : gzdopen(fd, "rb");
  if (gz == nullptr) {
    if (fd >= 0) ::close(fd);
    return Status(ErrorCode::kIo, fmt::format("cannot open {}: {}", file,
                                              errno ? std::strerror(errno) : "out of memory"));
  }
  gzbuffer(gz, 1u << 17);
  return gz;
}

// Up to n bytes (fewer only at the end, or when Ctrl-C interrupts a read: the caller checks
// Interrupted()); a kIo status names the file and the reason (a truncated or corrupt .gz too).
StatusOr<size_t> ReadGzip(gzFile gz, const std::string& file, uint8_t* at, size_t n) {
  size_t got = 0;
  while (got < n) {
    const size_t want = n - got < static_cast<size_t>(INT_MAX) ? n - got : INT_MAX;
    int r = gzread(gz, at + got, static_cast<unsigned>(want));
    int state = Z_OK;
    // A gzip stream cut short ends reads with Z_BUF_ERROR, which gzread does not count as failing.
    if (r == 0) gzerror(gz, &state);
    if (r < 0 || state != Z_OK) {
      int code = 0;
      std::string_view why = gzerror(gz, &code);
      if (code == Z_ERRNO && errno == EINTR && Interrupted()) break;
      // zlib writes "<path>: <reason>"; the path is in our message already.
      if (size_t colon = why.rfind(": "); colon != std::string_view::npos) {
        why.remove_prefix(colon + 2);
      }
      return Status(
          ErrorCode::kIo,
          fmt::format("cannot read {}: {}", file == "-" ? "stdin" : file,
                      code == Z_ERRNO ? std::string(std::strerror(errno))
                                      : fmt::format("gzip: {}", why.empty() ? "corrupt" : why)));
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

}  // namespace

void CatchInterrupts(bool json_errors) {
  WatchdogMessage() =
      "\r\x1b[K" + (json_errors ? StatusToJson(InterruptedStatus())
                                : fmt::format("partplay: {}\n", InterruptedStatus().ToString()));
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a blocking read returns EINTR, so a stalled stdin does not hold the exit.
  // SA_RESETHAND: a second Ctrl-C finds the default action and ends the process at once.
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
  static std::once_flag started;
  std::call_once(started, [] { std::thread(Watchdog).detach(); });
}

bool Interrupted() { return g_interrupted != 0; }

std::string GroupDigits(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

Status InterruptedStatus() {
  return Status(ErrorCode::kInterrupted, "stopped by Ctrl-C (SIGINT) before the end");
}

Progress::Progress(ProgressMode mode, std::string label, std::string unit,
                   std::optional<uint64_t> total)
    : enabled_(mode == ProgressMode::kOn ||
               (mode == ProgressMode::kAuto && ::isatty(STDERR_FILENO) == 1)),
      label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      start_ns_(NowNs()) {}

Progress::~Progress() { Clear(); }

void Progress::Draw(const std::string& text) {
  // Back to the line's start, the text, then erase what a longer line left. A line as wide as
  // the terminal would wrap and the next \r would not reach its start, so it is cut shorter.
  std::string body = fmt::format("{}: {}", label_, text);
  struct winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 &&
      body.size() >= size.ws_col) {
    body.resize(size.ws_col - 1u);
  }
  std::string line = fmt::format("\r{}\x1b[K", body);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Update(uint64_t bytes, uint64_t count) {
  if (!enabled_) return;
  int64_t now = NowNs();
  if (drawn_ && now - last_draw_ns_ < kRedrawNs) return;
  last_draw_ns_ = now;
  double seconds = static_cast<double>(now - start_ns_) / 1e9;
  double rate = seconds > 0.05 ? static_cast<double>(bytes) / seconds : 0;  // bytes per second
  std::string text = Bytes(static_cast<double>(bytes));
  if (total_ && *total_ > 0) {
    uint64_t total = std::max(*total_, bytes);
    fmt::format_to(std::back_inserter(text), " of {} ({}%)", Bytes(static_cast<double>(total)),
                   bytes * 100 / total);
  } else {
    text += " read";
  }
  fmt::format_to(std::back_inserter(text), ", {} {}", GroupDigits(count), unit_);
  if (rate > 0) {
    fmt::format_to(std::back_inserter(text), ", {}/s", Bytes(rate));
    if (total_ && *total_ > bytes) {
      fmt::format_to(std::back_inserter(text), ", {} left",
                     Duration(static_cast<double>(*total_ - bytes) / rate));
    }
  }
  Draw(text);
}

void Progress::Step(std::string_view what) {
  if (!enabled_) return;
  Draw(std::string(what));
  last_draw_ns_ = NowNs();
}

void Progress::Clear() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

std::optional<uint64_t> InputSize(const std::string& file) {
  struct stat st {};
  bool ok = file == "-" ? ::fstat(STDIN_FILENO, &st) == 0 : ::stat(file.c_str(), &st) == 0;
  if (!ok || !S_ISREG(st.st_mode)) return std::nullopt;
  off_t at = file == "-" ? ::lseek(STDIN_FILENO, 0, SEEK_CUR) : 0;
  if (at < 0 || at > st.st_size) at = 0;
  return static_cast<uint64_t>(st.st_size - at);
}

Status FeedFile(const std::string& file, const ChunkSink& sink, Progress* progress,
                uint64_t bytes_before) {
  PARTPLAY_ASSIGN_OR_RETURN(Input in, OpenInput(file));
  PARTPLAY_ASSIGN_OR_RETURN(gzFile gz, OpenGzip(file, in));
  Status status;
  uint64_t bytes = bytes_before;
  uint64_t uncompressed = 0;
  while (status.ok()) {
    if (Interrupted()) {
      status = InterruptedStatus();
      break;
    }
    uint8_t* at = sink.writable(kChunkBytes);
    if (at == nullptr) {
      status = Status(ErrorCode::kOutOfMemory, "no memory for the input buffer");
      break;
    }
    StatusOr<size_t> read = ReadGzip(gz, file, at, kChunkBytes);
    if (!read.ok()) {
      status = read.status();
      break;
    }
    const size_t n = read.value();
    if (Interrupted()) {
      status = InterruptedStatus();  // the partial chunk is dropped with the rest
      break;
    }
    if (n == 0) break;
    status = sink.commit(n);
    // Progress counts the bytes of the file as stored (compressed for a .gz), like its total.
    uncompressed += n;
    const z_off_t raw = gzoffset(gz);
    bytes = bytes_before + (gzdirect(gz) || raw < 0 ? uncompressed : static_cast<uint64_t>(raw));
    if (progress) progress->Update(bytes, sink.count());
  }
  gzclose_r(gz);
  if (status.ok()) status = sink.finish();
  return status;
}

Status FeedAnalyzer(Analyzer& analyzer, const std::string& file, Progress* progress) {
  // A hint (a gzip file's size is its compressed one: the tables then grow as without it).
  if (std::optional<uint64_t> size = InputSize(file)) analyzer.ExpectInputBytes(*size);
  return FeedFile(file, SinkOf(analyzer, [&analyzer] { return analyzer.items_seen(); }), progress);
}

StatusOr<std::string> ReadWholeFile(const std::string& file, Progress* progress) {
  PARTPLAY_ASSIGN_OR_RETURN(Input in, OpenInput(file));
  PARTPLAY_ASSIGN_OR_RETURN(gzFile gz, OpenGzip(file, in));
  std::string out;
  uint64_t lines = 0;
  uint8_t buffer[1 << 16];
  while (true) {
    if (progress && Interrupted()) {
      gzclose_r(gz);
      return InterruptedStatus();
    }
    StatusOr<size_t> n = ReadGzip(gz, file, buffer, sizeof buffer);
    if (!n.ok()) {
      gzclose_r(gz);
      return n.status();
    }
    if (n.value() == 0) break;
    out.append(reinterpret_cast<const char*>(buffer), n.value());
    if (progress) {
      for (size_t i = 0; i < n.value(); ++i) lines += buffer[i] == '\n';
      const z_off_t raw = gzoffset(gz);
      progress->Update(gzdirect(gz) || raw < 0 ? out.size() : static_cast<uint64_t>(raw), lines);
    }
  }
  gzclose_r(gz);
  return out;
}

StatusOr<std::unique_ptr<Output>> Output::Open(const std::string& path) {
  if (path.empty() || path == "-") {
    return std::unique_ptr<Output>(new Output("", "", stdout));
  }
  // The temporary file sits beside FILE, so rename() replaces FILE in one step.
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty())
    return Status(ErrorCode::kIo, fmt::format("cannot write {}: a directory", path));
  std::string temp = fmt::format("{}.{}.partplay-XXXXXX", dir, base);
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    return Status(ErrorCode::kIo, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  }
  // mkstemp makes the file 0600; give it the mode a plain create would (0666 less the umask).
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) {
    ::close(fd);
    ::unlink(temp.c_str());
    return Status(ErrorCode::kIo, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  }
  {
    std::lock_guard<std::mutex> lock(g_outputs_mutex);
    PendingOutputs().push_back(temp);
  }
  return std::unique_ptr<Output>(new Output(path, std::move(temp), file));
}

Output::~Output() {
  if (!done_) Discard();
}

void Output::Write(std::string_view bytes) {
  if (bytes.empty()) return;
  std::fwrite(bytes.data(), 1, bytes.size(), file_);
  written_ += bytes.size();
#ifdef __linux__
  // Start the disk writes of each full stretch now, so that Commit's fsync waits only for the
  // last one instead of the whole file (a 124 MB listing: about 50 ms less).
  constexpr uint64_t kWriteBehind = 1 << 20;
  if (is_file() && written_ - started_ >= kWriteBehind && std::fflush(file_) == 0) {
    ::sync_file_range(::fileno(file_), static_cast<off64_t>(started_),
                      static_cast<off64_t>(written_ - started_), SYNC_FILE_RANGE_WRITE);
    started_ = written_;
  }
#endif
}

void Output::Discard() {
  done_ = true;
  if (!is_file()) {
    std::fflush(file_);
    return;
  }
  std::fclose(file_);
  std::lock_guard<std::mutex> lock(g_outputs_mutex);
  ::unlink(temp_.c_str());
  Forget(temp_);
}

Status Output::Commit() {
  if (Interrupted()) {
    Discard();
    return InterruptedStatus();
  }
  std::string name = is_file() ? path_ : "stdout";
  bool failed = std::fflush(file_) != 0 || std::ferror(file_) != 0;
  if (!is_file()) {
    done_ = true;
    if (failed) return Status(ErrorCode::kIo, fmt::format("cannot write {}", name));
    return Status::Ok();
  }
  int error = failed ? errno : 0;
  if (!failed && ::fsync(::fileno(file_)) != 0 && errno != EINVAL) {
    failed = true;
    error = errno;
  }
  done_ = true;
  if (std::fclose(file_) != 0 && !failed) {
    failed = true;
    error = errno;
  }
  // Under the lock: the watchdog either removed the file already (and is ending the process)
  // or waits until the file is renamed, or removed after Ctrl-C.
  std::lock_guard<std::mutex> lock(g_outputs_mutex);
  Forget(temp_);
  if (!failed && Interrupted()) {
    ::unlink(temp_.c_str());
    return InterruptedStatus();
  }
  if (!failed && ::rename(temp_.c_str(), path_.c_str()) != 0) {
    failed = true;
    error = errno;
  }
  if (failed) {
    ::unlink(temp_.c_str());
    return Status(ErrorCode::kIo,
                  fmt::format("cannot write {}: {}", name, std::strerror(error ? error : EIO)));
  }
  return Status::Ok();
}

}  // namespace partplay::cli
