// dsched's ctprof: per-thread scheduling profiles of the whole machine (capture, compare, show).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace dsched::ctprof {

// `dsched ctprof <args...>`: args exclude "dsched" and "ctprof". Returns the process exit code
// (0 ok, 1 runtime error, 2 usage error). Normal output goes to out, errors and hints to err.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// For the D functions ctprof_snapshot(path [, "flags"]) and ctprof_compare(a, b [, "flags"]):
// the flags are those of `ctprof capture` (without -o) and `ctprof compare`, in one string,
// parsed by the same parsers as the command line. An empty string on success, else a one-line
// error message.
std::string write_snapshot(const std::string& path, std::ostream& diagnostics);
std::string write_snapshot(const std::string& path, const std::string& flags,
                           std::ostream& diagnostics);
std::string compare_files(const std::string& baseline, const std::string& candidate,
                          const std::string& flags, std::ostream& out);
// What is wrong with a flags string of those functions ("" when nothing), so a script's literal
// flags are refused when it is compiled rather than when the action runs.
std::string snapshot_flags_error(const std::string& flags);
std::string compare_flags_error(const std::string& flags);

}  // namespace dsched::ctprof
