// The enums and defaults the page's controls offer (report/vocabulary.h), written from the same
// name functions and default-constructed options the options parser uses.
#include "partplay/report/vocabulary.h"

#include <initializer_list>
#include <string_view>

#include "partplay/core/json_writer.h"
#include "partplay/core/defaults.h"
#include "partplay/cosmos/container.h"
#include "partplay/report/options_json.h"

namespace partplay {
namespace {

std::string Names(std::initializer_list<std::string_view> names) {
  std::string s = "[";
  for (std::string_view n : names) {
    if (s.size() > 1) s.push_back(',');
    AppendJsonString(n, s);
  }
  s.push_back(']');
  return s;
}

// The container options of a fresh run (ParseContainerOptionsJson's starting point), in the
// shape of docs/report.md "Options".
std::string ContainerDefaults() {
  const ContainerOptions c;
  std::string s = "{";
  JsonMembers o{s};
  o.Str("hash_version", HashVersionName(c.version));
  o.Bool("large_partition_keys", c.large_partition_keys);
  o.Num("ru_per_second", c.ru_per_second);
  o.Bool("autoscale", c.autoscale);
  o.Num("growth", c.growth);
  o.Num("grown_ru_per_second", c.grown_ru_per_second);
  o.Num("created_ru_per_second", c.created_ru_per_second);
  o.Bool("serverless", c.serverless);
  o.Int("top_per_range", c.top_per_range);
  o.Raw("workload", WorkloadToJson(c.workload));
  s.push_back('}');
  return s;
}

// A synthetic key as the page's builder starts it.
std::string SyntheticDefaults() {
  const SyntheticKeyOptions syn;
  std::string s = "{";
  JsonMembers o{s};
  o.Str("kind", SyntheticKindName(syn.kind));
  o.Str("separator", syn.separator);
  o.Num("buckets", kCosmosDefaultSyntheticBuckets);
  o.UInt("seed", syn.seed);
  s.push_back('}');
  return s;
}

}  // namespace

std::string VocabularyToJson() {
  using Kind = SyntheticKeyOptions::Kind;
  using V = PartitionKeyHashVersion;
  std::string defaults = "{";
  {
    JsonMembers o{defaults};
    o.Raw("container", ContainerDefaults());
    o.Raw("synthetic", SyntheticDefaults());
  }
  defaults.push_back('}');
  std::string enums = "{";
  {
    JsonMembers o{enums};
    o.Raw("hash_versions", Names({HashVersionName(V::kV1), HashVersionName(V::kV2),
                                  HashVersionName(V::kMultiHash)}));
    o.Raw("spread_kinds", Names({RequestSpreadName(RequestSpread::kUniformItems),
                                 RequestSpreadName(RequestSpread::kField),
                                 RequestSpreadName(RequestSpread::kZipf)}));
    o.Raw("synthetic_kinds", Names({SyntheticKindName(Kind::kNone), SyntheticKindName(Kind::kConcat),
                                    SyntheticKindName(Kind::kRandomSuffix),
                                    SyntheticKindName(Kind::kHashSuffix)}));
    // The --candidate grammar's prefixes (report/candidate_spec.h); a plain spec has none.
    o.Raw("candidate_kinds", Names({"path", "hierarchical", "concat", "hash", "random"}));
  }
  enums.push_back('}');
  std::string s = "{";
  JsonMembers o{s};
  o.Raw("defaults", defaults);
  o.Raw("enums", enums);
  s.push_back('}');
  return s;
}

}  // namespace partplay
