// The analyzer's state (Analyzer::Impl, analysis.h's Analyzer behind its pointer), shared by the
// files that implement it, one concern each: analyzer.cpp (setup and the public calls),
// analyzer_readers.cpp (reading the tracked paths of each item: the on-demand walk, the DOM and
// the scanner), analyzer_accounting.cpp (what each item adds: sizes, findings, the id check, the
// partition table, weights), analyzer_synthetic_key.cpp (the synthetic key), analyzer_report.cpp
// (the AnalysisReport), analyzer_partition_list.cpp (the partitions in size order) and
// analyzer_merge.cpp (parts: sealing, serializing and merging their partial states).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ingest/candidate_discovery.h"
#include "ingest/exact_sum.h"
#include "ingest/hash_set64.h"
#include "ingest/item_stream.h"
#include "ingest/partial_data.h"
#include "ingest/partition_table.h"
#include "partplay/ingest/analysis.h"
#include "partplay/ingest/key_path.h"
#include "partplay/ingest/synthetic_key.h"

namespace partplay {

namespace od = simdjson::ondemand;
using internal::ItemContext;

// A key component as found in one item; string views point into the parser's buffer and live
// until the next item.
struct FoundComponent {
  KeyKind kind = KeyKind::kUndefined;
  double number = 0;
  std::string_view text;
  const char* invalid = nullptr;  // "object", "array", "number_out_of_range"
  bool imprecise = false;         // an integer literal beyond +-2^53
  std::string_view raw;           // the number's literal, when imprecise
};

constexpr size_t kMaxKeyPaths = 3;
constexpr size_t kMaxConcatPaths = 5;
// Every path the walk looks for: key paths, "/id", the weight path, synthetic-key paths.
constexpr size_t kMaxTrackedPaths = kMaxKeyPaths + 1 + 1 + kMaxConcatPaths + 1;

class Analyzer::Impl : public internal::ItemSink {
 public:
  // An item on its way into the partition table (Account, ResolveAdds).
  enum class IdCheck : uint8_t { kNone, kKeyIsId, kPair };
  struct PendingAdd {
    std::string canonical;
    uint64_t hash = 0;
    uint64_t bytes = 0;
    int64_t index = 0;
    uint64_t byte_offset = 0;
    double weight = 0;
    internal::ItemRecord record;
    IdCheck check = IdCheck::kNone;
    uint64_t pair = 0;  // the (partition, id) pair's hash, for kPair
    std::string id;     // for a duplicate's finding
  };

  // `part`: one part of a larger input (Analyzer::CreatePart): also keeps what a merge needs.
  Impl(const AnalysisOptions& options, bool part, bool first = false,
       PartIds ids = PartIds::kRecorded)
      : options_(options), part_(part), first_(first), hashed_(ids == PartIds::kHashed),
        stream_(this) {}

  Status Init();

  Status InitSynthetic();

  // Adds a path the walk looks for; returns its slot.
  StatusOr<size_t> Track(std::string_view text) {
    PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(text));
    paths_.push_back(std::move(path));
    return paths_.size() - 1;
  }

  Status OnItem(od::document_reference doc, const ItemContext& item) override;

  // An item the DOM parser validated whole: only the tracked paths are read, or for a sampled
  // item every scalar (SampleObject, as the walk's discovery reads them). A key number a double
  // cannot tell apart from its literal goes to the walk instead.
  Status OnValidatedItem(simdjson::dom::element root, const ItemContext& item,
                         bool& taken) override;

  // An item the scanner validated whole (json_scan.h): its values at the tracked paths, the
  // first occurrence of each, as FindTracked would read them from the DOM.
  Status OnScannedItem(const internal::ScanValue* values, const ItemContext& item,
                       bool& taken) override;
  const internal::ScanPaths* PathsToScan() const override { return &scan_paths_; }

  bool WantsEveryValue(int64_t item_index) const override { return Samples(item_index); }

  bool Samples(int64_t item_index) const {
    return options_.discover_items < 0 || item_index < options_.discover_items;
  }

  // What follows the walk for every item: sizes, findings, the key, the id check, the table.
  Status Account(const ItemContext& item);

