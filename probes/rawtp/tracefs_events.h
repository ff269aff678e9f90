// The kernel's trace events by subsystem, as tracefs lists them (events/<subsystem>/<event>).
// BTF names every raw tracepoint and its prototype but not the subsystem it belongs to; tracefs
// is the only place that says. Where tracefs is not mounted it is mounted privately, in a child
// process with a mount namespace of its own, so the system's mounts are never touched.
#pragma once
#include <map>
#include <string>

namespace dsched::probes {

struct TraceEvents {
  std::map<std::string, std::string> subsystem_of;  // event name -> subsystem
  std::string error;                                // why none could be read; empty on success
};

TraceEvents read_trace_events();

}  // namespace dsched::probes
