// The trace file of one recording: system description and the threads alive at the start, the
// scheduler records as they are read, then loss statistics at the end. Script output joins it
// through track_events().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/timeline/sched_bundles.h"
#include "runtime/timeline/trace_file.h"
#include "runtime/timeline/track_events.h"

namespace dsched::timeline {

// What Perfetto needs to know about the machine (the kernel release selects how it decodes
// sched_switch's prev_state).
struct SystemDescription {
  std::string sysname, release, version, machine;
  uint32_t cpus = 0;
};
SystemDescription describe_this_system();

class TimelineTrace {
 public:
  explicit TimelineTrace(const std::string& path);

  bool ok() const { return file_.ok(); }
  const std::string& error() const { return file_.error(); }

  // The first packets: the system, loss statistics at zero, and `threads` (usually /proc's).
  void begin(uint64_t ts, const SystemDescription& system, const perfetto::protos::ProcessTree& threads);
  // One ring-buffer record; false when malformed.
  bool add_record(const void* data, size_t size);
  void note_loss(uint32_t cpu) { sched_.note_loss(cpu); }
  TrackEvents& track_events() { return track_events_; }
  // Writes what is buffered and the loss statistics (`lost_per_cpu[cpu]`), then closes the file.
  // False when writing failed (see error()).
  bool end(uint64_t ts, const std::vector<uint64_t>& lost_per_cpu);

  const RecordCounts& counts() const { return sched_.counts(); }
  uint64_t bytes_written() const { return file_.bytes_written(); }

 private:
  void write_stats(uint64_t ts, bool at_end, const std::vector<uint64_t>& lost_per_cpu);

  TraceFile file_;
  SchedBundles sched_;
  TrackEvents track_events_;
  uint32_t cpus_ = 0;
};

}  // namespace dsched::timeline
