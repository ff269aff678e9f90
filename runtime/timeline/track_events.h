// Events that are not the scheduler's own, added to the timeline: instant events on a thread's
// track (a script's printf output where it fired) and counter tracks sampled over time (an
// aggregation's value at each printa). Each track's descriptor is written when it is first used.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "runtime/timeline/trace_file.h"

namespace dsched::timeline {

// A named value shown with an instant event.
struct Annotation {
  std::string name;
  std::variant<int64_t, double, std::string> value;
};

class TrackEvents {
 public:
  using CounterTrack = uint64_t;

  // `sequence_id` identifies this writer's packets in the trace; any nonzero number not used by
  // another writer of the same file.
  explicit TrackEvents(TraceFile& file, uint32_t sequence_id = 1);

  // An instant event named `name` at `ts` (CLOCK_BOOTTIME ns) on thread `tid` of process `tgid`.
  void instant(uint64_t ts, int32_t tgid, int32_t tid, const std::string& name,
               const std::vector<Annotation>& annotations = {});
  // The counter track named `name` (the same track for the same name).
  CounterTrack counter(const std::string& name);
  void sample(CounterTrack track, uint64_t ts, int64_t value);
  void sample(CounterTrack track, uint64_t ts, double value);

 private:
  perfetto::protos::TracePacket packet();
  uint64_t thread_track(int32_t tgid, int32_t tid);
  void write_sample(CounterTrack track, uint64_t ts, const std::variant<int64_t, double>& value);

  TraceFile& file_;
  uint32_t sequence_id_;
  bool sequence_started_ = false;
  uint64_t next_uuid_ = 1;
  std::map<int32_t, uint64_t> thread_tracks_;  // tid -> track uuid
  std::map<std::string, uint64_t> counter_tracks_;
};

}  // namespace dsched::timeline
