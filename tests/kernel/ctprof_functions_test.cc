// ctprof_snapshot() and ctprof_compare() from D: run in user space, in order with the script's
// other output.
#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>

#include "support.h"

using namespace dsched::test;

TEST_CASE("a script takes two snapshots and prints their comparison in order") {
  std::string base = "/tmp/dsched-test-" + std::to_string(getpid()) + "-a.ctprof.zst";
  std::string cand = "/tmp/dsched-test-" + std::to_string(getpid()) + "-b.ctprof.zst";
  TempScript script(
      "#pragma D option quiet\n"
      "BEGIN { ctprof_snapshot(\"" + base + "\"); printf(\"first taken\\n\"); }\n"
      "tick-200ms { ctprof_snapshot(\"" + cand + "\"); printf(\"second taken\\n\");\n"
      "  ctprof_compare(\"" + base + "\", \"" + cand + "\", \"--sections primary --metrics run_time_ns\");\n"
      "  printf(\"compared\\n\"); exit(0); }\n");
  RunResult r = run_dsched({"-s", script.path()});
  CHECK(r.status == 0);
  size_t first = r.out.find("first taken\n");
  size_t second = r.out.find("second taken\n");
  size_t table = r.out.find("## Primary metrics");
  size_t done = r.out.find("compared\n");
  REQUIRE(first != std::string::npos);
  REQUIRE(table != std::string::npos);
  CHECK(first < second);
  CHECK(second < table);
  CHECK(table < done);
  // The table compares the one metric asked for, for dsched's own process among others.
  CHECK(r.out.find("run_time_ns") != std::string::npos);
  CHECK(r.out.find("dsched") != std::string::npos);
  CHECK(r.out.find("wait_time_ns") == std::string::npos);
  // Both files are snapshots the command line can read.
  CHECK(run_dsched({"ctprof", "show", base}).status == 0);
  CHECK(run_dsched({"ctprof", "show", cand}).status == 0);
  std::remove(base.c_str());
  std::remove(cand.c_str());
  CHECK(leftover_programs().empty());
}

TEST_CASE("a bad snapshot path is reported and the run goes on") {
  RunResult r = run_dsched(
      {"-qn", "BEGIN { ctprof_compare(\"/nonexistent/a\", \"/nonexistent/b\"); printf(\"still running\\n\"); exit(0); }"});
  CHECK(r.status == 0);
  CHECK(r.out == "still running\n\n");
  CHECK(r.err.find("dsched: ctprof_compare(): ") != std::string::npos);
  CHECK(r.err.find("/nonexistent/") != std::string::npos);
}

TEST_CASE("flags reach the engine: a snapshot without taskstats compares as '-'; computed bad flags fail at run time") {
  std::string snap = "/tmp/dsched-test-" + std::to_string(getpid()) + "-flags.ctprof.zst";
  RunResult r = run_dsched(
      {"-qn", "BEGIN { ctprof_snapshot(\"" + snap + "\", \"--no-taskstats --no-jemalloc\");\n"
              "  ctprof_compare(\"" + snap + "\", \"" + snap +
                  "\", \"--group-by pcomm --sections taskstats-delay --metrics cpu_delay_count --limit 0\");\n"
              "  ctprof_compare(\"" + snap + "\", \"" + snap + "\", strjoin(\"--bo\", \"gus\"));\n"
              "  printf(\"goes on\\n\"); exit(0); }"});
  std::remove(snap.c_str());
  CHECK(r.status == 0);
  INFO(r.out);
  INFO(r.err);
  // dsched's own row: taskstats were not queried, so its delay count reads '-' on both sides.
  size_t row = r.out.find("\ndsched ");
  REQUIRE(row != std::string::npos);
  std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  CHECK(line.find("cpu_delay_count") != std::string::npos);
  CHECK(line.find("- → -") != std::string::npos);
  CHECK(r.err.find("dsched: ctprof_compare(): unknown flag --bogus") != std::string::npos);
  CHECK(r.out.find("goes on\n") != std::string::npos);
}
