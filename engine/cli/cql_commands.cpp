#include "cql_commands.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_args.h"
#include "cli_io.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/numbers.h"
#include "partplay/core/status.h"
#include "partplay/core/utf8.h"

namespace {

using partplay::ErrorCode;
using partplay::Status;
using partplay::StatusOr;
namespace cql = partplay::cql;

const partplay::cli::CommandSpec kTokenSpec = {
    .name = "token",
    .synopsis = "--types T1[,T2...] [--] VALUE...\n--types T1[,T2...] --stdin",
    .description =
        "Prints the Murmur3Partitioner token Cassandra computes for the partition key whose\n"
        "components are the CQL literals VALUE... of the CQL types T1, T2... (several = a\n"
        "composite key), e.g.  partplay token --types text,int \"'hello'\" 42\n"
        "With --stdin each input line is a JSON array of CQL literal strings, [\"'hello'\", "
        "\"42\"],\n"
        "and each output line is its token, or \"error: MESSAGE\" (the exit status is then the\n"
        "first failed line's code).\n",
    .single_dash_operands = true,  // -5 and -Infinity are CQL literals
};

const partplay::cli::CommandSpec kCqlSpec = {
    .name = "cql",
    .synopsis =
        "[--nodes N] [--vnodes V] [--random-tokens [--seed S]]\n"
        " [--page-size N] [--format json|cqlsh|details] FILE|-",
    .description =
        "Runs the CQL script FILE (or stdin for -) on an in-memory cluster of N nodes with V\n"
        "vnode tokens each (evenly spaced unless --random-tokens). The run goes on after a\n"
        "failed statement; the exit status is the first failed statement's code.\n",
};

int Fail(const Status& s) {
  std::fprintf(stderr, "partplay: %s\n", s.ToString().c_str());
  return static_cast<int>(s.code());
}

// "text,map<text, int>,int" -> three types (commas inside <> belong to the type).
StatusOr<std::vector<cql::CqlType>> ParseTypeList(std::string_view list) {
  std::vector<cql::CqlType> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    char c = i < list.size() ? list[i] : ',';
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      PARTPLAY_ASSIGN_OR_RETURN(cql::CqlType t, cql::ParseType(list.substr(start, i - start)));
      out.push_back(std::move(t));
      start = i + 1;
    }
  }
  return out;
}

