// USDT probes against a program with <sys/sdt.h> probes of provider myprov (usdt_program.c): their
// names, arguments of each operand form, the semaphore of an is-enabled probe, the glob form, a
// missing probe, an operand that cannot be read, and nothing left attached.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdio>
#include <regex>
#include <set>

#include "aggregation_text.h"
#include "support.h"

using namespace dsched::test;

namespace {

constexpr int kIterations = 5;
// Attaching and detaching uprobes can take seconds each on a loaded machine.
constexpr std::chrono::seconds kLimit(120);
const std::string kProgram = std::string(USDT_PROGRAM) + " " + std::to_string(kIterations);

RunResult trace_program(const std::string& script) {
  RunResult run = run_dsched({"-q", "-c", kProgram, "-n", script}, kLimit);
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(leftover_programs().empty());
  return run;
}

// What the program prints at its end, run without dsched.
std::string untraced_output(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  char buffer[256];
  while (fgets(buffer, sizeof buffer, pipe)) output += buffer;
  CHECK(pclose(pipe) == 0);
  return output;
}

}  // namespace

TEST_CASE("integer arguments of several sizes and signs, in registers and as constants") {
  RunResult run = trace_program(
      "myprov$target:::int-args { printf(\"arg %d %d %d %d %d\\n\", arg0, arg1, arg2, arg3, arg4); }"
      "myprov$target:::int-args { printf(\"args %d %d %d %d %d\\n\", args[0], args[1], args[2], args[3], args[4]); }");
  INFO(run.out);
  for (const char* prefix : {"arg ", "args "}) {
    std::vector<std::string> lines = lines_starting(run.out, prefix);
    REQUIRE(lines.size() == kIterations);
    for (int i = 0; i < kIterations; ++i) {
      CHECK(lines[i] == prefix + std::to_string(-i) + " " + std::to_string(60000 + i) + " " +
                            std::to_string(-100000 * i) + " " + std::to_string(1000000000000LL * i) + " 5");
    }
  }
}

TEST_CASE("a string argument read with copyinstr, memory operands, %rip-relative and indexed operands") {
  RunResult run = trace_program(
      "myprov$target:::greet { printf(\"greet %d %s\\n\", arg0, copyinstr(arg1)); }"
      "myprov$target:::global { printf(\"global %d\\n\", arg0); }"
      "myprov$target:::frame { printf(\"frame %d %d\\n\", arg0, arg1); }"
      "myprov$target:::indexed { printf(\"indexed %d\\n\", arg0); }");
  INFO(run.out);
  const int table[] = {11, 22, 33, 44};
  std::vector<std::string> expected;
  for (int i = 0; i < kIterations; ++i) {
    expected.push_back("greet " + std::to_string(i) + " hello");
    expected.push_back("global " + std::to_string(7 + i));
    expected.push_back("frame " + std::to_string(i) + " " + std::to_string(-i));
    expected.push_back("indexed " + std::to_string(table[i % 4]));
  }
  std::vector<std::string> fired;
  for (const std::string& line : lines_of(run.out))
    if (!line.empty() && line.rfind("enabled", 0) != 0 && line.rfind("pid ", 0) != 0) fired.push_back(line);
  CHECK(fired == expected);
}

TEST_CASE("an is-enabled probe fires, and its program sees it enabled, only while it is traced") {
  CHECK(lines_starting(untraced_output(kProgram), "enabled") == std::vector<std::string>{"enabled 0 of 5"});
  // Tracing another probe of the program does not enable this one.
  RunResult other = trace_program("myprov$target:::greet { @ = count(); }");
  CHECK(lines_starting(other.out, "enabled") == std::vector<std::string>{"enabled 0 of 5"});
  RunResult traced = trace_program("myprov$target:::gated { printf(\"fired %d\\n\", args[0]); }");
  INFO(traced.out);
  CHECK(lines_starting(traced.out, "enabled") == std::vector<std::string>{"enabled 5 of 5"});
  std::vector<std::string> fired = lines_starting(traced.out, "fired ");
  REQUIRE(fired.size() == kIterations);
  for (int i = 0; i < kIterations; ++i) CHECK(fired[i] == "fired " + std::to_string(i));
}

