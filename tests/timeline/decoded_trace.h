// A trace file as `protoc --decode` prints it against dsched's perfetto_trace.proto, parsed into a
// tree, and the scheduler's events read back from it the way Perfetto reads them: a compact
// switch's previous thread is the CPU's last next_pid, a compact waking's waker is the thread
// running on its CPU.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dsched::test {

// One field of the text format: a scalar (value) or a message (children).
struct Field {
  std::string name;
  std::string value;  // strings unquoted and unescaped
  std::vector<Field> children;

  std::vector<const Field*> all(const std::string& child) const;
  const Field* first(const std::string& child) const;  // null when absent
  bool has(const std::string& child) const { return first(child) != nullptr; }
  std::string text(const std::string& child) const;    // "" when absent
  int64_t number(const std::string& child) const;      // 0 when absent
};

// Decodes `path` with protoc; `error` says why when it returns false (protoc's message included).
bool decode_trace(const std::string& path, Field& trace, std::string& error);

struct SwitchEvent {
  uint64_t ts;
  uint32_t cpu;
  int32_t prev_pid;  // -1 for a CPU's first switch
  int64_t prev_state;
  int32_t next_pid;
  int32_t next_prio;
  std::string next_comm;
};

struct WakingEvent {
  uint64_t ts;
  uint32_t cpu;
  int32_t waker;  // -1 when a compact waking comes before its CPU's first switch
  int32_t pid;
  int32_t target_cpu;
  std::string comm;
  bool compact;
};

struct ThreadInfo {
  int32_t tgid = 0;
  std::string name;
};

// What a decoded trace holds, in the form tests check.
struct SchedTrace {
  std::vector<SwitchEvent> switches;  // per CPU in time order, CPUs one after another
  std::vector<WakingEvent> wakings;
  std::vector<Field> events;          // the full ftrace events (FtraceEvent messages)
  std::map<int32_t, ThreadInfo> threads;  // every ProcessTree thread, later packets winning
  std::map<int32_t, int32_t> parents;     // ProcessTree processes: pid -> ppid
  std::map<uint32_t, uint64_t> dropped;   // END_OF_TRACE dropped_events per CPU
  std::map<uint32_t, uint64_t> read;      // END_OF_TRACE read_events per CPU
  bool lost_bundle = false;               // a bundle said events were lost before it
  bool timestamps_ordered = true;         // no compact delta was negative
};
SchedTrace read_sched(const Field& trace);

// What a script added to a trace: instant events on thread tracks and counter tracks' samples.
struct InstantEvent {
  uint64_t ts;
  int32_t tgid, tid;  // of the thread track it is on
  std::string name;
  std::map<std::string, std::string> annotations;
};
struct CounterSample {
  uint64_t ts;
  int64_t value;
};
struct TrackTrace {
  std::vector<InstantEvent> instants;                          // in file order
  std::map<std::string, std::vector<CounterSample>> counters;  // by track name, in file order
};
TrackTrace read_tracks(const Field& trace);

}  // namespace dsched::test
