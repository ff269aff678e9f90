// `dsched timeline` without a script: records scheduler events into a Perfetto trace (see
// docs/timeline.md). With a script, the driver runs the script and a Recording together.
#pragma once

#include <ostream>

#include "runtime/timeline/options.h"

namespace dsched::timeline {

// Runs the subcommand as parsed from the words after `timeline`: --help to `out`, messages and
// the final report to `err`. Returns the exit status: 0, 1 when recording or writing failed, 2
// for usage errors.
int run_cli(const ParsedOptions& parsed, std::ostream& out, std::ostream& err);

}  // namespace dsched::timeline
