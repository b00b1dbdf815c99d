#include "cli_args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace partplay::cli {

bool ParseNumber(std::string_view text, double& out) {
  if (text.empty() || text.size() > 40) return false;
  std::string copy(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || errno != 0 || !std::isfinite(v)) return false;
  out = v;
  return true;
}

}  // namespace partplay::cli
