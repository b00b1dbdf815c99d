// Logical-partition analysis of JSON items, incremental: feed the input in chunks of any size,
// then finish. Items are grouped by their partition key value the way Cosmos DB groups them into
// logical partitions (see partition_key.h for key equality; an item without the key belongs to
// the "undefined" partition). Only per-partition aggregates are kept, never the items, so memory
// grows with the number of distinct keys, not with the input.
//
// Accepted input: NDJSON / concatenated objects (whitespace-separated), a JSON array of objects
// (streamed element by element), or one object. Every item is fully validated (RFC 8259, UTF-8);
// the first bad byte stops the analysis with a located Status.
//
//   auto analyzer = Analyzer::Create({.key_paths = {"/userId"}});
//   if (!analyzer.ok()) ...;
//   PARTPLAY_RETURN_IF_ERROR((*analyzer)->Feed(chunk1));
//   PARTPLAY_RETURN_IF_ERROR((*analyzer)->Feed(chunk2));
//   PARTPLAY_RETURN_IF_ERROR((*analyzer)->Finish());
//   AnalysisReport report = (*analyzer)->BuildReport({});
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/limits.h"
#include "partplay/core/status.h"
#include "partplay/ingest/partition_key.h"

namespace partplay {

namespace internal {
struct PartialData;  // src/ingest/partial_data.h
}  // namespace internal

// Items over Cosmos DB's item size (kCosmosItemBytes, core/limits.h) are reported, not dropped.
// The largest single item the engine buffers; a larger one fails with kItemTooLarge.
inline constexpr uint64_t kMaxBufferedItemBytes = 256u * 1024 * 1024;
// How many examples each finding list keeps (counts are always complete).
inline constexpr size_t kMaxFindingExamples = 100;
// Distinct values per candidate path are counted exactly up to this many, then capped.
inline constexpr uint64_t kMaxDistinctPerPath = 100000;
// Candidate paths tracked at most (the first seen win).
inline constexpr size_t kMaxCandidatePaths = 1000;

// A synthetic partition key: one string built per item and used as the key instead of the
// values at key_paths (docs/cosmos-model.md "Synthetic keys").
struct SyntheticKeyOptions {
  enum class Kind {
    kNone,
    kConcat,        // the values at `paths`, joined by `separator` ("abc-123-2018")
    kRandomSuffix,  // the value at key_paths[0], separator, 1 + (random per item) % buckets
    kHashSuffix,  // the value at key_paths[0], separator, 1 + hash(value at suffix_path) % buckets
  };
  Kind kind = Kind::kNone;
  std::vector<std::string> paths;  // kConcat: 2 to 5 paths
  std::string separator = "-";
  uint32_t buckets = 0;     // suffix kinds: N >= 1
  uint64_t seed = 0;        // kRandomSuffix
  std::string suffix_path;  // kHashSuffix
};

struct AnalysisOptions {
  // One path per key component (a hierarchical key has up to 3).
  std::vector<std::string> key_paths = {"/id"};
  // Items scanned for candidate key paths: the first N; -1 = all items; 0 = none.
  int64_t discover_items = 10000;
  // A numeric field summed per logical partition (LogicalPartition::weight), for a workload whose
  // requests follow it; empty = none.
  std::string weight_path;
  // Check every item's "id": present, a string, unique within its logical partition.
  bool check_ids = true;
  SyntheticKeyOptions synthetic;
};

struct LogicalPartition {
  PartitionKey key;
  uint64_t items = 0;
  uint64_t bytes = 0;
  uint64_t largest_item_bytes = 0;
  int64_t largest_item_index = -1;
  double weight = 0;  // sum of the weight_path field over the partition's items
  std::string epk;    // its effective partition key, when a container is modelled (else empty)
};

// One item worth a finding (an oversized item, an item whose key value is invalid).
struct ItemFinding {
  int64_t item_index = 0;
  uint64_t bytes = 0;
  SourceLocation where;  // of the item's first byte
  std::string type;      // invalid key: "object", "array", "number_out_of_range"; missing id:
                         // "missing" or the JSON type found; imprecise number: the literal
};

// One distinct value of a candidate path in the sample, with the items holding it and their bytes
// (what its logical partition would hold in the sample).
struct CandidateValue {
  std::string canonical;  // PartitionKey canonical bytes of the one-component key
  uint64_t items = 0;
  uint64_t bytes = 0;
};

struct CandidatePath {
  std::string path;  // JSON pointer
  uint64_t items = 0;
  uint64_t distinct = 0;
  bool distinct_capped = false;
  uint64_t strings = 0, numbers = 0, booleans = 0, nulls = 0;
  // Every distinct value with its items and bytes, largest bytes first; empty when
  // distinct_capped (then only `distinct` is known, as a lower bound) or when the report was
  // built without them (ReportOptions::candidate_values).
  std::vector<CandidateValue> values;
  // Immutability evidence: sampled items whose "id" was seen before in the sample with this path,
  // and how many of those held a different value here than the first time.
  uint64_t ids_repeated = 0;
  uint64_t ids_changed = 0;
  // Monotonicity evidence: over consecutive sampled items holding this path whose value differs,
  // how many changes there are and how many rise (values ordered as partition keys are).
  uint64_t value_changes = 0;
  uint64_t value_rises = 0;
};

// Every logical partition of an analysis, largest first (the order of AnalysisReport::partitions),
// read one at a time, so a consumer of all of them (the container model) need not build a
// LogicalPartition per partition: the analyzer's list reads its compact table.
class PartitionList {
 public:
  virtual ~PartitionList() = default;
  virtual size_t size() const = 0;
  virtual uint64_t items(size_t i) const = 0;
  virtual uint64_t bytes(size_t i) const = 0;
  virtual double weight(size_t i) const = 0;
  // The key's canonical bytes (partition_key.h), valid as long as the list.
  virtual std::string_view canonical(size_t i) const = 0;
  virtual PartitionKey key(size_t i) const {
    return PartitionKey::FromCanonicalBytes(canonical(i));
  }
  // The whole partition (key decoded, largest item, weight; no EPK).
  virtual LogicalPartition partition(size_t i) const = 0;
  // The same into `out`, reusing its key's memory (a listing of every partition).
  virtual void partition_into(size_t i, LogicalPartition& out) const { out = partition(i); }
  // A hint from a loop over i = 0, 1, 2...: start loading what the next few i will read, so a
  // list whose order is not its memory's order costs no cache miss per partition.
  virtual void read_ahead(size_t i) const { (void)i; }
  // The same for a later items(i) and bytes(i) alone, in any order.
  virtual void read_sizes_ahead(size_t i) const { (void)i; }
  // Calls visit(i, canonical(i)) for every i once, in the order the list's memory holds the
  // partitions, so a pass over every key whose results go to arrays indexed by i reads memory
  // in sequence; stops when visit returns false. coming(j), when given, is called a few visits
  // before visit(j), for the caller to start loading where that result goes. By default
  // i = 0, 1, 2...
  void VisitInMemoryOrder(const std::function<bool(size_t, std::string_view)>& visit,
                          const std::function<void(size_t)>& coming = nullptr) const {
    VisitStretchInMemoryOrder(0, size(), visit, coming);
  }
  // The same over the stretch [begin, end) of that order only: stretches that cover [0, size())
  // visit every partition once, and may be visited on several threads at once.
  virtual void VisitStretchInMemoryOrder(size_t begin, size_t end,
                                         const std::function<bool(size_t, std::string_view)>& visit,
                                         const std::function<void(size_t)>& coming) const {
    (void)coming;
    for (size_t i = begin; i < end && i < size(); ++i) {
      read_ahead(i);
      if (!visit(i, canonical(i))) return;
    }
  }
};

// A vector of partitions (e.g. a report's full list) as a PartitionList; the vector must outlive
// it.
class LogicalPartitionList : public PartitionList {
 public:
  explicit LogicalPartitionList(const std::vector<LogicalPartition>& partitions);
  size_t size() const override { return partitions_.size(); }
  uint64_t items(size_t i) const override { return partitions_[i].items; }
  uint64_t bytes(size_t i) const override { return partitions_[i].bytes; }
  double weight(size_t i) const override { return partitions_[i].weight; }
  std::string_view canonical(size_t i) const override { return canonical_[i]; }
  PartitionKey key(size_t i) const override { return partitions_[i].key; }
  LogicalPartition partition(size_t i) const override { return partitions_[i]; }

