// Scheduler records to Perfetto ftrace bundles, one stream per CPU. sched_switch and sched_waking
// use the compact encoding (parallel arrays, delta timestamps, interned comms); the rarer events
// are written as single ftrace events. Records are buffered per CPU and written in time order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/timeline/bpf/timeline_records.h"
#include "runtime/timeline/trace_file.h"

namespace dsched::timeline {

// Counts of records by kind (dstl_record_kind).
struct RecordCounts {
  uint64_t by_kind[DSTL_FREE + 1] = {};
  uint64_t total() const;
};

class SchedBundles {
 public:
  // Writes a CPU's bundle once `events_per_bundle` records of that CPU are waiting.
  explicit SchedBundles(TraceFile& file, size_t events_per_bundle = 4096);

  // Takes one record from the ring buffer. False when it is malformed (unknown kind, too short,
  // CPU out of range); such records are not written.
  bool add(const void* data, size_t size);
  // Events of `cpu` were lost: its next bundle says so.
  void note_loss(uint32_t cpu);
  // Writes every waiting record.
  void flush();

  const RecordCounts& counts() const { return counts_; }
  // Records taken per CPU (index = CPU).
  std::vector<uint64_t> events_per_cpu() const;

 private:
  union Record {
    dstl_header header;
    dstl_switch sched_switch;
    dstl_wakeup wakeup;
    dstl_migrate migrate;
    dstl_newtask newtask;
    dstl_rename rename;
    dstl_exec exec;
    dstl_free freed;
  };
  struct Cpu {
    std::vector<Record> waiting;
    bool lost = false;
    // The thread the written switches leave on this CPU (-1 before the first): compact wakings
    // name no waker, readers take it to be this thread.
    int32_t running = -1;
    uint64_t events = 0;
  };
  Cpu& cpu(uint32_t index);
  void write_bundle(uint32_t index, Cpu& cpu);

  TraceFile& file_;
  size_t events_per_bundle_;
  std::vector<Cpu> cpus_;
  RecordCounts counts_;
};

}  // namespace dsched::timeline
