// Process and thread descriptors (pid to tgid, names, parents) for the trace: those alive when
// recording starts, read from /proc, and those created while it runs, from task_newtask records.
#pragma once

#include <string>

#include "runtime/timeline/bpf/timeline_records.h"
#include "runtime/timeline/perfetto_trace.pb.h"

namespace dsched::timeline {

// Every process and thread under `proc_root` (normally /proc). Tasks that exit during the walk
// are left out.
perfetto::protos::ProcessTree scan_processes(const std::string& proc_root = "/proc");

// The thread a task_newtask record created, and its process when it starts one.
perfetto::protos::ProcessTree new_task_tree(const dstl_newtask& record);

}  // namespace dsched::timeline
