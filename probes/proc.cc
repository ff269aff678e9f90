// proc provider: process and thread life cycle, typed as in DTrace's documentation.
#include "registry.h"

namespace dsched::probes {

const ProviderTable& proc_provider() {
  constexpr const char* kTask = "struct task_struct *";
  static const ProviderTable table{
      "proc",
      "vmlinux",
      {
          {"create", {{kTask, "psinfo_t *", ArgSource::ChildTask}}},
          {"exec-success", {}},
          {"exit", {{"int", nullptr, ArgSource::ExitReason}}},
          {"lwp-create",
           {{kTask, "lwpsinfo_t *", ArgSource::ChildTask},
            {kTask, "psinfo_t *", ArgSource::ChildTask}}},
          {"lwp-exit", {}},
          {"lwp-start", {}},
          {"signal-send",
           {{kTask, "lwpsinfo_t *", ArgSource::SignalTarget},
            {kTask, "psinfo_t *", ArgSource::SignalTarget},
            {"int", nullptr, ArgSource::SignalNumber}}},
          {"start", {}},
      }};
  return table;
}

}  // namespace dsched::probes
