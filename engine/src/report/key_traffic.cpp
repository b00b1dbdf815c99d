// The traffic pass (report/key_traffic.h): every item's partition under every compared key, found
// the way the analyzer finds it (the same paths, the first occurrence of a repeated field, the
// synthetic key rules of ingest/synthetic_key.h), its physical partition by the key's layout,
// then the listed queries' matches, the write spread over time windows and the key's
// monotonicity.
#include "partplay/report/key_traffic.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>

#include "ingest/item_stream.h"
#include "partplay/core/defaults.h"
#include "partplay/ingest/key_path.h"
#include "partplay/ingest/partition_key.h"
#include "partplay/ingest/synthetic_key.h"

namespace partplay {
namespace {

namespace dom = simdjson::dom;
using Kind = SyntheticKeyOptions::Kind;

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

// One component as the analyzer reads it from a DOM value (analyzer_readers.cpp FindTracked).
struct Component {
  KeyKind kind = KeyKind::kUndefined;
  double number = 0;
  std::string_view text;
  bool invalid = false;  // an object or an array
};

// The value at a pointer's segments, through objects only (the first of a repeated name), as the
// analyzer's paths reach it; false when a segment is missing or crosses a non-object.
bool FindInObjects(const dom::element& root, const std::vector<std::string>& segments,
                   dom::element& out) {
  out = root;
  for (const std::string& name : segments) {
    dom::object object;
    if (out.get_object().get(object) || object.at_key(name).get(out)) return false;
  }
  return true;
}

Component ReadComponent(const dom::element& root, const std::vector<std::string>& segments) {
  dom::element at;
  if (!FindInObjects(root, segments, at)) return {};
  Component c;
  switch (at.type()) {
    case dom::element_type::OBJECT:
    case dom::element_type::ARRAY:
      c.invalid = true;
      break;
    case dom::element_type::STRING:
      c.kind = KeyKind::kString;
      c.text = at.get_string().value_unsafe();
      break;
    case dom::element_type::INT64:
      c.kind = KeyKind::kNumber;
      c.number = static_cast<double>(at.get_int64().value_unsafe());
      break;
    case dom::element_type::UINT64:
      c.kind = KeyKind::kNumber;
      c.number = static_cast<double>(at.get_uint64().value_unsafe());
      break;
    case dom::element_type::DOUBLE:
      c.kind = KeyKind::kNumber;
      c.number = at.get_double().value_unsafe();
      break;
    case dom::element_type::BOOL:
      c.kind = at.get_bool().value_unsafe() ? KeyKind::kTrue : KeyKind::kFalse;
      break;
    case dom::element_type::NULL_VALUE:
      c.kind = KeyKind::kNull;
      break;
  }
  return c;
}

// A time value: an ISO-8601 string, or a number of seconds (1e9..1e11: 2001 to 5138) or
// milliseconds (1e12..1e14) since 1970. The form is what the first item's value was.
bool ReadTime(const dom::element& value, std::string_view form, int64_t& millis) {
  if (form == "iso8601") {
    std::string_view s;
    return !value.get_string().get(s) && ParseIsoTimeMillis(s, millis);
  }
  double d;
  if (value.get_double().get(d) || !std::isfinite(d)) return false;
  // The form fixes the unit; EpochNumberMillis's ranges do not overlap, so it reads either.
  const bool seconds = d >= kEpochSecondsMin && d < kEpochSecondsEnd;
  if (form != (seconds ? "epoch_seconds" : "epoch_milliseconds")) return false;
  return EpochNumberMillis(d, millis);
}

// The form a value would be read in as a time, or "" when it is not one.
std::string_view TimeForm(const dom::element& value) {
  int64_t ms;
  if (ReadTime(value, "iso8601", ms)) return "iso8601";
  if (ReadTime(value, "epoch_seconds", ms)) return "epoch_seconds";
  if (ReadTime(value, "epoch_milliseconds", ms)) return "epoch_milliseconds";
  return {};
}

// Which of the first item's time-like fields is the write time: a creation time first, then a
// name saying time or date, then Cosmos DB's _ts (the last write), then any other; within each,
// a time of day before a date alone.
int TimeFieldTier(std::string_view name) {
  std::string lower(name);
  for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  const auto has = [&](std::string_view part) { return lower.find(part) != std::string::npos; };
  if (has("creat") || has("insert") || has("written")) return 0;
  if (lower == "_ts") return 2;
  if (has("time") || has("date") || lower == "ts") return 1;
  return 3;
}

struct QueryKeyCounts {
  uint64_t items = 0, rows = 0, unplaced = 0;
  std::vector<uint64_t> per_range;
};

struct KeyState {
  TrafficKey key;
  std::vector<std::vector<std::string>> segments;  // per key path
  std::vector<std::vector<std::string>> concat_segments;
  std::vector<KeyPart> concat_parts;
  std::vector<std::string> suffix_segments;
  // This item's partition: its canonical bytes and range, or placed = false.
  std::string canonical, previous;
  bool placed = false, has_previous = false;
  size_t range = 0;
  int64_t previous_time = std::numeric_limits<int64_t>::min();  // of the previous placed item
  std::vector<QueryKeyCounts> queries;
  // Write spread columns, one entry per timed item.
  std::vector<uint32_t> ranges;
  std::vector<uint64_t> hashes;
  // Monotonicity counts.
  uint64_t changes = 0, rises = 0, timed_changes = 0, concordant = 0;
  PartitionKey scratch_key;
  std::string synthetic, suffix, epk;
};

}  // namespace

class KeyTrafficPass::Impl : public internal::ItemSink {
 public:
  Impl(std::vector<TrafficKey> keys, std::vector<ItemQuery*> queries,
       const WriteSpreadOptions& writes)
      : queries_(std::move(queries)), writes_(writes), stream_(this) {
    for (TrafficKey& k : keys) {
      KeyState s;
      s.key = std::move(k);
      keys_.push_back(std::move(s));
    }
    stream_.EnableValidatedPath();
  }

