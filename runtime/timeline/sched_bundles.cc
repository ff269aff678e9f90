#include "runtime/timeline/sched_bundles.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

namespace dsched::timeline {
namespace {

using perfetto::protos::FtraceEvent;
using perfetto::protos::FtraceEventBundle;

// The kernel's own CPU bound is far below this; a larger number means a corrupt record.
constexpr uint32_t kMaxCpus = DSTL_MAX_CPUS;

std::string comm_text(const char* comm, size_t size = DSTL_COMM_LEN) { return std::string(comm, strnlen(comm, size)); }

size_t record_size(uint32_t kind) {
  switch (kind) {
    case DSTL_SWITCH: return sizeof(dstl_switch);
    case DSTL_WAKING:
    case DSTL_WAKEUP_NEW: return sizeof(dstl_wakeup);
    case DSTL_MIGRATE: return sizeof(dstl_migrate);
    case DSTL_NEWTASK: return sizeof(dstl_newtask);
    case DSTL_RENAME: return sizeof(dstl_rename);
    case DSTL_EXEC: return sizeof(dstl_exec);
    case DSTL_FREE: return sizeof(dstl_free);
    default: return 0;
  }
}

// One bundle's compact arrays: timestamps as deltas within each array, comms interned.
class CompactEncoder {
 public:
  explicit CompactEncoder(FtraceEventBundle::CompactSched& compact) : compact_(compact) {}

  void add_switch(const dstl_switch& record, uint32_t cpu) {
    compact_.add_switch_timestamp(record.header.ts - last_switch_ts_);
    last_switch_ts_ = record.header.ts;
    compact_.add_switch_prev_state(record.prev_state);
    compact_.add_switch_next_pid(record.next_pid);
    compact_.add_switch_next_prio(record.next_prio);
    // The idle task (and the filtered-out threads shown as idle) is named as the kernel names it.
    std::string comm = record.next_pid == 0 ? "swapper/" + std::to_string(cpu) : comm_text(record.next_comm);
    compact_.add_switch_next_comm_index(intern(comm));
  }

  void add_waking(const dstl_wakeup& record) {
    compact_.add_waking_timestamp(record.header.ts - last_waking_ts_);
    last_waking_ts_ = record.header.ts;
    compact_.add_waking_pid(record.pid);
    compact_.add_waking_target_cpu(record.target_cpu);
    compact_.add_waking_prio(record.prio);
    compact_.add_waking_comm_index(intern(comm_text(record.comm)));
  }

 private:
  uint32_t intern(const std::string& text) {
    auto [it, inserted] = index_.emplace(text, static_cast<uint32_t>(index_.size()));
    if (inserted) compact_.add_intern_table(text);
    return it->second;
  }

