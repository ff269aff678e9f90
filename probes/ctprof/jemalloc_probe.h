// Per-thread jemalloc counters (bytes allocated / freed by each thread since it started) of the
// processes that link libjemalloc.
//
// Per process: /proc/<pid>/maps names the loaded libjemalloc, libc and the dynamic loader; the
// loader's r_debug list leads to libjemalloc's link_map, whose static-TLS offset (its field
// position published by libc for thread debuggers) locates the library's TLS block relative to
// the thread pointer; jemalloc_layout() says where the counters sit in that block.
// Per thread: PTRACE_SEIZE + PTRACE_INTERRUPT, wait for the stop (250 ms at most), read the
// thread pointer (PTRACE_GETREGSET), read both counters with process_vm_readv, PTRACE_DETACH.
// SEIZE never sends SIGSTOP, and all ptrace calls run on one short-lived thread: when that thread
// ends - normally, or because dsched was killed - the kernel detaches whatever it still traces,
// so no process is left stopped.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "snapshot.h"

namespace dsched::ctprof {

struct JemallocCounters {
  std::uint64_t allocated = 0, deallocated = 0;
};

struct ProbeTarget {
  std::int32_t tgid;
  std::vector<std::int32_t> tids;
};

// Probes `targets` (the capturing process itself is skipped: a process cannot trace itself) on
// a dedicated thread and waits for it. `proc_root` must be the real /proc. Outcomes are counted
// in `tally`.
std::unordered_map<std::int32_t, JemallocCounters> probe_jemalloc(
    const std::string& proc_root, const std::vector<ProbeTarget>& targets, JemallocTally& tally);

}  // namespace dsched::ctprof
