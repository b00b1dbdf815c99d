// Reading the partial format (partial_codec.cpp describes it) as a parser of untrusted bytes:
// every count bounded by the bytes left, every value range-checked against the others and in the
// one form the writer gives it, the checksum verified last; a failure is a located bad_partial.
// Also the partitions of a partial left unloaded (ForEachUnloadedPartition, LoadPartitionTable).
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ingest/partial_data.h"
#include "ingest/partial_format.h"
#include "ingest/partial_io.h"
#include "partplay/core/utf8.h"

namespace partplay::internal {

bool WellFormedCanonical(std::string_view c, size_t components) {
  size_t i = 0, count = 0;
  KeyKind kind;
  double number;
  std::string_view text;
  while (i < c.size()) {
    if (!ReadCanonicalComponent(c, i, kind, number, text)) return false;
    ++count;
    if (kind == KeyKind::kNumber && !std::isfinite(number)) return false;
    if (kind == KeyKind::kString && !IsValidUtf8(text)) return false;
  }
  return components == 0 ? count >= 1 : count == components;
}

// A location a part reports (an error's, a finding's) is at most 2^53 in each field, as the
// merge's totals are: rebasing it onto the parts before then cannot overflow.
static bool Rebasable(const SourceLocation& w) {
  constexpr int64_t kMax = int64_t{1} << 53;
  return w.byte_offset <= kMax && w.item_index <= kMax && w.line <= kMax && w.column <= kMax;
}

bool ReadFindings(Reader& in, std::vector<ItemFinding>& list, uint64_t items, const char* what) {
  uint32_t n = 0;
  size_t at = in.pos();
  if (!in.U32(n, what)) return false;
  if (n > kMaxFindingExamples || n > items) {
    return in.Fail(fmt::format("{} lists {} examples (at most {})", what, n, kMaxFindingExamples),
                   at);
  }
  list.resize(n);
  int64_t previous = -1;
  for (ItemFinding& f : list) {
    size_t start = in.pos();
    if (!in.I64(f.item_index, what) || !in.U64(f.bytes, what) || !in.Loc(f.where, what) ||
        !in.Str(f.type, kMaxMessageBytes, what)) {
      return false;
    }
    if (f.item_index <= previous || static_cast<uint64_t>(f.item_index) >= items) {
      return in.Fail(fmt::format("{}: item index {} out of order or range", what, f.item_index),
                     start);
    }
    if (!Rebasable(f.where)) {
      return in.Fail(fmt::format("{}: a location past 2^53", what), start);
    }
    previous = f.item_index;
  }
  return true;
}

// `id_records`: whether the part recorded its ids' places (the id-check byte is not 2).
bool ReadOptions(Reader& in, AnalysisOptions& o, bool& id_records) {
  uint64_t n = 0;
  if (!in.Count(n, 8, 3, "the key path count")) return false;
  if (n == 0) return in.Fail("no key path");
  o.key_paths.resize(n);
  for (auto& p : o.key_paths) {
    if (!in.Str(p, kMaxPathBytes, "a key path")) return false;
  }
  size_t at = in.pos();
  if (!in.I64(o.discover_items, "--discover")) return false;
  if (o.discover_items < -1) return in.Fail("--discover is below -1", at);
  if (!in.Str(o.weight_path, kMaxPathBytes, "the weight path")) return false;
  uint8_t id_check = 0;
  at = in.pos();
  if (!in.U8(id_check, "the id check")) return false;
  if (id_check > 2) return in.Fail(fmt::format("the id check is {}, not 0, 1 or 2", id_check), at);
  o.check_ids = id_check != 0;
  id_records = id_check != 2;
  uint8_t kind = 0;
  at = in.pos();
  if (!in.U8(kind, "the synthetic key kind")) return false;
  if (kind > 3) return in.Fail(fmt::format("unknown synthetic key kind {}", kind), at);
  o.synthetic.kind = static_cast<SyntheticKeyOptions::Kind>(kind);
  if (!in.Count(n, 8, 5, "the synthetic path count")) return false;
  o.synthetic.paths.resize(n);
  for (auto& p : o.synthetic.paths) {
    if (!in.Str(p, kMaxPathBytes, "a synthetic key path")) return false;
  }
  return in.Str(o.synthetic.separator, 16, "the separator") &&
         in.U32(o.synthetic.buckets, "the suffix count") && in.U64(o.synthetic.seed, "the seed") &&
         in.Str(o.synthetic.suffix_path, kMaxPathBytes, "the suffix path");
}

namespace {

bool KnownErrorCode(uint32_t code) {
#define PARTPLAY_X(name, number, short_name, description) \
  if (code == number && code != 0) return true;
  PARTPLAY_ERROR_CODES(PARTPLAY_X)
#undef PARTPLAY_X
  return false;
}

// ParsePartialData; `unload`: the partitions are checked but not put in a table.
StatusOr<std::unique_ptr<PartialData>> ParseInto(std::string_view bytes,
                                                 std::unique_ptr<PartialData> d, bool unload) {
  Reader in(bytes);
  char magic[sizeof kPartialMagic];
  if (!in.Raw(magic, sizeof magic, "the header") || std::memcmp(magic, kPartialMagic, sizeof magic) != 0) {
    return Status(ErrorCode::kBadPartial,
                  "not a partial state (written by partplay analyze --partial-out)",
                  SourceLocation{0, 0, 0, -1});
  }
  uint32_t version = 0;
  if (!in.U32(version, "the version")) return in.error();
  if (version != kPartialVersion) {
    in.Fail(fmt::format("format version {}; this partplay reads version {}", version, kPartialVersion),
            sizeof kPartialMagic);
    return in.error();
  }
  size_t shard_at = in.pos();
  uint8_t shard = 0;
  if (!in.U8(shard, "the shard kind")) return in.error();
  if (shard > 2) {
    in.Fail(fmt::format("unknown shard kind {} (0 a whole part, 1 figures, 2 a bucket)", shard),
            shard_at);
    return in.error();
  }
  d->shard = static_cast<ShardKind>(shard);
  if (d->shard != ShardKind::kWhole) {
    shard_at = in.pos();
    if (!in.U64(d->part_id, "the part id") || !in.U32(d->bucket, "the bucket") ||
        !in.U32(d->buckets, "the bucket count")) {
      return in.error();
    }
    if (d->buckets < 1 || d->buckets > kMaxBuckets ||
        (d->shard == ShardKind::kBucket ? d->bucket >= d->buckets : d->bucket != 0)) {
      in.Fail(fmt::format("bucket {} of {} (a part has 1 to {} buckets)", d->bucket, d->buckets,
                          kMaxBuckets),
              shard_at);
      return in.error();
    }
  }
  const bool figures = d->shard == ShardKind::kFigures, bucket = d->shard == ShardKind::kBucket;
  AnalysisOptions& o = d->options;
  if (!ReadOptions(in, o, d->id_records)) return in.error();

  bool ok = false;
  if (!in.Bool(ok, "the status")) return in.error();
  if (!ok) {
    uint32_t code = 0;
    size_t at = in.pos();
    std::string message;
    SourceLocation where;
    if (!in.U32(code, "the error code")) return in.error();
    if (!KnownErrorCode(code)) {
      in.Fail(fmt::format("unknown error code {}", code), at);
      return in.error();
    }
    if (!in.Str(message, kMaxMessageBytes, "the error message") ||
        !in.Loc(where, "the error's location")) {
      return in.error();
    }
    if (!Rebasable(where)) {
      in.Fail("the error's location is past 2^53", at);
      return in.error();
    }
    d->status = Status(static_cast<ErrorCode>(code), std::move(message), where);
  }
  uint8_t format = 0;
  size_t at = in.pos();
  if (!in.U8(format, "the input format")) return in.error();
  if (format > 2) {
    in.Fail(fmt::format("unknown input format {}", format), at);
    return in.error();
  }
  d->format = static_cast<InputFormat>(format);
  at = in.pos();
  if (!in.U64(d->input_bytes, "the input size") || !in.I64(d->end_line, "the end line") ||
      !in.I64(d->end_column, "the end column")) {
    return in.error();
  }
  if (d->end_line < 1 || d->end_column < 1 ||
      static_cast<uint64_t>(d->end_line) > d->input_bytes + 1 ||
      static_cast<uint64_t>(d->end_column) > d->input_bytes + 1) {
    in.Fail("the end position lies outside the part", at);
    return in.error();
  }
  at = in.pos();
  for (uint64_t* v :
       {&d->items, &d->bytes, &d->undefined_items, &d->invalid_items, &d->invalid_bytes,
        &d->oversized, &d->missing_id, &d->duplicate_id, &d->imprecise, &d->weight_missing}) {
    if (!in.U64(*v, "the counters")) return in.error();
  }
  if (d->bytes > d->input_bytes || d->items > d->input_bytes || d->invalid_items > d->items ||
      d->invalid_bytes > d->bytes || d->undefined_items > d->items || d->oversized > d->items ||
      d->missing_id > d->items || d->duplicate_id > d->items || d->imprecise > d->items ||
      d->weight_missing > d->items) {
    in.Fail("the counters do not add up (a count beyond the items or bytes)", at);
    return in.error();
  }
  // A bucket holds its part's extent (items, bytes) for the rebasing, and none of its counters.
  if (bucket && (d->undefined_items | d->invalid_items | d->invalid_bytes | d->oversized |
                 d->missing_id | d->duplicate_id | d->imprecise | d->weight_missing) != 0) {
    in.Fail("a bucket holds its part's counters (they are the figures file's)", at);
    return in.error();
  }
  if (!ReadFindings(in, d->invalid_examples, d->items, "the invalid-key examples") ||
      !ReadFindings(in, d->oversized_examples, d->items, "the oversized-item examples") ||
      !ReadFindings(in, d->missing_id_examples, d->items, "the missing-id examples") ||
      !ReadFindings(in, d->duplicate_id_examples, d->items, "the duplicate-id examples") ||
      !ReadFindings(in, d->imprecise_examples, d->items, "the imprecise-number examples")) {
    return in.error();
  }
  if (bucket && !(d->invalid_examples.empty() && d->oversized_examples.empty() &&
                  d->missing_id_examples.empty() && d->duplicate_id_examples.empty() &&
                  d->imprecise_examples.empty())) {
    in.Fail("a bucket holds findings (they are the figures file's)");
    return in.error();
  }

  bool weighted = !o.weight_path.empty();
  bool records = PartitionsHavePlaces(*d);
  size_t components = o.synthetic.kind == SyntheticKeyOptions::Kind::kNone ? o.key_paths.size() : 1;
  uint64_t partitions = 0;
  // At least a key's length, a kind byte and four counts each.
  if (!in.Count(partitions, 6, UINT32_MAX - 1, "the partition count")) return in.error();
  if (partitions > d->items) {
    in.Fail("more partitions than items");
    return in.error();
  }
  if (figures && partitions != 0) {
    in.Fail("a figures file holds partitions (they are its buckets')");
    return in.error();
  }
  uint64_t sum_items = 0, sum_bytes = 0;
  ItemRecord last_record = kNoRecord;
  d->partitions_begin = in.pos();
  if (!unload) d->table.Reserve(partitions);
  // Partitions go into the table in batches, what each batch's adds will read loaded first
  // (PartitionTable::TouchForAdds), so the cache misses of a large table overlap. A key seen
  // before in this part gets its number again, not the next one: one probe finds a repeat.
  // The first problem in byte order is reported, as if each partition were added when read.
  struct Pending {
    std::string_view canonical;
    uint64_t hash, items, bytes, largest;
    int64_t largest_index;
    size_t start;
    uint32_t number;  // what the table must give it
  };
  constexpr size_t kBatch = 16;
  Pending pending[kBatch];
  uint64_t hashes[kBatch];
  size_t pending_count = 0;
  Status repeat;  // what flush found
  auto repeated = [&](const Pending& p) {
    repeat = RepeatedPartitionKey(p.number, p.start);
    return false;
  };
  auto flush = [&]() {
    for (size_t k = 0; k < pending_count; ++k) hashes[k] = pending[k].hash;
    d->table.TouchForAdds(hashes, pending_count);
    size_t count = pending_count;
    pending_count = 0;
    for (size_t k = 0; k < count; ++k) {
      const Pending& p = pending[k];
      if (d->table.AddAggregate(p.canonical, p.hash, p.items, p.bytes, p.largest,
                                p.largest_index) != p.number) {
        return repeated(p);
      }
    }
    return true;
  };
  // A problem in the partition being read (`current`, once its key is read): a repeat before
  // it, or its own key repeating, comes first.
  auto fail_at = [&](const Pending* current) {
    if (!flush()) return repeat;
    if (current && d->table.Contains(current->canonical, current->hash)) {
      repeated(*current);
      return repeat;
    }
    return in.error();
  };
  for (uint64_t i = 0; i < partitions; ++i) {
    Pending& p = pending[pending_count];
    p.start = in.pos();
    p.number = static_cast<uint32_t>(i);
    uint64_t largest_index = 0;
    if (!in.VarStrView(p.canonical, d->input_bytes + 8 * components + 1, "a partition key") ||
        !in.Varint(p.items, "a partition") || !in.Varint(p.bytes, "a partition") ||
        !in.Varint(p.largest, "a partition") || !in.Varint(largest_index, "a partition")) {
      return fail_at(nullptr);
    }
    p.largest_index = largest_index >= d->items ? -1 : static_cast<int64_t>(largest_index);
    if (!WellFormedCanonical(p.canonical, components)) {
      in.Fail(fmt::format("partition {}'s key is not a well-formed key of {} component(s)", i,
                          components),
              p.start);
      return fail_at(nullptr);
    }
    p.hash = unload ? 0 : HashCanonical(p.canonical);  // unloaded: the merge hashes it
    // Every partition holds an item, and an item has bytes ("{}" at least): a largest item of
    // 0 bytes is no partition a part writes (the table would drop its index).
    if (p.items == 0 || p.items > d->items || p.bytes > d->bytes || p.largest == 0 ||
        p.largest > p.bytes || p.largest > kMaxBufferedItemBytes || p.largest_index < 0 ||
        static_cast<uint64_t>(p.largest_index) >= d->items) {
      in.Fail(fmt::format("partition {}'s counts are out of range", i), p.start);
      return fail_at(&p);
    }
    sum_items += p.items;
    sum_bytes += p.bytes;
    const uint32_t n = p.number;  // the number it gets unless it repeats (then an error)
    if (weighted) {
      uint8_t count = 0;
      at = in.pos();
      if (!in.U8(count, "a weight sum")) return fail_at(&p);
      if (count > kMaxWeightParts) {
        in.Fail(fmt::format("a weight sum of {} parts (at most {})", count, kMaxWeightParts), at);
        return fail_at(&p);
      }
      std::vector<double> parts(count);
      for (double& c : parts) {
        at = in.pos();
        if (!in.F64(c, "a weight sum")) return fail_at(&p);
        if (std::isnan(c) || (!std::isfinite(c) && count != 1)) {
          in.Fail("a weight sum holds a non-finite part", at);
          return fail_at(&p);
        }
        if (c == 0) {  // a writer leaves zeros out (of -0 too)
          in.Fail("a weight sum holds a zero part", at);
          return fail_at(&p);
        }
      }
      d->weights.resize(n + 1);
      if (count <= 2 && (count < 2 || std::fabs(parts[0]) <= std::fabs(parts[1]))) {
        d->weights[n].lo = count == 2 ? parts[0] : 0;
        d->weights[n].hi = count >= 1 ? parts[count - 1] : 0;
      } else {
        d->weights[n] = {0, std::nan("")};
        d->weight_spill[n] = std::move(parts);
      }
    }
    if (records) {
      ItemRecord r;
      if (!in.Record(r, last_record, d->items, d->input_bytes, "a partition's first item")) {
        return fail_at(&p);
      }
      d->first_items.push_back(r);
      last_record = r;
    }
    if (unload) continue;  // a merge adds it (and finds a repeat)
    if (++pending_count == kBatch && !flush()) return repeat;
  }
  if (!flush()) return repeat;
  if (unload) {
    d->unloaded = true;
    d->partitions_end = in.pos();
    d->unloaded_partitions = static_cast<uint32_t>(partitions);
  }
  // A part's partitions hold its items and bytes; a bucket's some of them, a figures file's none.
  if (d->status.ok() && !figures &&
      (bucket ? sum_items > d->items || sum_bytes > d->bytes
              : sum_items != d->items - d->invalid_items || sum_bytes != d->bytes - d->invalid_bytes)) {
    in.Fail("the partitions' items or bytes do not add up to the part's");
    return in.error();
  }
  uint64_t pairs = 0;
  // At least 8 bytes of hash and (recorded) 6 of record each.
  if (!in.Count(pairs, d->id_records ? 14 : 8, d->items, "the id pair count")) return in.error();
  std::vector<uint64_t> pair_hashes(pairs);
  if (pairs > 0 && !in.Raw(pair_hashes.data(), pairs * sizeof(uint64_t), "the id pairs")) {
    return in.error();
  }
  size_t records_at = in.pos() + 8;
  std::string_view encoded;
  if (!in.StrView(encoded, in.left(), "the id pairs' records")) return in.error();
  if (!d->id_records && !encoded.empty()) {
    in.Fail("a part made without id records holds id pair records", records_at);
    return in.error();
  }
  if (figures && pairs != 0) {
    in.Fail("a figures file holds id pairs (they are its buckets')", records_at);
    return in.error();
  }
  IdPairRecords::Cursor cursor(encoded, d->items, d->input_bytes);
  for (uint64_t i = 0; d->id_records && i < pairs; ++i) {
    ItemRecord first;
    std::string_view id;
    size_t at = records_at + cursor.pos();
    if (!cursor.Next(first, id)) {
      in.Fail(cursor.error(), at);
      return in.error();
    }
  }
  if (!cursor.done()) {
    in.Fail("the id pairs' records hold more than their count", records_at + cursor.pos());
    return in.error();
  }
  if (unload) {  // `bytes` are d->source's
    d->id_pairs.View(std::move(pair_hashes), encoded);
  } else {
    d->id_pairs.Assign(std::move(pair_hashes), std::string(encoded));
  }
  uint64_t paths = 0;
  if (!in.Count(paths, 8, UINT32_MAX, "the sampled path count")) return in.error();
  d->sample_paths.resize(paths);
  for (auto& p : d->sample_paths) {
    if (!in.Str(p, kMaxPathBytes, "a sampled path")) return in.error();
  }
  uint64_t sampled = 0;
  uint64_t sample_max =
      o.discover_items < 0 ? d->items : std::min<uint64_t>(d->items, o.discover_items);
  if (!in.Count(sampled, 21, bucket ? 0 : sample_max, "the sampled item count")) return in.error();
  d->sample_items.resize(sampled);
  uint64_t sampled_bytes = 0;  // the sampled items are some of the part's: their bytes too
  for (SampleItem& s : d->sample_items) {
    size_t at = in.pos();
    if (!in.U64(s.bytes, "a sampled item") || !in.Bool(s.has_id, "a sampled item") ||
        !in.U64(s.id_hash, "a sampled item") || !in.U32(s.obs_count, "a sampled item")) {
      return in.error();
    }
    if (s.bytes > d->bytes - sampled_bytes) {
      in.Fail("the sampled items' bytes add up to more than the part's", at);
      return in.error();
    }
    sampled_bytes += s.bytes;
    if (s.obs_count > in.left() / 12) {
      in.Fail("a sampled item has more values than the file's remaining bytes hold");
      return in.error();
    }
    s.first_obs = static_cast<uint32_t>(d->sample_obs.size());
    if (d->sample_obs.size() + s.obs_count > UINT32_MAX) {
      in.Fail("too many sampled values");
      return in.error();
    }
    for (uint32_t i = 0; i < s.obs_count; ++i) {
      SampleObservation obs;
      at = in.pos();
      if (!in.U32(obs.path, "a sampled value") ||
          !in.Str(obs.canonical, d->input_bytes + 13, "a sampled value")) {
        return in.error();
      }
      if (obs.path >= paths || !WellFormedCanonical(obs.canonical, 1)) {
        in.Fail("a sampled value is not well formed", at);
        return in.error();
      }
      d->sample_obs.push_back(std::move(obs));
    }
  }
  if (!in.Checksum()) return in.error();
  return d;
}

// Reads the little-endian value at `at` (within checked bytes).

}  // namespace

StatusOr<std::unique_ptr<PartialData>> ParsePartialData(std::string_view bytes) {
  return ParseInto(bytes, std::make_unique<PartialData>(), false);
}

StatusOr<std::unique_ptr<PartialData>> ParsePartialData(std::string bytes) {
  auto d = std::make_unique<PartialData>();
  d->source = std::move(bytes);
  std::string_view view = d->source;
  return ParseInto(view, std::move(d), true);
}

void ForEachUnloadedPartition(const PartialData& d,
                              const std::function<void(const UnloadedPartition&)>& visit) {
  if (!d.unloaded) return;
  const bool weighted = !d.options.weight_path.empty();
  const bool records = PartitionsHavePlaces(d);
  size_t at = d.partitions_begin;
  for (uint32_t i = 0; i < d.unloaded_partitions && at < d.partitions_end; ++i) {
    UnloadedPartition p;
    p.number = i;
    p.start = at;
    // Read (and checked) at parse time: the varints are well-formed.
    const char* error = nullptr;
    uint64_t length = 0, largest_index = 0;
    ReadVarint(d.source, at, length, error);
    p.canonical = std::string_view(d.source).substr(at, length);
    at += length;
    ReadVarint(d.source, at, p.items, error);
    ReadVarint(d.source, at, p.bytes, error);
    ReadVarint(d.source, at, p.largest_item_bytes, error);
    ReadVarint(d.source, at, largest_index, error);
    p.largest_item_index = static_cast<int64_t>(largest_index);
    if (weighted) at += 1 + 8 * static_cast<uint8_t>(d.source[at]);  // read at parse time
    if (records) SkipRecord(d.source, at);                            // read at parse time
    visit(p);
  }
}

Status RepeatedPartitionKey(uint32_t number, size_t start) {
  return Reader::BadPartialAt(fmt::format("partition {}'s key appears twice", number), start);
}

Status LoadPartitionTable(PartialData& d) {
  if (!d.unloaded) return Status::Ok();
  d.table.Reserve(d.unloaded_partitions);
  Status status;
  ForEachUnloadedPartition(d, [&](const UnloadedPartition& p) {
    if (!status.ok()) return;
    uint32_t n = d.table.AddAggregate(p.canonical, HashCanonical(p.canonical), p.items, p.bytes,
                                      p.largest_item_bytes, p.largest_item_index);
    if (n != p.number) status = RepeatedPartitionKey(p.number, p.start);
  });
  if (!status.ok()) return status;
  d.unloaded = false;
  d.id_pairs.Own();
  d.source = std::string();
  return Status::Ok();
}

}  // namespace partplay::internal
