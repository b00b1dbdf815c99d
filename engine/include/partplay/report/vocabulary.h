// The words and defaults the page's controls offer, as the engine reads them: every enum the
// options JSON accepts (report/options_json.h) and the options a run assumes when not told (the
// defaults of ContainerOptions, Workload and SyntheticKeyOptions). The page builds its selects and
// its starting settings from this, never from a copy (wasm binding `vocabulary`, web/common/
// limits.js engineDefault / engineEnum). Numeric defaults with a name of their own are also rows
// of the limits table (core/limits.h, kind "default").
//
//   VocabularyToJson()  // {"defaults": {"container": {...}, "synthetic": {...}},
//                       //  "enums": {"hash_versions": ["1", "2", "multihash"], ...}}
#pragma once

#include <string>

namespace partplay {

std::string VocabularyToJson();

}  // namespace partplay
