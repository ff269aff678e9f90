// dtrace provider: BEGIN, END and ERROR, programs run on demand in dsched's own context (BEGIN
// before anything is attached, END after everything is detached, ERROR for each run-time fault).
// ERROR's arguments arrive in the context the runtime passes: arg1 the enabled probe id, arg2 the
// action, arg3 the fault site, arg4 the fault kind, arg5 the address.
#include "lang/codegen/hook.h"
#include "lang/provider.h"

namespace dsched::probes {
namespace {

using abi::AttachPoint;

class OnDemandHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"raw_tp"}; }
  AttachPoint::Kind attach_kind() const override { return AttachPoint::Kind::OnDemand; }
  AttachPoint::Phase phase(const lang::Probe& probe) const override {
    if (probe.name == "END") return AttachPoint::Phase::End;
    if (probe.name == "ERROR") return AttachPoint::Phase::Error;
    return AttachPoint::Phase::Begin;
  }
  llvm::Value* raw_arg(codegen::Lowering& l, int n) const override {
    return n < abi::kOnDemandArgs ? codegen::tracepoint_arg(l, n) : Hook::raw_arg(l, n);
  }
};

class DtraceProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "dtrace"; }
  lang::ProviderStability stability() const override {
    return {{"Stable", "Stable", "Common"}, {"Stable", "Stable", "Common"}};
  }
  std::vector<lang::Probe> probes() const override {
    std::vector<lang::Probe> list;
    for (const char* name : {"BEGIN", "END", "ERROR"}) list.push_back({0, "dtrace", "", "", name, {}, "", this});
    return list;
  }
  const codegen::Hook& hook(const lang::Probe&) const override { return hook_; }

 private:
  OnDemandHook hook_;
};

const lang::RegisteredProvider<DtraceProvider> registered;

}  // namespace
}  // namespace dsched::probes
