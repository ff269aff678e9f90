#include <doctest/doctest.h>

#include <stdexcept>

#include "output/probe_lines.h"

using namespace dsched::output;

TEST_CASE("trace() of strings and integers, quiet and not") {
  CHECK(render_trace(Value::string("hello"), false) == "  hello" + std::string(28, ' '));
  CHECK(render_trace(Value::string("hello"), true) == "hello");
  CHECK(render_trace(Value::integer(-42, 8), false) == " " + std::string(16, ' ') + "-42");
  CHECK(render_trace(Value::integer(42, 4), false) == "         42");
  CHECK(render_trace(Value::integer(-2, 2), false) == "    -2");
  CHECK(render_trace(Value::integer(-1, 1), false) == "  -1");
  CHECK(render_trace(Value::integer(-1, 8, false), false) == " 18446744073709551615");
  CHECK(render_trace(Value::integer(7, 8, false), false) == " " + std::string(19, ' ') + "7");
  CHECK(render_trace(Value::integer(-1, 4, false), false) == " 4294967295");
  CHECK(render_trace(Value::integer(-1, 2, false), false) == " 65535");
  CHECK(render_trace(Value::integer(-1, 1, false), false) == " 255");
  CHECK(render_trace(Value::integer(-42, 4), true) == "-42");
  CHECK(render_trace(Value::integer(-1, 1, false), true) == "255");
  // Without a symbolizer frames print as addresses; a zero ends the stack.
  CHECK(render_trace(Value::stack({0x10, 0x20, 0, 0x30}), false) == "\n" + std::string(14, ' ') + "0x10\n" +
                                                                       std::string(14, ' ') + "0x20\n");
}

TEST_CASE("heading and per-fire prefix") {
  CHECK(heading() == "CPU     ID                    FUNCTION:NAME\n");
  CHECK(probe_prefix(0, 1, "", "BEGIN") == "  0      1" + std::string(27, ' ') + ":BEGIN ");
  CHECK(probe_prefix(12, 345678, "", "tick-1sec") == " 12 345678" + std::string(23, ' ') + ":tick-1sec ");
}

TEST_CASE("matched probes line") {
  CHECK(matched_probes(true, "x.d", 3) == "dsched: script 'x.d' matched 3 probes\n");
  CHECK(matched_probes(false, "BEGIN", 1) == "dsched: description 'BEGIN' matched 1 probe\n");
}

TEST_CASE("drop reports read in the singular for one") {
  using dsched::abi::DropKind;
  CHECK(drop_report(DropKind::DynamicVariable, 5, std::nullopt) == "dsched: 5 dynamic variable drops\n");
  CHECK(drop_report(DropKind::DynamicVariable, 1, 2u) == "dsched: 1 dynamic variable drop on CPU 2\n");
  CHECK(drop_report(DropKind::Speculative, 3, std::nullopt) == "dsched: 3 speculative drops\n");
  CHECK(drop_report(DropKind::SpeculationUnavailable, 2, std::nullopt) ==
        "dsched: 2 failed speculations (no speculative buffer available)\n");
  CHECK(drop_report(DropKind::Output, 3, 1u) == "dsched: 3 drops on CPU 1\n");
  CHECK(drop_report(DropKind::Output, 1, std::nullopt) == "dsched: 1 drop on CPU 0\n");
  CHECK(drop_report(DropKind::Aggregation, 2, 0u) == "dsched: 2 aggregation drops on CPU 0\n");
  CHECK(drop_report(DropKind::KernelSkipped, 1, std::nullopt) ==
        "dsched: 1 probe firing skipped by the kernel (another BPF program was running on the CPU)\n");
  CHECK(drop_report(DropKind::ErrorInErrorProbe, 1, std::nullopt) == "dsched: 1 error in ERROR probe enabling\n");
  CHECK(drop_report(DropKind::ErrorInErrorProbe, 3, std::nullopt) == "dsched: 3 errors in ERROR probe enabling\n");
  CHECK(drop_report(DropKind::ThreadLocalRefused, 2, std::nullopt) ==
        "dsched: 2 thread-local variable stores refused by the kernel (the thread's storage was in use on its CPU, "
        "or the thread was exiting)\n");
}

TEST_CASE("run-time error lines") {
  CHECK(probe_error(3, 45, "sched:::on-cpu", "invalid address (0x10)", 2, 57) ==
        "dsched: error on enabled probe ID 3 (ID 45: sched:::on-cpu): invalid address (0x10) in action #2 at BPF pc "
        "57\n");
  // A fault in the predicate is in "action" 0, which DTrace names.
  CHECK(probe_error(1, 1, "dtrace:::BEGIN", "invalid address (0x8)", 0, 1) ==
        "dsched: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x8) in predicate at BPF pc 1\n");
}

TEST_CASE("flowindent: entries deepen, returns come back, other probes are marked with |") {
  CHECK(flow_heading() == "CPU FUNCTION" + std::string(33, ' ') + "\n");
  unsigned depth = 0;
  auto line = [](unsigned cpu, const std::string& text) {
    return std::string(cpu < 10 ? "  " : " ") + std::to_string(cpu) + " " + text +
           std::string(41 - text.size(), ' ') + " ";
  };
  // DTrace's markers start with a space: " -> ", " => ", " <- ", " <= ".
  CHECK(flow_prefix(0, "syscall", "read", "entry", depth) == line(0, " => read"));
  CHECK(depth == 2);
  CHECK(flow_prefix(0, "fbt", "vfs_read", "entry", depth) == line(0, "   -> vfs_read"));
  CHECK(flow_prefix(1, "sched", "", "on-cpu", depth) == line(1, "    | :on-cpu"));
  CHECK(flow_prefix(0, "fbt", "vfs_read", "return", depth) == line(0, "   <- vfs_read"));
  CHECK(flow_prefix(0, "syscall", "read", "return", depth) == line(0, " <= read"));
  CHECK(depth == 0);
  CHECK(flow_prefix(0, "syscall", "read", "return", depth) == line(0, " <= read"));  // never below 0
  CHECK(depth == 0);
  // A name ending in -entry or -return enters or returns; one that only ends in the word does not.
  CHECK(flow_prefix(0, "ruby123", "m", "method-entry", depth) == line(0, " -> m"));
  CHECK(flow_prefix(0, "ruby123", "m", "carpentry", depth) == line(0, "  | m:carpentry"));
  CHECK(flow_prefix(0, "ruby123", "m", "method-return", depth) == line(0, " <- m"));
  CHECK(depth == 0);
}
