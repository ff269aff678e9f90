// dtrace provider: BEGIN and END, programs run on demand in dsched's own context (BEGIN before
// anything is attached, END after everything is detached), and ERROR, which fires inside the
// faulting program where a run-time fault stops a clause. ERROR's arg1..arg5 are the enabled
// probe, the action, the fault site, the fault kind (DTRACEFLT_*) and the address.
#include "lang/codegen/firing.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/provider.h"

namespace dsched::probes {
namespace {

using abi::AttachPoint;

class OnDemandHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"raw_tp"}; }
  AttachPoint::Kind attach_kind() const override { return AttachPoint::Kind::OnDemand; }
  AttachPoint::Phase phase(const lang::Probe& probe) const override {
    return probe.name == "END" ? AttachPoint::Phase::End : AttachPoint::Phase::Begin;
  }
  llvm::Value* raw_arg(codegen::Lowering& l, int n) const override {
    return n < abi::kOnDemandArgs ? codegen::tracepoint_arg(l, n) : Hook::raw_arg(l, n);
  }
};

// ERROR runs in the firing that faulted: its context task is that firing's.
class FaultHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {}; }
  bool fires_on_fault(const lang::Probe&) const override { return true; }
  bool context_is_current(const lang::Probe&) const override { return false; }
  llvm::Value* context_task(codegen::Lowering& l) const override { return word(l, codegen::kFaultTaskWord); }
  llvm::Value* raw_arg(codegen::Lowering& l, int n) const override {
    return n < codegen::kFaultArgWords ? word(l, n) : Hook::raw_arg(l, n);
  }

 private:
  static llvm::Value* word(codegen::Lowering& l, int n) {
    return l.ir.b().CreateLoad(l.ir.i64(), l.ir.offset_ptr(l.firing.fault_args(), 8 * uint64_t(n)));
  }
};

class DtraceProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "dtrace"; }
  lang::ProviderStability stability() const override {
    return {lang::kStableCommon, lang::kPrivateUnknown, lang::kPrivateUnknown, lang::kStableCommon, lang::kStableCommon};
  }
  std::vector<lang::Probe> probes() const override {
    std::vector<lang::Probe> list;
    for (const char* name : {"BEGIN", "END", "ERROR"}) list.push_back({0, "dtrace", "", "", name, {}, "", this});
    return list;
  }
  const codegen::Hook& hook(const lang::Probe& probe) const override {
    if (probe.name == "ERROR") return fault_hook_;
    return on_demand_hook_;
  }

 private:
  OnDemandHook on_demand_hook_;
  FaultHook fault_hook_;
};

const lang::RegisteredProvider<DtraceProvider> registered;

}  // namespace
}  // namespace dsched::probes
