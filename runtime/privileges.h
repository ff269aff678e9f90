// What tracing needs from the system, checked before anything is loaded so that a user without
// it gets one line saying what is missing instead of libbpf's messages.
#pragma once

#include <optional>
#include <string>

namespace dsched {

// Why this process cannot trace (not root and lacking CAP_BPF or CAP_PERFMON), or nullopt.
// `status` is /proc/self/status's text (a parameter so that tests can give their own).
std::optional<std::string> missing_privileges(const std::string& status);
std::optional<std::string> missing_privileges();

// The kernel object a failed load needs and does not have, named from libbpf's log ("the kernel
// has no tracepoint sched_waking"), or nullopt when the log names none.
std::optional<std::string> missing_kernel_object(const std::string& libbpf_log);
// What the kernel refused a program for when it is a helper this kernel withholds (writes to user
// memory under lockdown), or nullopt.
std::optional<std::string> forbidden_helper(const std::string& verifier_log);

}  // namespace dsched
