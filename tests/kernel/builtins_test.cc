// Built-in variables and options whose values come from the probe or the run: argN carry the
// probe's arguments, epid the enabled probe, stackdepth and ustackdepth the stacks' depths; -x cpu
// limits probes to one CPU; setopt() changes dynamic options while tracing.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>

#include "aggregation_text.h"
#include "support.h"
#include "traced_window.h"
#include "workloads.h"

using namespace dsched::test;

namespace {

// The count of every "<tag> <word> <count>" row.
std::map<std::string, long> counts(const std::string& out, const std::string& tag) {
  std::map<std::string, long> result;
  for (const auto& fields : rows_tagged(out, tag)) {
    REQUIRE(fields.size() == 2);
    result[fields[0]] = std::stol(fields[1]);
  }
  return result;
}

}  // namespace

TEST_CASE("argN on sched probes are the probe's arguments: off-cpu's arg0 is the thread switched to") {
  PingPong pair("dsched-pingpong", 0);
  // off-cpu and on-cpu of one switch fire together; on-cpu's curthread is the thread off-cpu's
  // arguments name.
  WindowResult w = run_window({"-qn",
                               "sched:::off-cpu { next[cpu] = arg0; }"
                               " sched:::on-cpu /next[cpu]/ { @[next[cpu] == (int64_t)curthread ? \"same\" : \"other\"] "
                               "= count(); next[cpu] = 0; }"
                               " END { printa(\"arg %s %@d\\n\", @); }"},
                              {&pair});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto rows = counts(w.run.out, "arg");
  INFO(w.run.out << w.run.err);
  CHECK(rows["same"] >= static_cast<long>(w.rounds[0]));  // each round trip switches at least twice
  CHECK(rows.count("other") == 0);
}

TEST_CASE("argN past a probe's arguments are 0; proc:::exit's arg0 is the exit reason") {
  RunResult r = run_dsched({"-qn",
                            "proc:::exit /pid == $target/ { printf(\"exit %d %d\\n\", arg0, arg1); }"
                            " sched:::on-cpu /pid == $target/ { on = arg0 + arg5; }"
                            " END { printf(\"on-cpu %d\\n\", on); }",
                            "-c", "true"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("exit 1 0\n") != std::string::npos);  // CLD_EXITED; exit has one argument
  CHECK(r.out.find("on-cpu 0\n") != std::string::npos);  // on-cpu has none
}

TEST_CASE("a process's last thread fires lwp-exit, then exit, whatever the clauses' order") {
  RunResult r = run_dsched({"-qn",
                            "proc:::exit /pid == $target/ { printf(\"exit\\n\"); }"
                            " proc:::lwp-exit /pid == $target/ { printf(\"lwp-exit\\n\"); }",
                            "-c", "true"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "lwp-exit\nexit\n\n");
}

TEST_CASE("epid is the enabled probe; stackdepth and ustackdepth count real frames") {
  RunResult r = run_dsched({"-qn",
                            "BEGIN { printf(\"%d\\n\", epid); } BEGIN { printf(\"%d %d %d\\n\", epid, "
                            "stackdepth > 2, ustackdepth > 2); exit(0); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  // BEGIN runs in dsched's own system call: kernel frames below it, and dsched's user frames.
  CHECK(r.out == "1\n2 1 1\n\n");
}

TEST_CASE("an aggregation keyed by cpu alone, sized to the CPUs, holds every CPU's key without drops") {
  if (cpu_count() < 2) return;
  PinnedHogs zero(1, 0, "dsched-hog0");
  PinnedHogs one(1, 1, "dsched-hog1");
  // @[cpu] and @c[curcpu->cpu_id] (the same value through the translator) take a map of one entry
  // per possible CPU; @n[cpu + 1] keeps the size aggsize gives it.
  RunResult r = run_dsched({"-q", "-n",
                            "profile-997 { @[cpu] = count(); @c[curcpu->cpu_id] = count(); @n[cpu + 1] = count(); }"
                            " tick-300ms { exit(0); }"
                            " END { printa(\"cpu %d %@d\\n\", @); printa(\"cur %d %@d\\n\", @c); "
                            "printa(\"next %d %@d\\n\", @n); }"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("drop") == std::string::npos);
  for (const char* tag : {"cpu", "cur"}) {
    auto rows = counts(r.out, tag);
    CHECK(rows.size() == size_t(cpu_count()));
    CHECK(rows.count("0") == 1);
    CHECK(rows.count("1") == 1);
  }
  auto next = counts(r.out, "next");
  CHECK(next.count("1") == 1);
  CHECK(next.count("2") == 1);
}

TEST_CASE("-x cpu=N fires probes on CPU N only") {
  if (cpu_count() < 2) return;
  PinnedHogs zero(1, 0, "dsched-hog0");
  PinnedHogs one(1, 1, "dsched-hog1");
  for (int chosen : {0, 1}) {
    RunResult r = run_dsched({"-qx", "cpu=" + std::to_string(chosen), "-n",
                              "profile-997 { @[cpu] = count(); } sched:::on-cpu { @[cpu] = count(); }"
                              " tick-200ms { exit(0); } END { printa(\"cpu %d %@d\\n\", @); }"});
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    auto rows = counts(r.out, "cpu");
    REQUIRE(rows.size() == 1);
    CHECK(rows.begin()->first == std::to_string(chosen));
    CHECK(rows.begin()->second > 0);
  }
  RunResult bad = run_dsched({"-x", "cpu=4096", "-n", "BEGIN { exit(0); }"});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("there is no CPU 4096") != std::string::npos);
}

TEST_CASE("setopt() changes dynamic options while tracing and warns about the others") {
  RunResult r = run_dsched({"-n",
                            "BEGIN { trace(1); setopt(\"quiet\"); setopt(\"bufsize\", \"8m\"); }"
                            " BEGIN { trace(2); exit(0); }"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::string heading, first, second;
  std::getline(lines, heading);
  std::getline(lines, first);
  CHECK(heading.find("FUNCTION:NAME") != std::string::npos);
  // The firing that set quiet prints as it began; the next one prints only its data ("2"), then
  // the run's closing newline.
  CHECK(first.find(":BEGIN") != std::string::npos);
  CHECK(first.substr(first.size() - 2) == " 1");
  std::string rest;
  std::getline(lines, rest, '\0');
  CHECK(rest == "2\n");
  CHECK(r.err.find("setopt(): option bufsize cannot change while tracing") != std::string::npos);
}
