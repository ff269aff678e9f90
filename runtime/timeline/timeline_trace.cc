#include "runtime/timeline/timeline_trace.h"

#include <algorithm>
#include <cstring>

#include <sys/utsname.h>
#include <unistd.h>

#include "runtime/timeline/process_tree.h"

namespace dsched::timeline {

SystemDescription describe_this_system() {
  SystemDescription system;
  utsname names{};
  if (uname(&names) == 0) {
    system.sysname = names.sysname;
    system.release = names.release;
    system.version = names.version;
    system.machine = names.machine;
  }
  long cpus = sysconf(_SC_NPROCESSORS_CONF);
  system.cpus = cpus > 0 ? static_cast<uint32_t>(cpus) : 1;
  return system;
}

TimelineTrace::TimelineTrace(const std::string& path) : file_(path), sched_(file_), track_events_(file_) {}

void TimelineTrace::begin(uint64_t ts, const SystemDescription& system, const perfetto::protos::ProcessTree& threads) {
  cpus_ = system.cpus;
  perfetto::protos::TracePacket info;
  info.set_timestamp(ts);
  auto& utsname = *info.mutable_system_info()->mutable_utsname();
  utsname.set_sysname(system.sysname);
  utsname.set_release(system.release);
  utsname.set_version(system.version);
  utsname.set_machine(system.machine);
  info.mutable_system_info()->set_num_cpus(system.cpus);
  file_.write(info);
  write_stats(ts, false, {});
  perfetto::protos::TracePacket tree;
  tree.set_timestamp(ts);
  *tree.mutable_process_tree() = threads;
  file_.write(tree);
}

bool TimelineTrace::add_record(const void* data, size_t size) {
  if (!sched_.add(data, size)) return false;
  dstl_header header;
  std::memcpy(&header, data, sizeof header);
  if (header.kind == DSTL_NEWTASK) {
    dstl_newtask record;
    std::memcpy(&record, data, sizeof record);
    perfetto::protos::TracePacket tree;
    tree.set_timestamp(header.ts);
    *tree.mutable_process_tree() = new_task_tree(record);
    file_.write(tree);
  }
  return true;
}

void TimelineTrace::write_stats(uint64_t ts, bool at_end, const std::vector<uint64_t>& lost_per_cpu) {
  std::vector<uint64_t> read = at_end ? sched_.events_per_cpu() : std::vector<uint64_t>{};
  uint32_t cpus = std::max<uint32_t>({cpus_, static_cast<uint32_t>(read.size()), static_cast<uint32_t>(lost_per_cpu.size())});
  perfetto::protos::TracePacket packet;
  packet.set_timestamp(ts);
  auto& stats = *packet.mutable_ftrace_stats();
  stats.set_phase(at_end ? perfetto::protos::FtraceStats::END_OF_TRACE : perfetto::protos::FtraceStats::START_OF_TRACE);
  for (uint32_t cpu = 0; cpu < cpus; ++cpu) {
    auto& per_cpu = *stats.add_cpu_stats();
    per_cpu.set_cpu(cpu);
    per_cpu.set_dropped_events(cpu < lost_per_cpu.size() ? lost_per_cpu[cpu] : 0);
    per_cpu.set_read_events(cpu < read.size() ? read[cpu] : 0);
  }
  file_.write(packet);
}

bool TimelineTrace::end(uint64_t ts, const std::vector<uint64_t>& lost_per_cpu) {
  sched_.flush();
  write_stats(ts, true, lost_per_cpu);
  return file_.close();
}

}  // namespace dsched::timeline
