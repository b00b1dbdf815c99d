// Sharded analysis on the command line: `analyze --jobs N` (parts of one file on threads, then
// merged), `analyze --partial-out FILE` (the analysis as a mergeable partial state) and
// `merge FILE...` (partial states merged into one analysis). docs/sharding.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli_io.h"
#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"
#include "partplay/ingest/parts_plan.h"

namespace partplay::cli {

// The machine's cores (at least 1): what PlanParts (ingest/parts_plan.h) cuts for without --jobs.
int MachineCores();

// Lends the engine up to `threads` threads for its passes over every partition (the container
// model's; core/tasks.h): each task but the first gets a thread of its own for its run.
void LendThreads(int threads);

// Analyzes FILE ("-": stdin). A `plan` of several parts (ingest/parts_plan.h: a regular file,
// no random-suffix key) splits a file of whitespace-separated objects (NDJSON) at item
// boundaries (ingest/split_points.h) into up to plan.parts parts of at least
// plan.min_part_bytes, analyzes them on threads and merges them; a JSON array or a file with no
// safe boundary is one part. When the parts fail, RetryParts decides: again with id records, or
// the file in one pass, so the error is exactly one pass's. A non-empty `partial_out` analyzes
// FILE as one part and also writes its partial state there (through a temporary file renamed
// into place). `progress` (cli_io.h) is drawn over the bytes and items of all parts together;
// Ctrl-C stops every part between two chunks with InterruptedStatus().
StatusOr<std::unique_ptr<Analyzer>> RunAnalysis(const AnalysisOptions& options,
                                                const std::string& file, const PartsPlan& plan,
                                                const std::string& partial_out,
                                                Progress* progress = nullptr);

// Reads partial states written by --partial-out and merges them in the order given. `progress`
// (cli_io.h) is updated after each file with the bytes and parts read so far; Ctrl-C between
// files stops it with InterruptedStatus().
StatusOr<std::unique_ptr<Analyzer>> MergePartialFiles(const std::vector<std::string>& files,
                                                      Progress* progress = nullptr);

}  // namespace partplay::cli
