#include "cli_args.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "partplay/core/utf8.h"

namespace partplay::cli {
namespace {

constexpr size_t kHelpWidth = 80;
constexpr size_t kOptionColumn = 28;  // where an option's help starts

std::string CommandName(const CommandSpec& spec) {
  return spec.name.empty() ? "partplay" : fmt::format("partplay {}", spec.name);
}

// Appends `text` wrapped at word boundaries to lines of `width`, each after `indent` spaces
// (the first line's indent is the caller's, already written).
void AppendWrapped(std::string& out, std::string_view text, size_t indent, size_t width) {
  size_t column = 0;
  while (!text.empty()) {
    size_t space = text.find(' ');
    std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (word.empty()) continue;
    if (column > 0 && column + 1 + word.size() > width) {
      out += '\n';
      out.append(indent, ' ');
      column = 0;
    } else if (column > 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
}

// The spelling of an option in the help: "  -k, --key PATH" or "      --format json|table".
std::string Spelling(const Option& option) {
  std::string s = option.short_name.empty() ? "      " : fmt::format("  {}, ", option.short_name);
  s += option.name;
  if (!option.value.empty()) fmt::format_to(std::back_inserter(s), " {}", option.value);
  return s;
}

// A negative number or "-.5" is an operand, not an option.
bool LooksNumeric(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-' &&
         ((arg[1] >= '0' && arg[1] <= '9') || (arg[1] == '.' && arg.size() > 2));
}

// One pass over argv. With `apply` false it only looks for -h/--help (before any "--"), reading
// which arguments are option values the same way, so "--separator -h" is not a request for help.
// Returns kOk, or the first usage error (with apply) / kOk with help set.
Status Scan(const CommandSpec& spec, std::vector<Option>& options, int argc, char** argv,
            const std::function<Status(std::string_view)>& on_operand, bool apply, bool& help) {
  bool only_operands = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    bool is_option = !only_operands && arg.size() > 1 && arg[0] == '-';
    if (is_option && spec.single_dash_operands) is_option = arg == "-h" || arg.substr(0, 2) == "--";
    if (is_option && LooksNumeric(arg)) is_option = false;
    if (!is_option) {
      if (!apply) continue;
      Status s = on_operand(arg);
      if (!s.ok()) return s;
      continue;
    }
    if (arg == "--") {
      only_operands = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      help = true;
      if (!apply) return Status::Ok();
      continue;
    }
    std::string_view name = arg;
    std::optional<std::string_view> inline_value;
    if (size_t eq = arg.find('='); arg.substr(0, 2) == "--" && eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
    Option* option = nullptr;
    for (Option& o : options) {
      if (name == o.name || (!o.short_name.empty() && name == o.short_name)) option = &o;
    }
    if (option == nullptr) {
      if (!apply) continue;
      return Status(ErrorCode::kUsage, fmt::format("unknown option {}", PrintableText(name)));
    }
    std::string_view value;
    if (option->value.empty()) {
      if (inline_value && apply) {
        return Status(ErrorCode::kUsage, fmt::format("{} takes no value", option->name));
      }
    } else if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      if (!apply) continue;
      return Status(ErrorCode::kUsage, fmt::format("{} needs a value ({} {})", option->name,
                                                   option->name, option->value));
    }
    if (!apply) continue;
    Status s = option->apply(value);
    if (s.ok()) continue;
    std::string message = s.message();
    if (message.substr(0, option->name.size()) != option->name) {
      message = fmt::format("{}: {}", option->name, message);
    }
    if (!option->value.empty()) {
      std::string shown = PrintableText(value.substr(0, 60));
      fmt::format_to(std::back_inserter(message), " (given: '{}'{})", shown,
                     value.size() > 60 ? "..." : "");
    }
    return Status(ErrorCode::kUsage, message);
  }
  return Status::Ok();
}

}  // namespace

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

bool ParseCount(std::string_view text, int64_t& out) {
  if (text.empty() || text.size() > 18) return false;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

int UsageError(const CommandSpec& spec, std::string_view message) {
  std::string name = CommandName(spec);
  std::fprintf(stderr, "%s: %.*s\nTry '%s --help' for more information.\n", name.c_str(),
               static_cast<int>(message.size()), message.data(), name.c_str());
  return static_cast<int>(ErrorCode::kUsage);
}

std::string HelpText(const CommandSpec& spec, const std::vector<Option>& options) {
  std::string name = CommandName(spec);
  std::string out;
  // Each synopsis line is a form of the command; a line starting with a space continues the
  // one before it, aligned after the command's name.
  std::string_view synopsis = spec.synopsis;
  if (synopsis.empty()) fmt::format_to(std::back_inserter(out), "usage: {}\n", name);
  bool first = true;
  while (!synopsis.empty()) {
    size_t nl = synopsis.find('\n');
    std::string_view line = synopsis.substr(0, nl);
    if (line.substr(0, 1) == " ") {
      fmt::format_to(std::back_inserter(out), "{:{}}{}\n", "", 8 + name.size(), line.substr(1));
    } else {
      fmt::format_to(std::back_inserter(out), "{} {} {}\n", first ? "usage:" : "      ", name,
                     line);
    }
    synopsis = nl == std::string_view::npos ? std::string_view() : synopsis.substr(nl + 1);
    first = false;
  }
  if (!spec.description.empty()) fmt::format_to(std::back_inserter(out), "\n{}", spec.description);
  out += "\noptions:\n";
  auto row = [&](const std::string& spelling, std::string_view help) {
    out += spelling;
    if (spelling.size() + 2 > kOptionColumn) {
      out += '\n';
      out.append(kOptionColumn, ' ');
    } else {
      out.append(kOptionColumn - spelling.size(), ' ');
    }
    AppendWrapped(out, help, kOptionColumn, kHelpWidth - kOptionColumn);
    out += '\n';
  };
  for (const Option& o : options) row(Spelling(o), o.help);
  row("  -h, --help", "print this help and exit");
  out +=
      "\nexit status: 0 on success, 2 for a bad command line, 130 when interrupted\n"
      "(Ctrl-C), otherwise the error's code ('partplay error-codes'; docs/cli.md).\n";
  return out;
}

std::optional<int> ParseCommandLine(const CommandSpec& spec, std::vector<Option>& options, int argc,
                                    char** argv,
                                    const std::function<Status(std::string_view)>& on_operand) {
  bool help = false;
  // The first pass only looks for help; its errors are the second pass's to report.
  static_cast<void>(Scan(spec, options, argc, argv, on_operand, /*apply=*/false, help));
  if (help) {
    std::string text = HelpText(spec, options);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  Status s = Scan(spec, options, argc, argv, on_operand, /*apply=*/true, help);
  if (!s.ok()) return UsageError(spec, s.message());
  return std::nullopt;
}

void AddProgressOptions(std::vector<Option>& options, ProgressMode& mode) {
  options.push_back({"--progress", "", "", "draw progress on stderr even when it is not a terminal",
                     [&mode](std::string_view) {
                       mode = ProgressMode::kOn;
                       return Status::Ok();
                     }});
  options.push_back({"--quiet", "-q", "",
                     "no progress (by default it is drawn when stderr is a terminal)",
                     [&mode](std::string_view) {
                       mode = ProgressMode::kOff;
                       return Status::Ok();
                     }});
}

void AddOutputOption(std::vector<Option>& options, std::string& path) {
  options.push_back({"--output", "-o", "FILE",
                     "write the result to FILE instead of stdout: whole or not at all (a "
                     "temporary file beside it is renamed over it at the end, and removed on an "
                     "error or Ctrl-C)",
                     [&path](std::string_view v) {
                       if (v.empty()) return Status(ErrorCode::kUsage, "needs a file name");
                       path = std::string(v);
                       return Status::Ok();
                     }});
}

}  // namespace partplay::cli
