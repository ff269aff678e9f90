// Scripts dsched cannot run: programs the kernel's verifier refuses, and features that are not
// supported. Each must end with status 1 and a clear message on stderr (never a crash, never the
// compiler back end's own text), and print nothing on stdout.
#include <doctest/doctest.h>

#include <cstdio>
#include <regex>
#include <string>

#include "support.h"

using namespace dsched::test;

namespace {

// A failed run: status 1, no output, stderr starting with "dsched: " and containing `message`.
void check_clean_failure(const RunResult& r, const std::string& message) {
  INFO("stderr: " << r.err);
  CHECK(r.status == 1);
  CHECK_FALSE(r.timed_out);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("dsched: ", 0) == 0);
  CHECK(r.err.find(message) != std::string::npos);
  CHECK(r.err.find("<unknown>") == std::string::npos);  // LLVM's diagnostics are not for users
}

}  // namespace

TEST_CASE("a program the verifier refuses names its clause and shows the verifier's reason") {
  // An index known only at run time into a kernel array: the verifier cannot bound the access.
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"begin\\n\"); } "
                                   "sched:::on-cpu { j++; printf(\"%d\\n\", curthread->comm[j]); }"});
  check_clean_failure(r, "dsched: failed to enable clause for sched:vmlinux::on-cpu: the kernel refused it");
  CHECK(r.err.find("verifier log (last lines; -v shows all):\n") != std::string::npos);
  CHECK(r.err.find("unbounded") != std::string::npos);
}

TEST_CASE("with -v the whole verifier log is shown") {
  RunResult r = run_dsched({"-v", "-qn", "sched:::on-cpu { j++; printf(\"%d\\n\", curthread->comm[j]); }"});
  check_clean_failure(r, "failed to enable clause for sched:vmlinux::on-cpu");
  CHECK(r.err.find("verifier log:\n") != std::string::npos);
  CHECK(r.err.find("processed ") != std::string::npos);
}

TEST_CASE("unsupported actions and subroutines are compile errors naming the line") {
  struct Case {
    std::string program;
    std::string message;
  };
  const Case cases[] = {
      {"BEGIN { jstack(); }", "jstack() is not supported"},
      {"sched:::on-cpu { ustack(); }", "ustack() is not available in sched:vmlinux::on-cpu"},
      {"BEGIN { x = 1.5; }", "floating-point constants are not supported"},
      {"sched:::remain-cpu { }", "sched:::remain-cpu has no equivalent hook in the Linux scheduler"},
      {"fbt::schedule:entry { }", "probe description fbt::schedule:entry does not match any probes"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.program);
    // -e: the error belongs to compiling; and a feature that starts to work cannot hang the test.
    RunResult r = run_dsched({"-e", "-qn", c.program}, std::chrono::seconds(10));
    check_clean_failure(r, "dsched: invalid probe specifier " + c.program + ": ");
    CHECK(r.err.find(c.message) != std::string::npos);
  }
  // Refusals are located like every compile error.
  RunResult r = run_dsched({"-e", "-qn", "BEGIN { jstack(); }"}, std::chrono::seconds(10));
  CHECK(r.err.find(" --> <command line>:1:9\n") != std::string::npos);
}

TEST_CASE("in a script file, an unsupported feature names the file and the line") {
  TempScript script("BEGIN\n{\n  jstack();\n}\n");
  RunResult r = run_dsched({"-qs", script.path()});
  check_clean_failure(r, "dsched: failed to compile script " + script.path() + ": line 3: jstack() is not supported");
  CHECK(r.err.find(" --> " + script.path() + ":3:3\n") != std::string::npos);
  // -e stops after compiling: the same error.
  RunResult compile_only = run_dsched({"-e", "-s", script.path()});
  CHECK(compile_only.err == r.err);
  CHECK(compile_only.status == 1);
}

TEST_CASE("a macro argument that was not given is a compile error") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"%s\\n\", $$2); }", "one"});
  check_clean_failure(r, "macro argument $$2 is not defined");
}

// Large strings are copied in pieces the BPF back end accepts.
TEST_CASE("a large strsize compiles and runs") {
  RunResult r = run_dsched({"-q", "-x", "strsize=4096", "-n", "BEGIN { s = \"abc\"; printf(\"%s\\n\", s); exit(0); }"});
  CHECK(r.err.find("<unknown>") == std::string::npos);
  CHECK(r.out == "abc\n\n");
}

