// The analyzer's setup (Analyzer::Impl::Init: the key, id, weight and synthetic-key paths it
// tracks) and the public Analyzer calls of one pass over the input, which hand the bytes to the
// item stream (item_stream.h) and ask the state for its report and partitions. The state itself
// and the files that implement each concern are listed in analyzer_impl.h.
#include <fmt/format.h>

#include <cstring>

#include "ingest/analyzer_impl.h"

namespace partplay {

Status Analyzer::Impl::Init() {
  if (part_ && options_.synthetic.kind == SyntheticKeyOptions::Kind::kRandomSuffix) {
    return Status(ErrorCode::kBadOption,
                  "a random suffix depends on each item's place in the whole input, so it "
                  "cannot be computed in parts (use one job, or a hash suffix)");
  }
  // A concatenated key's first part may take a piece of its value ("month(/date)"): the key
  // path is the part's path.
  if (options_.synthetic.kind == SyntheticKeyOptions::Kind::kConcat &&
      options_.key_paths.size() == 1 && IsKeyPartFunction(options_.key_paths[0])) {
    PARTPLAY_ASSIGN_OR_RETURN(KeyPart first, ParseKeyPart(options_.key_paths[0]));
    options_.key_paths[0] = first.path;
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

const AnalysisOptions& Analyzer::options() const { return impl_->options(); }

}  // namespace partplay
