// The dsched command line: dtrace(1)'s flags, parsed into an Invocation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "abi/options.h"

namespace dsched {

// One -s, -n or -P argument, in command-line order.
struct ProgramPiece {
  enum class Kind { ScriptFile, Description, Provider };
  Kind kind;
  std::string text;
};

struct Invocation {
  enum class Mode { Run, CompileOnly, List, Help, Version, Ctprof, Timeline, Demo, DemoWorkload };
  Mode mode = Mode::Run;
  std::vector<ProgramPiece> pieces;
  std::vector<std::string> script_args;  // positional arguments: $1, $2, ...
  abi::Options options;                    // -x name[=value] (checked), -q as quiet
  std::vector<std::string> cpp_args;      // -D, -U, -I, kept in their flag form
  bool preprocess = false;                // -C
  bool destructive = false;               // -w
  bool verbose = false;                   // -v
  bool allow_zero_matches = false;        // -Z
  std::string command;                    // -c
  long pid = 0;                           // -p
  std::string output_path;                // -o
  std::vector<std::string> ctprof_args;   // everything after `ctprof`
  std::vector<std::string> timeline_args; // everything after `timeline`
  // -S (the LLVM IR as optimised) or --dump=ast|types|ir: a compile stage to print.
  std::optional<std::string> dump;
};

struct CliError {
  std::string message;  // without the "dsched: " prefix
};

// Parses argv (argv[0] excluded). Returns the invocation or a usage error.
std::pair<std::optional<Invocation>, std::optional<CliError>> parse_command_line(
    const std::vector<std::string>& args);

// The text printed by -h / --help and after usage errors.
std::string usage_text();

}  // namespace dsched
