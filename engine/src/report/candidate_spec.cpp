// The --candidate grammar (report/candidate_spec.h): a path, a hierarchical key, or a synthetic
// key's kind, paths and suffix count, bounded by the limits table's candidate_* rows.
#include "partplay/report/candidate_spec.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <vector>

#include "partplay/core/json_writer.h"
#include "partplay/core/defaults.h"
#include "partplay/ingest/synthetic_key.h"
#include "partplay/report/options_json.h"

namespace partplay {
namespace {

constexpr std::string_view kGrammar =
    "takes /PATH, /A,/B, concat:PART,PART, random:/PATH:N or hash:/PATH:/SRC:N (a PART is /A, "
    "year(/A), month(/A), day(/A), hour(/A), left(/A, N) or substring(/A, START, N))";

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Splits at the commas outside parentheses ("/a, month(/b)", "/a, left(/b, 3)").
std::vector<std::string> SplitCommas(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '(') ++depth;
    if (i < text.size() && text[i] == ')' && depth > 0) --depth;
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      out.emplace_back(Trim(text.substr(from, i - from)));
      from = i + 1;
    }
  }
  return out;
}

bool AllPaths(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) {
    if (p.empty() || p[0] != '/') return false;
  }
  return !paths.empty();
}

}  // namespace

std::optional<std::vector<std::string>> ParsePathList(std::string_view text) {
  std::vector<std::string> paths = SplitCommas(text);
  if (!AllPaths(paths)) return std::nullopt;
  return paths;
}

namespace {

bool ParseBuckets(std::string_view text, uint32_t& out) {
  text = Trim(text);
  uint64_t n = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc() || end != text.data() + text.size() || n < 1 ||
      n > static_cast<uint64_t>(kCandidateMaxBuckets)) {
    return false;
  }
  out = static_cast<uint32_t>(n);
  return true;
}

// Reads `spec` into `key`; false when it does not read.
bool Read(std::string_view spec, AnalysisOptions& key) {
  using Kind = SyntheticKeyOptions::Kind;
  auto colon = spec.find(':');
  if (colon == std::string_view::npos) {
    key.key_paths = SplitCommas(spec);
    return AllPaths(key.key_paths) && static_cast<double>(key.key_paths.size()) <= kCandidateMaxHierarchicalPaths;
  }
  std::string_view kind = Trim(spec.substr(0, colon)), rest = spec.substr(colon + 1);
  if (kind == "concat") {
    key.synthetic.kind = Kind::kConcat;
    key.synthetic.paths = SplitCommas(rest);
    for (const std::string& p : key.synthetic.paths) {
      StatusOr<KeyPart> part = ParseKeyPart(p);
      if (!part.ok() || part.value().path.front() != '/') return false;
    }
    key.key_paths = {ParseKeyPart(key.synthetic.paths[0]).value().path};
    return static_cast<double>(key.synthetic.paths.size()) >= kCandidateMinConcatPaths &&
           static_cast<double>(key.synthetic.paths.size()) <= kCandidateMaxConcatPaths;
  }
  auto last = rest.rfind(':');
  if (last == std::string_view::npos) return false;
  if (!ParseBuckets(rest.substr(last + 1), key.synthetic.buckets)) return false;
  rest = rest.substr(0, last);
  if (kind == "random") {
    key.synthetic.kind = Kind::kRandomSuffix;
    key.key_paths = {std::string(Trim(rest))};
    return AllPaths(key.key_paths);
  }
  if (kind == "hash") {
    auto mid = rest.find(':');
    if (mid == std::string_view::npos) return false;
    key.synthetic.kind = Kind::kHashSuffix;
    key.key_paths = {std::string(Trim(rest.substr(0, mid)))};
    key.synthetic.suffix_path = Trim(rest.substr(mid + 1));
    return AllPaths(key.key_paths) && AllPaths({key.synthetic.suffix_path});
  }
  return false;
}

std::string StringsJson(const std::vector<std::string>& list) {
  return JsonArray(list, [](const std::string& p, std::string& s) { AppendJsonString(p, s); });
}

}  // namespace

std::string_view CandidateSpecGrammar() { return kGrammar; }

StatusOr<AnalysisOptions> ParseCandidateSpec(std::string_view spec) {
  AnalysisOptions key;
  key.discover_items = 0;
  if (!Read(spec, key)) {
    return Status(ErrorCode::kBadOption, fmt::format("candidate key \"{}\" {}", spec, kGrammar));
  }
  return key;
}

std::string CandidateKeyToJson(const AnalysisOptions& key) {
  using Kind = SyntheticKeyOptions::Kind;
  std::string s = "{";
  JsonMembers o{s};
  o.Raw("key_paths", StringsJson(key.key_paths));
  const SyntheticKeyOptions& syn = key.synthetic;
  if (syn.kind != Kind::kNone) {
    std::string t = "{";
    JsonMembers q{t};
    q.Str("kind", SyntheticKindName(syn.kind));
    if (syn.kind == Kind::kConcat) q.Raw("paths", StringsJson(syn.paths));
    q.Str("separator", syn.separator);
    if (syn.kind != Kind::kConcat) q.UInt("buckets", syn.buckets);
    if (syn.kind == Kind::kRandomSuffix) q.UInt("seed", syn.seed);
    if (syn.kind == Kind::kHashSuffix) q.Str("suffix_path", syn.suffix_path);
    t.push_back('}');
    o.Raw("synthetic", t);
  }
  s.push_back('}');
  return s;
}

}  // namespace partplay
