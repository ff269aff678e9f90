// Stacks and symbols against a program whose stack is known (stack_program: main -> dsched_outer
// -> dsched_middle -> dsched_inner, which sleeps N times in nanosleep): the kernel path of the
// sleep in stack(), the program's functions in ustack() even after it has exited, stack keys that
// aggregate, folded output, symbol functions and caller.
#include <doctest/doctest.h>

#include <regex>
#include <sstream>

#include "aggregation_text.h"
#include "support.h"

using namespace dsched::test;

namespace {

constexpr int kSleeps = 6;
const std::string kProgram = std::string(STACK_PROGRAM) + " " + std::to_string(kSleeps);

struct StackEntry {
  std::vector<std::string> frames;  // leaf first, without the indent
  long long count = 0;
};

// Entries of an aggregation keyed by one stack: "\n", a line per frame indented 14, " %16lld\n".
std::vector<StackEntry> stack_entries(const std::string& text) {
  std::vector<StackEntry> entries;
  StackEntry current;
  for (const std::string& line : lines_of(text)) {
    const std::string text = trimmed(line);
    if (text.empty()) continue;
    if (text.find_first_not_of("0123456789") != std::string::npos) {
      CHECK(line.find_first_not_of(' ') == 14);
      current.frames.push_back(text);
    } else if (!current.frames.empty()) {
      current.count = std::stoll(text);
      entries.push_back(current);
      current = {};
    }
  }
  return entries;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// Entries keyed by strings and stacks: a string key prints "  %-50s", each stack "\n" and its
// frames indented 14, the value " %16lld\n"; stacks of one key are separated by an empty line.
struct KeyedEntry {
  std::vector<std::string> strings;
  std::vector<std::vector<std::string>> stacks;
  long long value = 0;
};

std::vector<KeyedEntry> keyed_entries(const std::string& text) {
  std::vector<KeyedEntry> entries;
  KeyedEntry current;
  bool new_stack = true;
  for (const std::string& line : lines_of(text)) {
    const std::string field = trimmed(line);
    if (field.empty()) {
      new_stack = true;
    } else if (field.find_first_not_of("0123456789") == std::string::npos) {
      current.value = std::stoll(field);
      entries.push_back(current);
      current = {};
      new_stack = true;
    } else if (line.find_first_not_of(' ') == 14) {
      if (new_stack) current.stacks.emplace_back();
      current.stacks.back().push_back(field);
      new_stack = false;
    } else {
      current.strings.push_back(field);
    }
  }
  return entries;
}

bool has_frame(const std::vector<std::string>& frames, const std::string& prefix) {
  for (const std::string& frame : frames)
    if (starts_with(frame, prefix)) return true;
  return false;
}

// Runs an example (examples/NAME.d) until the command exits, with `extra` options.
RunResult run_example(const std::string& name, const std::string& command, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"-c", command};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("-s");
  args.push_back(std::string(DSCHED_SOURCE_DIR) + "/examples/" + name + ".d");
  RunResult run = run_dsched(args, std::chrono::seconds(60));
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(leftover_programs().empty());
  return run;
}

// The position of the first frame that starts with `prefix`, or -1.
int frame_index(const std::vector<std::string>& frames, const std::string& prefix) {
  for (size_t i = 0; i < frames.size(); ++i)
    if (starts_with(frames[i], prefix)) return int(i);
  return -1;
}

RunResult trace_program(const std::string& script, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"-q", "-c", kProgram};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("-n");
  args.push_back(script);
  RunResult run = run_dsched(args);
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(leftover_programs().empty());
  return run;
}

}  // namespace

TEST_CASE("stack() shows the kernel path of a sleep, from the scheduler down to the system call") {
  RunResult run = trace_program("sched:::off-cpu /pid == $target/ { @[stack()] = count(); }");
  const std::vector<StackEntry> entries = stack_entries(run.out);
  INFO(run.out);
  bool found = false;
  for (const StackEntry& e : entries) {
    const int sleep = frame_index(e.frames, "vmlinux`do_nanosleep+0x");
    if (sleep < 0) continue;
    found = true;
    // The stack starts where the probe is, not in the tracer's own frames.
    CHECK(starts_with(e.frames.at(0), "vmlinux`__schedule+0x"));
    CHECK(frame_index(e.frames, "vmlinux`schedule+0x") < sleep);
    CHECK(frame_index(e.frames, "vmlinux`hrtimer_nanosleep+0x") > sleep);
    for (const std::string& frame : e.frames) CHECK(!starts_with(frame, "bpf`"));
  }
  CHECK(found);
}

