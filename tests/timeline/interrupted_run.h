// The kernel tests' Ctrl-C: dsched started with `args` (recording `tl_workload --forever`), sent
// SIGINT once the workload runs, and collected.
#pragma once

#include <csignal>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <unistd.h>

#include "decoded_trace.h"
#include "support.h"

namespace dsched::test {

inline RunResult interrupted_run(const std::vector<std::string>& args) {
  RunningDsched dsched(args);
  REQUIRE(dsched.wait_for_output("started"));
  usleep(300000);
  dsched.signal(SIGINT);
  RunResult run = dsched.wait(std::chrono::seconds(20));
  INFO(run.err);
  CHECK_FALSE(run.timed_out);
  CHECK(run.status == 0);
  return run;
}

// Switches that put a thread named `comm` on a CPU.
inline long switches_into(const SchedTrace& sched, const std::string& comm) {
  long count = 0;
  for (const SwitchEvent& sw : sched.switches) count += sw.next_comm == comm;
  return count;
}

}  // namespace dsched::test