  // Adds the pending items; called when a batch is full, while their items are still in the
  // stream's buffer (OnRegionDone), so a repeated id is located like any finding, and by Finish.
  void ResolveAdds();
  void OnRegionDone() override { ResolveAdds(); }
  // A hashed part's pairs, sorted when it finishes, in its own thread or worker, not by a merge.
  void SortHashedPairs() {
    if (hashed_) id_pairs_.SortHashes();
  }

  // Before a batch that could grow the id set (or, keyed by /id, the table): sized for 90% of
  // the items the input read so far suggests for all of it (ExpectInputBytes), so an estimate a
  // little high never takes a table a doubling past where growing would have ended (a short one
  // grows as usual), and at most 16 times what it holds, so small first items cannot make it
  // reserve far too much.
  void SizeForExpectedInput();

  void Resolve(const PendingAdd& add);

  void CountDuplicateId(const PendingAdd& add);

  // Adds x to partition `number`'s exact weight sum (exact_sum.h).
  void AddWeight(uint32_t number, double x);
  // Partition `number`'s weight sum as an expansion (increasing magnitude).
  std::vector<double> WeightParts(uint32_t number) const;
  double WeightOf(uint32_t number) const;

  AnalysisReport BuildReport(const ReportOptions& options) const;
  std::unique_ptr<PartitionList> AllPartitions() const;
  // Every partition number in the report's order, sorted now if `sort` and not kept already;
  // null when it is not kept and `sort` is false.
  std::shared_ptr<const std::vector<uint32_t>> SizeOrder(bool sort) const;

  internal::ItemStream& stream() { return stream_; }
  uint64_t items() const { return items_; }
  uint64_t input_bytes() const { return merged_ ? merged_->input_bytes : stream_.input_bytes(); }
  const AnalysisOptions& options() const { return options_; }
  bool part() const { return part_; }
  bool first() const { return first_; }
  // Why this analyzer has no partial state to write yet, if it has none (SerializePartial).
  Status CheckSerializable() const;
  bool merged() const { return merged_.has_value(); }
  // A merge's shard files: their kind, bucket, bucket count and the parts' ids (buckets.h).
  internal::ShardKind merged_shard() const {
    return merged_ ? merged_->shard : internal::ShardKind::kWhole;
  }
  uint32_t merged_bucket() const { return merged_ ? merged_->bucket : 0; }
  uint32_t merged_buckets() const { return merged_ ? merged_->buckets : 0; }
  std::vector<uint64_t> merged_part_ids() const {
    return merged_ ? merged_->part_ids : std::vector<uint64_t>{};
  }
  void ExpectInputBytes(uint64_t bytes) { expected_bytes_ = bytes; }

  // A part's lifecycle: its first error (kept for its partial state), whether it finished.
  Status failure_;
  bool finished_ = false;
  std::unique_ptr<internal::PartialData> sealed_;

  // Moves a part's state into sealed_ (once); the part then only serializes or merges.
  internal::PartialData& Seal();
  // Combines parts given in input order (Analyzer::Merge); the parts are emptied as they go.
  // `keep_state`: the result is a part again (Analyzer::MergeToPart): it keeps its partitions'
  // and id pairs' first items, rebased, and the sample log, so it serializes.
  static StatusOr<std::unique_ptr<Impl>> Merge(const std::vector<internal::PartialData*>& parts,
                                               bool keep_state = false);

 private:
  static const char* TypeName(od::json_type type);

  static Status SimdjsonStatus(simdjson::error_code error);

  ItemFinding Finding(const ItemContext& item, uint64_t bytes, const char* type);

  // Records a scalar seen at the current pointer for candidate-path discovery (a part also logs
  // it, so a merge can replay the sample of the whole input: ReplaySample).
  void Discover(KeyKind kind, double number, std::string_view text);
  // A later part logs its sample for the merge to replay; a first part (and one pass) observes
  // it as it goes, and the merge adopts what it found.
  bool logs_sample() const { return part_ && !first_; }
  // A later part made with PartIds::kRecorded locates the items a merge may need to name: each
  // new (partition, id) pair's first item, or keyed by /id each partition's.
  bool records_places() const { return part_ && !first_ && !hashed_; }

