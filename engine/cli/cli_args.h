// Option values on the CLI's command lines, read the same way by every command.
#pragma once

#include <string_view>

namespace partplay::cli {

// A finite decimal number (strtod's grammar, the whole text); false otherwise.
bool ParseNumber(std::string_view text, double& out);

}  // namespace partplay::cli
