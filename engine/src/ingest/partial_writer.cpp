// Writing the partial format (partial_codec.cpp describes it): SerializePartialData into one
// string of the exact size, its size alone, or to a sink in pieces, the XXH3-64 checksum kept as
// the bytes go.
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

void WriteOptions(Writer& w, const AnalysisOptions& o, bool id_records) {
  w.U64(o.key_paths.size());
  for (const auto& p : o.key_paths) w.Str(p);
  w.I64(o.discover_items);
  w.Str(o.weight_path);
  w.U8(!o.check_ids ? 0 : id_records ? 1 : 2);
  w.U8(static_cast<uint8_t>(o.synthetic.kind));
  w.U64(o.synthetic.paths.size());
  for (const auto& p : o.synthetic.paths) w.Str(p);
  w.Str(o.synthetic.separator);
  w.U32(o.synthetic.buckets);
  w.U64(o.synthetic.seed);
  w.Str(o.synthetic.suffix_path);
}

namespace {

void WritePartial(Writer& w, const PartialData& d) {
  w.Bytes(kPartialMagic, sizeof kPartialMagic);
  w.U32(kPartialVersion);
  w.U8(static_cast<uint8_t>(d.shard));
  if (d.shard != ShardKind::kWhole) {
    w.U64(d.part_id);
    w.U32(d.bucket);
    w.U32(d.buckets);
  }
  const AnalysisOptions& o = d.options;
  WriteOptions(w, o, d.id_records);

  w.U8(d.status.ok() ? 1 : 0);
  if (!d.status.ok()) {
    w.U32(static_cast<uint32_t>(d.status.code()));
    w.Str(std::string_view(d.status.message()).substr(0, kMaxMessageBytes));
    w.Loc(d.status.where());
  }
  w.U8(static_cast<uint8_t>(d.format));
  w.U64(d.input_bytes);
  w.I64(d.end_line);
  w.I64(d.end_column);
  for (uint64_t v : {d.items, d.bytes, d.undefined_items, d.invalid_items, d.invalid_bytes,
                     d.oversized, d.missing_id, d.duplicate_id, d.imprecise, d.weight_missing}) {
    w.U64(v);
  }
  w.Findings(d.invalid_examples);
  w.Findings(d.oversized_examples);
  w.Findings(d.missing_id_examples);
  w.Findings(d.duplicate_id_examples);
  w.Findings(d.imprecise_examples);

  bool weighted = !o.weight_path.empty();
  bool records = PartitionsHavePlaces(d);
  if (d.unloaded) {  // the section as it was read (it was checked)
    w.U64(d.unloaded_partitions);
    w.Bytes(d.source.data() + d.partitions_begin, d.partitions_end - d.partitions_begin);
  }
  std::string place;  // a partition's first item (records), relative to the one before
  ItemRecord last = kNoRecord;
  if (!d.unloaded) w.U64(d.table.size());
  for (uint32_t i = 0; !d.unloaded && i < d.table.size(); ++i) {
    PartitionTable::Entry e = d.table.EntryAt(i);
    w.VarStr(e.canonical);
    w.Varint(e.items);
    w.Varint(e.bytes);
    w.Varint(e.largest_item_bytes);
    w.Varint(static_cast<uint64_t>(e.largest_item_index));
    if (weighted) {
      std::vector<double> parts;
      if (i < d.weights.size()) {
        const WeightSum& s = d.weights[i];
        if (s.spilled()) {
          auto spill = d.weight_spill.find(i);
          if (spill != d.weight_spill.end()) parts = spill->second;
        } else {
          parts = {s.lo, s.hi};
        }
        // No zero parts (an expansion cancelled to zero keeps one): the reader refuses them.
        parts.erase(std::remove(parts.begin(), parts.end(), 0.0), parts.end());
      }
      w.U8(static_cast<uint8_t>(parts.size()));
      for (double c : parts) w.F64(c);
    }
    if (records) {
      const ItemRecord& r = i < d.first_items.size() ? d.first_items[i] : kNoRecord;
      place.clear();
      AppendRecord(place, r, last);
      w.Bytes(place.data(), place.size());
      last = r;
    }
  }
  w.U64(d.id_pairs.size());
  if (d.id_pairs.size() > 0) {
    w.Bytes(d.id_pairs.hashes().data(), d.id_pairs.size() * sizeof(uint64_t));
  }
  w.Str(d.id_pairs.records());
  w.U64(d.sample_paths.size());
  for (const auto& p : d.sample_paths) w.Str(p);
  w.U64(d.sample_items.size());
  for (const SampleItem& s : d.sample_items) {
    w.U64(s.bytes);
    w.U8(s.has_id ? 1 : 0);
    w.U64(s.id_hash);
    w.U32(s.obs_count);
    for (uint32_t i = s.first_obs; i < s.first_obs + s.obs_count; ++i) {
      w.U32(d.sample_obs[i].path);
      w.Str(d.sample_obs[i].canonical);
    }
  }
  w.U64(w.Checksum());
}

}  // namespace

std::string SerializePartialData(const PartialData& d) {
  Writer w;
  w.Reserve(PartialDataSize(d));
  WritePartial(w, d);
  return std::move(w.out());
}

size_t PartialDataSize(const PartialData& d) {
  Writer count(Writer::Mode::kCount);
  WritePartial(count, d);
  return count.size();
}

void SerializePartialData(const PartialData& d, const PartialSink& sink) {
  Writer w(Writer::Mode::kSink, &sink);
  WritePartial(w, d);
  w.Flush();
}

}  // namespace partplay::internal
