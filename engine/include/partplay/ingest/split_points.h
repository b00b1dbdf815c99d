// Where an input may be cut into parts that are analysed apart and merged (Analyzer::CreatePart,
// docs/sharding.md): the one home of the rule, used by the CLI's `analyze --jobs` (windows read
// from the file) and by the page's workers (windows read by File.slice, through the wasm).
//
// A safe cut is the offset just after a newline that follows a '}' and precedes a '{'
// (whitespace aside). In valid JSON such a newline lies between two top-level values: a string
// holds no raw newline, and inside an object or array a '}' is followed by ',' or a closing
// bracket. So NDJSON and concatenated (even pretty-printed) objects are cut between items; a
// JSON array (its first byte is '[') or an input with no such newline near a target is cut into
// fewer parts, down to one. Broken JSON can make a cut fall inside a bad item: callers that must
// report one pass's exact error analyse again in one pass when a part fails.
//
//   SplitSearch search(file_size, /*parts=*/4, /*min_part_bytes=*/1 << 20);
//   while (!search.done()) search.Offer(Read(search.window_offset(), search.window_length()));
//   for (uint64_t cut : search.cuts()) ...;   // increasing, each strictly inside the input
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace partplay {

// The first safe cut at or after `from` in `text`, as an offset into `text`; npos when none is
// seen (a cut needs the '}' before its newline and the '{' after it inside `text`).
size_t NextSafeCut(std::string_view text, size_t from);

// The first part's share against each other part's 1, by where the parts run: the first part
// is analysed where the parts are merged and writes no partial state. Measured on the benchmark
// file (1,000,000 items, /userId, id check on, the later parts keeping their ids' hashes only,
// PartIds::kHashed):
// - in the page (its workers), a pool worker's part costs 1.15x the first's time per byte, its
//   partial state included (27 November 2026; on 28 November 1.05 evened the parts' mean times
//   there but did not shorten the analysis, in 20 alternating runs);
// - in one process (the CLI's --jobs, the later parts merged in memory), the first part costs
//   a little more per byte since the candidate paths' sample was read from its DOM (it also
//   keeps the id set): its part took 0.149-0.165 s against 0.137-0.145 s with 1.05, both
//   0.144-0.152 s with 0.95, and the whole --jobs 2 run a median of 0.181 s against 0.188 s
//   (6 alternating runs, 28 November 2026; before that sample, 1.0 or 1.05 were best).
// (1.3 when later parts recorded every id's place: 1.33x natively, 1.2-1.4x in the page.)
inline constexpr double kFirstPartWeightInPage = 1.15;
inline constexpr double kFirstPartWeightInProcess = 0.95;

// Finds up to parts - 1 safe cuts of an input of `input_size` bytes, near the targets where the
// parts' shares are first_part_weight : 1 : 1 ... (each part at least `min_part_bytes`; the
// weight one of the two above), by asking for windows of the
// input one at a time: the input need not be in memory, and reading it is the caller's (a file,
// a Blob). Looks at most kMaxLookahead bytes past each target; where no cut is found the input
// gets fewer parts.
class SplitSearch {
 public:
  static constexpr size_t kHeadBytes = 1u << 16;        // the first window: where the input starts
  static constexpr size_t kWindowBytes = 1u << 20;      // then windows of this many bytes
  static constexpr size_t kOverlapBytes = 1u << 12;     // read before and after each window
  static constexpr uint64_t kMaxLookahead = 64u << 20;  // past a target

  SplitSearch(uint64_t input_size, size_t parts, uint64_t min_part_bytes,
              double first_part_weight);

  bool done() const { return done_; }
  // The bytes to read next (while !done()).
  uint64_t window_offset() const { return window_offset_; }
  size_t window_length() const { return window_length_; }
  // The bytes of the window asked for: fewer only where the input ends (none ends the search).
  void Offer(std::string_view bytes);
  // The cuts found, increasing; empty: one part.
  const std::vector<uint64_t>& cuts() const { return cuts_; }

 private:
  void StartTarget();
  void AskWindow(uint64_t at);

  uint64_t size_;
  size_t parts_;
  uint64_t min_part_;
  double first_weight_;
  uint64_t from_ = 0;    // the next cut is after this offset
  uint64_t target_ = 0;  // the current target
  uint64_t at_ = 0;      // where the current window's search starts
  size_t k_ = 1;         // the cut being searched for (1-based)
  bool head_ = true;     // the first window (the input's start) is asked for
  bool done_ = false;
  uint64_t window_offset_ = 0;
  size_t window_length_ = 0;
  std::vector<uint64_t> cuts_;
};

// The cuts of an input held in memory (SplitSearch over `text`).
std::vector<uint64_t> SafeSplitPoints(std::string_view text, size_t parts, uint64_t min_part_bytes,
                                      double first_part_weight);

}  // namespace partplay
