// Host-wide sources of a capture: host context (kernel, CPU, memory, sched_* tunables, command
// line, uptime), host pressure and the sched_ext sysfs state.
#pragma once

#include <optional>
#include <string>

#include "snapshot.h"

namespace dsched::ctprof {

// Reads the host context from the /proc tree open as `proc`. Files that cannot be read are
// counted in `tally` as "host <file>".
HostInfo read_host(int proc, SourceTally& tally, std::string& buf);

// /sys/kernel/sched_ext below `sys_root`: nullopt when the directory does not exist (kernel
// without CONFIG_SCHED_CLASS_EXT); a file of it that cannot be read is counted as
// "sched_ext <file>".
std::optional<SchedExtState> read_sched_ext(const std::string& sys_root, SourceTally& tally,
                                            std::string& buf);

}  // namespace dsched::ctprof