 private:
  const std::vector<LogicalPartition>& partitions_;
  std::vector<std::string> canonical_;
};

struct ReportOptions {
  // How many partitions `partitions` lists (largest first); -1 = all.
  int64_t max_partitions = -1;
  // Whether candidate_paths carry their values (what the key advisor ranks); without them a
  // report of a big sample skips copying and sorting every distinct value.
  bool candidate_values = true;
  // Sorts every partition into the report's order and keeps it (AllPartitions reuses it), for
  // a caller that reads them all in that order next; the sizes and the listed partitions are
  // then read off it instead of sorted and selected on their own. The same report either way.
  bool keep_size_order = false;
};

struct AnalysisReport {
  std::string format;  // "ndjson", "array", "object"
  std::vector<std::string> key_paths;
  uint64_t items = 0;
  uint64_t bytes = 0;
  uint64_t input_bytes = 0;
  uint64_t partition_count = 0;
  bool has_largest = false;
  LogicalPartition largest;  // without largest_item_* (see partitions)
  double mean_partition_bytes = 0;
  uint64_t top1_partitions = 0;
  uint64_t top1_bytes = 0;
  double top1_share = 0;
  double gini = 0;
  uint64_t undefined_key_items = 0;
  uint64_t invalid_key_items = 0;
  uint64_t invalid_key_bytes = 0;
  std::vector<ItemFinding> invalid_key_examples;
  uint64_t oversized_items = 0;
  std::vector<ItemFinding> oversized_examples;
  // check_ids: items without a string "id", and items whose id repeats one seen before in the
  // same logical partition.
  uint64_t missing_id_items = 0;
  std::vector<ItemFinding> missing_id_examples;
  uint64_t duplicate_id_items = 0;
  std::vector<ItemFinding> duplicate_id_examples;
  // Key values that are integers beyond +-2^53 or literals a double cannot hold exactly.
  uint64_t imprecise_number_items = 0;
  std::vector<ItemFinding> imprecise_number_examples;
  // weight_path: items whose value there is missing or not a number (they weigh 0).
  uint64_t weight_missing_items = 0;
  std::vector<LogicalPartition> partitions;  // largest first
  uint64_t partitions_omitted = 0;
  std::vector<double> partition_bytes;  // every partition's bytes, largest first
  uint64_t sampled_items = 0;
  std::vector<CandidatePath> candidate_paths;  // most common first
};

// What a part made by Analyzer::CreatePart keeps of its ids for a merge (CreatePart says more).
enum class PartIds { kRecorded, kHashed };

class Analyzer {
 public:
  static StatusOr<std::unique_ptr<Analyzer>> Create(const AnalysisOptions& options);
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // Zero-copy feeding: space for up to `n` bytes at the end of the engine's input buffer (valid
  // until the next call); write the bytes there, then CommitChunk(n). Null when out of memory.
  uint8_t* WritableChunk(size_t n);
  Status CommitChunk(size_t n);
  // Copying convenience: WritableChunk + memcpy + CommitChunk.
  Status Feed(std::string_view bytes);
  // The input is complete: analyzes what is left and checks nothing is cut short.
  Status Finish();

