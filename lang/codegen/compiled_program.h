// What the code generator hands the runtime: the BPF object, where each program attaches, and the
// layout of every record the programs write, so user space can decode and print them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/output/aggregation.h"

namespace dsched {

struct AttachPoint {
  enum class Kind {
    BtfTracepoint,  // tp_btf/<target>: attached by libbpf from the section name
    PerfTimer,      // a cpu-clock perf event every period_ns, on every CPU or one
    OnDemand,       // run with BPF_PROG_TEST_RUN (BEGIN, END, ERROR)
  };
  Kind kind = Kind::BtfTracepoint;
  std::string program;   // the BPF program's function name
  std::string clause;    // what the user wrote, for error messages ("sched:::on-cpu")
  uint64_t period_ns = 0;
  bool every_cpu = false;
};

// Every ring-buffer record starts with this header.
struct RecordHeader {
  uint32_t epid;      // index into CompiledProgram::records
  uint32_t cpu;
  uint32_t spec;      // speculation id, when speculative
  uint32_t speculative;  // nonzero after speculate(): the record goes to buffer `spec` (none if 0)
};
static_assert(sizeof(RecordHeader) == 16);

// Programs run on demand receive this many 64-bit arguments (arg0..arg5).
constexpr int kOnDemandArgs = 6;

// A run-time fault: the clause stops and this record (epid = kFaultEpid) reports it.
constexpr uint32_t kFaultEpid = 0xffffffff;
enum class FaultKind : uint32_t { InvalidAddress = 1, DivideByZero = 2 };
struct FaultRecord {
  RecordHeader header;  // epid = kFaultEpid
  uint32_t clause_epid; // the enabled probe (clause for probe) that faulted
  uint32_t kind;        // FaultKind
  uint32_t action;      // 1-based statement of the clause
  uint32_t site;        // which fault check of the program (its position in the program)
  uint64_t address;     // the faulting address (invalid address)
};
static_assert(sizeof(FaultRecord) == 40);

// One value inside a record.
struct RecordField {
  enum class Kind { Integer, String };
  Kind kind = Kind::Integer;
  uint32_t offset = 0;    // from the start of the record, header included
  uint32_t size = 8;      // D size of an integer (storage is always 8 bytes) or the string capacity
  bool is_signed = true;
};

// One data-recording action of a clause, in clause order.
struct RecordedAction {
  enum class Kind {
    Trace,        // fields[0]
    Printf,       // format + fields
    Printa,       // format (may be empty) + aggregation ids
    Exit,         // fields[0] = status
    Clear,        // aggregation ids[0]
    Trunc,        // aggregation ids[0], fields[0] = count when has_count
    Normalize,    // aggregation ids[0], fields[0] = factor
    Denormalize,  // aggregation ids[0]
    Commit,       // fields[0] = speculation id
    Discard,      // fields[0] = speculation id
    System,       // format + fields
    Setopt,       // format = option name, fields[0] = value string when present
    CtprofSnapshot,  // fields[0] = path
    CtprofCompare,   // fields = baseline, candidate [, flags]
  };
  Kind kind;
  std::string format;
  std::vector<RecordField> fields;
  std::vector<uint32_t> aggregations;
  bool has_count = false;
};

// The record one firing of one clause for one probe writes.
struct RecordLayout {
  uint32_t probe_id = 0;
  std::string probe_function;  // for the per-fire prefix "function:name"
  std::string probe_name;
  std::string probe_description;  // "sched:vmlinux::on-cpu", for error messages
  uint32_t size = sizeof(RecordHeader);
  std::vector<RecordedAction> actions;
};

struct CompiledProgram {
  std::vector<char> object;
  std::vector<AttachPoint> attach_points;
  std::vector<RecordLayout> records;
  std::vector<output::AggregationSpec> aggregations;  // by id; map "agg_<id>" holds each
  std::vector<std::string> begin_programs;  // run on demand before anything attaches
  std::vector<std::string> end_programs;    // run on demand after everything is detached
  std::vector<std::string> error_programs;  // run on demand for each fault (dtrace:::ERROR)
  std::string ring_buffer_map;              // the map records arrive on
  std::string drops_map;                    // per-CPU counters, see DropCounter
};

// Slots of the per-CPU drop counter array the programs increment.
enum class DropCounter : uint32_t {
  RingBufferFull = 0,    // a record could not be reserved
  DynamicVariable = 1,   // an associative-array or thread-local update failed
  Aggregation = 2,       // an aggregation update failed (map full)
  SpeculationUnavailable = 3,  // speculation() found every buffer in use
  Count = 4,
};

}  // namespace dsched
