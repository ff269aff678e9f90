#include "lang/codegen/hooks.h"

#include <linux/bpf.h>

#include "lang/codegen/generator.h"

namespace dsched::codegen {

llvm::Value* Hook::context_task(Generator& g) const {
  return g.mod().call_helper(BPF_FUNC_get_current_task_btf, {});
}

llvm::Value* Hook::arg(Generator& g, probes::ArgSource source) const {
  throw Unsupported({}, std::string("argument ") + probes::arg_source_name(source) + " of " +
                            g.probe().full_name());
}

void Hook::emit(Generator& g, const std::string&, const std::vector<const probes::Probe*>& probes) const {
  for (const probes::Probe* probe : probes) g.fire(*probe);
}

llvm::Value* Hook::raw_arg(Generator& g, int n) const { return g.const64(0); }

llvm::Value* tracepoint_arg(Generator& g, int index) {
  // Volatile: the verifier accepts only whole 8-byte context loads, which LLVM would narrow.
  return g.b().CreateLoad(g.i64(), g.offset_ptr(g.context(), 8 * index), /*isVolatile=*/true);
}

const Hook* hook_for(const probes::Probe& probe, std::string& error) {
  if (probe.unsupported) {
    error = probe.unsupported;
    return nullptr;
  }
  if (probe.provider == "dtrace") return dtrace_hook(probe, error);
  if (probe.provider == "profile") return profile_hook(probe, error);
  if (probe.provider == "sched") return sched_hook(probe, error);
  if (probe.provider == "proc") return proc_hook(probe, error);
  error = "provider " + probe.provider + " is not available yet";
  return nullptr;
}

}  // namespace dsched::codegen
