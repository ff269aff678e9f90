// The rawtp provider against what the test makes the kernel do: a signal a child sends itself (an
// int and a task pointer among the tracepoint's arguments), a task it moves to another CPU, and the
// listing with argument types from the kernel's BTF.
#include <doctest/doctest.h>

#include <algorithm>

#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

TEST_CASE("rawtp:signal::signal_generate: args[0] is the signal, args[2] the task it goes to") {
  constexpr int kSignals = 3;
  TracedWindow window({"-qn",
                       "rawtp:signal::signal_generate /execname == \"dsched-signals\" && args[2]->pid == pid/"
                       " { printf(\"signal %d %d %d\\n\", args[0], args[2]->pid, arg0); }"});
  REQUIRE(window.is_open());
  pid_t sender = run_named_child("dsched-signals", [] {
    signal(SIGUSR1, SIG_IGN);
    for (int i = 0; i < kSignals; ++i) child_must(kill(getpid(), SIGUSR1) == 0);
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  std::vector<std::string> expected{std::to_string(SIGUSR1), std::to_string(sender), std::to_string(SIGUSR1)};
  auto rows = rows_tagged(run.out, "signal");
  CHECK(rows == std::vector<std::vector<std::string>>(kSignals, expected));
  CHECK(leftover_programs().empty());
}

TEST_CASE("rawtp:sched::sched_migrate_task: the moved task and the CPU it goes to, typed from BTF") {
  if (cpu_count() < 2) return;
  TracedWindow window({"-qn",
                       "rawtp:sched::sched_migrate_task /args[0]->comm == \"dsched-mover\"/"
                       " { printf(\"moved %d %d %d\\n\", args[0]->pid, args[1], timestamp); }"});
  REQUIRE(window.is_open());
  pid_t mover = run_named_child("dsched-mover", [] {
    for (int cpu : {0, 1, 0}) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      child_must(sched_setaffinity(0, sizeof set, &set) == 0);
      child_must(sched_getcpu() == cpu);
    }
  });
  RunResult run = window.close();
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  // The child may start on either CPU: it moves at least to 1 and back to 0, in that order. Each
  // move is traced on the CPU it leaves, and as in DTrace each CPU's records print together: the
  // moves are put in order by their time.
  auto rows = rows_tagged(run.out, "moved");
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return std::stoull(a.at(2)) < std::stoull(b.at(2)); });
  std::vector<std::string> targets;
  for (const auto& row : rows) {
    CHECK(row.at(0) == std::to_string(mover));
    targets.push_back(row.at(1));
  }
  REQUIRE(targets.size() >= 2);
  CHECK(targets[targets.size() - 2] == "1");
  CHECK(targets.back() == "0");
  CHECK(leftover_programs().empty());
}

TEST_CASE("-lv rawtp: subsystems as modules and the tracepoint's argument types") {
  RunResult run = run_dsched({"-lv", "-n", "rawtp:sched::sched_migrate_task"});
  REQUIRE(run.status == 0);
  auto rows = parse_rows(run.out);
  REQUIRE(rows.size() >= 2);
  CHECK(rows[1] == std::vector<std::string>{rows[1].at(0), "rawtp", "sched", "sched_migrate_task"});
  CHECK(run.out.find("\t\targs[0]: struct task_struct *\n") != std::string::npos);
  CHECK(run.out.find("\t\targs[1]: int\n") != std::string::npos);
  RunResult all = run_dsched({"-l", "-P", "rawtp"});
  REQUIRE(all.status == 0);
  std::set<std::string> subsystems;
  size_t probes = 0;
  for (const auto& row : parse_rows(all.out)) {
    if (row.size() != 4 || row[1] != "rawtp") continue;
    subsystems.insert(row[2]);
    ++probes;
  }
  CHECK(probes > 300);
  for (const char* subsystem : {"sched", "signal", "irq", "block", "timer"}) CHECK(subsystems.count(subsystem) == 1);
}

TEST_CASE("a tracepoint that does not exist is refused, located") {
  RunResult run = run_dsched({"-n", "rawtp:sched::no_such_tracepoint { exit(0); }"});
  CHECK(run.status != 0);
  CHECK(run.err.find("no_such_tracepoint") != std::string::npos);
}
