// The CLI's command lines: each command declares its options as a table (spelling, value,
// help, what it does) and ParseCommandLine reads argv against it, so the help text, the
// errors and docs/cli.md all come from that one table. Adding an option is one entry:
//
//   std::vector<Option> options = {
//       {"--key", "-k", "PATH", "the partition key path",
//        [&](std::string_view v) { keys.emplace_back(v); return Status::Ok(); }},
//   };
//   AddOutputOption(options, output);        // -o, --output FILE
//   AddProgressOptions(options, progress);   // --progress, --quiet
//   if (auto done = ParseCommandLine(spec, options, argc, argv, on_operand)) return *done;
//
// -h/--help is every command's: it prints the usage on stdout and the command exits 0. An
// unknown option, a missing value or a value the option refuses is named on stderr with a hint
// to --help, and the command exits with kUsage (2).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"

namespace partplay::cli {

// A finite decimal number (strtod's grammar, the whole text); false otherwise.
bool ParseNumber(std::string_view text, double& out);
// A whole number of at most 18 decimal digits, no sign; false otherwise.
bool ParseCount(std::string_view text, int64_t& out);

// What an option does with its value (empty for a flag): Ok, or a kUsage status whose message
// says what the option takes (it is printed after the option's name and the value given).
using OptionAction = std::function<Status(std::string_view value)>;

struct Option {
  std::string_view name;        // "--key"
  std::string_view short_name;  // "-k", or empty
  std::string_view value;       // the value's name in the help ("PATH"); empty for a flag
  std::string_view help;        // one sentence or more; wrapped when printed
  OptionAction apply;
};

struct CommandSpec {
  std::string_view name;  // "analyze"; empty for the tool itself
  // The usage lines after "partplay NAME ", '\n'-separated; one starting with a space continues
  // the line before it.
  std::string_view synopsis;
  std::string_view description;  // paragraphs printed after the usage
  // An argument starting with a single '-' (and not "-h") is an operand: CQL literals such as
  // -5 or -Infinity. Otherwise only "-", a negative number and what follows "--" are.
  bool single_dash_operands = false;
};

// A usage error of the command: "partplay NAME: MESSAGE" and a hint to --help on stderr;
// returns kUsage's number, the exit status.
int UsageError(const CommandSpec& spec, std::string_view message);

// The command's help, as -h/--help prints it (docs/cli.md holds the same text).
std::string HelpText(const CommandSpec& spec, const std::vector<Option>& options);

// Reads argv (argv[0] is the first argument after the command's name) against the options;
// each operand goes to on_operand (a kUsage status stops the parse with its message). Returns
// the exit status when the command is done (help printed: 0; a usage error: 2), nullopt to run.
std::optional<int> ParseCommandLine(const CommandSpec& spec, std::vector<Option>& options, int argc,
                                    char** argv,
                                    const std::function<Status(std::string_view)>& on_operand);

// Whether progress is drawn on stderr: when it is a terminal (kAuto), always, or never.
enum class ProgressMode { kAuto, kOn, kOff };

// --progress and --quiet, for commands that do long work.
void AddProgressOptions(std::vector<Option>& options, ProgressMode& mode);
// -o/--output FILE: the result goes to FILE, written whole or not at all (cli_io.h Output).
void AddOutputOption(std::vector<Option>& options, std::string& path);

}  // namespace partplay::cli