TEST_CASE("-l lists a command's probes: provider with its pid, file, function, name with dashes") {
  RunResult run = run_dsched({"-l", "-n", "myprov$target:::", "-c", kProgram}, kLimit);
  INFO(run.out, run.err);
  REQUIRE(run.status == 0);
  const std::regex row(R"(^ *[0-9]+ +myprov([0-9]+) +usdt_program +(\S+) +(\S+)$)");
  std::set<std::string> probes;
  std::set<std::string> pids;
  for (const std::string& line : lines_of(run.out)) {
    std::smatch match;
    if (!std::regex_match(line, match, row)) continue;
    pids.insert(match[1]);
    probes.insert(match[2].str() + ":" + match[3].str());
  }
  CHECK(pids.size() == 1);
  CHECK(probes == std::set<std::string>{"fire:int-args", "fire:greet", "fire:global", "frame_probe:frame",
                                        "indexed_probe:indexed", "gated_probe:gated", "high_byte_probe:high-byte"});
  CHECK(leftover_programs().empty());
}

TEST_CASE("a glob over providers covers a running process; its semaphore is raised only while attached") {
  // Up to a minute of iterations 10 ms apart; the program is stopped once it saw gated traced and
  // then no longer.
  FILE* program = popen((std::string(USDT_PROGRAM) + " 6000 10").c_str(), "r");
  REQUIRE(program);
  char buffer[256];
  REQUIRE(fgets(buffer, sizeof buffer, program));  // "pid P": its probes exist now
  const long pid = std::stol(std::string(buffer).substr(4));
  const std::string provider = "myprov" + std::to_string(pid);
  RunResult run = run_dsched({"-q", "-n", "myprov*:::gated /pid == " + std::to_string(pid) +
                                              "/ { @[probeprov] = count(); } tick-1s { exit(0); }"},
                             kLimit);
  std::string output;
  while (output.find("gated off") == std::string::npos && fgets(buffer, sizeof buffer, program)) output += buffer;
  kill(pid_t(pid), SIGTERM);
  pclose(program);
  INFO(run.out, run.err, output);
  REQUIRE(run.status == 0);
  std::smatch on, off, count;
  REQUIRE(std::regex_search(output, on, std::regex(R"(gated on at ([0-9]+))")));
  REQUIRE(std::regex_search(output, off, std::regex(R"(gated off at ([0-9]+))")));
  const int enabled = std::stoi(off[1]) - std::stoi(on[1]);
  // Each firing was an iteration that saw the probe enabled (those between exit() and the detach
  // saw it enabled too, but their firings are not counted).
  REQUIRE(std::regex_search(run.out, count, std::regex(provider + R"( +([0-9]+))")));
  const int fired = std::stoi(count[1]);
  CHECK(fired > 0);
  CHECK(fired <= enabled);
  CHECK(leftover_programs().empty());
}

TEST_CASE("a probe the program does not have is a located error") {
  RunResult run = run_dsched({"-n", "myprov$target:::nosuch { }", "-c", kProgram}, kLimit);
  CHECK(run.status != 0);
  CHECK(run.err.find(":::nosuch does not match any probes") != std::string::npos);
  CHECK(run.err.find("<command line>:1:1") != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("an operand dsched cannot read is refused where the script uses it; the probe still fires") {
  RunResult refused = run_dsched({"-n", "myprov$target:::high-byte { trace(arg0); }", "-c", kProgram}, kLimit);
  CHECK(refused.status != 0);
  CHECK(refused.err.find("(\"1@%ah\") cannot be read: %ah is not a register dsched reads") != std::string::npos);
  CHECK(refused.err.find("<command line>:1:35") != std::string::npos);
  RunResult counted = trace_program("myprov$target:::high-byte { @ = count(); }");
  INFO(counted.out);
  CHECK(std::regex_search(counted.out, std::regex("\n +" + std::to_string(kIterations) + "\n")));
  CHECK(leftover_programs().empty());
}
