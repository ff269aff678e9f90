// How a run begins and ends: BEGIN before everything, exit(), END, -c, -p, signals, -o; and that
// nothing of dsched stays in the kernel after any of them.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

using namespace dsched::test;

namespace {

// A `sleep 30` child of the test, to be followed with -p.
class Sleeper {
 public:
  Sleeper() {
    pid_ = fork();
    if (pid_ == 0) {
      execlp("sleep", "sleep", "30", nullptr);
      _exit(127);
    }
  }
  ~Sleeper() { end(); }
  pid_t pid() const { return pid_; }
  void end() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("BEGIN runs, prints and exits with exit()'s status") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"hello %s %d\\n\", execname, 7); exit(3); }"});
  CHECK(r.out == "hello dsched 7\n\n");
  CHECK(r.status == 3);
  CHECK(leftover_programs().empty());
}

TEST_CASE("exit(n) becomes the exit status, from BEGIN or from a later probe") {
  for (int status : {0, 1, 42, 255}) {
    CAPTURE(status);
    RunResult r = run_dsched({"-qn", "BEGIN { exit(" + std::to_string(status) + "); }"});
    CHECK(r.status == status);
    CHECK(r.out == "\n");
  }
  RunResult tick = run_dsched({"-qn", "tick-10ms { exit(7); }"});
  CHECK(tick.status == 7);
  CHECK(leftover_programs().empty());
}

TEST_CASE("the first exit() before END decides the status; every END clause runs and its exit() sets it anew") {
  RunResult first = run_dsched({"-qn", "BEGIN { exit(3); } BEGIN { exit(4); }"});
  CHECK(first.status == 3);
  RunResult ending = run_dsched({"-qn", "BEGIN { exit(3); } END { printf(\"a\\n\"); exit(6); } "
                                        "END { printf(\"b\\n\"); }"});
  CHECK(ending.out == "a\nb\n\n");
  CHECK(ending.status == 6);
}

TEST_CASE("after exit() only END runs, then the end-of-run newline") {
  // tick-1ms keeps firing until it is detached; nothing it records after exit() is printed.
  RunResult r = run_dsched({"-qn", "tick-1ms { printf(\"tick %d\\n\", ++n); exit(5); } "
                                   "END { printf(\"end after %d\\n\", n); }"});
  CHECK(r.out.rfind("tick 1\n", 0) == 0);
  CHECK(r.out.find("tick 2\n") == std::string::npos);
  CHECK(std::regex_match(r.out, std::regex("tick 1\nend after [0-9]+\n\n")));
  CHECK(r.status == 5);
  CHECK(leftover_programs().empty());
}

TEST_CASE("a tick-driven script counts ticks to a fixed number") {
  RunResult r = run_dsched({"-qn", "tick-100hz { n++; } tick-100hz /n == 10/ { printf(\"%d\\n\", n); exit(0); }"});
  CHECK(r.out == "10\n\n");
  CHECK(r.status == 0);
  CHECK(leftover_programs().empty());
}

TEST_CASE("SIGTERM and SIGINT end the run through END and print the aggregations") {
  for (int signo : {SIGTERM, SIGINT}) {
    CAPTURE(signo);
    RunningDsched run({"-qn", "BEGIN { printf(\"ready\\n\"); } tick-10ms { n++; @ticks = count(); "
                              "@keyed[\"k\"] = count(); } END { printf(\"end %d\\n\", n > 0); }"});
    REQUIRE(run.wait_for_output("ready\n"));
    usleep(100000);
    run.signal(signo);
    RunResult r = run.wait();
    CHECK(r.status == 0);
    CHECK_FALSE(r.timed_out);
    std::smatch m;
    // The interrupt's empty line (as dtrace(1) prints it, quiet or not), END, the end-of-run
    // newline, then both aggregations with the same count.
    REQUIRE(std::regex_match(r.out, m, std::regex("ready\n\nend 1\n\n +([0-9]+)\n\n?  k {49} +([0-9]+)\n\n?")));
    CHECK(m[1] == m[2]);
    CHECK(std::stoi(m[1]) > 0);
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

TEST_CASE("-c: the command's output passes through, between BEGIN's and END's") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"begin\\n\"); } END { printf(\"end\\n\"); }", "-c",
                            "echo hello from the command"});
  CHECK(r.out == "begin\nhello from the command\nend\n\n");
  CHECK(r.status == 0);
  CHECK(leftover_programs().empty());
}

