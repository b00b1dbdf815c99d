// A part cut by key (buckets.h, docs/partial-format.md): its figures file and its K bucket files
// (Analyzer::SerializeBuckets), and the summary of one bucket merged from every part
// (Analyzer::SerializeBucketSummary, the format in bucket_summary.h).
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>

#include "ingest/analyzer_impl.h"
#include "ingest/bucket_summary.h"
#include "partplay/ingest/buckets.h"

namespace partplay {

uint32_t BucketOf(std::string_view canonical, uint32_t buckets) {
  const uint64_t h = XXH3_64bits_withSeed(canonical.data(), canonical.size(), kBucketSeed);
  return static_cast<uint32_t>((static_cast<unsigned __int128>(h) * buckets) >> 64);
}

namespace {

// What every file of a part repeats: options, status and extent (bucket merges rebase by it).
internal::PartialData ShardOf(const internal::PartialData& d, internal::ShardKind kind,
                              uint32_t buckets) {
  internal::PartialData s;
  s.options = d.options;
  s.id_records = d.id_records;
  s.status = d.status;
  s.format = d.format;
  s.input_bytes = d.input_bytes;
  s.end_line = d.end_line;
  s.end_column = d.end_column;
  s.items = d.items;
  s.bytes = d.bytes;
  s.shard = kind;
  s.buckets = buckets;
  return s;
}

}  // namespace

Status Analyzer::SerializeBuckets(uint32_t buckets,
                                  const std::function<Status(int, std::string)>& write) {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  if (buckets < 1 || buckets > kMaxBuckets) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("a part is cut into 1 to {} buckets, not {}", kMaxBuckets, buckets));
  }
  internal::PartialData& d = impl_->Seal();
  if (d.unloaded || (d.options.check_ids && !d.id_records)) {
    return Status(ErrorCode::kInvalidState,
                  "only a part analysed with id records (PartIds::kRecorded) is cut into buckets");
  }
  // The figures: every counter, finding and the sample; no partition, no id pair.
  internal::PartialData f = ShardOf(d, internal::ShardKind::kFigures, buckets);
  for (uint64_t internal::PartialData::*v :
       {&internal::PartialData::undefined_items, &internal::PartialData::invalid_items,
        &internal::PartialData::invalid_bytes, &internal::PartialData::oversized,
        &internal::PartialData::missing_id, &internal::PartialData::duplicate_id,
        &internal::PartialData::imprecise, &internal::PartialData::weight_missing}) {
    f.*v = d.*v;
  }
  f.invalid_examples = d.invalid_examples;
  f.oversized_examples = d.oversized_examples;
  f.missing_id_examples = d.missing_id_examples;
  f.duplicate_id_examples = d.duplicate_id_examples;
  f.imprecise_examples = d.imprecise_examples;
  f.sample_paths = d.sample_paths;
  f.sample_items = d.sample_items;
  f.sample_obs = d.sample_obs;
  // The part's id: the checksum of its figures written without one, so a part read again
  // (a task retried) gets the same id, and another part (other extent, counts or sample) not.
  std::string figures = internal::SerializePartialData(f);
  f.part_id = XXH3_64bits(figures.data(), figures.size());
  figures = internal::SerializePartialData(f);
  const uint64_t part_id = f.part_id;
  f = internal::PartialData{};
  PARTPLAY_RETURN_IF_ERROR(write(-1, std::move(figures)));

  // Each bucket's partitions, in the part's order (their numbers follow it): a counting sort of
  // the partitions by bucket.
  const bool ok = d.status.ok();
  const uint32_t partitions = ok ? static_cast<uint32_t>(d.table.size()) : 0;
  std::vector<uint16_t> bucket_of(partitions);
  std::vector<uint32_t> starts(buckets + 1, 0), members(partitions);
  for (uint32_t i = 0; i < partitions; ++i) {
    bucket_of[i] = static_cast<uint16_t>(BucketOf(d.table.EntryAt(i).canonical, buckets));
    ++starts[bucket_of[i] + 1];
  }
  for (uint32_t b = 0; b < buckets; ++b) starts[b + 1] += starts[b];
  {
    std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
    for (uint32_t i = 0; i < partitions; ++i) members[next[bucket_of[i]]++] = i;
  }
  const bool weighted = !d.options.weight_path.empty();
  const bool places = internal::PartitionsHavePlaces(d);
  const bool pairs = ok && d.pair_partitions.size() == d.id_pairs.size();
  if (ok && !pairs) {
    return Status(ErrorCode::kInvalidState, "the part's id pairs lack their partitions");
  }
  // The id pairs are read in at most kPairPasses passes over their records, each dealing a
  // group of buckets' pairs to those buckets (in item order): never every record once per
  // bucket, and at most a group's share of the records held again at once.
  constexpr uint32_t kPairPasses = 16;
  const uint32_t group = (buckets + kPairPasses - 1) / kPairPasses;
  for (uint32_t from = 0; from < buckets; from += group) {
    const uint32_t to = std::min(buckets, from + group);
    std::vector<internal::IdPairRecords> dealt(to - from);
    if (pairs && d.id_pairs.size() > 0) {
      internal::IdPairRecords::Cursor cursor(d.id_pairs.records(), d.items, d.input_bytes);
      for (size_t j = 0; j < d.id_pairs.size(); ++j) {
        internal::ItemRecord first;
        std::string_view id;
        if (!cursor.Next(first, id)) return Status(ErrorCode::kInvalidState, cursor.error());
        const uint32_t partition = d.pair_partitions[j];
        const uint32_t b = partition < partitions ? bucket_of[partition] : buckets;
        if (b >= from && b < to) dealt[b - from].Add(d.id_pairs.hash(j), first, id);
      }
    }
    for (uint32_t b = from; b < to; ++b) {
      internal::PartialData s = ShardOf(d, internal::ShardKind::kBucket, buckets);
      s.part_id = part_id;
      s.bucket = b;
      for (uint32_t k = starts[b]; k < starts[b + 1]; ++k) {
        const uint32_t i = members[k];
        internal::PartitionTable::Entry e = d.table.EntryAt(i);
        uint32_t n = s.table.AddAggregate(e.canonical, e.hash, e.items, e.bytes,
                                          e.largest_item_bytes, e.largest_item_index);
        if (weighted && i < d.weights.size()) {
          if (n >= s.weights.size()) s.weights.resize(n + 1);
          s.weights[n] = d.weights[i];
          auto spill = d.weight_spill.find(i);
          if (spill != d.weight_spill.end()) s.weight_spill[n] = spill->second;
        }
        if (places && i < d.first_items.size()) s.first_items.push_back(d.first_items[i]);
      }
      s.id_pairs = std::move(dealt[b - from]);
      PARTPLAY_RETURN_IF_ERROR(write(static_cast<int>(b), internal::SerializePartialData(s)));
    }
  }
  return Status::Ok();
}