  // The synthetic key of this item into synthetic_; false when a value it needs is missing.
  bool BuildSyntheticKey(int64_t item_index);

  // A scalar as text in a synthetic key: strings as they are, numbers in shortest round-trip
  // form, true/false/null as written. False for a missing or invalid value.
  static bool AppendValueText(const FoundComponent& f, std::string& out);

  static const char* KindName(const FoundComponent& f);

  // Validates a number token simdjson could not convert (too large for a double or an integer):
  // valid JSON grammar is accepted, anything else is malformed.
  static bool ValidNumberToken(od::value& value);

  // Of the paths in `matching` (bit i: key path i's segments match the pointer down to this
  // object, at `depth`), those a field named `key` continues (`deeper`) or ends at (`here`).
  void MatchField(std::string_view key, int depth, uint32_t matching, uint32_t& deeper,
                  uint32_t& here) const;

  // `matching`: bit i set when key path i's segments match the pointer down to this object.
  Status WalkObject(od::object object, int depth, uint32_t matching);

  Status WalkArray(od::array array, int depth);

  // A value at nesting `depth` (its parent's depth). `deeper`: key paths continuing inside it;
  // `here`: key paths ending at it.
  Status WalkValue(od::value value, int depth, uint32_t deeper, uint32_t here);

  // The tracked paths in a validated object (OnValidatedItem): the same first-occurrence rules
  // as WalkObject, reading only fields a path goes through. False when the walk must decide: a
  // number at a tracked path whose literal a double hides (beyond +-2^53, not an integer type).
  bool FindTracked(simdjson::dom::object object, int depth, uint32_t matching);
  // A sampled item's DOM (OnValidatedItem): every field, as WalkObject and WalkValue read them
  // for discovery, setting the tracked paths as they do. FindTracked has accepted the item, so
  // no number here needs its literal.
  void SampleObject(simdjson::dom::object object, int depth, uint32_t matching);
  void SampleValue(simdjson::dom::element value, int depth, uint32_t deeper, uint32_t here);
  // Whether every component in `paths` has its value (or is invalid) already.
  bool AllFound(uint32_t paths) const {
    for (uint32_t m = paths; m; m &= m - 1) {
      const FoundComponent& f = found_[__builtin_ctz(m)];
      if (f.kind == KeyKind::kUndefined && !f.invalid) return false;
    }
    return true;
  }
  // An integer literal the DOM stored exactly: beyond +-2^53 its decimal text is the literal
  // (JSON integers have one spelling), which the imprecise-key finding quotes.
  void SetInteger(uint32_t here, double d, bool negative, uint64_t magnitude);

  // Sets the components at `here` not yet found; answers which it set.
  uint32_t Set(uint32_t here, KeyKind kind, double number, std::string_view text) {
    uint32_t set = 0;
    for (uint32_t m = here; m; m &= m - 1) {
      FoundComponent& f = found_[__builtin_ctz(m)];
      if (f.kind != KeyKind::kUndefined || f.invalid) continue;  // the first occurrence wins
      f.kind = kind;
      f.number = number == 0 ? 0.0 : number;  // -0 is 0, as JavaScript's String(-0) says
      f.text = text;
      set |= m & (0 - m);
    }
    return set;
  }
  void MarkImprecise(uint32_t here, od::value& value) {
    std::string_view raw = value.raw_json_token();
    while (!raw.empty() &&
           (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t' ||
            raw.back() == ',' || raw.back() == '}' || raw.back() == ']')) {
      raw.remove_suffix(1);
    }
    MarkRaw(here, raw);
  }
  // The number key components at `here` not yet marked are imprecise, written `raw`.
  void MarkRaw(uint32_t here, std::string_view raw) {
    for (uint32_t m = here; m; m &= m - 1) {
      FoundComponent& f = found_[__builtin_ctz(m)];
      if (f.kind == KeyKind::kNumber && f.raw.empty()) {
        f.imprecise = true;
        f.raw = raw;
      }
    }
  }
  void SetInvalid(uint32_t here, const char* why) {
    for (uint32_t m = here; m; m &= m - 1) {
      FoundComponent& f = found_[__builtin_ctz(m)];
      if (f.kind == KeyKind::kUndefined && !f.invalid) f.invalid = why;
    }
  }

