// `dsched timeline`: records scheduler events into a Perfetto trace (see docs/timeline.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace dsched::timeline {

// Runs the subcommand with the words after `timeline`: --help to `out`, messages and the final
// report to `err`. Returns the exit status: 0, 1 when recording or writing failed, 2 for usage
// errors.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace dsched::timeline
