// What the compiler hands the runtime: the BPF object, where each program attaches, the layout of
// every record the programs write (with the handler of each action), the aggregations' layouts and
// the options the runtime applies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "abi/action.h"
#include "abi/aggregation.h"
#include "abi/options.h"

namespace dsched::abi {

// The section prefix of programs on BTF-typed tracepoints ("tp_btf/sched_switch").
constexpr std::string_view kBtfTracepointSection = "tp_btf/";

struct AttachPoint {
  enum class Kind {
    Tracepoint,  // attached by libbpf from the program's section (tp_btf/<tracepoint>)
    PerfTimer,   // a cpu-clock perf event every period_ns, on every CPU or one
    OnDemand,    // run with BPF_PROG_TEST_RUN when the run reaches `phase`
    Uprobe,      // a uprobe (uretprobe) at `offset` of file `binary`, in process `pid` only
  };
  enum class Phase { Begin, End };
  Kind kind = Kind::Tracepoint;
  std::string program;  // the BPF program's function name
  std::string clause;   // the probes it fires, for messages ("sched:vmlinux::on-cpu")
  uint64_t period_ns = 0;
  bool every_cpu = false;  // perf timers: on every CPU, or only on `cpu`
  int cpu = 0;
  Phase phase = Phase::Begin;
  // tp_btf programs: the kernel's BTF id of the tracepoint (its btf_trace_<name> typedef), so that
  // loading needs not read the kernel's BTF again; 0: not known, libbpf looks it up.
  uint32_t btf_id = 0;
  // Uprobes.
  std::string binary;
  uint64_t offset = 0;
  int64_t pid = -1;             // -1: in every process that maps `binary`
  bool retprobe = false;
  uint64_t semaphore_offset = 0;  // USDT's is-enabled counter (the uprobe's ref_ctr_offset); 0: none
};

// The record one firing of one clause for one probe writes (its index is the record's epid).
struct RecordLayout {
  uint32_t probe_id = 0;
  std::string probe_provider;     // flowindent marks syscall entries and returns its own way
  std::string probe_module;
  std::string probe_function;     // for the per-fire prefix "function:name"
  std::string probe_name;
  std::string probe_description;  // "sched:vmlinux::on-cpu", for error messages
  uint32_t size = sizeof(RecordHeader);
  std::vector<RecordedAction> actions;
};

// A map of the object that the runtime may create while code is still being generated (creating a
// preallocated per-CPU hash takes milliseconds); the loader then hands it to libbpf by name.
struct MapShape {
  std::string name;
  uint32_t type = 0;  // BPF_MAP_TYPE_*
  uint32_t key_size = 0;
  uint32_t value_size = 0;
  uint32_t max_entries = 0;
  uint32_t flags = 0;
};

struct CompiledProgram {
  std::vector<char> object;
  std::vector<AttachPoint> attach_points;
  std::vector<RecordLayout> records;
  std::vector<AggregationSpec> aggregations;  // by id; map aggregation_map_name(id) holds each
  std::string ring_buffer_map;                // the map records arrive on
  std::string drops_map;                      // per-CPU counters, see DropCounter
  Options options;                            // as the script and the command line set them
  bool stamped_records = false;               // every record carries a RecordStamp

  // The on-demand programs of a phase, in clause order.
  std::vector<std::string> programs_at(AttachPoint::Phase phase) const;
};

}  // namespace dsched::abi
