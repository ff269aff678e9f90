// Drops: when a map or the output buffer is made too small with an option, the run goes on and the
// losses are reported on stderr in DTrace's words. Each case has a control with the default size
// that must report nothing, so the reports are known to come from the option.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <regex>
#include <string>

#include <unistd.h>

#include "support.h"

using namespace dsched::test;

namespace {

// Lines of `err` that match `pattern` (a whole line); the rest of stderr must be empty.
int count_reports(const std::string& err, const std::string& pattern) {
  std::regex line("^" + pattern + "$");
  int matched = 0;
  size_t start = 0;
  while (start < err.size()) {
    size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    std::string text = err.substr(start, end - start);
    CAPTURE(text);
    CHECK(std::regex_match(text, line));
    matched += std::regex_match(text, line) ? 1 : 0;
    start = end + 1;
  }
  return matched;
}

RunResult run_with(const std::vector<std::string>& options, const std::string& program) {
  std::vector<std::string> args = {"-q"};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {"-n", program});
  return run_dsched(args, std::chrono::seconds(20));
}

}  // namespace

TEST_CASE("a full associative array reports dynamic variable drops") {
  const std::string program = "int n; tick-1ms { a[n] = n + 1; n++; } tick-1ms /n == 300/ { printf(\"done\\n\"); exit(0); }";
  RunResult tiny = run_with({"-x", "dynvarsize=1k"}, program);
  CHECK(tiny.status == 0);
  CHECK(tiny.out == "done\n\n");
  CHECK(count_reports(tiny.err, "dsched: [1-9][0-9]* dynamic variable drops?") >= 1);

  RunResult roomy = run_with({}, program);
  CHECK(roomy.status == 0);
  CHECK(roomy.err.empty());
}

TEST_CASE("a full aggregation reports aggregation drops on the CPU where they happened") {
  const std::string program = "tick-1ms { @a[n++] = count(); } tick-1ms /n == 300/ { exit(0); }";
  RunResult tiny = run_with({"-x", "aggsize=1k"}, program);
  CHECK(tiny.status == 0);
  CHECK(count_reports(tiny.err, "dsched: [1-9][0-9]* aggregation drops? on CPU [0-9]+") >= 1);
  // What did fit is still printed at the end, one line per key.
  CHECK(tiny.out.find("                0                1\n") != std::string::npos);

  RunResult roomy = run_with({}, program);
  CHECK(roomy.status == 0);
  CHECK(roomy.err.empty());
  CHECK(roomy.out.find("              299                1\n") != std::string::npos);
}

TEST_CASE("a tiny output buffer with many large records reports drops on CPU") {
  // Each firing emits three records of about 1.9 KB each (15 printfs of 16 integers per clause),
  // 5.8 KB at once: more than a 4 KB buffer holds however fast it is read.
  std::string record = "printf(\"%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\\n\", "
                       "n, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n); ";
  std::string clause = "tick-1ms /n < 50/ { ";
  for (int i = 0; i < 15; ++i) clause += record;
  clause += "} ";
  std::string program = "int n; tick-1ms /n >= 50/ { exit(0); } " + clause + clause + clause + "tick-1ms { n++; }";
  // Ended with SIGTERM: while the buffer overflows, the record of exit() can be dropped like any other.
  RunningDsched run({"-q", "-x", "bufsize=4k", "-n", program});
  usleep(500000);
  run.signal(SIGTERM);
  RunResult tiny = run.wait(std::chrono::seconds(10));
  CHECK_FALSE(tiny.timed_out);
  CHECK(tiny.status == 0);
  CHECK(count_reports(tiny.err, "dsched: [1-9][0-9]* drops? on CPU [0-9]+") >= 1);

  RunResult roomy = run_with({}, program);
  CHECK(roomy.status == 0);
  CHECK(roomy.err.empty());
  // Nothing lost: 50 firings of 32 records, and the end-of-run newline.
  CHECK(std::count(roomy.out.begin(), roomy.out.end(), '\n') == 50 * 3 * 15 + 1);
}

// A clause whose record can never fit in the output buffer would be skipped on every firing (its
// exit() with it), so it is refused at compile time, naming the clause and the option to raise.
TEST_CASE("a clause recording more than the output buffer holds is refused before it runs") {
  std::string program = "int n; tick-1ms { ";
  for (int i = 0; i < 32; ++i)
    program += "printf(\"%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\\n\", n, n, n, n, n, n, n, n, n, n, n, n, "
               "n, n, n, n); ";
  program += "n++; } tick-1ms /n == 5/ { exit(0); }";
  RunResult r = run_dsched({"-q", "-x", "bufsize=4k", "-n", program}, std::chrono::seconds(5));
  CHECK_FALSE(r.timed_out);
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("invalid value for option bufsize: 4096 (the clause for profile:::tick-1ms records 4112 bytes "
                   "and the buffer adds 8 to each record)") != std::string::npos);
}
