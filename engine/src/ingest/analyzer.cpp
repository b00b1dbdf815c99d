#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <iterator>
#include <mutex>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/huge_pages.h"
#include "core/murmur_hash3.h"
#include "ingest/candidate_discovery.h"
#include "ingest/exact_sum.h"
#include "ingest/hash_set64.h"
#include "ingest/item_stream.h"
#include "ingest/partial_data.h"
#include "ingest/partition_table.h"
#include "partplay/core/statistics.h"
#include "partplay/core/tasks.h"
#include "partplay/ingest/analysis.h"
#include "partplay/ingest/json_diagnostics.h"
#include "partplay/ingest/key_path.h"

namespace partplay {

namespace od = simdjson::ondemand;
using internal::ItemContext;

namespace {

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

// SplitMix64: the per-item random suffix (seeded, reproducible, the same in every build).
uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// 2^53: the first integer a double shares with a neighbour.
constexpr double kTwoTo53 = 9007199254740992.0;

// True for an integer literal (no fraction, no exponent) a double cannot hold exactly: beyond
// +-2^53 (JavaScript's Number.MAX_SAFE_INTEGER + 1).
bool ImpreciseInteger(std::string_view raw, double d) {
  for (char c : raw) {
    if (c == '.' || c == 'e' || c == 'E') return false;
  }
  return std::fabs(d) >= kTwoTo53;
}

}  // namespace

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

  Status Init() {
    if (part_ && options_.synthetic.kind == SyntheticKeyOptions::Kind::kRandomSuffix) {
      return Status(ErrorCode::kBadOption,
                    "a random suffix depends on each item's place in the whole input, so it "
                    "cannot be computed in parts (use one job, or a hash suffix)");
    }
    if (options_.key_paths.empty() || options_.key_paths.size() > kMaxKeyPaths) {
      return Status(ErrorCode::kBadOption, fmt::format("give 1 to {} partition key paths (got {})",
                                                       kMaxKeyPaths, options_.key_paths.size()));
    }
    for (const auto& text : options_.key_paths) {
      PARTPLAY_ASSIGN_OR_RETURN(size_t at, Track(text));
      (void)at;
    }
    if (options_.discover_items < -1) {
      return Status(ErrorCode::kBadOption, "discover_items must be -1 (all), 0 (none) or more");
    }
    stream_.EnableValidatedPath();
    if (options_.check_ids) {
      PARTPLAY_ASSIGN_OR_RETURN(id_slot_, Track("/id"));
      id_is_key_ = options_.key_paths.size() == 1 &&
                   paths_[0].segments() == paths_[*id_slot_].segments() &&
                   options_.synthetic.kind == SyntheticKeyOptions::Kind::kNone;
    }
    if (!options_.weight_path.empty()) {
      PARTPLAY_ASSIGN_OR_RETURN(weight_slot_, Track(options_.weight_path));
    }
    PARTPLAY_RETURN_IF_ERROR(InitSynthetic());
    for (const KeyPath& path : paths_) scan_paths_.segments.push_back(path.segments());
    return Status::Ok();
  }

  Status InitSynthetic() {
    using Kind = SyntheticKeyOptions::Kind;
    const SyntheticKeyOptions& syn = options_.synthetic;
    if (syn.kind == Kind::kNone) return Status::Ok();
    if (options_.key_paths.size() != 1 && syn.kind != Kind::kConcat) {
      return Status(ErrorCode::kBadOption, "a suffixed synthetic key needs exactly one key path");
    }
    if (syn.separator.size() > 16) {
      return Status(ErrorCode::kBadOption, "the synthetic key separator has at most 16 bytes");
    }
    switch (syn.kind) {
      case Kind::kConcat:
        if (syn.paths.size() < 2 || syn.paths.size() > kMaxConcatPaths) {
          return Status(ErrorCode::kBadOption,
                        fmt::format("a concatenated key joins 2 to {} paths (got {})",
                                    kMaxConcatPaths, syn.paths.size()));
        }
        for (const auto& p : syn.paths) {
          PARTPLAY_ASSIGN_OR_RETURN(size_t at, Track(p));
          concat_slots_.push_back(at);
        }
        return Status::Ok();
      case Kind::kRandomSuffix:
      case Kind::kHashSuffix:
        if (syn.buckets < 1 || syn.buckets > 1000000) {
          return Status(ErrorCode::kBadOption, "the suffix count N must be 1 to 1,000,000");
        }
        if (syn.kind == Kind::kHashSuffix) {
          if (syn.suffix_path.empty()) {
            return Status(ErrorCode::kBadOption, "a pre-calculated suffix needs a source path");
          }
          PARTPLAY_ASSIGN_OR_RETURN(suffix_slot_, Track(syn.suffix_path));
        }
        return Status::Ok();
      case Kind::kNone:
        break;
    }
    return Status::Ok();
  }

