// Per-fire output and the one-line messages of a run: trace() records, the
// "CPU ID FUNCTION:NAME" heading and per-fire prefix of non-quiet runs, the "matched N probes"
// line, drop reports and run-time error lines. Every function returns the exact bytes,
// including the trailing newline where the line has one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "abi/output.h"
#include "abi/value.h"

namespace dsched::output {

using abi::Value;

// trace(x): strings "  %-33s" (quiet: "%s"); signed integers by D size 8/4/2/1 " %19ld",
// " %10d", " %5hd", " %3hhd", unsigned " %20lu", " %10u", " %5hu", " %3hhu" (quiet: the bare
// number).
std::string render_trace(const Value& value, bool quiet, bool rawbytes = false);

// The heading printed before the first record of a non-quiet run.
std::string heading();
// The start of every per-fire line of a non-quiet run: CPU, probe id and "function:name"
// (":BEGIN" for dtrace:::BEGIN). The clause's records follow, then "\n".
std::string probe_prefix(unsigned cpu, unsigned probe_id, std::string_view function, std::string_view name);

// flowindent: the heading, and the start of each per-fire line: the function indented by the
// depth of entries (an `entry` probe prints "-> function" and deepens, a `return` probe
// shallows and prints "<- function"; the syscall provider's are "=>" and "<="), other probes
// "| function:name". `depth` is updated.
std::string flow_heading();
std::string flow_prefix(unsigned cpu, std::string_view provider, std::string_view function, std::string_view name,
                        unsigned& depth);

// "dsched: script 'x.d' matched 3 probes" (is_script) or "dsched: description 'BEGIN' matched
// 1 probe".
std::string matched_probes(bool is_script, std::string_view name, uint64_t count);

// A drop report in DTrace's words ("dsched: 2 aggregation drops on CPU 1"); a count of 1 reads in
// the singular. Output and aggregation drops name their CPU (0 when none is given).
std::string drop_report(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu);

// "dsched: error on enabled probe ID 3 (ID 45: sched:::on-cpu): invalid address (0x10) in
// action #2 at BPF pc 57"
std::string probe_error(unsigned enabled_id, unsigned probe_id, std::string_view probe_description,
                        std::string_view fault, unsigned action, unsigned pc);

}  // namespace dsched::output