  FtraceEventBundle::CompactSched& compact_;
  std::unordered_map<std::string, uint32_t> index_;
  uint64_t last_switch_ts_ = 0;
  uint64_t last_waking_ts_ = 0;
};

template <typename Event>
void set_wakeup_fields(Event& event, const dstl_wakeup& record) {
  event.set_comm(comm_text(record.comm));
  event.set_pid(record.pid);
  event.set_prio(record.prio);
  event.set_success(1);
  event.set_target_cpu(record.target_cpu);
}

// The events without a compact form, as full ftrace events. `pid` is the task the kernel's
// tracepoint would name as the event's own.
void add_full_event(FtraceEventBundle& bundle, const dstl_header& header, const void* data) {
  FtraceEvent& event = *bundle.add_event();
  event.set_timestamp(header.ts);
  switch (header.kind) {
    case DSTL_WAKING:
    case DSTL_WAKEUP_NEW: {
      auto& record = *static_cast<const dstl_wakeup*>(data);
      event.set_pid(static_cast<uint32_t>(record.waker_pid));
      if (header.kind == DSTL_WAKING)
        set_wakeup_fields(*event.mutable_sched_waking(), record);
      else
        set_wakeup_fields(*event.mutable_sched_wakeup_new(), record);
      break;
    }
    case DSTL_MIGRATE: {
      auto& record = *static_cast<const dstl_migrate*>(data);
      event.set_pid(static_cast<uint32_t>(record.current_pid));
      auto& migrate = *event.mutable_sched_migrate_task();
      migrate.set_comm(comm_text(record.comm));
      migrate.set_pid(record.pid);
      migrate.set_prio(record.prio);
      migrate.set_orig_cpu(record.orig_cpu);
      migrate.set_dest_cpu(record.dest_cpu);
      break;
    }
    case DSTL_NEWTASK: {
      auto& record = *static_cast<const dstl_newtask*>(data);
      event.set_pid(static_cast<uint32_t>(record.parent_pid));
      auto& newtask = *event.mutable_task_newtask();
      newtask.set_pid(record.pid);
      newtask.set_comm(comm_text(record.comm));
      newtask.set_clone_flags(record.clone_flags);
      break;
    }
    case DSTL_RENAME: {
      auto& record = *static_cast<const dstl_rename*>(data);
      event.set_pid(static_cast<uint32_t>(record.pid));
      auto& rename = *event.mutable_task_rename();
      rename.set_pid(record.pid);
      rename.set_oldcomm(comm_text(record.oldcomm));
      rename.set_newcomm(comm_text(record.newcomm));
      break;
    }
    case DSTL_EXEC: {
      auto& record = *static_cast<const dstl_exec*>(data);
      event.set_pid(static_cast<uint32_t>(record.pid));
      auto& exec = *event.mutable_sched_process_exec();
      exec.set_filename(comm_text(record.filename, sizeof record.filename));
      exec.set_pid(record.pid);
      exec.set_old_pid(record.old_pid);
      break;
    }
    case DSTL_FREE: {
      auto& record = *static_cast<const dstl_free*>(data);
      event.set_pid(static_cast<uint32_t>(record.current_pid));
      auto& freed = *event.mutable_sched_process_free();
      freed.set_comm(comm_text(record.comm));
      freed.set_pid(record.pid);
      freed.set_prio(record.prio);
      break;
    }
  }
}

}  // namespace

uint64_t RecordCounts::total() const {
  uint64_t sum = 0;
  for (uint64_t count : by_kind) sum += count;
  return sum;
}

SchedBundles::SchedBundles(TraceFile& file, size_t events_per_bundle)
    : file_(file), events_per_bundle_(std::max<size_t>(events_per_bundle, 1)) {}

SchedBundles::Cpu& SchedBundles::cpu(uint32_t index) {
  if (index >= cpus_.size()) cpus_.resize(index + 1);
  return cpus_[index];
}

bool SchedBundles::add(const void* data, size_t size) {
  if (size < sizeof(dstl_header)) return false;
  dstl_header header;
  std::memcpy(&header, data, sizeof header);
  size_t expected = record_size(header.kind);
  if (expected == 0 || size < expected || header.cpu >= kMaxCpus) return false;
  Record record;
  std::memcpy(&record, data, expected);
  Cpu& target = cpu(header.cpu);
  target.waiting.push_back(record);
  target.events++;
  counts_.by_kind[header.kind]++;
  if (target.waiting.size() >= events_per_bundle_) write_bundle(header.cpu, target);
  return true;
}

void SchedBundles::note_loss(uint32_t index) { cpu(index).lost = true; }

void SchedBundles::flush() {
  for (uint32_t index = 0; index < cpus_.size(); ++index)
    if (!cpus_[index].waiting.empty()) write_bundle(index, cpus_[index]);
}

std::vector<uint64_t> SchedBundles::events_per_cpu() const {
  std::vector<uint64_t> events;
  for (const Cpu& cpu : cpus_) events.push_back(cpu.events);
  return events;
}

void SchedBundles::write_bundle(uint32_t index, Cpu& cpu) {
  // A record can reach the ring buffer after a later one of the same CPU (an interrupt's event
  // inside a program): order by time before encoding deltas and following the running thread.
  std::stable_sort(cpu.waiting.begin(), cpu.waiting.end(),
                   [](const Record& a, const Record& b) { return a.header.ts < b.header.ts; });
  perfetto::protos::TracePacket packet;
  FtraceEventBundle& bundle = *packet.mutable_ftrace_events();
  bundle.set_cpu(index);
  if (cpu.lost) bundle.set_lost_events(true);
  CompactEncoder compact(*bundle.mutable_compact_sched());
  for (const Record& record : cpu.waiting) {
    if (record.header.kind == DSTL_SWITCH) {
      compact.add_switch(record.sched_switch, index);
      cpu.running = record.sched_switch.next_pid;
    } else if (record.header.kind == DSTL_WAKING && record.wakeup.waker_pid == cpu.running) {
      compact.add_waking(record.wakeup);
    } else {
      // Wakings whose waker the switches written so far do not show running here (before the
      // first switch of the CPU, or from a CPU outside --cpus) keep their waker explicitly.
      add_full_event(bundle, record.header, &record);
    }
  }
  // A bundle of rare events only carries no compact arrays.
  if (bundle.compact_sched().ByteSizeLong() == 0) bundle.clear_compact_sched();
  file_.write(packet);
  cpu.waiting.clear();
  cpu.lost = false;
}

}  // namespace dsched::timeline
