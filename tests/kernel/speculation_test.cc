// Speculations under concurrency: records speculated on every CPU and committed from one.
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "support.h"
#include "workloads.h"

using namespace dsched::test;

TEST_CASE("data speculated on every CPU is committed from another probe, whole and in order") {
  // Busy CPUs: the cpu-clock timers behind profile-N can stay silent on an idle virtual CPU.
  std::vector<std::unique_ptr<PinnedHogs>> busy;
  for (unsigned cpu = 0; cpu < std::min(std::thread::hardware_concurrency(), 2u); ++cpu)
    busy.push_back(std::make_unique<PinnedHogs>(1, static_cast<int>(cpu)));
  TempScript script(
      "#pragma D option quiet\n"
      "int done;\n"
      "BEGIN { s = speculation(); printf(\"start %d\\n\", s); }\n"
      "profile-199 /!done/ { speculate(s); printf(\"cpu %d seq %d\\n\", cpu, seq[cpu]++); }\n"
      "tick-300ms /!done/ { done = 1; printf(\"committing\\n\"); }\n"
      "tick-300ms /done == 1/ { commit(s); done = 2; }\n"
      "tick-300ms /done == 2/ { printf(\"end\\n\"); exit(0); }\n");
  RunResult r = run_dsched({"-s", script.path()});
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  CHECK(line == "start 1");
  std::getline(lines, line);
  CHECK(line == "committing");  // nothing speculated printed before the commit
  std::set<int> cpus;
  std::map<int, int> next_seq;
  int committed = 0;
  while (std::getline(lines, line) && line != "end") {
    int cpu = -1, seq = -1;
    REQUIRE_MESSAGE(std::sscanf(line.c_str(), "cpu %d seq %d", &cpu, &seq) == 2, line);
    CHECK(seq == next_seq[cpu]++);  // each CPU's records arrive in the order they were made
    cpus.insert(cpu);
    ++committed;
  }
  CHECK(line == "end");
  // 300 ms at 199 Hz on every CPU: about 60 firings per CPU; allow a busy machine its jitter.
  CHECK(committed >= 20);
  CHECK(cpus.size() == std::min<size_t>(std::thread::hardware_concurrency(), 2));
  CHECK(leftover_programs().empty());
}

TEST_CASE("an id is reused after discard, and a speculation with no free buffer is reported") {
  RunResult r = run_dsched({"-qn",
                            "BEGIN { a = speculation(); b = speculation(); discard(a); }"
                            "BEGIN { c = speculation(); printf(\"%d %d %d\\n\", a, b, c); exit(0); }"});
  CHECK(r.status == 0);
  CHECK(r.out == "1 0 1\n\n");
  CHECK(r.err.find("dsched: 1 failed speculation (no speculative buffer available)") != std::string::npos);
}
