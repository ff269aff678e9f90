// The dsched command line: dtrace(1)'s flags, parsed into an Invocation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "abi/options.h"

namespace dsched {

// One -s, -P, -m, -f, -n or -i argument, in command-line order. All but -s name probes by one
// field of the description (the fields before it may be given too) and may carry a clause.
struct ProgramPiece {
  enum class Kind { ScriptFile, Provider, Module, Function, Description, ProbeId };
  Kind kind;
  std::string text;
  std::string script = {};  // ScriptFile: the file's text, read once (a pipe can be read only once)
};

struct Invocation {
  enum class Mode { Run, CompileOnly, List, Help, Version, ApiVersion, Ctprof, Timeline, Demo, DemoWorkload };
  Mode mode = Mode::Run;
  std::vector<ProgramPiece> pieces;
  std::vector<std::string> script_args;  // positional arguments: $1, $2, ...
  abi::Options options;                    // -x name[=value] (checked), -q as quiet
  std::vector<std::string> cpp_args;      // -D, -U, -I, -H, -X, kept as cpp's flags
  std::vector<std::string> library_dirs;  // -L: directories of D libraries (*.d) to load first
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
  std::string message;       // without the "dsched: " prefix
  bool show_usage = true;    // false for flags refused as meaningless here: the reason says it all
  // 2 for usage errors; 1 for an option that cannot be set, as dtrace(1) fails on -x, -b and -X.
  int exit_status = 2;
};

// Parses argv (argv[0] excluded). Returns the invocation or a usage error.
std::pair<std::optional<Invocation>, std::optional<CliError>> parse_command_line(
    const std::vector<std::string>& args);

// A script's first line `#!/usr/sbin/dtrace -Cqs` (or `#!/usr/bin/env -S dsched -qs`): the flags
// after the dtrace or dsched word apply as if given on the command line, as when the kernel runs
// the script. Other first lines change nothing.
std::optional<CliError> apply_interpreter_line(Invocation& inv, std::string_view first_line);

// The text printed by -h / --help and after usage errors.
std::string usage_text();

// The D text of a -P/-m/-f/-n piece: its probe description with every field placed (-m sched
// becomes ":sched::"), then its clause if it has one. False with `error` set when the piece
// names more fields than its flag allows. -s and -i pieces are not descriptions: not accepted.
bool description_clause(const ProgramPiece& piece, std::string* text, std::string* error);

// A -P/-m/-f/-n/-i piece split where its clause (predicate or body) starts.
std::pair<std::string, std::string> split_clause(const std::string& text);

}  // namespace dsched