// A line ["'a'", "42"]: a JSON array of strings.
bool ParseStringArray(std::string_view line, std::vector<std::string>& out, std::string& error) {
  out.clear();
  size_t i = 0;
  auto space = [&]() {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
  };
  space();
  if (i >= line.size() || line[i] != '[') {
    error = fmt::format("column {}: expected a JSON array of strings", i + 1);
    return false;
  }
  ++i;
  space();
  if (i < line.size() && line[i] == ']') return true;
  while (true) {
    space();
    if (i >= line.size() || line[i] != '"') {
      error = fmt::format("column {}: expected a string", i + 1);
      return false;
    }
    ++i;
    std::string s;
    while (true) {
      if (i >= line.size()) {
        error = fmt::format("column {}: unterminated string", i + 1);
        return false;
      }
      char c = line[i++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) {
        error = fmt::format("column {}: a control character in a string must be escaped", i);
        return false;
      }
      if (c != '\\') {
        s += c;
        continue;
      }
      if (i >= line.size()) {
        error = fmt::format("column {}: unterminated string", i + 1);
        return false;
      }
      char e = line[i++];
      switch (e) {
        case 'n':
          s += '\n';
          break;
        case 't':
          s += '\t';
          break;
        case 'r':
          s += '\r';
          break;
        case 'b':
          s += '\b';
          break;
        case 'f':
          s += '\f';
          break;
        case 'u': {
          // \\u and exactly four hex digits; a surrogate pair makes one character.
          size_t escape = i - 2;
          auto hex4 = [&](size_t at, uint32_t& out) {
            uint64_t v = 0;
            if (at + 4 > line.size() || !partplay::ParseHexUint64(line.substr(at, 4), v)) {
              return false;
            }
            out = static_cast<uint32_t>(v);
            return true;
          };
          uint32_t cp = 0;
          if (!hex4(i, cp)) {
            error = fmt::format("column {}: bad \\u escape '{}' (\\u takes four hex digits)",
                                escape + 1, partplay::PrintableText(line.substr(escape, 6)));
            return false;
          }
          i += 4;
          uint32_t low = 0;
          if (cp >= 0xD800 && cp <= 0xDBFF && line.substr(i, 2) == "\\u" && hex4(i + 2, low) &&
              low >= 0xDC00 && low <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            error = fmt::format("column {}: a lone surrogate \\u{:04X} is not a character",
                                escape + 1, cp);
            return false;
          }
          if (cp < 0x80) {
            s += static_cast<char>(cp);
          } else if (cp < 0x800) {
            s += static_cast<char>(0xC0 | (cp >> 6));
            s += static_cast<char>(0x80 | (cp & 0x3F));
          } else if (cp < 0x10000) {
            s += static_cast<char>(0xE0 | (cp >> 12));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            s += static_cast<char>(0xF0 | (cp >> 18));
            s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        case '"':
        case '\\':
        case '/':
          s += e;
          break;
        default:
          error = fmt::format("column {}: bad escape '{}'", i - 1,
                              partplay::PrintableText(line.substr(i - 2, 2)));
          return false;
      }
    }
    out.push_back(std::move(s));
    space();
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    if (i < line.size() && line[i] == ']') return true;
    error = fmt::format("column {}: expected ',' or ']'", i + 1);
    return false;
  }
}

bool ParseInt(std::string_view text, int64_t& out) {
  if (text.empty() || text.size() > 18) return false;
  out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

}  // namespace

int RunTokenCommand(int argc, char** argv) {
  namespace cli = partplay::cli;
  std::string types_text;
  bool from_stdin = false;
  std::vector<std::string> values;
  std::vector<cli::Option> table = {
      {"--types", "", "T1[,T2...]",
       "the CQL types of the partition key's components, e.g. text,int (required)",
       [&](std::string_view v) {
         types_text = v;
         return Status::Ok();
       }},
      {"--stdin", "", "", "read one JSON array of literals per line from stdin",
       [&](std::string_view) {
         from_stdin = true;
         return Status::Ok();
       }},
  };
  auto operand = [&](std::string_view v) {
    values.emplace_back(v);
    return Status::Ok();
  };
  if (auto done = cli::ParseCommandLine(kTokenSpec, table, argc, argv, operand)) return *done;
  if (types_text.empty()) return cli::UsageError(kTokenSpec, "--types is required");
  StatusOr<std::vector<cql::CqlType>> types = ParseTypeList(types_text);
  if (!types.ok()) return Fail(types.status());
  if (!from_stdin) {
    StatusOr<int64_t> token = cql::TokenOfLiterals(types.value(), values);
    if (!token.ok()) return Fail(token.status());
    std::printf("%lld\n", static_cast<long long>(token.value()));
    return 0;
  }
  if (!values.empty()) {
    return cli::UsageError(kTokenSpec, "give values on the command line or --stdin");
  }
  int exit_code = 0;
  std::string line, out;
  std::vector<std::string> literals;
  int64_t line_number = 0;
  while (std::getline(std::cin, line)) {
    if (line.empty()) {
      ++line_number;
      continue;
    }
    std::string error;
    ++line_number;
    if (!ParseStringArray(line, literals, error)) {
      out += fmt::format("error: line {}, {}\n", line_number, error);
      if (exit_code == 0) exit_code = static_cast<int>(ErrorCode::kUsage);
      continue;
    }
    StatusOr<int64_t> token = cql::TokenOfLiterals(types.value(), literals);
    if (token.ok()) {
      out += std::to_string(token.value());
      out += '\n';
    } else {
      out += "error: " + token.status().message() + "\n";
      if (exit_code == 0) exit_code = static_cast<int>(token.status().code());
    }
    if (out.size() > (1u << 16)) {
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return exit_code;
}

int RunCqlCommand(int argc, char** argv) {
  namespace cli = partplay::cli;
  cql::SessionOptions options;
  std::string format = "json";
  std::string file;
  // A whole number from lo to hi into `out`.
  auto count = [](int& out, int64_t lo, int64_t hi, std::string_view takes) {
    return [&out, lo, hi, takes](std::string_view v) {
      int64_t n = 0;
      if (!ParseInt(v, n) || n < lo || n > hi) return Status(ErrorCode::kUsage, std::string(takes));
      out = static_cast<int>(n);
      return Status::Ok();
    };
  };
  std::vector<cli::Option> table = {
      {"--nodes", "", "N", "nodes in the ring, 1 to 1000 (default 3)",
       count(options.ring.nodes, 1, 1000, "--nodes takes 1 to 1000")},
      {"--vnodes", "", "V", "vnode tokens per node, 1 to 256 (default 16)",
       count(options.ring.num_tokens, 1, 256, "--vnodes takes 1 to 256")},
      {"--num-tokens", "", "V", "the same as --vnodes (Cassandra's num_tokens)",
       count(options.ring.num_tokens, 1, 256, "--num-tokens takes 1 to 256")},
      {"--random-tokens", "", "", "random tokens from --seed instead of evenly spaced ones",
       [&](std::string_view) {
         options.ring.random_tokens = true;
         return Status::Ok();
       }},
      {"--seed", "", "S", "the seed of --random-tokens (default 1)",
       [&](std::string_view v) {
         int64_t n = 0;
         if (!ParseInt(v, n)) return Status(ErrorCode::kUsage, "--seed takes a number");
         options.ring.seed = static_cast<uint64_t>(n);
         return Status::Ok();
       }},
      {"--page-size", "", "N",
       "SELECTs run as a paging client with this fetch size, 0 to turn paging off (default 100, "
       "cqlsh's; the script's PAGING commands change it)",
       [&](std::string_view v) {
         int64_t n = 0;
         if (!ParseInt(v, n) || n < 0 || n > INT32_MAX) {
           return Status(ErrorCode::kUsage, "--page-size takes 0 to 2147483647");
         }
         options.page_size = static_cast<int32_t>(n);
         return Status::Ok();
       }},
      {"--format", "", "json|cqlsh|details",
       "json (default): one line per SELECT (and per conditional statement's [applied] row), {\"columns\": [...], \"rows\": [[...]]}, and "
       "{\"error\": {...}} per failed statement; cqlsh: the output cqlsh would print (errors on "
       "stderr); details: every statement's result, with tokens and replicas, as one JSON object",
       [&](std::string_view v) {
         if (v != "json" && v != "cqlsh" && v != "details") {
           return Status(ErrorCode::kUsage, "--format is json, cqlsh or details");
         }
         format = v;
         return Status::Ok();
       }},
  };
  cli::ProgressMode progress_mode = cli::ProgressMode::kAuto;
  cli::AddProgressOptions(table, progress_mode);
  auto operand = [&](std::string_view arg) {
    if (!file.empty()) return Status(ErrorCode::kUsage, "give one script");
    file = arg;
    return Status::Ok();
  };
  if (auto done = cli::ParseCommandLine(kCqlSpec, table, argc, argv, operand)) return *done;
  if (file.empty()) return cli::UsageError(kCqlSpec, "give a script FILE, or - for stdin");
  StatusOr<std::string> script = partplay::cli::ReadWholeFile(file);
  if (!script.ok()) return Fail(script.status());
  // COPY ... FROM 'data.csv': a relative path is the script's sibling (stdin: the working
  // directory), read like every CLI input (gzip or not).
  // A COPY's file is read with a progress line (bytes and lines) on a terminal; Ctrl-C stops it.
  cli::CatchInterrupts();
  options.read_file = [&file, progress_mode](const std::string& name) {
    std::string path = name;
    size_t slash = file.rfind('/');
    if (!name.empty() && name[0] != '/' && file != "-" && slash != std::string::npos) {
      path = file.substr(0, slash + 1) + name;
    }
    cli::Progress progress(progress_mode, fmt::format("partplay cql: COPY FROM {}", name), "lines",
                           cli::InputSize(path));
    StatusOr<std::string> text = partplay::cli::ReadWholeFile(path, &progress);
    if (text.ok()) progress.Step("loading the rows");
    return text;
  };
  cql::Session session(options);
  std::vector<cql::StatementResult> results = session.Execute(script.value());
  if (cli::Interrupted()) return Fail(cli::InterruptedStatus());
  int exit_code = 0;
  for (const cql::StatementResult& r : results) {
    if (r.kind == cql::StatementResult::Kind::kError && exit_code == 0) {
      exit_code = static_cast<int>(r.status.code());
    }
  }
  if (format == "details") {
    std::string out = cql::ResultsToJson(results);
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
    return exit_code;
  }
  std::string source = file == "-" ? "<stdin>" : file;
  for (const cql::StatementResult& r : results) {
    if (format == "json") {
      std::string line = cql::ResultToJsonLine(r);
      std::fwrite(line.data(), 1, line.size(), stdout);
    } else {
      std::string text = cql::ResultToCqlsh(r, source);
      std::FILE* to = r.kind == cql::StatementResult::Kind::kError ? stderr : stdout;
      std::fflush(stdout);
      std::fwrite(text.data(), 1, text.size(), to);
      std::fflush(to);
    }
  }
  return exit_code;
}