  AnalysisOptions options_;
  internal::ScanPaths scan_paths_;  // paths_, for the scanner
  bool part_ = false;
  bool first_ = false;  // the first part: no part precedes it (partial_data.h)
  bool hashed_ = false;  // a part keeps its id pairs' hashes only, unchecked (PartIds::kHashed)
  // A part's log for a merge (partial_data.h).
  std::deque<internal::ItemRecord> first_items_;
  internal::IdPairRecords id_pairs_;
  std::vector<uint32_t> pair_partitions_;  // each pair's partition number (PartialData's)
  std::unordered_map<std::string, uint32_t> sample_path_index_;
  std::vector<std::string> sample_paths_;
  std::vector<internal::SampleItem> sample_items_;
  std::vector<internal::SampleObservation> sample_obs_;
  // A merged analysis has no stream of its own: its format and sizes.
  struct Merged {
    internal::InputFormat format = internal::InputFormat::kUnknown;
    uint64_t input_bytes = 0;
    // A merge of shard files: their kind, bucket and bucket count, and the parts' ids in order.
    internal::ShardKind shard = internal::ShardKind::kWhole;
    uint32_t bucket = 0, buckets = 0;
    std::vector<uint64_t> part_ids;
    int64_t end_line = 1, end_column = 1;  // the position just past the last part's last byte
  };
  std::optional<Merged> merged_;
  std::vector<KeyPath> paths_;
  internal::ItemStream stream_;
  FoundComponent found_[kMaxTrackedPaths];
  size_t first_obs_ = 0;    // sample_obs_'s size before this item's walk
  // Imprecise integer literals rebuilt from the DOM, by the slot first marked with each.
  char integer_text_[kMaxTrackedPaths][24];
  std::optional<size_t> id_slot_, weight_slot_, suffix_slot_;
  std::vector<size_t> concat_slots_;
  std::vector<KeyPart> concat_parts_;         // what each concatenated part takes of its value
  std::string synthetic_;                     // the current item's synthetic key
  std::vector<internal::WeightSum> weights_;  // by partition number
  std::unordered_map<uint32_t, std::vector<double>> weight_spill_;
  internal::HashSet64 ids_;  // (partition, id) pairs seen
  bool id_is_key_ = false;   // the key is /id alone: the table itself finds repeated ids
  uint64_t expected_bytes_ = 0;  // ExpectInputBytes: the input's size, 0 when unknown
  uint64_t missing_id_ = 0, duplicate_id_ = 0, imprecise_ = 0, weight_missing_ = 0;
  std::vector<ItemFinding> missing_id_examples_, duplicate_id_examples_, imprecise_examples_;
  // Candidate paths in the sampled items, for the advisor.
  std::unique_ptr<internal::CandidateDiscovery> discovery_ =
      std::make_unique<internal::CandidateDiscovery>();
  std::string canonical_;
  // Items on their way into the table (Account), in item order.
  static constexpr size_t kAddBatch = 16;
  PendingAdd adds_[kAddBatch];
  size_t adds_count_ = 0;
  uint64_t touched_ = 0;  // what ResolveAdds' loads read: kept, so the loads are kept
  std::string scratch_;
  std::string suffix_text_;
  internal::PartitionTable partitions_;
  // AllPartitions' order, while the table holds sorted_items_ items.
  mutable std::shared_ptr<const std::vector<uint32_t>> sorted_;
  mutable uint64_t sorted_items_ = 0;

  uint64_t items_ = 0;
  uint64_t bytes_ = 0;
  uint64_t undefined_items_ = 0;
  uint64_t invalid_items_ = 0;
  uint64_t invalid_bytes_ = 0;
  std::vector<ItemFinding> invalid_examples_;
  uint64_t oversized_ = 0;
  std::vector<ItemFinding> oversized_examples_;

  bool discovering_ = false;
  std::string pointer_;
};

}  // namespace partplay
