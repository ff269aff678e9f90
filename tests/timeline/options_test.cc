// `dsched timeline`'s command line: every option's accepted forms, and a clear error for the rest.
#include <doctest/doctest.h>

#include "runtime/timeline/options.h"

using namespace dsched::timeline;

namespace {

TimelineOptions parse_ok(const std::vector<std::string>& args) {
  ParsedOptions parsed = parse_options(args, 4);
  INFO(parsed.error);
  REQUIRE(parsed.options);
  return *parsed.options;
}

std::string parse_error(const std::vector<std::string>& args) {
  ParsedOptions parsed = parse_options(args, 4);
  REQUIRE_FALSE(parsed.options);
  return parsed.error;
}

}  // namespace

TEST_CASE("defaults: every CPU, no filter, an 8 MiB buffer, no end but Ctrl-C") {
  TimelineOptions options = parse_ok({"-o", "t.pftrace"});
  CHECK(options.output == "t.pftrace");
  CHECK_FALSE(options.duration);
  CHECK(options.command.empty());
  CHECK(options.pid == 0);
  CHECK(options.recorder.cpus.empty());
  CHECK(options.recorder.filter == DSTL_FILTER_NONE);
  CHECK(options.recorder.buffer_bytes == 8u << 20);
}

TEST_CASE("durations take a unit; a bare number is seconds") {
  using std::chrono::nanoseconds;
  CHECK(*parse_ok({"-o", "t", "-d", "500ms"}).duration == nanoseconds(500000000));
  CHECK(*parse_ok({"-o", "t", "-d", "3"}).duration == nanoseconds(3000000000));
  CHECK(*parse_ok({"-o", "t", "-d", "2m"}).duration == nanoseconds(120000000000));
  CHECK(*parse_ok({"-o", "t", "-d", "250us"}).duration == nanoseconds(250000));
  for (const char* bad : {"0", "-1", "5x", "ms", "1.5s", ""})
    CHECK(parse_error({"-o", "t", "-d", bad}) ==
          std::string("invalid duration '") + bad + "': expected a positive number with a unit ns, us, ms, s, m or h");
}

TEST_CASE("-c and -p name what ends the recording, one at a time; -d may join either") {
  CHECK(parse_ok({"-o", "t", "-c", "sleep 1"}).command == "sleep 1");
  CHECK(parse_ok({"-o", "t", "-p", "123", "-d", "1s"}).pid == 123);
  CHECK(parse_error({"-o", "t", "-c", "true", "-p", "1"}) == "only one of -c and -p may be given");
  CHECK(parse_error({"-o", "t", "-p", "12x"}) == "invalid process ID: 12x");
  CHECK(parse_error({"-o", "t", "-p", "0"}) == "invalid process ID: 0");
}

TEST_CASE("--cpus takes numbers and ranges below the machine's CPU count") {
  CHECK(parse_ok({"-o", "t", "--cpus", "3,0-1,1"}).recorder.cpus == std::vector<int>{0, 1, 3});
  CHECK(parse_ok({"-o", "t", "--cpus=2"}).recorder.cpus == std::vector<int>{2});
  CHECK(parse_error({"-o", "t", "--cpus", "4"}) == "invalid CPU list '4': this machine has CPUs 0-3");
  for (const char* bad : {"", "a", "1-", "3-1", "1,,2"})
    CHECK(parse_error({"-o", "t", "--cpus", bad}) ==
          std::string("invalid CPU list '") + bad + "': expected CPU numbers and ranges such as 0,2-3");
}

TEST_CASE("--filter names a thread name or a process, once") {
  TimelineOptions by_name = parse_ok({"-o", "t", "--filter", "comm=worker"});
  CHECK(by_name.recorder.filter == DSTL_FILTER_COMM);
  CHECK(by_name.recorder.filter_comm == "worker");
  TimelineOptions by_pid = parse_ok({"-o", "t", "--filter=pid=77"});
  CHECK(by_pid.recorder.filter == DSTL_FILTER_TGID);
  CHECK(by_pid.recorder.filter_tgid == 77);
  CHECK(parse_error({"-o", "t", "--filter", "comm="}) == "invalid filter 'comm=': a thread name has 1 to 15 characters");
  CHECK(parse_error({"-o", "t", "--filter", "comm=0123456789abcdef"}) ==
        "invalid filter 'comm=0123456789abcdef': a thread name has 1 to 15 characters");
  CHECK(parse_error({"-o", "t", "--filter", "pid=x"}) == "invalid filter 'pid=x': expected pid=N with a process ID");
  CHECK(parse_error({"-o", "t", "--filter", "tid=3"}) == "invalid filter 'tid=3': expected comm=NAME or pid=N");
  CHECK(parse_error({"-o", "t", "--filter", "pid=1", "--filter", "pid=2"}) == "only one --filter may be given");
}

TEST_CASE("--buffer-size is a power of two from 4K to 1G") {
  CHECK(parse_ok({"-o", "t", "--buffer-size", "64M"}).recorder.buffer_bytes == 64u << 20);
  CHECK(parse_ok({"-o", "t", "--buffer-size", "4096"}).recorder.buffer_bytes == 4096);
  CHECK(parse_ok({"-o", "t", "--buffer-size=1G"}).recorder.buffer_bytes == 1u << 30);
  for (const char* bad : {"10M", "2K", "2G", "M", "-8M", "8MB"})
    CHECK(parse_error({"-o", "t", "--buffer-size", bad}) ==
          std::string("invalid buffer size '") + bad + "': a power of two from 4K to 1G, such as 8M");
}

TEST_CASE("usage errors name the problem") {
  CHECK(parse_error({}) == "no output file: use -o FILE");
  CHECK(parse_error({"-o"}) == "option -o requires an argument");
  CHECK(parse_error({"-o", "t", "-y"}) == "invalid option '-y'");
  CHECK(parse_error({"-o", "t", "-x"}) == "option -x requires an argument");
  CHECK(parse_error({"-o", "t", "-qs", "a.d"}) == "invalid option '-qs'");
  CHECK(parse_error({"-o", "t", "--verbose"}) == "invalid option '--verbose'");
  CHECK(parse_error({"-o", "t", "extra"}) == "unexpected argument 'extra'");
  CHECK(parse_ok({"--help"}).help);
}

TEST_CASE("a script: -s, -n, -q, -w and -x kept in order for the main command, other words its arguments") {
  TimelineOptions options =
      parse_ok({"-o", "t", "-q", "-s", "qlen.d", "-d", "5s", "-x", "bufsize=1m", "-xswitchrate=10hz", "-n",
                "tick-1s { exit(0); }", "-w", "3", "--", "-4"});
  CHECK(options.has_script);
  CHECK(options.script_words == std::vector<std::string>{"-q", "-s", "qlen.d", "-x", "bufsize=1m", "-x",
                                                         "switchrate=10hz", "-n", "tick-1s { exit(0); }", "-w"});
  CHECK(options.script_args == std::vector<std::string>{"3", "-4"});
  CHECK(options.output == "t");
  CHECK(options.duration);
  CHECK(parse_ok({"-o", "t", "-n", "BEGIN { exit(0); }"}).has_script);
  CHECK_FALSE(parse_ok({"-o", "t"}).has_script);
  CHECK(parse_error({"-o", "t", "-s"}) == "option -s requires an argument");
  CHECK(parse_error({"-o", "t", "-q"}) == "option -q applies to a script: give one with -s or -n");
  CHECK(parse_error({"-o", "t", "-x", "quiet"}) == "option -x applies to a script: give one with -s or -n");
}
