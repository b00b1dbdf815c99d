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
#include "partplay/ingest/buckets.h"
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
                                                uint32_t buckets = 0,
                                                Progress* progress = nullptr);

// Reads partial states written by --partial-out and merges them in the order given. `progress`
// (cli_io.h) is updated after each file with the bytes and parts read so far; Ctrl-C between
// files stops it with InterruptedStatus().
StatusOr<std::unique_ptr<Analyzer>> MergePartialFiles(const std::vector<std::string>& files,
                                                      Progress* progress = nullptr);

// The partial states FILES merged (in their order) into one partial state (a merge of merges
// gives what one merge of them all gives).
StatusOr<std::string> MergeToPartialState(const std::vector<std::string>& files,
                                          Progress* progress = nullptr);

// Sharded past one machine (ingest/buckets.h, docs/partial-format.md). A part cut into
// `buckets` files by key, written into DIR (made if missing) as figures.part and
// bucket-NNNN.part, each through a temporary file renamed into place.
std::string FiguresFile(const std::string& dir);
std::string BucketFile(const std::string& dir, uint32_t bucket);
Status WriteBucketFiles(Analyzer& part, const std::string& dir, uint32_t buckets,
                        Progress* progress = nullptr);
// Bucket `bucket` of every part directory DIRS (in input order), merged: its summary's bytes.
StatusOr<std::string> MergeBucketFiles(const std::vector<std::string>& dirs, uint32_t bucket,
                                       Progress* progress = nullptr);
// Every part's figures (DIRS in input order), merged.
StatusOr<std::unique_ptr<Analyzer>> MergeFiguresFiles(const std::vector<std::string>& dirs,
                                                      Progress* progress = nullptr);
// Those figures and every *.sum file of `summaries_dir`: the report.
// `every_partition`: MergeBucketSummaries' (the container model, a JSON listing of them all).
StatusOr<SummaryMerge> MergeSummaryFiles(const std::string& summaries_dir,
                                         const Analyzer& figures, const ReportOptions& options,
                                         bool every_partition, Progress* progress = nullptr);

}  // namespace partplay::cli