// BPF before v4 divides only unsigned: signed / and % are built from unsigned ones.
TEST_CASE("signed division of run-time values follows C") {
  // x is known only at run time (a constant would be folded by the compiler).
  RunResult r = run_dsched({"-qn", "BEGIN { x = -(long)timestamp; printf(\"%d %d %d\\n\", x, x / 1000, x % 1000); "
                                   "exit(0); }"});
  CHECK(r.err.find("<unknown>") == std::string::npos);
  long x = 0, quotient = 0, remainder = 0;
  REQUIRE(std::sscanf(r.out.c_str(), "%ld %ld %ld", &x, &quotient, &remainder) == 3);
  CHECK(quotient == x / 1000);
  CHECK(remainder == x % 1000);
}

TEST_CASE("a load from an invalid address is reported as a run-time fault; the run goes on") {
  RunResult r = run_dsched({"-qn", "BEGIN { x = *(int *)0; printf(\"not reached %d\\n\", x); } "
                                   "BEGIN { printf(\"next clause\\n\"); exit(0); }"});
  CHECK(r.status == 0);
  CHECK(r.out == "next clause\n\n");
  CHECK(std::regex_match(r.err, std::regex("dsched: error on enabled probe ID [0-9]+ \\(ID 1: dtrace:::BEGIN\\): "
                                           "invalid address \\(0x0\\) in action #1 at BPF pc [0-9]+\n")));
}

TEST_CASE("ERROR fires inside the faulting probe, before its later clauses: its exit() comes first") {
  RunResult r = run_dsched({"-n", "BEGIN { trace(*(char *)0); } BEGIN { exit(0); } ERROR { exit(1); }"});
  INFO("stderr: " << r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("dsched: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x0) in action #1") !=
        std::string::npos);
  CHECK(r.out.find(":ERROR") != std::string::npos);  // the ERROR clause's own per-fire line
}

TEST_CASE("a fault in an ERROR clause is counted as DTrace counts it, and the next ERROR clause runs") {
  RunResult r = run_dsched({"-qn", "BEGIN { x = *(int *)8; } ERROR { y = *(int *)16; printf(\"not reached\\n\"); }"
                                   " ERROR { printf(\"next %d\\n\", arg5); exit(0); }"});
  INFO("stderr: " << r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "next 8\n\n");
  CHECK(r.err == "dsched: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x8) in action #1 at BPF pc 1\n"
                 "dsched: 1 error in ERROR probe enabling\n");
}

TEST_CASE("ERROR of a fault in a kernel probe runs in the faulting thread, with its self-> variables") {
  RunResult r = run_dsched({"-qn",
                            "sched:::on-cpu /pid == $target/ { self->mark = 7; zero = 0; x = 1 / zero; } "
                            "ERROR /pid == $target && arg4 == 4/ { @[self->mark, arg2] = count(); }",
                            "-c", "sleep 0.3"});
  INFO("stderr: " << r.err);
  CHECK(r.status == 0);
  // Every on-cpu of the command faulted at statement 3 and ERROR saw self->mark of that thread.
  std::regex row("\\s+7\\s+3\\s+([0-9]+)\n");
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, row));
  CHECK(std::stoi(m[1]) >= 1);
  CHECK(r.err.find("divide-by-zero in action #3") != std::string::npos);
}

TEST_CASE("copyinstr() of a bad user address is a fault; a size bounds the copy") {
  RunResult r = run_dsched({"-qn",
                            "BEGIN { s = copyinstr(32); printf(\"not reached\\n\"); } "
                            "ERROR { printf(\"fault %d at %x\\n\", arg4, arg5); } "
                            "syscall::openat:entry /pid == $target/ { printf(\"[%s]\\n\", copyinstr(arg1, 4)); }",
                            "-c", "cat /dev/null"});
  INFO("stderr: " << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("fault 1 at 20\n") != std::string::npos);
  CHECK(r.out.find("not reached") == std::string::npos);
  CHECK(r.out.find("[/dev]\n") != std::string::npos);
  CHECK(r.err.find("invalid address (0x20) in action #1") != std::string::npos);
}
