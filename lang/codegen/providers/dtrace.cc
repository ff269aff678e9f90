// dtrace:::BEGIN, END and ERROR: programs run on demand in dsched's own context. ERROR's
// arguments arrive in the context the runtime passes: arg1 the enabled probe id, arg2 the action,
// arg3 the fault site, arg4 the fault kind, arg5 the address.
#include "lang/codegen/hooks.h"

namespace dsched::codegen {
namespace {

class OnDemandHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "raw_tp"; }
  AttachPoint::Kind attach_kind() const override { return AttachPoint::Kind::OnDemand; }
  llvm::Value* raw_arg(Generator& g, int n) const override {
    return n < kOnDemandArgs ? tracepoint_arg(g, n) : Hook::raw_arg(g, n);
  }
};

}  // namespace

const Hook* dtrace_hook(const probes::Probe& probe, std::string& error) {
  static const OnDemandHook hook;
  return &hook;
}

}  // namespace dsched::codegen
