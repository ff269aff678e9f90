// Built-in variables, tick and profile probes, and the default (non-quiet) output of a run.
#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <ctime>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <unistd.h>

#include <sys/wait.h>

#include "aggregation_text.h"
#include "support.h"
#include "traced_window.h"
#include "workloads.h"

using namespace dsched::test;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

int online_cpus() { return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)); }

// The probe id `dsched -l -n description` lists for a single probe.
int listed_probe_id(const std::string& description) {
  RunResult r = run_dsched({"-l", "-n", description});
  std::vector<std::string> lines = split_lines(r.out);
  REQUIRE(lines.size() == 2);
  return std::stoi(lines[1]);
}

// "%3d %6d %32s " with the CPU column matched loosely (any CPU number) and the rest exactly.
void check_probe_line(const std::string& line, int id, const std::string& function_name, const std::string& rest) {
  CAPTURE(line);
  REQUIRE(line.size() >= 3);
  std::string cpu = line.substr(0, 3);
  CHECK(std::regex_match(cpu, std::regex(" *[0-9]+")));
  CHECK(std::stoi(cpu) < online_cpus());
  char expected[128];
  std::snprintf(expected, sizeof expected, " %6d %32s ", id, function_name.c_str());
  CHECK(line.substr(3) == std::string(expected) + rest);
}

}  // namespace

TEST_CASE("pid, tid, ppid, uid, gid and execname in BEGIN describe dsched's own process") {
  RunningDsched run({"-qn", "BEGIN { printf(\"%d %d %d %d %d %s %d\\n\", pid, tid, ppid, uid, gid, execname, "
                            "$pid); exit(0); }"});
  pid_t child = run.pid();
  RunResult r = run.wait();
  std::ostringstream expected;
  expected << child << " " << child << " " << getpid() << " " << getuid() << " " << getgid() << " dsched "
           << child << "\n\n";
  CHECK(r.out == expected.str());
  CHECK(r.status == 0);
}

TEST_CASE("timestamp is the monotonic clock and never goes backwards") {
  uint64_t before = monotonic_ns();
  RunResult r = run_dsched({"-qn", "uint64_t last; int backwards; BEGIN { printf(\"%d\\n\", timestamp); } "
                                   "tick-10ms /last/ { backwards += timestamp <= last; } "
                                   "tick-10ms { last = timestamp; n++; } "
                                   "tick-10ms /n == 10/ { printf(\"%d\\n\", backwards); exit(0); }"});
  uint64_t after = monotonic_ns();
  std::vector<std::string> lines = split_lines(r.out);
  REQUIRE(lines.size() == 3);
  uint64_t begin = std::stoull(lines[0]);
  CHECK(begin >= before);
  CHECK(begin <= after);
  CHECK(lines[1] == "0");
}

TEST_CASE("walltimestamp is the time of day; %Y formats it") {
  time_t before = time(nullptr);
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"%d|%Y\\n\", (uint64_t)walltimestamp / 1000000000, walltimestamp); "
                                   "exit(0); }"});
  time_t after = time(nullptr);
  REQUIRE(r.status == 0);
  auto bar = r.out.find('|');
  REQUIRE(bar != std::string::npos);
  time_t seconds = std::stoll(r.out.substr(0, bar));
  CHECK(seconds >= before - 1);
  CHECK(seconds <= after + 1);
  tm local;
  localtime_r(&seconds, &local);
  char formatted[64];
  strftime(formatted, sizeof formatted, "%Y %b %e %T", &local);
  CHECK(r.out.substr(bar + 1) == std::string(formatted) + "\n\n");
}

TEST_CASE("probeprov, probemod, probefunc and probename name the firing probe") {
  RunResult r = run_dsched({"-qn", "BEGIN, END { printf(\"%s:%s:%s:%s\\n\", probeprov, probemod, probefunc, "
                                   "probename); } tick-10ms { printf(\"%s:%s:%s:%s\\n\", probeprov, probemod, "
                                   "probefunc, probename); exit(0); }"});
  CHECK(r.out == "dtrace:::BEGIN\nprofile:::tick-10ms\ndtrace:::END\n\n");
  CHECK(r.status == 0);
}

TEST_CASE("tick-N counts to a fixed number in every unit") {
  for (const char* probe : {"tick-10ms", "tick-100hz", "tick-100", "tick-5000us", "tick-2000000ns"}) {
    CAPTURE(probe);
    std::string p = probe;
    RunResult r = run_dsched({"-qn", p + " { printf(\"%d\\n\", ++n); } " + p + " /n == 5/ { exit(0); } "
                                         "END { printf(\"done %d\\n\", n); }"});
    CHECK(r.out == "1\n2\n3\n4\n5\ndone 5\n\n");
    CHECK(r.status == 0);
  }
}

