// The CLI's file input, shared by its commands: a whole (small) file, or a stream fed 1 MiB at a
// time into an Analyzer's own buffer. "-" means stdin. A gzip file (or stream: its first bytes
// say so, whatever its name) is decompressed on the way in through zlib, so sizes are the
// uncompressed bytes'. Errors are kIo statuses naming the file (a truncated or corrupt .gz too).
#pragma once

#include <string>

#include "partplay/ingest/analysis.h"
#include "partplay/core/status.h"

namespace partplay::cli {

// Reads FILE (or stdin for "-") whole.
StatusOr<std::string> ReadWholeFile(const std::string& file);

// Streams FILE into the analyzer 1 MiB at a time straight into its buffer, then finishes it.
Status FeedAnalyzer(Analyzer& analyzer, const std::string& file);

}  // namespace partplay::cli