TEST_CASE("-c with a command that does not exist fails with status 1") {
  RunResult r = run_dsched({"-qn", "END { printf(\"end\\n\"); }", "-c", "/nonexistent/dsched-no-such-command"});
  CHECK(r.status == 1);
  CHECK(r.err.find("dsched: failed to execute") != std::string::npos);
  CHECK(r.err.find("No such file or directory") != std::string::npos);
  CHECK(leftover_programs().empty());
}

// dtrace(1) starts the command before enabling anything and reports "failed to execute <command>".
TEST_CASE("-c with a missing command names it and runs nothing") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"begin\\n\"); }", "-c", "/nonexistent/dsched-no-such-command"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "dsched: failed to execute /nonexistent/dsched-no-such-command: No such file or directory\n");
}

TEST_CASE("-c with a file that is not executable says so") {
  const std::string file = "/tmp/dsched-not-executable-" + std::to_string(getpid());
  std::ofstream(file) << "echo never\n";
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"begin\\n\"); }", "-c", file});
  std::remove(file.c_str());
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "dsched: failed to execute " + file + ": Permission denied\n");
}

TEST_CASE("-c with a command whose exec fails (a missing interpreter) fails before BEGIN") {
  const std::string file = "/tmp/dsched-bad-interpreter-" + std::to_string(getpid());
  std::ofstream(file) << "#!/nonexistent/dsched-interpreter\n";
  chmod(file.c_str(), 0755);
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"begin\\n\"); } END { printf(\"end\\n\"); }", "-c", file});
  std::remove(file.c_str());
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "dsched: failed to execute " + file + ": No such file or directory\n");
  CHECK(leftover_programs().empty());
}

TEST_CASE("-p follows a process; the run ends by itself when the process goes, through END") {
  Sleeper sleeper;
  std::string pid = std::to_string(sleeper.pid());
  RunningDsched run({"-qn", "BEGIN { printf(\"ready %d\\n\", $target == " + pid + "); } "
                            "END { printf(\"end\\n\"); }", "-p", pid});
  REQUIRE(run.wait_for_output("ready"));
  usleep(100000);
  sleeper.end();
  RunResult r = run.wait(std::chrono::seconds(10));
  CHECK_FALSE(r.timed_out);
  CHECK(r.status == 0);
  CHECK(r.out == "ready 1\nend\n\n");
  CHECK(leftover_programs().empty());
}

TEST_CASE("-p with a process that does not exist fails with status 1 naming the pid") {
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  waitpid(gone, nullptr, 0);
  std::string pid = std::to_string(gone);
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"begin\\n\"); }", "-p", pid});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("dsched: failed to grab pid " + pid) != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("-o sends the output to a file, appending, and nothing to stdout") {
  char path[] = "/tmp/dsched-output-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, "earlier\n", 8) == 8);
  close(fd);
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"to the file\\n\"); exit(0); }", "-o", path});
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(read_file(path) == "earlier\nto the file\n\n");
  unlink(path);
  RunResult bad = run_dsched({"-qn", "BEGIN { exit(0); }", "-o", "/nonexistent-dir/out.txt"});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("/nonexistent-dir/out.txt") != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("a killed dsched leaves nothing in the kernel either") {
  RunningDsched run({"-qn", "BEGIN { printf(\"ready\\n\"); } sched:::on-cpu { n++; } tick-10ms { m++; }"});
  REQUIRE(run.wait_for_output("ready\n"));
  CHECK_FALSE(loaded_programs().empty());  // it is running: its programs are there
  run.signal(SIGKILL);
  RunResult r = run.wait();
  CHECK(r.status == 128 + SIGKILL);
  CHECK(leftover_programs().empty());
}

TEST_CASE("compile errors and programs the kernel refuses leave nothing behind") {
  RunResult compile = run_dsched({"-qn", "BEGIN { x = ; }"});
  CHECK(compile.status == 1);
  // The verifier refuses an unbounded index into a kernel array (see errors_test.cc).
  RunResult refused = run_dsched({"-qn", "BEGIN { x = 1; } sched:::on-cpu { j++; printf(\"%d\\n\", "
                                         "curthread->comm[j]); }"});
  CHECK(refused.status == 1);
  CHECK(leftover_programs().empty());
}