TEST_CASE("cpu is below the number of CPUs and profile-N fires on every CPU") {
  // Each CPU prints its number the first time it fires; the run ends once all were seen (at 97 Hz
  // that takes a few tens of milliseconds), or after 2 s at most. The CPUs are kept busy: the
  // cpu-clock timers behind profile-N can stay silent on an idle virtual CPU.
  std::vector<std::unique_ptr<PinnedHogs>> busy;
  for (int cpu = 0; cpu < online_cpus(); ++cpu) busy.push_back(std::make_unique<PinnedHogs>(1, cpu));
  RunResult r = run_dsched({"-qn", "int seen[int]; BEGIN { printf(\"%d\\n\", cpu); } "
                                   "profile-97 /!seen[cpu]/ { seen[cpu] = 1; found++; printf(\"%d\\n\", cpu); } "
                                   "profile-97 /found == $1/ { exit(0); } tick-2s { exit(0); }",
                            std::to_string(online_cpus())});
  CHECK(r.status == 0);
  std::vector<std::string> lines = split_lines(r.out);
  REQUIRE(lines.size() >= 2);
  CHECK(std::stoi(lines[0]) < online_cpus());
  std::set<int> cpus;
  for (size_t i = 1; i < lines.size(); ++i)
    if (!lines[i].empty()) cpus.insert(std::stoi(lines[i]));
  CHECK(static_cast<int>(cpus.size()) == online_cpus());
  CHECK(*cpus.rbegin() < online_cpus());
}

TEST_CASE("without -q: the heading, then one line per firing with CPU, ID and FUNCTION:NAME") {
  RunResult r = run_dsched({"-n", "BEGIN { trace(7); trace(\"str\"); trace((long)-3); } "
                                  "tick-10ms { printf(\"%s\", \"last\"); exit(0); }"});
  CHECK(r.status == 0);
  std::vector<std::string> lines = split_lines(r.out);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "CPU     ID                    FUNCTION:NAME");
  char traced[128];
  std::snprintf(traced, sizeof traced, " %10d  %-33s %19ld", 7, "str", -3L);
  check_probe_line(lines[1], 1, ":BEGIN", traced);
  check_probe_line(lines[2], listed_probe_id("tick-10ms"), ":tick-10ms", "last");
  CHECK(lines[3] == "");  // the end-of-run newline
  CHECK(r.err == "dsched: description 'BEGIN ' matched 2 probes\n");
}

// As in DTrace, the default action (a bare per-fire line) belongs to a clause with no actions at all;
// a clause whose actions record nothing (an assignment, an aggregation) prints nothing.
TEST_CASE("without -q: an empty clause prints its prefix line, an assignment-only clause does not") {
  RunResult r = run_dsched({"-n", "BEGIN { x = 1; } BEGIN { } tick-10ms { exit(0); }"});
  std::vector<std::string> lines = split_lines(r.out);
  REQUIRE(lines.size() == 4);
  check_probe_line(lines[1], 1, ":BEGIN", "");
  check_probe_line(lines[2], listed_probe_id("tick-10ms"), ":tick-10ms", "");
}

TEST_CASE("trace() in quiet mode prints the bare values") {
  RunResult r = run_dsched({"-qn", "BEGIN { trace(7); trace(\"str\"); trace((long)-3); printf(\"\\n\"); exit(0); }"});
  CHECK(r.out == "7str-3\n\n");
  CHECK(r.err.empty());
}

TEST_CASE("'matched N probes' names the script or the description, singular or plural") {
  RunResult one = run_dsched({"-n", "BEGIN { exit(0); }"});
  CHECK(one.err == "dsched: description 'BEGIN ' matched 1 probe\n");
  RunResult predicate = run_dsched({"-n", "tick-10ms /1/ { exit(0); }"});
  CHECK(predicate.err == "dsched: description 'tick-10ms ' matched 1 probe\n");
  RunResult two = run_dsched({"-n", "BEGIN, END { exit(0); }"});
  CHECK(two.err == "dsched: description 'BEGIN, END ' matched 2 probes\n");
  TempScript script("BEGIN { exit(0); }\nEND { }\n");
  RunResult file = run_dsched({"-s", script.path()});
  CHECK(file.err == "dsched: script '" + script.path() + "' matched 2 probes\n");
  TempScript single("BEGIN { exit(0); }\n");
  RunResult file_one = run_dsched({"-s", single.path()});
  CHECK(file_one.err == "dsched: script '" + single.path() + "' matched 1 probe\n");
  // Quiet, by flag or pragma: no such line.
  CHECK(run_dsched({"-qn", "BEGIN { exit(0); }"}).err.empty());
  CHECK(run_dsched({"-n", "#pragma D option quiet\nBEGIN { exit(0); }"}).err.empty());
}

