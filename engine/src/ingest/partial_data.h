// Internal: everything one part of an input contributes to the report, with every item index and
// location relative to the part's own start (item 0, byte 0, line 1, column 1). An analyzer made
// by Analyzer::CreatePart seals its state into this; partial_writer.cpp and partial_reader.cpp
// write and read it as the versioned binary partial format (partial_codec.cpp); Analyzer::Merge
// combines parts in input order, rebasing their indices and locations (analyzer_merge.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/radix_sort.h"
#include "ingest/candidate_discovery.h"
#include "ingest/exact_sum.h"
#include "ingest/hash_set64.h"
#include "ingest/item_stream.h"
#include "ingest/partition_table.h"
#include "partplay/core/status.h"
#include "partplay/ingest/analysis.h"

namespace partplay::internal {

// An item's place in its part: what a finding about it needs.
struct ItemRecord {
  int64_t index = 0;
  uint64_t bytes = 0;
  uint64_t byte_offset = 0;
  int64_t line = 1;
  int64_t column = 1;
};

// An item's place as varints (LEB128) relative to the place before (`last`): the zigzagged
// deltas of index, byte offset and line, then bytes and column as they are; 5 to 8 bytes for
// items near each other, against 40 as numbers. ReadRecord checks what it reads lies in the
// part (else false, with what is wrong); SkipRecord steps over one that was checked.
void AppendRecord(std::string& out, const ItemRecord& r, const ItemRecord& last);
bool ReadRecord(std::string_view b, size_t& p, ItemRecord& r, const ItemRecord& last,
                uint64_t items, uint64_t input_bytes, const char*& error);
void SkipRecord(std::string_view b, size_t& p);
// ReadRecord's error for a place outside the part (the caller says whose place it is).
inline constexpr const char kOutsideThePart[] = "lies outside the part";
// What the first record is relative to.
inline constexpr ItemRecord kNoRecord{0, 0, 0, 1, 1};

// A (logical partition, id) pair seen in the part (check_ids with a key other than /id), at its
// first item: a later part holding the same pair holds a duplicate id. A part records one per
// item, so they are kept compact (~50 bytes for a uuid id against ~92 as a struct and a string):
// the hashes as a column, and the records with their ids as one byte string in item order (per
// pair: AppendRecord relative to the pair before, the id's length as a varint, the id).
class IdPairRecords {
 public:
  size_t size() const { return hash_.size(); }
  // XXH3 of the id seeded with the partition's hash (as the one-pass set).
  uint64_t hash(size_t i) const { return hash_[i]; }
  const std::vector<uint64_t>& hashes() const { return hash_; }
  std::string_view records() const {
    return viewed_records_.empty() ? std::string_view(records_) : viewed_records_;
  }
  void Add(uint64_t hash, const ItemRecord& first, std::string_view id);
  // A pair of a part made with PartIds::kHashed: its hash alone (no records at all).
  void AddHash(uint64_t hash) {
    hash_.push_back(hash);
    sorted_ = false;
  }
  // Sorts the hashes of a part without records (PartIds::kHashed), smallest first, unless they
  // are, and notes whether one is there twice (RepeatsInside): the merge then finds a repeat
  // across parts in one ascending sweep. Done once, in the part's own thread (Finish), so the
  // merge does not read the column again.
  void SortHashes() {
    if (!records().empty() || sorted_) return;
    if (!std::is_sorted(hash_.begin(), hash_.end())) RadixSortUInt64(hash_.data(), hash_.size());
    repeats_inside_ = std::adjacent_find(hash_.begin(), hash_.end()) != hash_.end();
    sorted_ = true;
  }
  // After SortHashes: whether a hash of the column is there twice.
  bool RepeatsInside() {
    SortHashes();
    return repeats_inside_;
  }
  void Reserve(size_t n) { hash_.reserve(n); }
  // What a reader checked (partial_codec), one record per hash; not added to afterwards.
  void Assign(std::vector<uint64_t> hashes, std::string records) {
    hash_ = std::move(hashes);
    records_ = std::move(records);
    viewed_records_ = {};
    sorted_ = false;
  }
  // The same, the records left in bytes that outlive this (a partial read for a merge keeps
  // its bytes): tens of MB not copied.
  void View(std::vector<uint64_t> hashes, std::string_view records) {
    hash_ = std::move(hashes);
    records_.clear();
    viewed_records_ = records;
    sorted_ = false;
  }
  // Copies viewed records in, before the bytes they are in go.
  void Own() {
    if (viewed_records_.empty()) return;
    records_ = std::string(viewed_records_);
    viewed_records_ = {};
  }

  // Reads the records back in order, checking each against the part's extent; Next answers
  // false (and what is wrong, and where in records()) at the first one that does not hold.
  class Cursor {
   public:
    Cursor(std::string_view records, uint64_t items, uint64_t input_bytes)
        : b_(records), items_(items), input_bytes_(input_bytes) {}
    bool Next(ItemRecord& record, std::string_view& id);
    bool done() const { return p_ == b_.size(); }
    size_t pos() const { return p_; }
    const char* error() const { return error_; }

   private:
    std::string_view b_;
    size_t p_ = 0;
    uint64_t items_, input_bytes_;
    ItemRecord last_ = kNoRecord;
    const char* error_ = nullptr;
  };

