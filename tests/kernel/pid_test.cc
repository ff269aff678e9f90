// The pid provider against pid_program, whose functions and arguments are known: entry and return
// probes with arguments and return values, offsets, patterns, libc, uregs, -c and -p.
#include <doctest/doctest.h>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <regex>

#include "aggregation_text.h"
#include "support.h"
#include "traced_window.h"

using namespace dsched::test;

namespace {

constexpr int kRounds = 5;
const std::string kProgram = PID_PROGRAM;
const std::string kCommand = kProgram + " " + std::to_string(kRounds) + " 0";

RunResult trace(const std::string& script, const std::string& command = kCommand) {
  RunResult run = run_dsched({"-q", "-c", command, "-n", script});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(leftover_programs().empty());
  return run;
}

// The names of the probes `dsched -l -n description -c pid_program` lists.
std::vector<std::string> listed_names(const std::string& description) {
  RunResult run = run_dsched({"-l", "-n", description, "-c", kProgram + " 1 0"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  std::vector<std::string> names;
  for (const std::vector<std::string>& row : parse_rows(run.out))
    if (row.size() == 5 && row[0] != "ID") names.push_back(row[4]);
  return names;
}

}  // namespace

TEST_CASE("entry and return probes fire once per call, with the arguments and the return value") {
  RunResult run = trace(
      "pid$target:a.out:dsched_add:entry { printf(\"entry %d %d %s\\n\", arg0, arg1, copyinstr(arg2)); }"
      "pid$target:a.out:dsched_add:return { printf(\"return %d\\n\", arg1); }");
  INFO(run.out);
  std::vector<std::string> expected;
  for (int i = 0; i < kRounds; ++i) {
    expected.push_back("entry " + std::to_string(i) + " 7 label");
    expected.push_back("return " + std::to_string(i * 10 + 7));
  }
  std::vector<std::string> seen;
  for (const std::string& line : lines_of(run.out))
    if (line.rfind("entry", 0) == 0 || line.rfind("return", 0) == 0) seen.push_back(line);
  CHECK(seen == expected);
}

TEST_CASE("arguments past the sixth come from the stack") {
  RunResult run = trace("pid$target:a.out:dsched_many:entry { printf(\"many %d %d %d %d\\n\", arg0, arg5, arg6, arg7); }");
  INFO(run.out);
  std::vector<std::string> lines = lines_starting(run.out, "many");
  REQUIRE(lines.size() == kRounds);
  for (int i = 0; i < kRounds; ++i)
    CHECK(lines[size_t(i)] == "many 1 6 " + std::to_string(70 + i) + " " + std::to_string(80 + i));
}

TEST_CASE("an instruction offset probe fires where its instruction runs; other offsets are refused") {
  std::vector<std::string> names = listed_names("pid$target:a.out:dsched_add:");
  INFO(names.size());
  REQUIRE(names.size() >= 4);
  CHECK(names[0] == "entry");
  CHECK(names[1] == "return");
  CHECK(names[2] == "0");
  const std::string offset = names[3];  // the second instruction
  RunResult run = trace("pid$target:a.out:dsched_add:" + offset + " { @ = count(); } END { printa(\"hits %@d\\n\", @); }");
  CHECK(lines_starting(run.out, "hits") == std::vector<std::string>{"hits " + std::to_string(kRounds)});

  // One byte into the first instruction, when it is longer than a byte, is no instruction's start.
  const std::string inside = std::stoul(offset, nullptr, 16) > 1 ? "1" : "";
  if (!inside.empty()) {
    RunResult refused = run_dsched({"-c", kCommand, "-n", "pid$target:a.out:dsched_add:" + inside + " {}"});
    CHECK(refused.status != 0);
    CHECK(refused.err.find("is not at the start of an instruction") != std::string::npos);
  }
}

TEST_CASE("patterns select modules and functions; a.out names the program, libc and libc.so its C library") {
  RunResult run = trace("pid$target:a.out:dsched_*:entry { @[probefunc] = count(); }"
                        "pid$target:libc:getpid:entry { @[probemod] = count(); }"
                        "pid$target:libc.so:getpid:entry { @[\"so\"] = count(); }");
  INFO(run.out);
  std::map<std::string, std::string> counts;
  for (const std::vector<std::string>& row : parse_rows(run.out))
    if (row.size() == 2) counts[row[0]] = row[1];
  CHECK(counts["dsched_add"] == std::to_string(kRounds));
  CHECK(counts["dsched_many"] == std::to_string(kRounds));
  CHECK(counts["libc.so.6"] == std::to_string(kRounds));
  CHECK(counts["so"] == std::to_string(kRounds));
}

TEST_CASE("uregs[] holds the probe's user registers") {
  RunResult run = trace(
      "pid$target:a.out:dsched_add:entry { printf(\"regs %d %d %A\\n\", uregs[R_RDI] == arg0, "
      "uregs[R_PC] == uregs[R_RIP], uregs[R_PC]); }");
  INFO(run.out);
  std::vector<std::string> lines = lines_starting(run.out, "regs");
  REQUIRE(lines.size() == kRounds);
  for (const std::string& line : lines) CHECK(line.rfind("regs 1 1 pid_program`dsched_add", 0) == 0);
}

TEST_CASE("%A names a user address kept without its process (an aggregation key) in $target") {
  RunResult run = trace("pid$target:a.out:dsched_add:entry { @pc[uregs[R_PC]] = count(); }"
                        " END { printa(\"pc %A %@d\\n\", @pc); }");
  INFO(run.out);
  CHECK(lines_starting(run.out, "pc") == std::vector<std::string>{"pc pid_program`dsched_add " + std::to_string(kRounds)});
}

TEST_CASE("-c passes the command's words and ends the trace when the command exits") {
  RunResult run = trace("pid$target:a.out:dsched_add:return { @ = sum(arg1); } END { printa(\"returned %@d\\n\", @); }",
                        kProgram + " 3 0 alpha beta");
  INFO(run.out);
  CHECK(run.out.find("words: alpha beta") != std::string::npos);
  // 7 + 17 + 27 from dsched_add; the program's own total counts dsched_many and getpid() too.
  CHECK(lines_starting(run.out, "returned") == std::vector<std::string>{"returned 51"});
  CHECK(run.out.find("sum 573") != std::string::npos);
}

TEST_CASE("-c starts tracing at main() (evaltime=postinit); evaltime=exec from the exec, start-up code included") {
  const std::string script =
      "pid$target:a.out::return { @[probefunc] = count(); }"
      " pid$target:a.out:main:entry { printf(\"argc %d\\n\", arg0); }";
  auto counted = [](const std::string& out, const std::string& function) {
    return std::regex_search(out, std::regex("\\n +" + function + " +1\\n"));
  };
  RunResult run = trace(script, kProgram + " 3 0 alpha beta");
  INFO(run.out);
  // Return probes on every function leave the program's arguments and results intact.
  CHECK(lines_starting(run.out, "argc") == std::vector<std::string>{"argc 5"});
  CHECK(run.out.find("words: alpha beta") != std::string::npos);
  CHECK(run.out.find("sum 573") != std::string::npos);
  CHECK(counted(run.out, "main"));
  CHECK(!counted(run.out, "_init"));  // the program's initialisation ran before main()

  RunResult from_exec = run_dsched({"-q", "-x", "evaltime=exec", "-c", kProgram + " 3 0 alpha beta", "-n", script});
  INFO(from_exec.err);
  INFO(from_exec.out);
  CHECK(from_exec.status == 0);
  CHECK(lines_starting(from_exec.out, "argc") == std::vector<std::string>{"argc 5"});
  CHECK(from_exec.out.find("sum 573") != std::string::npos);
  CHECK(counted(from_exec.out, "_init"));
  // _start has no caller: its return probe is left out rather than corrupting argc. Named alone
  // it is refused, saying why; with -Z it enables nothing.
  CHECK(from_exec.err.find("_start") == std::string::npos);
  RunResult alone = run_dsched({"-q", "-c", kCommand, "-n", "pid$target:a.out:_start:return {}"});
  CHECK(alone.status == 1);
  CHECK(alone.err.find("_start is entered without a call") != std::string::npos);
  RunResult zero = run_dsched({"-qZ", "-c", kCommand, "-n", "pid$target:a.out:_st*:return { exit(1); }"});
  CHECK(zero.status == 0);
}

TEST_CASE("-c: a process the program forks before main() runs as it would untraced") {
  setenv("DSCHED_FORK_EARLY", "1", 1);
  RunResult run = trace("pid$target:a.out:dsched_add:entry { @ = count(); }", kProgram + " 1 0");
  unsetenv("DSCHED_FORK_EARLY");
  INFO(run.out);
  CHECK(run.out.find("early child reached main\n") != std::string::npos);
  CHECK(run.out.find("early child exit 3\n") != std::string::npos);
}

TEST_CASE("-c: an interrupt while the program has not reached main() ends the run, END included") {
  setenv("DSCHED_BLOCK_EARLY", "1", 1);
  RunningDsched run({"-qn", "END { printf(\"end\\n\"); }", "-c", kProgram + " 1 0"});
  unsetenv("DSCHED_BLOCK_EARLY");
  REQUIRE(wait_for_sleeping_command(run.pid(), "pid_program") > 0);  // waiting in its constructor
  run.signal(SIGINT);
  RunResult result = run.wait(std::chrono::seconds(10));
  INFO(result.err);
  CHECK(result.status == 0);
  CHECK(result.out == "\nend\n\n");  // the interrupt's empty line, END, the end of the run
  CHECK(leftover_programs().empty());
}

TEST_CASE("-p follows a running process and ends when it exits") {
  pid_t child = -1;
  std::vector<std::string> words = {kProgram, "40", "50"};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  REQUIRE(posix_spawn(&child, argv[0], nullptr, nullptr, argv.data(), environ) == 0);
  RunResult run = run_dsched({"-q", "-p", std::to_string(child), "-n",
                              "pid$target:a.out:dsched_add:entry { @ = count(); } END { printa(\"calls %@d\\n\", @); }"},
                             std::chrono::seconds(30));
  int status = 0;
  waitpid(child, &status, 0);
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK(!run.timed_out);
  std::smatch calls;
  REQUIRE(std::regex_search(run.out, calls, std::regex("calls (\\d+)")));
  CHECK(std::stoi(calls[1]) > 0);
  CHECK(std::stoi(calls[1]) <= 40);
  CHECK(leftover_programs().empty());
}

TEST_CASE("a missing function, offset or process is an error that says where") {
  RunResult missing = run_dsched({"-c", kCommand, "-n", "pid$target:a.out:no_such_function:entry {}"});
  CHECK(missing.status != 0);
  CHECK(missing.err.find("does not match any probes") != std::string::npos);
  CHECK(missing.err.find("<command line>:1:1") != std::string::npos);
  RunResult gone = run_dsched({"-n", "pid999999999:::entry {}"});
  CHECK(gone.status != 0);
  CHECK(gone.err.find("failed to grab pid 999999999") != std::string::npos);
  RunResult beyond = run_dsched({"-c", kCommand, "-n", "pid$target:a.out:dsched_add:fffff {}"});
  CHECK(beyond.status != 0);
  CHECK(beyond.err.find("is beyond the end of pid_program`dsched_add") != std::string::npos);
  // glibc's strlen is an IFUNC on x86-64: its code runs once, at link time, to pick __strlen_*.
  RunResult ifunc = run_dsched({"-c", kCommand, "-n", "pid$target:libc:strlen:entry {}"});
  CHECK(ifunc.status != 0);
  CHECK(ifunc.err.find("strlen is an IFUNC") != std::string::npos);
  CHECK(ifunc.err.find("__strlen_sse2") != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("copyin(), copyinto() and copyinstr() read the process's memory; a bad address fires ERROR") {
  RunResult run = trace(
      "pid$target:a.out:dsched_add:entry /arg0 == 1/ { this->p = (char *)copyin(arg2, 5); "
      "printf(\"bytes %c%c%c\\n\", this->p[0], this->p[1], this->p[4]); }"
      "pid$target:a.out:dsched_add:entry /arg0 == 3/ { this->q = (char *)alloca(4); "
      "copyinto(arg2, 3, this->q); printf(\"into %s\\n\", stringof(this->q)); }"
      "pid$target:a.out:dsched_add:entry /arg0 == 2/ { printf(\"never %s\\n\", copyinstr(arg0)); }"
      "ERROR { printf(\"fault %d 0x%x\\n\", arg4, arg5); }");
  INFO(run.out);
  CHECK(lines_starting(run.out, "bytes") == std::vector<std::string>{"bytes lal"});
  CHECK(lines_starting(run.out, "into") == std::vector<std::string>{"into lab"});
  CHECK(lines_starting(run.out, "never").empty());
  // DTRACEFLT_BADADDR at the address the clause gave copyinstr().
  CHECK(lines_starting(run.out, "fault") == std::vector<std::string>{"fault 1 0x2"});
}

TEST_CASE("a pattern over the C library enables its functions and leaves the program's behaviour intact") {
  RunResult run = trace("pid$target:libc:*str*:entry { @ = count(); } END { printa(\"calls %@d\\n\", @); }");
  INFO(run.out);
  CHECK(run.out.find("sum 1015") != std::string::npos);
  std::smatch calls;
  REQUIRE(std::regex_search(run.out, calls, std::regex("calls (\\d+)")));
  CHECK(std::stoi(calls[1]) > 0);
}

TEST_CASE("-v reports how the command ended; an interrupt ends the trace with nothing left attached") {
  RunResult run = run_dsched({"-v", "-q", "-c", kProgram + " 1 0", "-n", "pid$target:a.out:dsched_add:entry {}"});
  CHECK(run.status == 0);
  CHECK(run.err.find("exited with status 0") != std::string::npos);

  RunningDsched traced({"-q", "-c", kProgram + " 100000 20", "-n",
                        "pid$target:a.out:dsched_add:entry { @ = count(); } tick-100ms { printf(\"ticking\\n\"); }"});
  REQUIRE(traced.wait_for_output("ticking"));
  traced.signal(SIGINT);
  RunResult interrupted = traced.wait();
  INFO(interrupted.err);
  CHECK(interrupted.status == 0);
  CHECK(leftover_programs().empty());
}
