// sched provider, typed as in DTrace's documentation: args[0] lwpsinfo_t *, args[1] psinfo_t *
// (both translated from the task), args[2] cpuinfo_t * (translated from a CPU number).
#include "registry.h"

namespace dsched::probes {
namespace {

constexpr const char* kTask = "struct task_struct *";
constexpr const char* kLwp = "lwpsinfo_t *";
constexpr const char* kProc = "psinfo_t *";

std::vector<ArgSpec> task_args(ArgSource task) {
  return {{kTask, kLwp, task}, {kTask, kProc, task}};
}

}  // namespace

const ProviderTable& sched_provider() {
  static const ProviderTable table{
      "sched",
      "vmlinux",
      {
          {"change-pri",
           {{kTask, kLwp, ArgSource::PriorityTask},
            {kTask, kProc, ArgSource::PriorityTask},
            {"int", nullptr, ArgSource::NewPriority}}},
          {"dequeue",
           {{kTask, kLwp, ArgSource::QueuedTask},
            {kTask, kProc, ArgSource::QueuedTask},
            {"int", "cpuinfo_t *", ArgSource::QueueCpu}}},
          {"enqueue",
           {{kTask, kLwp, ArgSource::QueuedTask},
            {kTask, kProc, ArgSource::QueuedTask},
            {"int", "cpuinfo_t *", ArgSource::QueueCpu},
            {"int", nullptr, ArgSource::QueueAtFront}}},
          {"off-cpu", task_args(ArgSource::NextTask)},
          {"on-cpu", {}},
          {"preempt", {}},
          {"remain-cpu", {}, "sched:::remain-cpu has no equivalent hook in the Linux scheduler"},
          {"sleep", {}},
          {"surrender", task_args(ArgSource::InterruptedTask)},
          {"tick", task_args(ArgSource::InterruptedTask)},
          {"wakeup", task_args(ArgSource::WokenTask)},
      }};
  return table;
}

}  // namespace dsched::probes
