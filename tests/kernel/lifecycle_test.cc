// How a run begins and ends: BEGIN before everything, exit(), END, -c, signals; and that nothing
// of dsched stays in the kernel after any of them.
#include <doctest/doctest.h>

#include <csignal>

#include "support.h"

using namespace dsched::test;

TEST_CASE("BEGIN runs, prints and exits with exit()'s status") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"hello %s %d\\n\", execname, 7); exit(3); }"});
  CHECK(r.out == "hello dsched 7\n\n");
  CHECK(r.status == 3);
  CHECK(leftover_programs().empty());
}

TEST_CASE("a tick-driven script counts ticks to a fixed number") {
  RunResult r = run_dsched({"-qn", "tick-100hz { n++; } tick-100hz /n == 10/ { printf(\"%d\\n\", n); exit(0); }"});
  CHECK(r.out == "10\n\n");
  CHECK(r.status == 0);
  CHECK(leftover_programs().empty());
}

TEST_CASE("SIGTERM and SIGINT end the run through END") {
  for (int signo : {SIGTERM, SIGINT}) {
    RunningDsched run({"-qn", "BEGIN { printf(\"ready\\n\"); } tick-10ms { n++; } END { printf(\"end %d\\n\", n > 0); }"});
    REQUIRE(run.wait_for_output("ready\n"));
    usleep(100000);
    run.signal(signo);
    RunResult r = run.wait();
    CHECK(r.out == "ready\nend 1\n\n");
    CHECK(r.status == 0);
    CHECK(leftover_programs().empty());
  }
}

TEST_CASE("-c runs the command with $target as its pid and ends when it exits") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"%d\\n\", $target > 0); }", "-c", "sleep 0.2"});
  CHECK(r.out == "1\n\n");
  CHECK(r.status == 0);
  CHECK_FALSE(r.timed_out);
  CHECK(leftover_programs().empty());
}