TEST_CASE("ustack() names the program's functions after it exited, and equal stacks make one entry") {
  // The aggregation prints after the program has exited: its mappings were kept when the program
  // first appeared in a recorded stack.
  RunResult run = trace_program("sched:::off-cpu /pid == $target/ { @[ustack()] = count(); }");
  INFO(run.out);
  int sleeping_entries = 0;
  for (const StackEntry& e : stack_entries(run.out)) {
    if (e.frames.empty() || !starts_with(e.frames[0], "stack_program`dsched_inner+0x")) continue;
    ++sleeping_entries;
    REQUIRE(e.frames.size() >= 4);
    CHECK(starts_with(e.frames[1], "stack_program`dsched_middle+0x"));
    CHECK(starts_with(e.frames[2], "stack_program`dsched_outer+0x"));
    CHECK(starts_with(e.frames[3], "stack_program`main+0x"));
    // Every sleep leaves from the same instruction: one key, counted once per sleep (more if the
    // scheduler also preempted the thread inside that system call).
    CHECK(e.count >= kSleeps);
  }
  CHECK(sleeping_entries == 1);
}

TEST_CASE("a -c target's libraries, mapped after its exec, are named after it has exited") {
  // sleep's clock_nanosleep is in libc, which ld.so maps after the exec the target was held at.
  RunResult run = run_dsched({"-q", "-c", "sleep 0.3", "-n", "sched:::off-cpu /pid == $target/ { @[umod(uregs[R_PC])] = count(); }"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  INFO(run.out);
  CHECK(run.out.find("  libc.so.6 ") != std::string::npos);
  CHECK(leftover_programs().empty());
}

TEST_CASE("stack(n) and ustack(n) record n frames; as actions they print after the probe line") {
  RunResult run = trace_program("syscall::nanosleep:entry /execname == \"stack_program\" && self->n++ == 0/ { printf(\"[\"); stack(2); "
                                "ustack(3); printf(\"]\\n\"); }");
  INFO(run.out);
  std::vector<std::string> lines = lines_of(run.out);
  REQUIRE(lines.size() >= 7);
  CHECK(lines[0] == "[");
  CHECK(starts_with(lines[1], std::string(14, ' ') + "vmlinux`"));
  CHECK(starts_with(lines[2], std::string(14, ' ') + "vmlinux`"));
  CHECK(lines[1].find("bpf") == std::string::npos);
  CHECK(lines[3].empty());
  CHECK(starts_with(lines[4], std::string(14, ' ') + "stack_program`dsched_inner+0x"));
  CHECK(starts_with(lines[6], std::string(14, ' ') + "stack_program`dsched_outer+0x"));
  CHECK(lines[7] == "]");
}

TEST_CASE("folded output: one line per stack, root first, with its count") {
  RunResult run = trace_program("sched:::off-cpu /execname == \"stack_program\"/ { @[execname, ustack(), stack()] = count(); }",
                                {"-x", "foldstacks"});
  INFO(run.out);
  const std::regex line_format(R"(^stack_program;[^ ]+ [0-9]+$)");
  bool found = false;
  for (const std::string& line : lines_of(run.out)) {
    if (line.empty()) continue;
    CHECK(std::regex_match(line, line_format));
    // User frames root first, then kernel frames root first, ending where the thread slept.
    const size_t user = line.find("stack_program`main;stack_program`dsched_outer;stack_program`dsched_middle;"
                                  "stack_program`dsched_inner;");
    if (user == std::string::npos) continue;
    found = true;
    CHECK(line.find("vmlinux`do_nanosleep;vmlinux`schedule;vmlinux`__schedule ") != std::string::npos);
    CHECK(std::stoll(line.substr(line.rfind(' ') + 1)) >= kSleeps);
  }
  CHECK(found);
}

TEST_CASE("func(), mod(), usym(), caller and ucaller name where the thread was") {
  RunResult run = trace_program(
      "sched:::off-cpu /pid == $target/ { @f[func(caller)] = count(); @m[mod(caller)] = count();"
      " @u[usym(ucaller)] = count(); @um[umod(ucaller)] = count(); }"
      " sched:::off-cpu /execname == \"stack_program\"/ { printf(\"%a|%A\\n\", caller, ucaller); }");
  INFO(run.out);
  // ucaller is where the function the thread was in returns to: dsched_inner's caller.
  const std::regex sleeping(R"(^vmlinux`__schedule\+0x[0-9a-f]+\|stack_program`dsched_middle\+0x[0-9a-f]+$)");
  int sleeps = 0;
  for (const std::string& line : lines_of(run.out)) sleeps += std::regex_match(line, sleeping);
  CHECK(sleeps >= kSleeps);
  // Addresses in one function (one module) make one entry, named without an offset.
  auto count_of = [&](const std::string& key) {
    for (const auto& row : parse_rows(run.out))
      if (row.size() == 2 && row[0] == key) return std::stoll(row[1]);
    return -1LL;
  };
  CHECK(count_of("vmlinux`__schedule") >= kSleeps);
  CHECK(count_of("vmlinux") >= kSleeps);
  CHECK(count_of("stack_program`dsched_middle") >= kSleeps);
  CHECK(count_of("stack_program") >= kSleeps);
}

TEST_CASE("JSON output gives stacks as arrays of frames") {
  RunResult run = trace_program("sched:::off-cpu /pid == $target/ { @[ustack()] = count(); }",
                                {"-x", "oformat=json"});
  INFO(run.out);
  CHECK(run.out.find(R"("keys":[["stack_program`dsched_inner+0x)") != std::string::npos);
  CHECK(run.out.find(R"(","stack_program`dsched_middle+0x)") != std::string::npos);
}

TEST_CASE("offcputime.d: the sleeps' time by kernel stack and, inside the system call, by user stack") {
  RunResult run = run_example("offcputime", kProgram);
  INFO(run.out);
  // Six sleeps of 5 ms: at least 30 ms off the CPU in each view.
  long long kernel_us = 0, user_us = 0;
  for (const KeyedEntry& e : keyed_entries(run.out)) {
    if (e.strings != std::vector<std::string>{"stack_program"} || e.stacks.size() != 1) continue;
    if (has_frame(e.stacks[0], "vmlinux`hrtimer_nanosleep+0x")) kernel_us += e.value;
    if (!e.stacks[0].empty() && starts_with(e.stacks[0][0], "stack_program`dsched_inner+0x")) user_us += e.value;
  }
  CHECK(kernel_us >= kSleeps * 5000);
  CHECK(user_us >= kSleeps * 5000);
}

TEST_CASE("wakeuptime.d: the sleeper's blocked time, charged to the waker's stacks") {
  // The sleeps end by timer: the waker is whatever ran the timer interrupt, so the time shows
  // under kernel stacks that expire hrtimers.
  RunResult run = run_example("wakeuptime", kProgram);
  INFO(run.out);
  long long timer_us = 0;
  for (const KeyedEntry& e : keyed_entries(run.out)) {
    // The waker's user stack is empty when an interrupt woke the sleeper: the kernel stack is last.
    if (!e.stacks.empty() && has_frame(e.stacks.back(), "vmlinux`hrtimer_wakeup+0x")) timer_us += e.value;
  }
  CHECK(timer_us >= kSleeps * 5000 * 9 / 10);
}

TEST_CASE("profile.d: a busy program's samples carry its stacks, folded for flame graphs") {
  // md5sum of /dev/zero keeps a CPU busy for a second: at 99 Hz it is sampled tens of times.
  RunResult run = run_example("profile", "timeout 1 md5sum /dev/zero", {"-x", "foldstacks"});
  INFO(run.out);
  long long busy_samples = 0;
  for (const std::string& line : lines_of(run.out)) {
    if (line.empty()) continue;
    const size_t space = line.rfind(' ');
    REQUIRE(space != std::string::npos);
    if (starts_with(line, "md5sum;")) busy_samples += std::stoll(line.substr(space + 1));
  }
  CHECK(busy_samples >= 30);
}

TEST_CASE("offcpu_stacks.d: one off-CPU histogram per kernel stack") {
  RunResult run = run_example("offcpu_stacks", kProgram);
  INFO(run.out);
  // The sleeps' stack holds a histogram whose 4 ms bucket (5 ms sleeps) counts them all. A thread
  // coming back to the CPU shows the stack it saved, which starts past the scheduler's functions.
  const size_t sleep = run.out.find("vmlinux`hrtimer_nanosleep+0x");
  REQUIRE(sleep != std::string::npos);
  const size_t histogram = run.out.find("value  ------------- Distribution ------------- count", sleep);
  REQUIRE(histogram != std::string::npos);
  std::istringstream rows(run.out.substr(histogram));
  long long at_4ms = 0;
  for (std::string row; std::getline(rows, row) && !trimmed(row).empty();) {
    std::istringstream fields(row);
    std::string value, bar;
    long long count = 0;
    if (fields >> value >> bar >> count && value == "4") at_4ms = count;
  }
  CHECK(at_4ms >= kSleeps);
}
