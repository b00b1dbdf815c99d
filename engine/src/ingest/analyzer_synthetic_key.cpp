// Synthetic partition keys (AnalysisOptions::synthetic): checking their options, then building
// each item's key from its found components: several paths (or pieces of their values, such as
// a date's month) concatenated, or one path with a
// suffix, random (seeded SplitMix64, by the item's place in the input) or from a hashed value;
// the rules themselves are in ingest/synthetic_key.h, shared with the passes that find an item's
// partition again.
#include <fmt/format.h>

#include <iterator>

#include "ingest/analyzer_impl.h"
#include "partplay/ingest/synthetic_key.h"

namespace partplay {

Status Analyzer::Impl::InitSynthetic() {
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
        PARTPLAY_ASSIGN_OR_RETURN(KeyPart part, ParseKeyPart(p));
        PARTPLAY_ASSIGN_OR_RETURN(size_t at, Track(part.path));
        concat_slots_.push_back(at);
        concat_parts_.push_back(std::move(part));
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

bool Analyzer::Impl::BuildSyntheticKey(int64_t item_index) {
  using Kind = SyntheticKeyOptions::Kind;
  const SyntheticKeyOptions& syn = options_.synthetic;
  synthetic_.clear();
  if (syn.kind == Kind::kConcat) {
    for (size_t i = 0; i < concat_slots_.size(); ++i) {
      if (i > 0) synthetic_ += syn.separator;
      const FoundComponent& f = found_[concat_slots_[i]];
      if (f.invalid || !AppendKeyPartText(concat_parts_[i], f.kind, f.number, f.text, synthetic_)) {
        return false;
      }
    }
    return true;
  }
  if (!AppendValueText(found_[0], synthetic_)) return false;
  uint64_t bucket;
  if (syn.kind == Kind::kRandomSuffix) {
    bucket = RandomSuffixBucket(syn.seed, syn.buckets, item_index);
  } else {
    suffix_text_.clear();
    if (!AppendValueText(found_[*suffix_slot_], suffix_text_)) return false;
    bucket = HashSuffixBucket(suffix_text_, syn.buckets);
  }
  synthetic_ += syn.separator;
  fmt::format_to(std::back_inserter(synthetic_), "{}", bucket);
  return true;
}

bool Analyzer::Impl::AppendValueText(const FoundComponent& f, std::string& out) {
  return !f.invalid && AppendSyntheticComponentText(f.kind, f.number, f.text, out);
}

}  // namespace partplay