// DTrace counts matches per clause (each enabling), so two clauses on BEGIN match 2 probes.
TEST_CASE("'matched' counts every clause's probes, even a probe named twice") {
  RunResult r = run_dsched({"-n", "BEGIN { x = 1; } BEGIN { exit(0); }"});
  CHECK(r.err == "dsched: description 'BEGIN ' matched 2 probes\n");
}

// dtrace(1) prints one "matched" line per description, each with its own count.
TEST_CASE("each -n description reports its own matched line") {
  RunResult r = run_dsched({"-n", "BEGIN { exit(0); }", "-n", "END { }"});
  CHECK(r.err == "dsched: description 'BEGIN ' matched 1 probe\ndsched: description 'END ' matched 1 probe\n");
}

// As DTrace reads each CPU's buffer whole, what the clauses of one firing print stays together
// even while another CPU's firings print too.
TEST_CASE("the output of one firing's clauses is not interleaved with another CPU's") {
  TracedWindow window({"-qn", "syscall::getppid:entry /execname == \"dsched-clauses\"/ { printf(\"A%d-\", cpu); }"
                              " syscall::getppid:entry /execname == \"dsched-clauses\"/ { printf(\"B%d\\n\", cpu); }"});
  REQUIRE(window.is_open());
  constexpr int kCalls = 20000;
  run_named_child("dsched-clauses", [] {
    // Two processes calling at once, on both CPUs when the machine lets them.
    pid_t other = fork();
    child_must(other >= 0);
    for (int i = 0; i < kCalls; ++i) getppid();
    if (other == 0) _exit(0);
    int status = 0;
    child_must(waitpid(other, &status, 0) == other && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  });
  RunResult run = window.close();
  REQUIRE(run.status == 0);
  int firings = 0, split = 0;
  std::regex whole("A([0-9]+)-B\\1");
  for (const std::string& line : split_lines(run.out)) {
    if (line.empty()) continue;
    ++firings;
    if (!std::regex_match(line, whole)) ++split;
  }
  CHECK(firings == 2 * kCalls);
  CHECK(split == 0);
}

TEST_CASE("the printa() actions of one firing print one snapshot of an aggregation") {
  TracedWindow window({"-qn", "syscall::getppid:entry /execname == \"dsched-snap\"/ { @calls = count(); }"
                              " tick-10ms { printa(\"first %@d\\n\", @calls); printa(\"second %@d\\n\", @calls); }"});
  REQUIRE(window.is_open());
  run_named_child("dsched-snap", [] {
    for (int i = 0; i < 3000000; ++i) getppid();
  });
  RunResult run = window.close();
  REQUIRE(run.status == 0);
  auto firsts = rows_tagged(run.out, "first");
  auto seconds = rows_tagged(run.out, "second");
  REQUIRE(firsts.size() == seconds.size());
  // The calls go on while the ticks print: a second read would often count more.
  int growing = 0;
  for (size_t i = 0; i < firsts.size(); ++i) {
    CHECK(firsts[i] == seconds[i]);
    growing += i > 0 && firsts[i] != firsts[i - 1];
  }
  CHECK(growing >= 2);
}

TEST_CASE("a probe firing inside another's program on the same CPU leaves that program's temporaries alone") {
  // profile-4999's program interrupts the system call's (whose interrupts are on) thousands of
  // times a second; both build a string key in scratch memory.
  TracedWindow window({"-qn", "syscall::getppid:entry /execname == \"dsched-nested\"/ { @[strjoin(execname, \"-getppid\")] = count(); }"
                              " profile-4999 { @p[strjoin(\"ZZZZZZZZZZZZZZZZ\", \"-profile\")] = count(); }"
                              " END { printa(\"key %s %@d\\n\", @); }"});
  REQUIRE(window.is_open());
  constexpr int kCalls = 1000000;
  run_named_child("dsched-nested", [] {
    for (int i = 0; i < kCalls; ++i) getppid();
  });
  RunResult run = window.close();
  REQUIRE(run.status == 0);
  INFO(run.out);
  std::vector<std::string> rows;
  for (const std::string& line : split_lines(run.out))
    if (line.rfind("key ", 0) == 0) rows.push_back(line);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0] == "key dsched-nested-getppid " + std::to_string(kCalls));
}