StatusOr<std::string> Analyzer::SerializeBucketSummary() const {
  if (impl_->merged_shard() != internal::ShardKind::kBucket) {
    return Status(ErrorCode::kInvalidState,
                  "a bucket summary is made from a merge of one bucket of every part");
  }
  internal::BucketSummaryHead head;
  head.options = impl_->options();
  head.bucket = impl_->merged_bucket();
  head.buckets = impl_->merged_buckets();
  head.part_ids = impl_->merged_part_ids();
  // The report's sort of every partition is kept for AllPartitions: one sort, not two.
  AnalysisReport r = impl_->BuildReport(
      {.max_partitions = 0, .candidate_values = false, .keep_size_order = true});
  head.items = r.items;
  head.duplicate_id = r.duplicate_id_items;
  head.duplicate_examples = std::move(r.duplicate_id_examples);
  std::unique_ptr<PartitionList> all = impl_->AllPartitions();
  return internal::WriteBucketSummary(head, *all);
}

uint32_t Analyzer::shard_buckets() const { return impl_->merged_buckets(); }

uint32_t Analyzer::shard_bucket() const { return impl_->merged_bucket(); }

std::string_view Analyzer::shard_kind() const {
  switch (impl_->merged_shard()) {
    case internal::ShardKind::kFigures:
      return "figures";
    case internal::ShardKind::kBucket:
      return "bucket";
    default:
      return "whole";
  }
}

std::vector<uint64_t> Analyzer::shard_part_ids() const { return impl_->merged_part_ids(); }

}  // namespace partplay
