// The engine's version, shared by the CLI (--version) and the wasm module (version()).
#pragma once

namespace partplay {
inline constexpr const char kVersion[] = "0.1.0";
}  // namespace partplay