 private:
  std::vector<uint64_t> hash_;
  std::string records_;
  std::string_view viewed_records_;  // View's records (empty: records_ holds them)
  ItemRecord last_ = kNoRecord;
  bool sorted_ = false;          // SortHashes ran since the column last changed
  bool repeats_inside_ = false;  // what it found
};

// One sampled item (the part's first discover_items items): its scalar values in walk order,
// so a merge replays the discovery of the first N items of the whole input exactly.
struct SampleItem {
  uint64_t bytes = 0;
  bool has_id = false;  // a string "id" (check_ids)
  uint64_t id_hash = 0;
  uint32_t first_obs = 0, obs_count = 0;  // range in PartialData::sample_obs
};
struct SampleObservation {
  uint32_t path = 0;  // in PartialData::sample_paths
  std::string canonical;
};

// What a partial file is of its part (docs/partial-format.md): the whole part, or, cut by
// `analyze --buckets K`, its figures (extent, counters, findings, the discovery sample) or one
// bucket of its partitions (those whose BucketOf is that bucket, with their id pairs).
enum class ShardKind : uint8_t { kWhole = 0, kFigures = 1, kBucket = 2 };

struct PartialData {
  AnalysisOptions options;
  ShardKind shard = ShardKind::kWhole;
  uint64_t part_id = 0;           // figures and buckets: the same for every file of one part
  uint32_t bucket = 0, buckets = 0;  // a bucket's number and the part's bucket count
  // A part with records (kRecorded, not first): the partition number of each id pair, so its
  // pairs can go to their partition's bucket. Not serialized.
  std::vector<uint32_t> pair_partitions;
  // A first part (CreatePart(…, first = true)) keeps no first-item records (no part precedes it)
  // but hands its (partition, id) set to the merge; it is never serialized.
  bool first = false;
  HashSet64 ids;
  // Whether a later part recorded where its ids are (first_items, id_pairs' records); false for
  // PartIds::kHashed: the id pairs are hashes only, and a merge refuses a repeat it cannot name.
  bool id_records = true;
  Status status;  // the part's error, located in the part; OK when it finished
  InputFormat format = InputFormat::kUnknown;
  uint64_t input_bytes = 0;
  int64_t end_line = 1, end_column = 1;  // the position just past the part's last byte
  uint64_t items = 0, bytes = 0;
  uint64_t undefined_items = 0, invalid_items = 0, invalid_bytes = 0, oversized = 0;
  uint64_t missing_id = 0, duplicate_id = 0, imprecise = 0, weight_missing = 0;
  std::vector<ItemFinding> invalid_examples, oversized_examples, missing_id_examples,
      duplicate_id_examples, imprecise_examples;
  PartitionTable table;
  // Read by ParsePartialData(std::string) for a merge: the partitions were checked but not put
  // in `table`; they stay in `source` (the partial's own bytes) between `partitions_begin` and
  // `partitions_end` (after their count), and the merge adds them straight into its table,
  // finding a key repeated inside the part there (ForEachUnloadedPartition, LoadPartitionTable).
  bool unloaded = false;
  std::string source;
  size_t partitions_begin = 0, partitions_end = 0;
  uint32_t unloaded_partitions = 0;
  std::vector<WeightSum> weights;  // by partition number, when a weight path is set
  std::unordered_map<uint32_t, std::vector<double>> weight_spill;
  // The key is /id alone: each partition's first item (a deque: blocks, so millions of them
  // never double and copy).
  std::deque<ItemRecord> first_items;
  IdPairRecords id_pairs;               // otherwise: each pair's first item, in item order
  std::vector<std::string> sample_paths;
  std::vector<SampleItem> sample_items;
  std::vector<SampleObservation> sample_obs;
  // A first part's sample, observed as it was read (a later part logs it instead).
  std::unique_ptr<CandidateDiscovery> discovery;
};

// Well-formed canonical key bytes (partition_key.h) of `components` components (0: any number).
bool WellFormedCanonical(std::string_view canonical, size_t components);
// Whether two parts were analysed with the same options (a merge's condition).
bool SameOptions(const AnalysisOptions& a, const AnalysisOptions& b);

// Whether the analysis keys by /id alone (then the table itself finds repeated ids).
bool IdIsKey(const AnalysisOptions& options);
// Whether each partition of `d` carries its first item's place: keyed by /id, in a part made
// with records (PartIds::kRecorded).
inline bool PartitionsHavePlaces(const PartialData& d) {
  return IdIsKey(d.options) && d.id_records;
}

// The versioned binary partial format (docs/sharding.md). Parse validates every count, size and
// value and answers kBadPartial located at the offending byte offset, never crashing.
std::string SerializePartialData(const PartialData& data);
// The same bytes in pieces (each valid during the call), with no copy of the whole, and their
// length, known beforehand.
using PartialSink = std::function<void(std::string_view piece)>;
void SerializePartialData(const PartialData& data, const PartialSink& sink);
size_t PartialDataSize(const PartialData& data);
StatusOr<std::unique_ptr<PartialData>> ParsePartialData(std::string_view bytes);
// The same check of every value, keeping the bytes and leaving the partitions unloaded (no table
// of their own, for a merge to add straight into its table): everything but a key repeated
// inside the part, which the merge finds (the same kBadPartial, at the same byte).
StatusOr<std::unique_ptr<PartialData>> ParsePartialData(std::string bytes);

// One unloaded partition, in the part's order: its number, where it starts in the partial, and
// what the table holds of it.
struct UnloadedPartition {
  uint32_t number;
  size_t start;
  std::string_view canonical;
  uint64_t items, bytes, largest_item_bytes;
  int64_t largest_item_index;
};
// Calls visit for each unloaded partition of `data` (checked when read) in order.
void ForEachUnloadedPartition(const PartialData& data,
                              const std::function<void(const UnloadedPartition&)>& visit);
// The kBadPartial of a partition whose key repeats inside its part.
Status RepeatedPartitionKey(uint32_t number, size_t start);
// Puts unloaded partitions into `data.table` (a part whose table a merge adopts).
Status LoadPartitionTable(PartialData& data);

}  // namespace partplay::internal