  // A hint: the input's size in bytes (a file's), before or while feeding. The id set (and,
  // keyed by /id, the table) then grows straight to the size the items so far suggest for the
  // whole input, instead of doubling all the way there. Never changes a result. The CLI gives
  // it (less memory and time natively); the page does not: in a wasm heap, which never shrinks
  // and grows in 20% steps, it measured more memory and no gain.
  void ExpectInputBytes(uint64_t bytes);

  uint64_t bytes_consumed() const;
  uint64_t items_seen() const;
  // Of those, the items simdjson's DOM parser validated whole and the analyzer then read at its
  // paths, or every value of a sampled item (the fast path); the others were walked value by
  // value (whatever the fast path left). For tests and the benchmark.
  uint64_t items_validated() const;
  // Of the validated items, those the scanner settled without building a DOM (its own stage 2
  // over simdjson's structural index: every value checked, only the tracked paths read).
  uint64_t items_scanned() const;

  // The report; `partitions` lists the largest max_partitions (chosen by partial selection,
  // not a sort of all); the statistics cover every partition.
  AnalysisReport BuildReport(const ReportOptions& options) const;
  // Every partition, largest first, read from the analyzer's table (valid while it lives).
  std::unique_ptr<PartitionList> AllPartitions() const;
  const AnalysisOptions& options() const;

