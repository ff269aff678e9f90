// Where a run's output goes: typed events in the order the run produces them. The text
// implementation (runtime/output/) prints DTrace's bytes; another format prints the same events
// its own way. Nothing else in dsched writes a trace's output or its messages.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "abi/aggregation.h"
#include "abi/printf_spec.h"
#include "abi/records.h"
#include "abi/value.h"

namespace dsched::abi {

// One firing of a clause that records data.
struct Firing {
  unsigned cpu = 0;
  uint32_t probe_id = 0;
  std::string_view provider;
  std::string_view module;
  std::string_view function;
  std::string_view name;
  std::optional<RecordStamp> stamp;  // when the program stamps its records
};

// A run-time fault in a clause.
struct Fault {
  unsigned enabled_id = 0;       // the enabled probe (clause for probe), 1-based
  uint32_t probe_id = 0;
  std::string_view probe;        // "sched:vmlinux::on-cpu"
  std::string_view what;         // "invalid address (0x10)", "divide-by-zero"
  unsigned action = 0;           // 1-based statement of the clause
  unsigned site = 0;             // which fault check of the program
};

enum class DropKind {
  Output,                  // a record found the buffer full (per CPU)
  Aggregation,             // an aggregation's map was full (per CPU)
  DynamicVariable,         // an associative array or thread-local could not be stored
  Speculative,             // a speculation's buffer was full
  SpeculationUnavailable,  // speculation() found no free buffer
  KernelSkipped,           // the kernel did not run a clause's program: another BPF program was
                           // running on that CPU (bpf_prog_info.recursion_misses)
  ErrorInErrorProbe,       // a fault in a clause of dtrace:::ERROR, which DTrace counts, not reports
  ThreadLocalRefused,      // the kernel would not create a thread's storage for a self-> store:
                           // task storage was in use on that CPU (an operation on it preempted
                           // there) or the task was going away. No size would cure it.
};

class Output {
 public:
  virtual ~Output() = default;

  // "matched N probes" for one -s, -n or -P, once the probes are enabled.
  virtual void matched(std::string_view what, bool is_script, uint64_t probes) = 0;

  // A firing's records: begin_firing, then what its actions print, then end_firing.
  virtual void begin_firing(const Firing& firing) = 0;
  virtual void end_firing() = 0;
  virtual void trace(const Value& value) = 0;
  virtual void printf(const printf_spec::Format& format, std::span<const Value> args) = 0;
  // printa(): `format` is null for printa(@a) without one.
  virtual void printa(const printf_spec::Format* format, std::span<Aggregation* const> aggregations) = 0;
  // Text a function produced whole (ctprof_compare()'s table), printed in order with the rest.
  virtual void report(std::string_view function, std::string_view text) = 0;

  // ^C or SIGTERM ended tracing (before END runs): dtrace(1) marks it with an empty line, in quiet
  // mode too.
  virtual void interrupted() = 0;
  // At the end of a run: every aggregation, for those printa() never printed.
  virtual void end_of_run(std::span<const Aggregation* const> aggregations) = 0;

  virtual void drops(DropKind kind, uint64_t count, std::optional<unsigned> cpu) = 0;
  virtual void fault(const Fault& fault) = 0;
  // A message about the run ("dsched: <message>"): errors stop what they name, warnings do not.
  virtual void error(std::string_view message) = 0;
  virtual void warning(std::string_view message) = 0;

  // ftruncate(): empties the output file (one given with -o or by freopen(); the standard output
  // is only rewound, as dtrace(1) does, which a terminal or a pipe ignores).
  virtual void truncate() = 0;
  // freopen(): appends what follows to `path`; "" goes back to the run's first output.
  virtual void reopen(const std::string& path) = 0;

  // Makes everything so far visible (before a command of system() writes to the terminal).
  virtual void flush() = 0;
  // Whether writing failed; the first failure is reported once, as an error.
  virtual bool failed() const = 0;
};

}  // namespace dsched::abi
