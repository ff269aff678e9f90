// The D front end's entry point: sources in, a checked Program (or a DTrace-shaped error) out.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "program.h"

namespace dsched::lang {

struct ScriptSource {
  std::string display_name;        // "qtime.d" for -s FILE, the description text for -n
  std::string text;
  bool from_command_line = false;  // -n/-P etc.: DTrace words the error "invalid probe specifier"
};

struct FrontendOptions {
  std::vector<std::string> macro_args;  // [0] = script name, [1..] = script arguments ($1, $$1 ...)
  bool preprocess = false;              // -C: run the text through cpp first
  std::vector<std::string> cpp_args;    // -D/-U/-I exactly as given, e.g. "-DFOO=1"
  long target_pid = 0;                  // $target (0 when none)
  bool destructive = false;             // -w: allows system(), raise()
  bool allow_zero_matches = false;      // -Z: a description matching no probe is not an error
  std::vector<std::pair<std::string, std::string>> cli_options;  // -x name[=value]
};

struct CompileResult {
  std::unique_ptr<Program> program;  // null on error
  std::string error;                 // full message for stderr (may be several lines), no trailing \n
};

CompileResult compile(const std::vector<ScriptSource>& sources, const FrontendOptions& options);

}  // namespace dsched::lang
