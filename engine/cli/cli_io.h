// The CLI's input and output, shared by its commands:
//  - input: a whole (small) file, or a stream fed 1 MiB at a time straight into an engine's own
//    buffer (an Analyzer, a cql::BulkLoad: anything with WritableChunk/CommitChunk/Finish), with
//    progress on stderr and Ctrl-C checked between chunks. "-" means stdin;
//  - output: stdout, or a FILE written whole or not at all (Output);
//  - Ctrl-C: CatchInterrupts() makes the first SIGINT set a flag that the read loop and
//    Output::Commit check, so the command ends with kInterrupted (exit status 130), its partial
//    state dropped and no output file half-written. Work that cannot check the flag (building a
//    report) is cut short by a watchdog thread 1/2 s later: it removes the pending output files
//    and ends the process with status 130. A second Ctrl-C ends the process at once.
// A gzip file (or stream: its first bytes say so, whatever its name) is decompressed on the way
// in through zlib, so sizes are the uncompressed bytes'. Errors are kIo statuses naming the file
// (a truncated or corrupt .gz too).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cli_args.h"
#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay::cli {

// Installs the SIGINT handler (it only sets a flag) and starts the watchdog. Commands whose
// work stops between chunks call it; the others keep the default (Ctrl-C ends them at once).
// `json_errors`: the watchdog says it as the JSON error line (--format json) rather than text.
void CatchInterrupts(bool json_errors = false);
// Whether SIGINT arrived since CatchInterrupts().
bool Interrupted();
// The status a command returns once it saw Interrupted(): kInterrupted, exit status 130.
Status InterruptedStatus();

// 1234567 -> "1,234,567", as the progress line writes counts.
std::string GroupDigits(uint64_t n);

// A progress line on stderr, redrawn in place at most 4 times a second and erased at the end:
//   partplay analyze: 1.2 GB of 3.0 GB (40%), 4,100,000 items, 180 MB/s, 10 s left
// Drawn when mode is kOn, or kAuto and stderr is a terminal; otherwise every call is a no-op.
// Used from one thread (workers reading in parallel sum their counts for it).
class Progress {
 public:
  // `label` starts the line ("partplay analyze"); `unit` names what count() counts ("items",
  // "rows"); `total` is the bytes expected, when known (a regular file), for the percentage
  // and the time left.
  Progress(ProgressMode mode, std::string label, std::string unit,
           std::optional<uint64_t> total = std::nullopt);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  // `bytes` read so far and `count` items; redraws if 1/4 s has passed (the first call draws).
  void Update(uint64_t bytes, uint64_t count);
  // A step after the reading ("building the report"), drawn at once.
  void Step(std::string_view what);
  // Erases the line (the destructor does too).
  void Clear();

 private:
  void Draw(const std::string& text);

  bool enabled_;
  bool drawn_ = false;
  std::string label_, unit_;
  std::optional<uint64_t> total_;
  int64_t start_ns_;
  int64_t last_draw_ns_ = 0;
};

// Where FeedFile puts the bytes: an engine object fed in chunks.
struct ChunkSink {
  std::function<uint8_t*(size_t)> writable;  // room for n bytes, null when out of memory
  std::function<Status(size_t)> commit;      // n bytes were written there
  std::function<Status()> finish;            // the input ended
  std::function<uint64_t()> count;           // items (rows) so far, for the progress line
};

// Any engine object with WritableChunk/CommitChunk/Finish, and a function counting its items:
//   cli::SinkOf(*load, [&] { return load->rows(); })
template <typename T>
ChunkSink SinkOf(T& target, std::function<uint64_t()> count) {
  return {[&target](size_t n) { return target.WritableChunk(n); },
          [&target](size_t n) { return target.CommitChunk(n); },
          [&target]() { return target.Finish(); }, std::move(count)};
}

struct FeedOptions {
  ProgressMode progress = ProgressMode::kAuto;
  std::string label = "partplay";  // the progress line's start
  std::string unit = "items";
};

// Streams FILE (or stdin for "-") into the sink 1 MiB at a time straight into its buffer, then
// finishes it. Stops with InterruptedStatus() when Ctrl-C arrives (checked between chunks and
// when a read is interrupted). `progress`, when given, is updated as the bytes go by and left
// drawn (the caller clears it or steps on), so the steps after the reading can be shown too.
// Several files in a row share one line: give the Progress their summed InputSize and each
// FeedFile the bytes of the files before it (`bytes_before`).
Status FeedFile(const std::string& file, const ChunkSink& sink, Progress* progress = nullptr,
                uint64_t bytes_before = 0);

// The total bytes FILE holds (a regular file, or stdin redirected from one), if known.
std::optional<uint64_t> InputSize(const std::string& file);

// FeedFile into an Analyzer.
Status FeedAnalyzer(Analyzer& analyzer, const std::string& file, Progress* progress = nullptr);

// Reads FILE (or stdin for "-") whole. With `progress`, its bytes (as stored) and lines are
// drawn as they are read, and Ctrl-C stops the reading (InterruptedStatus()).
StatusOr<std::string> ReadWholeFile(const std::string& file, Progress* progress = nullptr);

// Where a command writes its result: stdout ("" or "-"), or FILE written whole or not at all:
// the bytes go to a temporary file in FILE's directory (so the rename is atomic), which Commit
// renames over FILE; an Output destroyed uncommitted (an error, Ctrl-C) removes it.
//
//   PARTPLAY_ASSIGN_OR_RETURN(auto out, Output::Open(path));
//   out->Write(text);  ...  return out->Commit();
class Output {
 public:
  static StatusOr<std::unique_ptr<Output>> Open(const std::string& path);
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void Write(std::string_view bytes);
  std::FILE* stream() const { return file_; }
  bool is_file() const { return !path_.empty(); }
  // Flushes and checks every write; then, unless Ctrl-C arrived (InterruptedStatus()), renames
  // the temporary file over FILE. On any failure the temporary file is removed.
  Status Commit();

 private:
  Output(std::string path, std::string temp, std::FILE* file)
      : path_(std::move(path)), temp_(std::move(temp)), file_(file) {}
  void Discard();

  std::string path_;  // empty for stdout
  std::string temp_;
  std::FILE* file_;
  uint64_t written_ = 0;  // bytes given to Write
  uint64_t started_ = 0;  // bytes whose disk writes have started (Write)
  bool done_ = false;
};

}  // namespace partplay::cli