  // Adds a path the walk looks for; returns its slot.
  StatusOr<size_t> Track(std::string_view text) {
    PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(text));
    paths_.push_back(std::move(path));
    return paths_.size() - 1;
  }

  Status OnItem(od::document_reference doc, const ItemContext& item) override {
    od::object root;
    auto error = doc.get_object().get(root);
    if (error) {
      if (error != simdjson::INCORRECT_TYPE) return SimdjsonStatus(error);
      od::json_type type;
      if (doc.type().get(type)) return Status(ErrorCode::kMalformedJson, "not a JSON value");
      return Status(ErrorCode::kNotAnObject,
                    fmt::format("item {} is {}, not an object", item.index, TypeName(type)));
    }
    std::fill_n(found_, paths_.size(), FoundComponent{});  // the slots in use only
    discovering_ = Samples(item.index);
    uint64_t bytes = item.text.size();
    first_obs_ = sample_obs_.size();
    if (discovering_) {
      if (!logs_sample()) discovery_->BeginItem(item.index, bytes);
      pointer_.clear();
    }
    uint32_t all_paths = (1u << paths_.size()) - 1;
    PARTPLAY_RETURN_IF_ERROR(WalkObject(root, 1, all_paths));
    return Account(item);
  }

  // An item the DOM parser validated whole: only the tracked paths are read, or for a sampled
  // item every scalar (SampleObject, as the walk's discovery reads them). A key number a double
  // cannot tell apart from its literal goes to the walk instead.
  Status OnValidatedItem(simdjson::dom::element root, const ItemContext& item,
                         bool& taken) override {
    taken = false;
    std::fill_n(found_, paths_.size(), FoundComponent{});  // the slots in use only
    discovering_ = false;
    simdjson::dom::object object;
    if (root.get_object().get(object)) return Status::Ok();
    uint32_t all_paths = (1u << paths_.size()) - 1;
    // Decided before the sample records anything, so an item left to the walk is sampled once.
    if (!FindTracked(object, 1, all_paths)) return Status::Ok();
    if (Samples(item.index)) {
      std::fill_n(found_, paths_.size(), FoundComponent{});
      discovering_ = true;
      first_obs_ = sample_obs_.size();
      if (!logs_sample()) discovery_->BeginItem(item.index, item.text.size());
      pointer_.clear();
      SampleObject(object, 1, all_paths);
    }
    taken = true;
    return Account(item);
  }

  // An item the scanner validated whole (json_scan.h): its values at the tracked paths, the
  // first occurrence of each, as FindTracked would read them from the DOM.
  Status OnScannedItem(const internal::ScanValue* values, const ItemContext& item,
                       bool& taken) override {
    taken = false;
    if (Samples(item.index)) return Status::Ok();  // the sample needs every value (WantsEveryValue)
    std::fill_n(found_, paths_.size(), FoundComponent{});  // the slots in use only
    discovering_ = false;
    for (size_t i = 0; i < paths_.size(); ++i) {
      const internal::ScanValue& v = values[i];
      uint32_t slot = 1u << i;
      switch (v.kind) {
        case internal::ScanKind::kMissing: break;
        case internal::ScanKind::kString: Set(slot, KeyKind::kString, 0, v.text); break;
        case internal::ScanKind::kNumber: Set(slot, KeyKind::kNumber, v.number, {}); break;  // exact
        case internal::ScanKind::kTrue: Set(slot, KeyKind::kTrue, 0, {}); break;
        case internal::ScanKind::kFalse: Set(slot, KeyKind::kFalse, 0, {}); break;
        case internal::ScanKind::kNull: Set(slot, KeyKind::kNull, 0, {}); break;
        case internal::ScanKind::kObject: SetInvalid(slot, "object"); break;
        case internal::ScanKind::kArray: SetInvalid(slot, "array"); break;
      }
    }
    taken = true;
    return Account(item);
  }
  const internal::ScanPaths* PathsToScan() const override { return &scan_paths_; }

  bool WantsEveryValue(int64_t item_index) const override { return Samples(item_index); }

  bool Samples(int64_t item_index) const {
    return options_.discover_items < 0 || item_index < options_.discover_items;
  }

  // What follows the walk for every item: sizes, findings, the key, the id check, the table.
  Status Account(const ItemContext& item) {
    uint64_t bytes = item.text.size();
    size_t first_obs = first_obs_;
    ++items_;
    bytes_ += bytes;
    if (bytes > kCosmosItemBytes) {
      ++oversized_;
      if (oversized_examples_.size() < kMaxFindingExamples) {
        oversized_examples_.push_back(Finding(item, bytes, ""));
      }
    }
    const FoundComponent* id = id_slot_ ? &found_[*id_slot_] : nullptr;
    if (id && (id->kind != KeyKind::kString || id->invalid)) {
      ++missing_id_;
      if (missing_id_examples_.size() < kMaxFindingExamples) {
        missing_id_examples_.push_back(Finding(item, bytes, KindName(*id)));
      }
      id = nullptr;
    }
    // The id's own hash serves only the sample (immutability evidence).
    uint64_t id_hash =
        discovering_ && id ? XXH3_64bits(id->text.data(), id->text.size()) : 0;
    if (discovering_ && id && !logs_sample()) discovery_->EndItemWithId(id_hash);
    if (discovering_ && logs_sample()) {  // a merge replays it
      sample_items_.push_back({bytes, id != nullptr, id_hash, static_cast<uint32_t>(first_obs),
                               static_cast<uint32_t>(sample_obs_.size() - first_obs)});
    }
    // A part remembers where each partition's (or id pair's) first item is, for a duplicate a
    // later part may hold (counted from the last item's place: each byte is read once).
    internal::ItemRecord record;
    if (records_places() && id) {
      SourceLocation at = stream_.LocateForward(item.byte_offset, item.index);
      record = {item.index, bytes, item.byte_offset, at.line, at.column};
    }
    double weight = 0;
    if (weight_slot_) {
      const FoundComponent& w = found_[*weight_slot_];
      if (w.kind == KeyKind::kNumber && !w.invalid) {
        weight = w.number;
      } else {
        ++weight_missing_;
      }
    }
    size_t key_count = options_.key_paths.size();
    for (size_t i = 0; i < key_count; ++i) {
      if (found_[i].invalid) {
        ++invalid_items_;
        invalid_bytes_ += bytes;
        if (invalid_examples_.size() < kMaxFindingExamples) {
          invalid_examples_.push_back(Finding(item, bytes, found_[i].invalid));
        }
        return Status::Ok();
      }
    }
    for (size_t i = 0; i < key_count; ++i) {
      if (!found_[i].imprecise) continue;
      ++imprecise_;
      if (imprecise_examples_.size() < kMaxFindingExamples) {
        imprecise_examples_.push_back(Finding(item, bytes, ""));
        imprecise_examples_.back().type = std::string(found_[i].raw);
      }
      break;
    }
    canonical_.clear();
    bool undefined = false;
    if (options_.synthetic.kind != SyntheticKeyOptions::Kind::kNone) {
      undefined = !BuildSyntheticKey(item.index);
      if (undefined) {
        AppendCanonical(KeyKind::kUndefined, 0, {}, canonical_);
      } else {
        AppendCanonical(KeyKind::kString, 0, synthetic_, canonical_);
      }
    } else {
      for (size_t i = 0; i < key_count; ++i) {
        const FoundComponent& f = found_[i];
        AppendCanonical(f.kind, f.number, f.text, canonical_);
        if (f.kind == KeyKind::kUndefined) undefined = true;
      }
    }
    if (undefined) ++undefined_items_;
    // Items go into the table in batches of kAddBatch (ResolveAdds): the slots, entries and keys
    // a batch will read are loaded in three rounds of independent loads first, so their cache
    // misses (100+ ns each) overlap instead of stalling one after another. Natively the index
    // and id-set slots are also prefetched as each item is read. Items are added in their order.
    uint64_t hash = HashCanonical(canonical_);
    partitions_.Prefetch(hash);
    PendingAdd& add = adds_[adds_count_++];
    std::swap(add.canonical, canonical_);
    add.hash = hash;
    add.bytes = bytes;
    add.index = item.index;
    add.byte_offset = item.byte_offset;
    add.weight = weight;
    add.record = record;
    // One logical partition holds each id once. Keyed by /id itself, the partition is the id:
    // a repeat is an item whose partition exists (no per-item memory). Otherwise the
    // (partition, id) pair is remembered as a 64-bit hash.
    add.check = !id ? IdCheck::kNone : id_is_key_ ? IdCheck::kKeyIsId : IdCheck::kPair;
    if (id) add.id.assign(id->text);
    if (add.check == IdCheck::kPair) {
      add.pair = XXH3_64bits_withSeed(id->text.data(), id->text.size(), hash);
      if (!hashed_) ids_.Prefetch(add.pair);
    }
    if (adds_count_ == kAddBatch) ResolveAdds();
    return Status::Ok();
  }

  // Adds the pending items; called when a batch is full, while their items are still in the
  // stream's buffer (OnRegionDone), so a repeated id is located like any finding, and by Finish.
  void ResolveAdds() {
    if (expected_bytes_ != 0 && adds_count_ != 0) SizeForExpectedInput();
    uint64_t touched = 0;
    for (size_t k = 0; k < adds_count_; ++k) {
      touched += partitions_.TouchSlot(adds_[k].hash);
      if (adds_[k].check == IdCheck::kPair && !hashed_) touched += ids_.TouchSlot(adds_[k].pair);
    }
    for (size_t k = 0; k < adds_count_; ++k) touched += partitions_.TouchEntry(adds_[k].hash);
    for (size_t k = 0; k < adds_count_; ++k) touched += partitions_.TouchKey(adds_[k].hash);
    touched_ += touched;
    for (size_t k = 0; k < adds_count_; ++k) Resolve(adds_[k]);
    adds_count_ = 0;
  }
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
  void SizeForExpectedInput() {
    const PendingAdd& last = adds_[adds_count_ - 1];
    uint64_t read = last.byte_offset + last.bytes;  // where the batch's last item ends
    if (read == 0) return;
    auto estimate = [&](size_t held) {
      size_t at_least = held + adds_count_;
      double whole = 0.9 * static_cast<double>(items_) * static_cast<double>(expected_bytes_) /
                     static_cast<double>(read);
      double most = 16.0 * static_cast<double>(at_least);
      return std::max(at_least, static_cast<size_t>(std::min(whole, most)));
    };
    if (!hashed_ && ids_.WouldGrow(adds_count_) && options_.check_ids && !id_is_key_) {
      ids_.Reserve(estimate(ids_.size()));
    }
    if (id_is_key_ && partitions_.WouldGrow(adds_count_)) {
      partitions_.Reserve(estimate(partitions_.size()));
    }
  }

  void Resolve(const PendingAdd& add) {
    size_t before = partitions_.size();
    uint32_t number = partitions_.Add(add.canonical, add.hash, add.bytes, add.index);
    if (add.check == IdCheck::kKeyIsId && partitions_.size() == before) {
      CountDuplicateId(add);
    } else if (add.check == IdCheck::kPair) {
      if (hashed_) {
        // Kept in a column, no set: the merge checks every part's pairs at once (sorted by
        // Finish), a repeat even inside this part being one it cannot name (PartIds::kHashed).
        id_pairs_.AddHash(add.pair);
      } else if (!ids_.Insert(add.pair)) {
        CountDuplicateId(add);
      } else if (part_ && !first_) {
        id_pairs_.Add(add.pair, add.record, add.id);
      }
    }
    if (weight_slot_) AddWeight(number, add.weight);
    if (records_places() && id_is_key_ && number == first_items_.size()) {
      first_items_.push_back(add.record);
    }
  }

  void CountDuplicateId(const PendingAdd& add) {
    ++duplicate_id_;
    if (duplicate_id_examples_.size() >= kMaxFindingExamples) return;
    ItemContext item;
    item.index = add.index;
    item.byte_offset = add.byte_offset;
    duplicate_id_examples_.push_back(Finding(item, add.bytes, ""));
    duplicate_id_examples_.back().type = add.id;
  }

  // Adds x to partition `number`'s exact weight sum (exact_sum.h).
  void AddWeight(uint32_t number, double x) {
    if (number >= weights_.size()) weights_.resize(number + 1);
    internal::WeightSum& w = weights_[number];
    if (w.spilled()) {
      internal::GrowExpansion(weight_spill_[number], x);
      return;
    }
    double parts[3];
    size_t k = 0;
    double q = x;
    for (double c : {w.lo, w.hi}) {
      if (c == 0) continue;
      double sum, err;
      internal::TwoSum(q, c, sum, err);
      if (!std::isfinite(sum)) {
        w = {sum, 0};
        return;
      }
      if (err != 0) parts[k++] = err;
      q = sum;
    }
    if (q != 0) parts[k++] = q;
    if (k <= 2) {
      w.lo = k == 2 ? parts[0] : 0;
      w.hi = k == 0 ? 0 : parts[k - 1];
      return;
    }
    weight_spill_[number].assign(parts, parts + k);
    w = {0, std::nan("")};
  }
  // Partition `number`'s weight sum as an expansion (increasing magnitude).
  std::vector<double> WeightParts(uint32_t number) const {
    if (number >= weights_.size()) return {};
    const internal::WeightSum& w = weights_[number];
    if (w.spilled()) {
      auto spill = weight_spill_.find(number);
      return spill == weight_spill_.end() ? std::vector<double>{} : spill->second;
    }
    std::vector<double> out;
    if (w.lo != 0) out.push_back(w.lo);
    if (w.hi != 0) out.push_back(w.hi);
    return out;
  }
  double WeightOf(uint32_t number) const {
    if (number >= weights_.size()) return 0.0;
    const internal::WeightSum& w = weights_[number];
    if (!w.spilled() && w.lo == 0) return w.hi;
    std::vector<double> parts = WeightParts(number);
    return internal::RoundExpansion(parts.data(), parts.size());
  }

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
  void ExpectInputBytes(uint64_t bytes) { expected_bytes_ = bytes; }

  // A part's lifecycle: its first error (kept for its partial state), whether it finished.
  Status failure_;
  bool finished_ = false;
  std::unique_ptr<internal::PartialData> sealed_;

  // Moves a part's state into sealed_ (once); the part then only serializes or merges.
  internal::PartialData& Seal();
  // Combines parts given in input order (Analyzer::Merge); the parts are emptied as they go.
  static StatusOr<std::unique_ptr<Impl>> Merge(const std::vector<internal::PartialData*>& parts);

 private:
  static const char* TypeName(od::json_type type) {
    switch (type) {
      case od::json_type::array:
        return "an array";
      case od::json_type::object:
        return "an object";
      case od::json_type::number:
        return "a number";
      case od::json_type::string:
        return "a string";
      case od::json_type::boolean:
        return "a boolean";
      case od::json_type::null:
        return "null";
    }
    return "a value";
  }

  static Status SimdjsonStatus(simdjson::error_code error) {
    ErrorCode code = error == simdjson::UTF8_ERROR    ? ErrorCode::kInvalidUtf8
                     : error == simdjson::DEPTH_ERROR ? ErrorCode::kTooDeep
                                                      : ErrorCode::kMalformedJson;
    return Status(code, simdjson::error_message(error));
  }

  ItemFinding Finding(const ItemContext& item, uint64_t bytes, const char* type) {
    ItemFinding f;
    f.item_index = item.index;
    f.bytes = bytes;
    f.where = stream_.Locate(item.byte_offset, item.index);
    f.type = type;
    return f;
  }

  // Records a scalar seen at the current pointer for candidate-path discovery (a part also logs
  // it, so a merge can replay the sample of the whole input: ReplaySample).
  void Discover(KeyKind kind, double number, std::string_view text) {
    scratch_.clear();
    AppendCanonical(kind, number, text, scratch_);
    if (logs_sample()) {  // only logged: the merge replays the log
      auto [at, added] =
          sample_path_index_.try_emplace(pointer_, static_cast<uint32_t>(sample_paths_.size()));
      if (added) sample_paths_.push_back(pointer_);
      sample_obs_.push_back({at->second, scratch_});
      return;
    }
    discovery_->Observe(pointer_, scratch_);
  }
  // A later part logs its sample for the merge to replay; a first part (and one pass) observes
  // it as it goes, and the merge adopts what it found.
  bool logs_sample() const { return part_ && !first_; }
  // A later part made with PartIds::kRecorded locates the items a merge may need to name: each
  // new (partition, id) pair's first item, or keyed by /id each partition's.
  bool records_places() const { return part_ && !first_ && !hashed_; }

  // The synthetic key of this item into synthetic_; false when a value it needs is missing.
  bool BuildSyntheticKey(int64_t item_index) {
    using Kind = SyntheticKeyOptions::Kind;
    const SyntheticKeyOptions& syn = options_.synthetic;
    synthetic_.clear();
    if (syn.kind == Kind::kConcat) {
      for (size_t i = 0; i < concat_slots_.size(); ++i) {
        if (i > 0) synthetic_ += syn.separator;
        if (!AppendValueText(found_[concat_slots_[i]], synthetic_)) return false;
      }
      return true;
    }
    if (!AppendValueText(found_[0], synthetic_)) return false;
    uint64_t bucket;
    if (syn.kind == Kind::kRandomSuffix) {
      bucket = SplitMix64(syn.seed ^ SplitMix64(static_cast<uint64_t>(item_index))) % syn.buckets;
    } else {
      suffix_text_.clear();
      if (!AppendValueText(found_[*suffix_slot_], suffix_text_)) return false;
      bucket = internal::MurmurHash3X86_32(suffix_text_, 0) % syn.buckets;
    }
    synthetic_ += syn.separator;
    fmt::format_to(std::back_inserter(synthetic_), "{}", bucket + 1);
    return true;
  }

  // A scalar as text in a synthetic key: strings as they are, numbers in shortest round-trip
  // form, true/false/null as written. False for a missing or invalid value.
  static bool AppendValueText(const FoundComponent& f, std::string& out) {
    if (f.invalid) return false;
    switch (f.kind) {
      case KeyKind::kUndefined:
        return false;
      case KeyKind::kNull:
        out += "null";
        return true;
      case KeyKind::kFalse:
        out += "false";
        return true;
      case KeyKind::kTrue:
        out += "true";
        return true;
      case KeyKind::kNumber:
        fmt::format_to(std::back_inserter(out), "{}", f.number);
        return true;
      case KeyKind::kString:
        out.append(f.text);
        return true;
    }
    return false;
  }

  static const char* KindName(const FoundComponent& f) {
    if (f.invalid) return f.invalid[0] == 'n' ? "number" : f.invalid;
    switch (f.kind) {
      case KeyKind::kUndefined:
        return "missing";
      case KeyKind::kNull:
        return "null";
      case KeyKind::kFalse:
      case KeyKind::kTrue:
        return "boolean";
      case KeyKind::kNumber:
        return "number";
      case KeyKind::kString:
        return "string";
    }
    return "missing";
  }

  // Validates a number token simdjson could not convert (too large for a double or an integer):
  // valid JSON grammar is accepted, anything else is malformed.
  static bool ValidNumberToken(od::value& value) {
    std::string_view raw = value.raw_json_token();
    while (!raw.empty() &&
           (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t')) {
      raw.remove_suffix(1);
    }
    return IsJsonNumber(raw);
  }

  // Of the paths in `matching` (bit i: key path i's segments match the pointer down to this
  // object, at `depth`), those a field named `key` continues (`deeper`) or ends at (`here`).
  void MatchField(std::string_view key, int depth, uint32_t matching, uint32_t& deeper,
                  uint32_t& here) const {
    for (uint32_t m = matching; m; m &= m - 1) {
      int i = __builtin_ctz(m);
      const auto& segments = paths_[i].segments();
      if (segments[depth - 1] != key) continue;
      if (static_cast<size_t>(depth) == segments.size()) {
        here |= 1u << i;
      } else {
        deeper |= 1u << i;
      }
    }
  }

  // `matching`: bit i set when key path i's segments match the pointer down to this object.
  Status WalkObject(od::object object, int depth, uint32_t matching) {
    for (auto field_result : object) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return SimdjsonStatus(e);
      std::string_view key = field.escaped_key();
      if (key.find('\\') != std::string_view::npos) {
        if (auto e = field.unescaped_key(false).get(key)) return SimdjsonStatus(e);
      }
      uint32_t deeper = 0, here = 0;
      MatchField(key, depth, matching, deeper, here);
      size_t pointer_len = pointer_.size();
      if (discovering_) KeyPath::AppendSegment(key, pointer_);
      PARTPLAY_RETURN_IF_ERROR(WalkValue(field.value(), depth, deeper, here));
      if (discovering_) pointer_.resize(pointer_len);
    }
    return Status::Ok();
  }

  Status WalkArray(od::array array, int depth) {
    for (auto element : array) {
      od::value value;
      if (auto e = std::move(element).get(value)) return SimdjsonStatus(e);
      bool was = discovering_;
      discovering_ = false;  // key paths never index into arrays
      Status s = WalkValue(value, depth, 0, 0);
      discovering_ = was;
      PARTPLAY_RETURN_IF_ERROR(s);
    }
    return Status::Ok();
  }

  // A value at nesting `depth` (its parent's depth). `deeper`: key paths continuing inside it;
  // `here`: key paths ending at it.
  Status WalkValue(od::value value, int depth, uint32_t deeper, uint32_t here) {
    od::json_type type;
    if (auto e = value.type().get(type)) return SimdjsonStatus(e);
    switch (type) {
      case od::json_type::object: {
        if (depth + 1 > kMaxJsonDepth) return Status(ErrorCode::kTooDeep, "nesting too deep");
        SetInvalid(here, "object");
        od::object object;
        if (auto e = value.get_object().get(object)) return SimdjsonStatus(e);
        return WalkObject(object, depth + 1, deeper);
      }
      case od::json_type::array: {
        if (depth + 1 > kMaxJsonDepth) return Status(ErrorCode::kTooDeep, "nesting too deep");
        SetInvalid(here, "array");
        od::array array;
        if (auto e = value.get_array().get(array)) return SimdjsonStatus(e);
        return WalkArray(array, depth + 1);
      }
      case od::json_type::string: {
        if (!here && !discovering_) {
          // Only validation is needed: stage 1 has checked UTF-8 and control characters, so a
          // string without a backslash is valid as it stands and need not be unescaped. The
          // value is still consumed, so the iterator checks what follows it.
          std::string_view raw = value.raw_json_token();
          od::raw_json_string consumed;
          if (auto e = value.get_raw_json_string().get(consumed)) return SimdjsonStatus(e);
          if (raw.find('\\') == std::string_view::npos) return Status::Ok();
          JsonDiagnosis d = DiagnoseJsonValue(raw);
          if (d.found) return Status(ErrorCode::kMalformedJson, d.message);
          return Status::Ok();
        }
        std::string_view text;
        if (auto e = value.get_string().get(text)) return SimdjsonStatus(e);
        Set(here, KeyKind::kString, 0, text);
        if (discovering_) Discover(KeyKind::kString, 0, text);
        return Status::Ok();
      }
      case od::json_type::number: {
        double d = 0;
        if (here || discovering_) {
          if (value.get_double().get(d)) {
            if (!ValidNumberToken(value)) return Status(ErrorCode::kMalformedJson, "bad number");
            SetInvalid(here, "number_out_of_range");
            return Status::Ok();
          }
          // -0 becomes 0 in the canonical encoding. Only the components this value sets (a first
          // occurrence) can be imprecise: a repeated property's literal is not their key.
          uint32_t set = Set(here, KeyKind::kNumber, d, {});
          if (set && ImpreciseInteger(value.raw_json_token(), d)) MarkImprecise(set, value);
          if (discovering_) Discover(KeyKind::kNumber, d, {});
          return Status::Ok();
        }
        od::number n;
        if (value.get_number().get(n) && !ValidNumberToken(value)) {
          return Status(ErrorCode::kMalformedJson, "bad number");
        }
        return Status::Ok();
      }
      case od::json_type::boolean: {
        bool b;
        if (auto e = value.get_bool().get(b)) return SimdjsonStatus(e);
        KeyKind kind = b ? KeyKind::kTrue : KeyKind::kFalse;
        Set(here, kind, 0, {});
        if (discovering_) Discover(kind, 0, {});
        return Status::Ok();
      }
      case od::json_type::null: {
        bool is_null;
        if (auto e = value.is_null().get(is_null)) return SimdjsonStatus(e);
        if (!is_null) return Status(ErrorCode::kMalformedJson, "bad literal");
        Set(here, KeyKind::kNull, 0, {});
        if (discovering_) Discover(KeyKind::kNull, 0, {});
        return Status::Ok();
      }
    }
    return Status(ErrorCode::kMalformedJson, "unknown value type");
  }

  // The tracked paths in a validated object (OnValidatedItem): the same first-occurrence rules
  // as WalkObject, reading only fields a path goes through. False when the walk must decide: a
  // number at a tracked path whose literal a double hides (beyond +-2^53, not an integer type).
  bool FindTracked(simdjson::dom::object object, int depth, uint32_t matching) {
    for (simdjson::dom::key_value_pair field : object) {
      uint32_t deeper = 0, here = 0;
      MatchField(field.key, depth, matching, deeper, here);
      if (!deeper && !here) continue;
      simdjson::dom::element value = field.value;
      switch (value.type()) {
        case simdjson::dom::element_type::OBJECT:
          SetInvalid(here, "object");
          if (deeper && !FindTracked(value.get_object().value_unsafe(), depth + 1, deeper)) {
            return false;
          }
          break;
        case simdjson::dom::element_type::ARRAY:
          SetInvalid(here, "array");
          break;
        case simdjson::dom::element_type::STRING:
          Set(here, KeyKind::kString, 0, value.get_string().value_unsafe());
          break;
        case simdjson::dom::element_type::INT64: {
          int64_t i = value.get_int64().value_unsafe();
          SetInteger(here, static_cast<double>(i), i < 0, i < 0 ? 0 - static_cast<uint64_t>(i)
                                                                : static_cast<uint64_t>(i));
          break;
        }
        case simdjson::dom::element_type::UINT64: {
          uint64_t u = value.get_uint64().value_unsafe();
          SetInteger(here, static_cast<double>(u), false, u);
          break;
        }
        case simdjson::dom::element_type::DOUBLE: {
          double d = value.get_double().value_unsafe();
          if (std::fabs(d) >= kTwoTo53) return false;  // "1e20" or a huge integer?
          Set(here, KeyKind::kNumber, d, {});
          break;
        }
        case simdjson::dom::element_type::BOOL: {
          bool b = value.get_bool().value_unsafe();
          Set(here, b ? KeyKind::kTrue : KeyKind::kFalse, 0, {});
          break;
        }
        case simdjson::dom::element_type::NULL_VALUE:
          Set(here, KeyKind::kNull, 0, {});
          break;
      }
      if (AllFound(matching)) return true;  // the first occurrence won: later fields change nothing
    }
    return true;
  }
  // A sampled item's DOM (OnValidatedItem): every field, as WalkObject and WalkValue read them
  // for discovery, setting the tracked paths as they do. FindTracked has accepted the item, so
  // no number here needs its literal.
  void SampleObject(simdjson::dom::object object, int depth, uint32_t matching) {
    for (simdjson::dom::key_value_pair field : object) {
      uint32_t deeper = 0, here = 0;
      MatchField(field.key, depth, matching, deeper, here);
      size_t pointer_len = pointer_.size();
      KeyPath::AppendSegment(field.key, pointer_);
      SampleValue(field.value, depth, deeper, here);
      pointer_.resize(pointer_len);
    }
  }
  void SampleValue(simdjson::dom::element value, int depth, uint32_t deeper, uint32_t here) {
    switch (value.type()) {
      case simdjson::dom::element_type::OBJECT:
        SetInvalid(here, "object");
        SampleObject(value.get_object().value_unsafe(), depth + 1, deeper);
        return;
      case simdjson::dom::element_type::ARRAY:
        SetInvalid(here, "array");  // neither key paths nor the sample index into arrays
        return;
      case simdjson::dom::element_type::STRING: {
        std::string_view text = value.get_string().value_unsafe();
        Set(here, KeyKind::kString, 0, text);
        Discover(KeyKind::kString, 0, text);
        return;
      }
      case simdjson::dom::element_type::INT64: {
        int64_t i = value.get_int64().value_unsafe();
        SetInteger(here, static_cast<double>(i), i < 0,
                   i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i));
        Discover(KeyKind::kNumber, static_cast<double>(i), {});
        return;
      }
      case simdjson::dom::element_type::UINT64: {
        uint64_t u = value.get_uint64().value_unsafe();
        SetInteger(here, static_cast<double>(u), false, u);
        Discover(KeyKind::kNumber, static_cast<double>(u), {});
        return;
      }
      case simdjson::dom::element_type::DOUBLE: {
        double d = value.get_double().value_unsafe();
        Set(here, KeyKind::kNumber, d, {});
        Discover(KeyKind::kNumber, d, {});
        return;
      }
      case simdjson::dom::element_type::BOOL: {
        KeyKind kind = value.get_bool().value_unsafe() ? KeyKind::kTrue : KeyKind::kFalse;
        Set(here, kind, 0, {});
        Discover(kind, 0, {});
        return;
      }
      case simdjson::dom::element_type::NULL_VALUE:
        Set(here, KeyKind::kNull, 0, {});
        Discover(KeyKind::kNull, 0, {});
        return;
    }
  }
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
  void SetInteger(uint32_t here, double d, bool negative, uint64_t magnitude) {
    uint32_t set = Set(here, KeyKind::kNumber, d, {});
    if (!set || std::fabs(d) < kTwoTo53) return;
    for (uint32_t m = set; m; m &= m - 1) {
      int slot = __builtin_ctz(m);
      const FoundComponent& f = found_[slot];
      if (f.kind != KeyKind::kNumber || !f.raw.empty()) continue;
      // The first slot this literal marks holds its text: each slot is marked once, so its
      // buffer stays put for the item.
      char* text = integer_text_[slot];
      char* out = text;
      if (negative) *out++ = '-';
      out = fmt::format_to(out, "{}", magnitude);
      MarkRaw(set, std::string_view(text, static_cast<size_t>(out - text)));
      return;
    }
  }

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
  std::unordered_map<std::string, uint32_t> sample_path_index_;
  std::vector<std::string> sample_paths_;
  std::vector<internal::SampleItem> sample_items_;
  std::vector<internal::SampleObservation> sample_obs_;
  // A merged analysis has no stream of its own: its format and sizes.
  struct Merged {
    internal::InputFormat format = internal::InputFormat::kUnknown;
    uint64_t input_bytes = 0;
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

AnalysisReport Analyzer::Impl::BuildReport(const ReportOptions& options) const {
  AnalysisReport r;
  switch (merged_ ? merged_->format : stream_.format()) {
    case internal::InputFormat::kArray:
      r.format = "array";
      break;
    default:
      r.format = items_ == 1 ? "object" : "ndjson";
      break;
  }
  r.key_paths = options_.key_paths;  // paths_ also holds the id, weight and synthetic paths
  r.items = items_;
  r.bytes = bytes_;
  r.input_bytes = merged_ ? merged_->input_bytes : stream_.input_bytes();
  r.undefined_key_items = undefined_items_;
  r.invalid_key_items = invalid_items_;
  r.invalid_key_bytes = invalid_bytes_;
  r.invalid_key_examples = invalid_examples_;
  r.oversized_items = oversized_;
  r.oversized_examples = oversized_examples_;
  r.missing_id_items = missing_id_;
  r.missing_id_examples = missing_id_examples_;
  r.duplicate_id_items = duplicate_id_;
  r.duplicate_id_examples = duplicate_id_examples_;
  r.imprecise_number_items = imprecise_;
  r.imprecise_number_examples = imprecise_examples_;
  r.weight_missing_items = weight_missing_;
  auto exported = [&](uint32_t i) {
    LogicalPartition p = partitions_.Export(i);
    p.weight = WeightOf(i);
    return p;
  };

  // Statistics from the sizes alone; only the listed partitions are selected and decoded. When
  // the full size order is kept (asked for by keep_size_order, or kept by AllPartitions), the
  // sizes and the listed partitions are read off it instead: the same figures, without sorting
  // the sizes and selecting the largest again.
  const std::shared_ptr<const std::vector<uint32_t>> full = SizeOrder(options.keep_size_order);
  size_t listed = options.max_partitions < 0
                      ? partitions_.size()
                      : std::min(partitions_.size(), static_cast<size_t>(options.max_partitions));
  std::vector<uint32_t> order;
  if (full) {
    r.partition_bytes.resize(full->size());
    for (size_t i = 0; i < full->size(); ++i) {
      if (i + 16 < full->size()) partitions_.PrefetchNumber((*full)[i + 16]);
      r.partition_bytes[i] = static_cast<double>(partitions_.bytes_of((*full)[i]));
    }
    const size_t chosen = std::min(std::max<size_t>(listed, 1), full->size());
    order.assign(full->begin(), full->begin() + static_cast<std::ptrdiff_t>(chosen));
  } else {
    std::vector<uint64_t> sizes = partitions_.SizesDescending();
    r.partition_bytes.assign(sizes.begin(), sizes.end());
    sizes = {};
    order = partitions_.Largest(std::max<size_t>(listed, 1));
  }
  r.partition_count = r.partition_bytes.size();
  for (size_t k = 0; k < listed; ++k) r.partitions.push_back(exported(order[k]));
  r.partitions_omitted = partitions_.size() - listed;
  if (!order.empty()) {
    r.has_largest = true;
    r.largest = exported(order[0]);
  }
  PartitionSpread spread = ComputeSpread(r.partition_bytes);
  r.mean_partition_bytes = spread.mean;
  r.top1_partitions = spread.top1_count;
  r.top1_bytes = spread.top1_total;
  r.top1_share = spread.top1_share;
  r.gini = spread.gini;

  r.sampled_items = discovery_->sampled_items();
  r.candidate_paths = discovery_->Paths(options.candidate_values);
  return r;
}

namespace {

// The analyzer's table in size order. Items and bytes are copied out in that order on first
// use (the container model reads them many times, at random: 8-byte arrays, not 48-byte
// entries; a plain listing never asks): 4 bytes per partition besides the table, 24 then (with
// the list index of each partition number, for passes in memory order).
class TablePartitionList : public PartitionList {
 public:
  TablePartitionList(const internal::PartitionTable& table, std::vector<double> weights,
                     std::shared_ptr<const std::vector<uint32_t>> order)
      : table_(table), weights_(std::move(weights)), order_(*order), keep_(std::move(order)) {}
  size_t size() const override { return order_.size(); }
  uint64_t items(size_t i) const override {
    CopySizes();
    return items_[i];
  }
  uint64_t bytes(size_t i) const override {
    CopySizes();
    return bytes_[i];
  }
  double weight(size_t i) const override {
    return order_[i] < weights_.size() ? weights_[order_[i]] : 0.0;
  }
  std::string_view canonical(size_t i) const override { return table_.key_of(order_[i]); }
  LogicalPartition partition(size_t i) const override {
    LogicalPartition p;
    partition_into(i, p);
    return p;
  }
  void read_ahead(size_t i) const override {
    if (i + 32 < order_.size()) table_.PrefetchNumber(order_[i + 32]);
    if (i + 16 < order_.size()) table_.PrefetchKeyOfNumber(order_[i + 16]);
  }
  void read_sizes_ahead(size_t i) const override {
    CopySizes();
    if (i < items_.size()) {
      __builtin_prefetch(&items_[i], 0);
      __builtin_prefetch(&bytes_[i], 0);
    }
  }
  void partition_into(size_t i, LogicalPartition& out) const override {
    table_.ExportInto(order_[i], out);
    out.weight = weight(i);
  }
  // The table's partition numbers are its memory order.
  void VisitStretchInMemoryOrder(size_t begin, size_t end,
                                 const std::function<bool(size_t, std::string_view)>& visit,
                                 const std::function<void(size_t)>& coming) const override {
    constexpr size_t kAhead = 16;
    const std::vector<uint32_t>& at = ListIndexOfNumber();
    end = std::min(end, at.size());
    for (size_t n = begin; n < end; ++n) {
      if (coming && n + kAhead < end) coming(at[n + kAhead]);
      if (!visit(at[n], table_.key_of(static_cast<uint32_t>(n)))) return;
    }
  }

 private:
  // Both caches are filled once, by whichever caller comes first (stretches of a pass may run
  // on several threads), in stretches on the host's threads (core/tasks.h).
  const std::vector<uint32_t>& ListIndexOfNumber() const {
    std::call_once(list_index_once_, [this] {
      internal::ReserveHuge(list_index_, order_.size());
      list_index_.resize(order_.size());
      internal::ParallelStretches(order_.size(), internal::kMinPartitionStretch,
                                  [&](size_t, size_t b, size_t e) {
                                    for (size_t i = b; i < e; ++i) {
                                      if (i + 16 < e)
                                        __builtin_prefetch(&list_index_[order_[i + 16]], 1);
                                      list_index_[order_[i]] = static_cast<uint32_t>(i);
                                    }
                                  });
    });
    return list_index_;
  }
  void CopySizes() const {
    if (sizes_copied_.load(std::memory_order_acquire)) return;  // the common case, inlined
    std::call_once(sizes_once_, [this] {
      internal::ReserveHuge(items_, order_.size());
      internal::ReserveHuge(bytes_, order_.size());
      items_.resize(order_.size());
      bytes_.resize(order_.size());
      // Gathered in list order, the entries loaded ahead: no list index of each number needed.
      // (Scattered in memory order it took 15 ms for 1,000,000 partitions; this way, measured
      // together with the request shares, 23-35 ms against 26: no clear gain in time.)
      internal::ParallelStretches(order_.size(), internal::kMinPartitionStretch,
                                  [&](size_t, size_t b, size_t e) {
                                    for (size_t i = b; i < e; ++i) {
                                      if (i + 16 < e) table_.PrefetchNumber(order_[i + 16]);
                                      items_[i] = table_.items_of(order_[i]);
                                      bytes_[i] = table_.bytes_of(order_[i]);
                                    }
                                  });
      sizes_copied_.store(true, std::memory_order_release);
    });
  }

  const internal::PartitionTable& table_;
  std::vector<double> weights_;  // rounded, by partition number
  const std::vector<uint32_t>& order_;
  std::shared_ptr<const std::vector<uint32_t>> keep_;  // order_'s owner
  mutable std::vector<uint64_t> items_, bytes_;  // filled by CopySizes on first use
  mutable std::vector<uint32_t> list_index_;  // by partition number (ListIndexOfNumber)
  mutable std::once_flag sizes_once_, list_index_once_;
  mutable std::atomic<bool> sizes_copied_{false};
};

}  // namespace

// The full sort is the costly part with many partitions; a report asks for the order more than
// once (its own figures, the container model, then the streamed listing), so it is kept while
// the table stays as it is.
std::shared_ptr<const std::vector<uint32_t>> Analyzer::Impl::SizeOrder(bool sort) const {
  const bool kept = sorted_ && sorted_items_ == items_ && sorted_->size() == partitions_.size();
  if (!kept && !sort) return nullptr;
  if (!kept) {
    sorted_ = std::make_shared<const std::vector<uint32_t>>(partitions_.Largest(partitions_.size()));
    sorted_items_ = items_;
  }
  return sorted_;
}

std::unique_ptr<PartitionList> Analyzer::Impl::AllPartitions() const {
  std::vector<double> weights(weights_.size());
  for (uint32_t i = 0; i < weights.size(); ++i) weights[i] = WeightOf(i);
  return std::make_unique<TablePartitionList>(partitions_, std::move(weights), SizeOrder(true));
}

LogicalPartitionList::LogicalPartitionList(const std::vector<LogicalPartition>& partitions)
    : partitions_(partitions) {
  canonical_.reserve(partitions.size());
  for (const LogicalPartition& p : partitions) canonical_.push_back(p.key.CanonicalBytes());
}

Analyzer::Analyzer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Analyzer::~Analyzer() = default;

StatusOr<std::unique_ptr<Analyzer>> Analyzer::Create(const AnalysisOptions& options) {
  auto impl = std::make_unique<Impl>(options, false);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

uint8_t* Analyzer::WritableChunk(size_t n) { return impl_->stream().WritableChunk(n); }
Status Analyzer::CommitChunk(size_t n) {
  if (impl_->merged() || impl_->sealed_) {
    return Status(ErrorCode::kInvalidState, "a merged or sealed analysis takes no input");
  }
  Status s = impl_->stream().CommitChunk(n);
  if (!s.ok() && impl_->failure_.ok()) impl_->failure_ = s;
  return s;
}

Status Analyzer::Feed(std::string_view bytes) {
  uint8_t* at = WritableChunk(bytes.size());
  if (at == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input chunk");
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return CommitChunk(bytes.size());
}

Status Analyzer::Finish() {
  if (impl_->merged() || impl_->sealed_) {
    return Status(ErrorCode::kInvalidState, "a merged or sealed analysis takes no input");
  }
  Status s = impl_->stream().Finish();
  if (!s.ok()) {
    if (impl_->failure_.ok()) impl_->failure_ = s;
    return s;
  }
  impl_->ResolveAdds();
  impl_->SortHashedPairs();
  impl_->finished_ = true;
  return Status::Ok();
}
uint64_t Analyzer::bytes_consumed() const {
  return impl_->merged() ? impl_->input_bytes() : impl_->stream().bytes_consumed();
}
uint64_t Analyzer::items_seen() const { return impl_->items(); }
void Analyzer::ExpectInputBytes(uint64_t bytes) { impl_->ExpectInputBytes(bytes); }
uint64_t Analyzer::items_validated() const {
  return impl_->merged() ? 0 : static_cast<uint64_t>(impl_->stream().items_validated());
}
uint64_t Analyzer::items_scanned() const {
  return impl_->merged() ? 0 : static_cast<uint64_t>(impl_->stream().items_scanned());
}
AnalysisReport Analyzer::BuildReport(const ReportOptions& options) const {
  return impl_->BuildReport(options);
}
std::unique_ptr<PartitionList> Analyzer::AllPartitions() const { return impl_->AllPartitions(); }

// ---- Parts and their merge (partial_data.h) ----

namespace internal {

bool IdIsKey(const AnalysisOptions& options) {
  return options.check_ids && options.key_paths.size() == 1 &&
         options.synthetic.kind == SyntheticKeyOptions::Kind::kNone && KeyPath::Parse("/id").ok() &&
         KeyPath::Parse(options.key_paths[0]).ok() &&
         KeyPath::Parse(options.key_paths[0]).value().segments() ==
             KeyPath::Parse("/id").value().segments();
}

}  // namespace internal

namespace {

bool SameOptions(const AnalysisOptions& a, const AnalysisOptions& b) {
  const SyntheticKeyOptions &x = a.synthetic, &y = b.synthetic;
  return a.key_paths == b.key_paths && a.discover_items == b.discover_items &&
         a.weight_path == b.weight_path && a.check_ids == b.check_ids && x.kind == y.kind &&
         x.paths == y.paths && x.separator == y.separator && x.buckets == y.buckets &&
         x.seed == y.seed && x.suffix_path == y.suffix_path;
}

// Where a part starts in the whole input.
struct PartBase {
  int64_t item = 0;
  uint64_t byte = 0;
  int64_t line = 1, column = 1;
};

SourceLocation Rebase(SourceLocation w, const PartBase& b) {
  if (w.line > 0) {
    if (w.line == 1) w.column += b.column - 1;
    w.line += b.line - 1;
  }
  if (w.byte_offset >= 0) w.byte_offset += static_cast<int64_t>(b.byte);
  if (w.item_index >= 0) w.item_index += b.item;
  return w;
}

// Messages that name the item ("item 3 is a number, not an object", "array element 3 ...")
// name the part's index: rewritten with the whole input's.
std::string RebaseMessage(const std::string& message, int64_t relative, int64_t global) {
  if (relative < 0 || relative == global) return message;
  std::string rel = std::to_string(relative);
  for (std::string_view prefix : {"item ", "element "}) {
    std::string needle = std::string(prefix) + rel;
    size_t at = message.find(needle);
    while (at != std::string::npos) {
      size_t end = at + needle.size();
      if (end >= message.size() || message[end] < '0' || message[end] > '9') {
        return message.substr(0, at) + std::string(prefix) + std::to_string(global) +
               message.substr(end);
      }
      at = message.find(needle, at + 1);
    }
  }
  return message;
}

Status RebaseStatus(const Status& s, const PartBase& b) {
  return Status(s.code(),
                RebaseMessage(s.message(), s.where().item_index, s.where().item_index + b.item),
                Rebase(s.where(), b));
}

// A part made with PartIds::kHashed holds an id an earlier part holds too, or (`twice`) holds
// one twice: it kept no record to name it by (Analyzer::CreatePart; `k` counts from 0).
Status UnnamedRepeat(size_t k, bool twice = false) {
  return Status(ErrorCode::kBadPartial,
                fmt::format("part {} holds {}, and was made without id records to name it by: "
                            "analyse the parts again with records",
                            k + 1, twice ? "an id twice" : "an id an earlier part holds too"));
}

// Where parts made with PartIds::kHashed first repeat a (partition, id) pair: the first part,
// in input order, that holds one twice (`twice`) or one an earlier part holds; `part` is
// parts.size() when none does. Finish sorted each part's pair hashes (any other column, one
// read from bytes say, is sorted here), so one ascending sweep over them all finds every repeat.
struct PairRepeat {
  size_t part;
  bool twice = false;
};
PairRepeat FirstRepeatedPair(const std::vector<internal::PartialData*>& parts) {
  PairRepeat first{parts.size()};
  auto note = [&](size_t k, bool twice) {
    if (k < first.part || (k == first.part && twice)) first = {k, twice};
  };
  std::vector<const std::vector<uint64_t>*> columns;
  for (size_t k = 0; k < parts.size(); ++k) {
    internal::IdPairRecords& pairs = parts[k]->id_pairs;
    if (pairs.RepeatsInside()) note(k, true);  // sorted and checked by the part's Finish
    columns.push_back(&pairs.hashes());
  }
  if (columns.size() == 2) {  // the common case: a merge of the two sorted columns
    const std::vector<uint64_t>& a = *columns[0];
    const std::vector<uint64_t>& b = *columns[1];
    // Branch-free steps: which column advances is a coin toss on hashes, so a branch on it
    // mispredicted about every other step (two columns of 500,000 random hashes: 3.5 ms a
    // sweep with branches, 2.0 without, g++ -O2 on this machine).
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
      const uint64_t x = a[i], y = b[j];
      if (x == y) {
        note(1, false);
        break;
      }
      i += x < y;
      j += y < x;
    }
    return first;
  }
  // Every column at once, smallest hash first and, among equal ones, the earliest part first:
  // a hash equal to the one before is a repeat in the part it comes from.
  using Head = std::pair<uint64_t, size_t>;  // (hash, part)
  std::vector<size_t> next(columns.size(), 0);
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  for (size_t k = 0; k < columns.size(); ++k) {
    if (!columns[k]->empty()) heads.push({(*columns[k])[0], k});
  }
  bool any = false;
  uint64_t last = 0;
  while (!heads.empty()) {
    auto [hash, k] = heads.top();
    heads.pop();
    if (any && hash == last) note(k, false);
    any = true;
    last = hash;
    if (++next[k] < columns[k]->size()) heads.push({(*columns[k])[next[k]], k});
  }
  return first;
}

ItemFinding RebaseFinding(ItemFinding f, const PartBase& b) {
  f.item_index += b.item;
  f.where = Rebase(f.where, b);
  return f;
}

ItemFinding FindingOf(const internal::ItemRecord& r, const PartBase& b, std::string type) {
  ItemFinding f;
  f.item_index = r.index;
  f.bytes = r.bytes;
  f.where.byte_offset = static_cast<int64_t>(r.byte_offset);
  f.where.line = r.line;
  f.where.column = r.column;
  f.where.item_index = r.index;
  f.type = std::move(type);
  return RebaseFinding(std::move(f), b);
}

void AppendRebased(std::vector<ItemFinding>& out, const std::vector<ItemFinding>& part,
                   const PartBase& b) {
  for (const ItemFinding& f : part) {
    if (out.size() >= kMaxFindingExamples) return;
    out.push_back(RebaseFinding(f, b));
  }
}

std::vector<double> PartWeightParts(const internal::PartialData& d, uint32_t n) {
  if (n >= d.weights.size()) return {};
  const internal::WeightSum& w = d.weights[n];
  if (w.spilled()) {
    auto spill = d.weight_spill.find(n);
    return spill == d.weight_spill.end() ? std::vector<double>{} : spill->second;
  }
  std::vector<double> out;
  if (w.lo != 0) out.push_back(w.lo);
  if (w.hi != 0) out.push_back(w.hi);
  return out;
}

}  // namespace

internal::PartialData& Analyzer::Impl::Seal() {
  if (sealed_) return *sealed_;
  auto d = std::make_unique<internal::PartialData>();
  d->options = options_;
  d->first = first_;
  d->id_records = !hashed_;
  if (first_) d->ids = std::move(ids_);
  d->status = failure_;
  d->format = stream_.format();
  d->input_bytes = stream_.input_bytes();
  if (failure_.ok() || failure_.code() == ErrorCode::kEmptyInput) {
    SourceLocation end = stream_.EndPosition();
    d->end_line = end.line;
    d->end_column = end.column;
  }
  d->items = items_;
  d->bytes = bytes_;
  d->undefined_items = undefined_items_;
  d->invalid_items = invalid_items_;
  d->invalid_bytes = invalid_bytes_;
  d->oversized = oversized_;
  d->missing_id = missing_id_;
  d->duplicate_id = duplicate_id_;
  d->imprecise = imprecise_;
  d->weight_missing = weight_missing_;
  d->invalid_examples = std::move(invalid_examples_);
  d->oversized_examples = std::move(oversized_examples_);
  d->missing_id_examples = std::move(missing_id_examples_);
  d->duplicate_id_examples = std::move(duplicate_id_examples_);
  d->imprecise_examples = std::move(imprecise_examples_);
  d->table = std::move(partitions_);
  d->weights = std::move(weights_);
  d->weight_spill = std::move(weight_spill_);
  d->first_items = std::move(first_items_);
  d->id_pairs = std::move(id_pairs_);
  d->sample_paths = std::move(sample_paths_);
  d->sample_items = std::move(sample_items_);
  d->sample_obs = std::move(sample_obs_);
  if (first_) d->discovery = std::move(discovery_);
  sealed_ = std::move(d);
  return *sealed_;
}

StatusOr<std::unique_ptr<Analyzer::Impl>> Analyzer::Impl::Merge(
    const std::vector<internal::PartialData*>& parts) {
  if (parts.empty()) return Status(ErrorCode::kBadPartial, "no partial state to merge");
  const AnalysisOptions options = parts[0]->options;
  for (size_t k = 1; k < parts.size(); ++k) {
    if (!SameOptions(parts[k]->options, options)) {
      return Status(ErrorCode::kBadPartial,
                    fmt::format("part {} was analysed with other options than part 1 (key paths, "
                                "--discover, --weight, the id check and the synthetic key must "
                                "be the same)",
                                k + 1));
    }
  }
  // Where each part starts; the earliest error in input order wins (an empty part is an error
  // only when every part is empty, as one pass over their concatenation).
  std::vector<PartBase> bases(parts.size());
  PartBase at;
  bool all_empty = true;
  for (size_t k = 0; k < parts.size(); ++k) {
    internal::PartialData& d = *parts[k];
    bases[k] = at;
    // A failed or empty part is not merged: a key repeated in it, unloaded, is found now (a
    // broken partial comes before the part's own error).
    if (!d.status.ok()) PARTPLAY_RETURN_IF_ERROR(internal::LoadPartitionTable(d));
    if (!d.status.ok() && d.status.code() != ErrorCode::kEmptyInput) {
      return RebaseStatus(d.status, at);
    }
    if (d.status.ok()) all_empty = false;
    // Counts past 2^53 cannot come from one real input (a forged or corrupt part): refused
    // rather than wrapped when the parts are added up.
    constexpr int64_t kMaxTotal = int64_t{1} << 53;
    if (d.items > static_cast<uint64_t>(kMaxTotal) ||
        d.input_bytes > static_cast<uint64_t>(kMaxTotal) || d.end_line < 1 ||
        d.end_line > kMaxTotal || d.end_column < 1 || d.end_column > kMaxTotal ||
        at.item > kMaxTotal - static_cast<int64_t>(d.items) ||
        at.byte > static_cast<uint64_t>(kMaxTotal) - d.input_bytes ||
        at.line > kMaxTotal - d.end_line || at.column > kMaxTotal - d.end_column) {
      return Status(ErrorCode::kBadPartial,
                    fmt::format("part {}: its counts (items, bytes, lines, columns) with the parts "
                                "before it pass 2^53, more than any input holds",
                                k + 1));
    }
    at.item += static_cast<int64_t>(d.items);
    at.byte += d.input_bytes;
    at.column = d.end_line == 1 ? at.column + d.end_column - 1 : d.end_column;
    at.line += d.end_line - 1;
  }
  if (all_empty) return RebaseStatus(parts.back()->status, bases.back());

  auto impl = std::make_unique<Impl>(options, false);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  size_t partitions_in_parts = 0;  // at least the merged table's partitions
  for (const internal::PartialData* d : parts) {
    partitions_in_parts += d->unloaded ? d->unloaded_partitions : d->table.size();
  }
  // Parts made with PartIds::kHashed (all of them, as the CLI's --jobs and the page make them)
  // are checked for a repeated (partition, id) pair together, before their tables merge.
  bool all_hashed = options.check_ids &&
                    std::none_of(parts.begin(), parts.end(),
                                 [](const internal::PartialData* d) { return d->id_records; });
  PairRepeat repeat_at{parts.size()};
  if (all_hashed) repeat_at = FirstRepeatedPair(parts);
  Merged merged;
  std::vector<ItemFinding> duplicates;
  for (size_t k = 0; k < parts.size(); ++k) {
    internal::PartialData& d = *parts[k];
    const PartBase& b = bases[k];
    merged.input_bytes += d.input_bytes;
    if (!d.status.ok()) continue;  // an empty part
    if (d.format == internal::InputFormat::kArray ||
        merged.format == internal::InputFormat::kUnknown) {
      merged.format = d.format;
    }
    impl->items_ += d.items;
    impl->bytes_ += d.bytes;
    impl->undefined_items_ += d.undefined_items;
    impl->invalid_items_ += d.invalid_items;
    impl->invalid_bytes_ += d.invalid_bytes;
    impl->oversized_ += d.oversized;
    impl->missing_id_ += d.missing_id;
    impl->duplicate_id_ += d.duplicate_id;
    impl->imprecise_ += d.imprecise;
    impl->weight_missing_ += d.weight_missing;
    AppendRebased(impl->invalid_examples_, d.invalid_examples, b);
    AppendRebased(impl->oversized_examples_, d.oversized_examples, b);
    AppendRebased(impl->missing_id_examples_, d.missing_id_examples, b);
    AppendRebased(impl->imprecise_examples_, d.imprecise_examples, b);
    for (const ItemFinding& f : d.duplicate_id_examples) duplicates.push_back(RebaseFinding(f, b));

    // The partitions, in the part's order of first appearance (so numbers follow the whole
    // input's). Keyed by /id, a string id whose partition an earlier part holds repeats. The
    // first part's table is adopted as it is (its indices are the whole input's already), so
    // the merge never holds two copies of it.
    bool adopt = impl->partitions_.size() == 0 && b.item == 0;
    if (d.first && !adopt) {
      return Status(ErrorCode::kInvalidState, "a part made as the first part must come first");
    }
    if (adopt) {
      PARTPLAY_RETURN_IF_ERROR(internal::LoadPartitionTable(d));
      if (d.first) {
        impl->ids_ = std::move(d.ids);
        if (d.discovery) impl->discovery_ = std::move(d.discovery);  // the sample, observed
      }
      impl->partitions_ = std::move(d.table);
      impl->weights_ = std::move(d.weights);
      impl->weight_spill_ = std::move(d.weight_spill);
    }
    // The merged table is sized for every part's partitions at once (no rehash on the way).
    impl->partitions_.Reserve(std::max(impl->partitions_.size(), partitions_in_parts));
    // A part's keys are distinct, so a key that gets a number below `earlier` was an earlier
    // part's: one probe finds it and adds to it.
    const size_t earlier = impl->partitions_.size();
    bool unnamed_repeat = false;  // keyed by /id, a repeat a part without records cannot name
    auto add = [&](uint32_t i, std::string_view canonical, uint64_t hash, uint64_t items,
                   uint64_t bytes, uint64_t largest_item_bytes, int64_t largest_item_index) {
      uint32_t n = impl->partitions_.AddAggregate(
          canonical, hash, items, bytes, largest_item_bytes,
          largest_item_index >= 0 ? largest_item_index + b.item : -1);
      if (impl->id_is_key_ && n < earlier && !canonical.empty() &&
          static_cast<KeyKind>(static_cast<uint8_t>(canonical[0])) == KeyKind::kString) {
        if (!d.id_records) {
          unnamed_repeat = true;
        } else if (i < d.first_items.size()) {
          ++impl->duplicate_id_;
          PartitionKey key = PartitionKey::FromCanonicalBytes(canonical);
          duplicates.push_back(FindingOf(d.first_items[i], b, key.components[0].text));
        }
      }
      if (impl->weight_slot_) {
        if (n >= impl->weights_.size()) impl->weights_.resize(n + 1);
        for (double c : PartWeightParts(d, i)) impl->AddWeight(n, c);
      }
      return n;
    };
    uint64_t batch[kAddBatch];
    for (uint32_t i = 0; !adopt && i < d.table.size(); ++i) {
      // The part's table is freed as it is read: the merge never holds two copies of it.
      if (i % 4096 == 0) d.table.ReleaseBefore(i, &impl->partitions_);
      if (i % kAddBatch == 0) {  // what the next adds read, loaded together (ResolveAdds)
        size_t n = std::min<size_t>(kAddBatch, d.table.size() - i);
        for (size_t k = 0; k < n; ++k) batch[k] = d.table.hash_of(i + static_cast<uint32_t>(k));
        impl->partitions_.TouchForAdds(batch, n);
      }
      internal::PartitionTable::Entry e = d.table.EntryAt(i);
      add(i, e.canonical, e.hash, e.items, e.bytes, e.largest_item_bytes, e.largest_item_index);
    }
    impl->partitions_.DropSpareBlocks();
    if (!adopt && d.unloaded) {
      // Read from the partial's bytes in batches; a key repeated inside the part is the add
      // that finds a partition this part already added to (a bit per merged partition).
      std::vector<uint64_t> added((partitions_in_parts + 64) / 64, 0);
      internal::UnloadedPartition pending[kAddBatch];
      size_t count = 0;
      Status repeat;
      auto flush = [&]() {
        for (size_t k = 0; k < count; ++k) batch[k] = HashCanonical(pending[k].canonical);
        impl->partitions_.TouchForAdds(batch, count);
        for (size_t k = 0; k < count && repeat.ok(); ++k) {
          const internal::UnloadedPartition& p = pending[k];
          uint32_t n = add(p.number, p.canonical, batch[k], p.items, p.bytes,
                           p.largest_item_bytes, p.largest_item_index);
          if (n / 64 >= added.size()) added.resize(n / 64 + 1, 0);
          if (added[n / 64] >> (n % 64) & 1) {
            repeat = internal::RepeatedPartitionKey(p.number, p.start);
          }
          added[n / 64] |= uint64_t{1} << (n % 64);
        }
        count = 0;
      };
      internal::ForEachUnloadedPartition(d, [&](const internal::UnloadedPartition& p) {
        if (!repeat.ok()) return;
        pending[count++] = p;
        if (count == kAddBatch) flush();
      });
      if (repeat.ok()) flush();
      if (!repeat.ok()) return repeat;
    }
    if (unnamed_repeat) return UnnamedRepeat(k);
    if (k == repeat_at.part) return UnnamedRepeat(k, repeat_at.twice);
    // Otherwise each (partition, id) pair's first item in the part repeats an earlier part's
    // (parts with records; hashed ones, checked above, hold no pairs here).
    // The last part's pairs are only looked up: no part after it needs them in the set. The
    // records (read and checked with the partial, or the part's own) are decoded only as far as
    // the last repeat, for the findings' places and ids.
    bool last = k + 1 == parts.size();
    size_t pairs = all_hashed ? 0 : d.id_pairs.size();
    if (!last) impl->ids_.Reserve(impl->ids_.size() + pairs);
    std::vector<size_t> repeats;
    uint64_t touched = 0;
    for (size_t i = 0; i < pairs; ++i) {
      if (i % kAddBatch == 0) {  // a batch's slots loaded together: their misses overlap
        touched += impl->ids_.TouchSlots(d.id_pairs.hashes().data() + i,
                                         std::min(d.id_pairs.size() - i, kAddBatch));
      }
      uint64_t pair = d.id_pairs.hash(i);
      if (last ? impl->ids_.Contains(pair) : !impl->ids_.Insert(pair)) repeats.push_back(i);
    }
    impl->touched_ += touched;
    if (!repeats.empty() && !d.id_records) return UnnamedRepeat(k);
    internal::IdPairRecords::Cursor records(d.id_pairs.records(), d.items, d.input_bytes);
    for (size_t i = 0, r = 0; r < repeats.size(); ++i) {
      internal::ItemRecord first;
      std::string_view id;
      if (!records.Next(first, id)) return Status(ErrorCode::kBadPartial, records.error());
      if (i != repeats[r]) continue;
      ++r;
      ++impl->duplicate_id_;
      duplicates.push_back(FindingOf(first, b, std::string(id)));
    }
    // The sample is the whole input's first discover_items items: the part's first ones,
    // replayed through the same bookkeeping as one pass.
    uint64_t take = d.sample_items.size();
    if (options.discover_items >= 0) {
      int64_t left = std::max<int64_t>(0, options.discover_items - b.item);
      take = std::min<uint64_t>(take, static_cast<uint64_t>(left));
    }
    for (uint64_t j = 0; j < take; ++j) {
      const internal::SampleItem& item = d.sample_items[j];
      impl->discovery_->BeginItem(b.item + static_cast<int64_t>(j), item.bytes);
      for (uint32_t o = item.first_obs; o < item.first_obs + item.obs_count; ++o) {
        const internal::SampleObservation& obs = d.sample_obs[o];
        impl->discovery_->Observe(d.sample_paths[obs.path], obs.canonical);
      }
      if (item.has_id) impl->discovery_->EndItemWithId(item.id_hash);
    }
    d = internal::PartialData{};  // merged: free it before the next part
  }
  std::stable_sort(
      duplicates.begin(), duplicates.end(),
      [](const ItemFinding& x, const ItemFinding& y) { return x.item_index < y.item_index; });
  if (duplicates.size() > kMaxFindingExamples) duplicates.resize(kMaxFindingExamples);
  impl->duplicate_id_examples_ = std::move(duplicates);
  impl->merged_ = merged;
  return impl;
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::CreatePart(const AnalysisOptions& options,
                                                         bool first, PartIds ids) {
  auto impl = std::make_unique<Impl>(options, true, first, ids);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

Status Analyzer::Impl::CheckSerializable() const {
  if (!part()) {
    return Status(ErrorCode::kInvalidState,
                  "only an analyzer made by CreatePart (or read by ParsePartial) has a partial "
                  "state");
  }
  if (!finished_ && failure_.ok()) {
    return Status(ErrorCode::kInvalidState, "finish the part before serializing it");
  }
  if (first()) {
    return Status(ErrorCode::kInvalidState,
                  "a part made as the first part is merged in memory, never serialized");
  }
  return Status::Ok();
}

StatusOr<std::string> Analyzer::SerializePartial() {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  return internal::SerializePartialData(impl_->Seal());
}

StatusOr<uint64_t> Analyzer::PartialSize() {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  return static_cast<uint64_t>(internal::PartialDataSize(impl_->Seal()));
}

Status Analyzer::SerializePartialTo(const std::function<void(std::string_view)>& sink) {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  internal::SerializePartialData(impl_->Seal(), sink);
  return Status::Ok();
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::ParsePartial(std::string_view bytes) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<internal::PartialData> data,
                            internal::ParsePartialData(bytes));
  return FromPartialData(std::move(data));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::ParsePartialForMerge(std::string bytes) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<internal::PartialData> data,
                            internal::ParsePartialData(std::move(bytes)));
  return FromPartialData(std::move(data));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::FromPartialData(
    std::unique_ptr<internal::PartialData> data) {
  auto impl = std::make_unique<Impl>(data->options, true);
  if (Status s = impl->Init(); !s.ok()) {
    // Located at the options, which follow the 16-byte header and the 4-byte version.
    return Status(ErrorCode::kBadPartial,
                  fmt::format("the partial state's options are not valid: {}", s.message()),
                  SourceLocation{20, 0, 0, -1});
  }
  impl->sealed_ = std::move(data);
  impl->finished_ = true;
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::Merge(std::vector<std::unique_ptr<Analyzer>> parts) {
  std::vector<internal::PartialData*> data;
  for (const auto& part : parts) {
    if (part == nullptr || !part->impl_->part()) {
      return Status(ErrorCode::kInvalidState, "merge takes parts (CreatePart or ParsePartial)");
    }
    if (!part->impl_->finished_ && part->impl_->failure_.ok()) {
      return Status(ErrorCode::kInvalidState, "finish every part before merging");
    }
    data.push_back(&part->impl_->Seal());
  }
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Impl> impl, Impl::Merge(data));
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

const AnalysisOptions& Analyzer::options() const { return impl_->options(); }

}  // namespace partplay