  Status Init() {
    for (KeyState& s : keys_) {
      if (s.key.layout.ranges.empty()) {
        return Status(ErrorCode::kBadOption, "a key of the traffic pass has no physical partitions");
      }
      const SyntheticKeyOptions& syn = s.key.options.synthetic;
      for (const std::string& p : s.key.options.key_paths) {
        // As the analyzer reads it: a concatenated key's "month(/date)" key path is /date.
        std::string pointer = p;
        if (syn.kind == Kind::kConcat && IsKeyPartFunction(p)) {
          PARTPLAY_ASSIGN_OR_RETURN(KeyPart part, ParseKeyPart(p));
          pointer = part.path;
        }
        PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(pointer));
        s.segments.push_back(path.segments());
      }
      for (const std::string& p : syn.paths) {
        PARTPLAY_ASSIGN_OR_RETURN(KeyPart part, ParseKeyPart(p));
        PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(part.path));
        s.concat_segments.push_back(path.segments());
        s.concat_parts.push_back(std::move(part));
      }
      if (syn.kind == Kind::kHashSuffix) {
        PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(syn.suffix_path));
        s.suffix_segments = path.segments();
      }
      s.queries.resize(queries_.size());
      for (QueryKeyCounts& q : s.queries) q.per_range.assign(s.key.layout.ranges.size(), 0);
    }
    if (writes_.enabled && !writes_.time_path.empty()) {
      PARTPLAY_ASSIGN_OR_RETURN(KeyPath path, KeyPath::Parse(writes_.time_path));
      time_segments_ = path.segments();
      time_path_ = writes_.time_path;
    }
    if (writes_.window_seconds < 0) {
      return Status(ErrorCode::kBadOption, "the write window must be a positive number of seconds");
    }
    return Status::Ok();
  }

  Status OnItem(simdjson::ondemand::document_reference, const internal::ItemContext& item) override {
    // An item the validated path left: parsed alone into a DOM.
    dom::element root;
    if (auto e = item_parser_.parse(item.text.data(), item.text.size()).get(root)) {
      return Status(ErrorCode::kMalformedJson, simdjson::error_message(e));
    }
    return Process(root, item.index);
  }

  Status OnValidatedItem(dom::element root, const internal::ItemContext& item,
                         bool& taken) override {
    taken = true;
    return Process(root, item.index);
  }

  Status Process(const dom::element& root, int64_t index) {
    ++items_;
    if (root.type() != dom::element_type::OBJECT) {
      return Status(ErrorCode::kNotAnObject, "an item is not a JSON object");
    }
    if (writes_.enabled && !time_chosen_) ChooseTimeField(root);
    int64_t time = kNoTime;
    if (!time_segments_.empty()) {
      dom::element at;
      const bool found = FindInObjects(root, time_segments_, at);
      if (found && time_form_.empty()) time_form_ = std::string(TimeForm(at));
      if (!found || time_form_.empty() || !ReadTime(at, time_form_, time)) time = kNoTime;
    }
    if (time != kNoTime) {
      times_.push_back(time);
    } else {
      ++untimed_;
    }
    for (KeyState& s : keys_) {
      PARTPLAY_RETURN_IF_ERROR(Place(s, root, index));
      if (s.placed) {
        if (s.has_previous) {
          const int order = CompareCanonicalKeys(s.canonical, s.previous);
          if (order != 0) {
            ++s.changes;
            if (order > 0) ++s.rises;
            if (time != kNoTime && s.previous_time != kNoTime && time != s.previous_time) {
              ++s.timed_changes;
              if ((order > 0) == (time > s.previous_time)) ++s.concordant;
            }
          }
        }
        std::swap(s.previous, s.canonical);
        s.has_previous = true;
        s.previous_time = time;
      }
      if (time != kNoTime && s.placed) {
        s.ranges.push_back(static_cast<uint32_t>(s.range));
        s.hashes.push_back(HashCanonical(s.previous));
      } else if (time != kNoTime) {
        // An unplaced item still wrote: its window counts it, in no partition.
        s.ranges.push_back(std::numeric_limits<uint32_t>::max());
        s.hashes.push_back(0);
      }
    }
    for (size_t q = 0; q < queries_.size(); ++q) {
      StatusOr<uint64_t> rows = queries_[q]->Rows(root, index);
      if (!rows.ok()) return rows.status();
      if (rows.value() == 0) continue;
      for (KeyState& s : keys_) {
        QueryKeyCounts& c = s.queries[q];
        ++c.items;
        c.rows += rows.value();
        if (!s.placed) {
          ++c.unplaced;
        } else {
          ++c.per_range[s.range];
        }
      }
    }
    return Status::Ok();
  }

  // The item's partition under key `s`: s.canonical (after the call, moved to s.previous by the
  // caller) and s.range.
  Status Place(KeyState& s, const dom::element& root, int64_t index) {
    s.placed = false;
    s.canonical.clear();
    const SyntheticKeyOptions& syn = s.key.options.synthetic;
    std::array<Component, 3> found;
    const size_t paths = std::min(s.segments.size(), found.size());
    for (size_t i = 0; i < paths; ++i) {
      found[i] = ReadComponent(root, s.segments[i]);
      if (found[i].invalid) return Status::Ok();  // no partition, as the analyzer counts it
    }
    if (syn.kind == Kind::kNone) {
      for (size_t i = 0; i < paths; ++i) {
        AppendCanonical(found[i].kind, found[i].number, found[i].text, s.canonical);
      }
    } else {
      s.synthetic.clear();
      bool ok = true;
      if (syn.kind == Kind::kConcat) {
        for (size_t i = 0; i < s.concat_segments.size() && ok; ++i) {
          if (i > 0) s.synthetic += syn.separator;
          const Component c = ReadComponent(root, s.concat_segments[i]);
          ok = !c.invalid && AppendKeyPartText(s.concat_parts[i], c.kind, c.number, c.text, s.synthetic);
        }
      } else {
        ok = AppendSyntheticComponentText(found[0].kind, found[0].number, found[0].text,
                                          s.synthetic);
        uint64_t bucket = 0;
        if (ok && syn.kind == Kind::kRandomSuffix) {
          bucket = RandomSuffixBucket(syn.seed, syn.buckets, index);
        } else if (ok) {
          const Component c = ReadComponent(root, s.suffix_segments);
          s.suffix.clear();
          ok = !c.invalid && AppendSyntheticComponentText(c.kind, c.number, c.text, s.suffix);
          if (ok) bucket = HashSuffixBucket(s.suffix, syn.buckets);
        }
        if (ok) {
          s.synthetic += syn.separator;
          fmt::format_to(std::back_inserter(s.synthetic), "{}", bucket);
        }
      }
      if (ok) {
        AppendCanonical(KeyKind::kString, 0, s.synthetic, s.canonical);
      } else {
        AppendCanonical(KeyKind::kUndefined, 0, {}, s.canonical);
      }
    }
    s.scratch_key.AssignCanonicalBytes(s.canonical);
    PARTPLAY_RETURN_IF_ERROR(
        EffectivePartitionKeyInto(s.scratch_key, s.key.version, EpkForm::kHex, s.epk));
    PARTPLAY_ASSIGN_OR_RETURN(s.range, Locate(s.key.layout, s.epk));
    s.placed = true;
    return Status::Ok();
  }

  void ChooseTimeField(const dom::element& root) {
    time_chosen_ = true;
    if (!time_segments_.empty()) return;
    dom::object object = root.get_object().value_unsafe();
    int best_tier = 8;
    for (dom::key_value_pair field : object) {
      std::string_view form = TimeForm(field.value);
      if (form.empty()) continue;
      std::string_view text;
      const bool date_only =
          form == "iso8601" && !field.value.get_string().get(text) && text.size() == 10;
      const int tier = TimeFieldTier(field.key) * 2 + (date_only ? 1 : 0);
      if (tier < best_tier) {
        best_tier = tier;
        time_segments_ = {std::string(field.key)};
        time_form_ = std::string(form);
      }
    }
    if (!time_segments_.empty()) {
      time_path_ = KeyPath::EscapeSegment(time_segments_[0]);
      time_path_.insert(0, "/");
      time_detected_ = true;
    }
  }

  Status Finish() {
    PARTPLAY_RETURN_IF_ERROR(stream_.Finish());
    result_.items = items_;
    const int64_t window_ms = ChooseWindowMs();
    for (KeyState& s : keys_) {
      KeyTrafficReport r;
      for (QueryKeyCounts& c : s.queries) {
        QueryTraffic q;
        q.matching_items = c.items;
        q.rows = c.rows;
        q.unplaced_items = c.unplaced;
        for (uint64_t n : c.per_range) q.ranges_with_matches += n > 0;
        q.items_per_range = std::move(c.per_range);
        r.queries.push_back(std::move(q));
      }
      Monotonicity& m = r.monotonicity;
      m.key_changes = s.changes;
      m.rises_with_input = s.changes ? static_cast<double>(s.rises) / s.changes : 0;
      m.timed_changes = s.timed_changes;
      m.follows_time =
          s.timed_changes ? static_cast<double>(s.concordant) / s.timed_changes : -1;
      m.monotonic = (s.changes >= kMonotonicMinChanges && IsMonotonicShare(m.rises_with_input)) ||
                    (s.timed_changes >= kMonotonicMinChanges && IsMonotonicShare(m.follows_time));
      r.write_spread = Spread(s, window_ms);
      result_.keys.push_back(std::move(r));
    }
    return Status::Ok();
  }

  // The window: the given one, or the smallest of the ladder whose windows hold enough writes.
  int64_t ChooseWindowMs() {
    if (writes_.window_seconds > 0) return writes_.window_seconds * 1000;
    static constexpr int64_t kLadder[] = {60, 3600, 86400, 7 * 86400, 30 * 86400};
    sorted_times_ = times_;
    std::sort(sorted_times_.begin(), sorted_times_.end());
    for (int64_t seconds : kLadder) {
      const int64_t w = seconds * 1000;
      uint64_t windows = 0;
      int64_t last = kNoTime;
      for (int64_t t : sorted_times_) {
        const int64_t bucket = FloorDiv(t, w);
        if (windows == 0 || bucket != last) ++windows;
        last = bucket;
      }
      if (windows > 0 && static_cast<double>(sorted_times_.size()) / windows >=
                             kWriteSpreadMinItemsPerWindow) {
        return w;
      }
    }
    return kLadder[4] * 1000;
  }

  static int64_t FloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
  }

  WriteSpread Spread(const KeyState& s, int64_t window_ms) {
    WriteSpread w;
    w.physical_partitions = static_cast<int64_t>(s.key.layout.ranges.size());
    w.time_path = time_path_;
    w.time_form = time_form_;
    w.time_path_detected = time_detected_;
    w.timed_items = times_.size();
    w.untimed_items = untimed_;
    if (!writes_.enabled) {
      w.why_not = "not asked for";
      return w;
    }
    if (time_path_.empty()) {
      w.why_not = "no time field: the first item has no ISO-8601 date or epoch time at its top level";
      return w;
    }
    if (times_.size() < kWriteSpreadMinItemsPerWindow) {
      w.why_not = fmt::format("only {} items have a time at {} (at least {} are needed)",
                              times_.size(), time_path_, kWriteSpreadMinItemsPerWindow);
      return w;
    }
    w.window_seconds = window_ms / 1000;
    // Items in time order (ties in input order), cut into windows.
    if (order_.size() != times_.size()) {
      order_.resize(times_.size());
      std::iota(order_.begin(), order_.end(), uint32_t{0});
      std::stable_sort(order_.begin(), order_.end(),
                       [&](uint32_t a, uint32_t b) { return times_[a] < times_[b]; });
    }
    std::vector<uint64_t> per_range(s.key.layout.ranges.size(), 0);
    std::vector<uint32_t> touched;
    std::vector<uint64_t> hashes;
    double logical_sum = 0, physical_sum = 0, busiest_sum = 0;
    size_t begin = 0;
    while (begin < order_.size()) {
      const int64_t bucket = FloorDiv(times_[order_[begin]], window_ms);
      size_t end = begin;
      touched.clear();
      hashes.clear();
      uint64_t placed = 0;
      for (; end < order_.size() && FloorDiv(times_[order_[end]], window_ms) == bucket; ++end) {
        const uint32_t r = s.ranges[order_[end]];
        if (r == std::numeric_limits<uint32_t>::max()) continue;
        ++placed;
        if (per_range[r]++ == 0) touched.push_back(r);
        hashes.push_back(s.hashes[order_[end]]);
      }
      const double n = static_cast<double>(end - begin);
      std::sort(hashes.begin(), hashes.end());
      const double logical = static_cast<double>(
          std::unique(hashes.begin(), hashes.end()) - hashes.begin());
      uint64_t most = 0;
      for (uint32_t r : touched) {
        most = std::max(most, per_range[r]);
        per_range[r] = 0;
      }
      ++w.windows;
      logical_sum += logical * n;
      physical_sum += static_cast<double>(touched.size()) * n;
      busiest_sum += (placed ? static_cast<double>(most) / placed : 0) * n;
      w.max_physical_per_window = std::max<uint64_t>(w.max_physical_per_window, touched.size());
      begin = end;
    }
    const double total = static_cast<double>(order_.size());
    w.logical_per_window = logical_sum / total;
    w.physical_per_window = physical_sum / total;
    w.busiest_share = busiest_sum / total;
    w.measured = true;
    return w;
  }

  internal::ItemStream& stream() { return stream_; }
  uint64_t items() const { return items_; }
  const KeyTraffic& result() const { return result_; }

 private:
  std::vector<ItemQuery*> queries_;
  WriteSpreadOptions writes_;
  internal::ItemStream stream_;
  dom::parser item_parser_;
  std::vector<KeyState> keys_;
  std::vector<std::string> time_segments_;
  std::string time_path_, time_form_;
  bool time_chosen_ = false, time_detected_ = false;
  std::vector<int64_t> times_, sorted_times_;
  std::vector<uint32_t> order_;
  uint64_t items_ = 0, untimed_ = 0;
  KeyTraffic result_;
};

KeyTrafficPass::KeyTrafficPass(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
KeyTrafficPass::~KeyTrafficPass() = default;

StatusOr<std::unique_ptr<KeyTrafficPass>> KeyTrafficPass::Create(
    std::vector<TrafficKey> keys, std::vector<ItemQuery*> queries,
    const WriteSpreadOptions& writes) {
  auto impl = std::make_unique<Impl>(std::move(keys), std::move(queries), writes);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<KeyTrafficPass>(new KeyTrafficPass(std::move(impl)));
}

Status KeyTrafficPass::Feed(std::string_view bytes) {
  uint8_t* at = impl_->stream().WritableChunk(bytes.size());
  if (at == nullptr) return Status(ErrorCode::kOutOfMemory, "no memory for the input chunk");
  std::copy(bytes.begin(), bytes.end(), at);
  return impl_->stream().CommitChunk(bytes.size());
}

Status KeyTrafficPass::Finish() { return impl_->Finish(); }
uint64_t KeyTrafficPass::items_seen() const { return impl_->items(); }
const KeyTraffic& KeyTrafficPass::result() const { return impl_->result(); }

}  // namespace partplay