  // Sharded analysis (docs/sharding.md). An input cut at item
  // boundaries into parts, each analyzed by CreatePart (on any thread or machine), then merged
  // in input order, gives the report and the error one Create over the whole input gives:
  // item indices, byte offsets, lines and columns are rebased, ids repeated across parts are
  // found, weight sums are exact, and the --discover sample is the whole input's first N items.
  // A part refuses a random-suffix synthetic key (it depends on the item's global index).
  // `first`: the part that starts the input, merged in memory and never serialized; it keeps no
  // record of where its ids are (no earlier part can hold them): with two parts, about half the
  // memory the id check's records take.
  // `ids`: what a later part keeps so a merge can name an id an earlier part holds (for each
  // (partition, id) pair, or keyed by /id each partition): kRecorded, the first item's place and
  // the id (a partial a user merges later); kHashed, the pairs' hashes only, for parts merged at
  // once by a caller that can read them again: a part keeps them in a column (no set: it checks
  // nothing itself) and sorts it when it ends, the merge checks every part's column in one
  // sweep and refuses (kBadPartial, "made without id records") a repeat it cannot name, across
  // parts or inside one, and the caller analyses the parts again with kRecorded. An input whose
  // ids repeat is then read twice; the others save the records' and the set's time and memory
  // (about 50 bytes an item for a uuid id, and the set's 16).
  static StatusOr<std::unique_ptr<Analyzer>> CreatePart(const AnalysisOptions& options,
                                                        bool first = false,
                                                        PartIds ids = PartIds::kRecorded);
  // A finished (or failed: its error travels) part as the versioned binary partial format. The
  // part is sealed: it takes no more input and only serializes again or merges.
  StatusOr<std::string> SerializePartial();
  // The same bytes handed to `sink` in pieces of at most 1 MiB (each valid during the call), so
  // no copy of the whole is held (a wasm worker copies them out as they come); PartialSize()
  // is their length, known beforehand.
  StatusOr<uint64_t> PartialSize();
  Status SerializePartialTo(const std::function<void(std::string_view)>& sink);
  // Reads a partial back; every size, count and value is checked, and a corrupt, truncated or
  // foreign file is a kBadPartial error whose location's byte_offset is the offending byte.
  static StatusOr<std::unique_ptr<Analyzer>> ParsePartial(std::string_view bytes);
  // The same, keeping the bytes: the partitions are checked but put in no table of their own;
  // a merge adds them straight into its table (one table build less, for millions of them), and
  // finds there a key repeated inside the part (the same kBadPartial, at the same byte; the
  // other problems are found here). For the merge of a part that arrives as bytes (wasm).
  static StatusOr<std::unique_ptr<Analyzer>> ParsePartialForMerge(std::string bytes);
  // Merges parts given in input order (consumed); the result reports like one pass. Errors: the
  // earliest part's error, rebased; kBadPartial when the parts' options differ. Shard files
  // (buckets.h) merge with their own kind only: every part's figures, or one bucket of every
  // part (then SerializeBucketSummary).
  static StatusOr<std::unique_ptr<Analyzer>> Merge(std::vector<std::unique_ptr<Analyzer>> parts);

  // The same merge kept as a part: it serializes (SerializePartial) into a partial state that
  // merges with others like any part, so merges may nest in any grouping ((a+b)+c, a+(b+c)).
  // Takes whole parts with id records (not first); a failed part's error is the merge's.
  static StatusOr<std::unique_ptr<Analyzer>> MergeToPart(
      std::vector<std::unique_ptr<Analyzer>> parts);

  // A finished (or failed) part made with PartIds::kRecorded, not first, cut by key
  // (buckets.h, docs/partial-format.md): `write(-1, bytes)` gets its figures file, then
  // `write(b, bytes)` bucket b's, for b = 0 .. buckets - 1, one file at a time. Seals the part.
  Status SerializeBuckets(uint32_t buckets,
                          const std::function<Status(int file, std::string bytes)>& write);
  // On the Merge of one bucket's files of every part: the bucket's summary (its partitions in
  // the report's order, its duplicate ids, the parts it was merged from).
  StatusOr<std::string> SerializeBucketSummary() const;
  // On the Merge of every part's figures files: the bucket count and the parts' ids, in order.
  uint32_t shard_buckets() const;
  uint32_t shard_bucket() const;  // a merge of bucket files: their bucket
  // A merge's files: "whole" parts, every part's "figures", or one "bucket" of every part.
  std::string_view shard_kind() const;
  std::vector<uint64_t> shard_part_ids() const;

 private:
  class Impl;
  explicit Analyzer(std::unique_ptr<Impl> impl);
  static StatusOr<std::unique_ptr<Analyzer>> MergeParts(
      std::vector<std::unique_ptr<Analyzer>> parts, bool keep_state);
  static StatusOr<std::unique_ptr<Analyzer>> FromPartialData(
      std::unique_ptr<internal::PartialData> data);
  std::unique_ptr<Impl> impl_;
};

}  // namespace partplay
