// sched provider on tracepoints and perf events (no kprobes, no fentry):
//   on-cpu, off-cpu, preempt, sleep  tp_btf/sched_switch(preempt, prev, next, prev_state)
//   wakeup                           tp_btf/sched_waking(task)
//   change-pri                       tp_btf/sched_pi_setprio(task, pi_task)
//   tick                             a cpu-clock perf event at the kernel's HZ on every CPU
#include <fstream>
#include <linux/bpf.h>
#include <string_view>

#include "lang/codegen/generator.h"
#include "lang/codegen/hooks.h"

namespace dsched::codegen {
namespace {

using probes::ArgSource;

// sched_switch context slots.
constexpr int kSwitchPreempt = 0;
constexpr int kSwitchNext = 2;
constexpr int kSwitchPrevState = 3;

class SwitchHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "tp_btf/sched_switch"; }
  int attach_order(const probes::Probe& probe) const override { return probe.name == "on-cpu" ? 1 : 0; }
  bool context_is_current(const probes::Probe& probe) const override { return probe.name != "on-cpu"; }
  llvm::Value* context_task(Generator& g) const override {
    if (g.probe().name == "on-cpu") return tracepoint_arg(g, kSwitchNext);
    return Hook::context_task(g);
  }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::NextTask) return tracepoint_arg(g, kSwitchNext);
    return Hook::arg(g, source);
  }
  llvm::Value* guard(Generator& g) const override {
    const std::string& name = g.probe().name;
    if (name != "preempt" && name != "sleep") return nullptr;
    auto& b = g.b();
    // Preempted: the switch was a preemption or prev is still runnable (state 0).
    llvm::Value* preempted = b.CreateOr(
        b.CreateICmpNE(b.CreateAnd(tracepoint_arg(g, kSwitchPreempt), g.const64(0xff)), g.const64(0)),
        b.CreateICmpEQ(b.CreateAnd(tracepoint_arg(g, kSwitchPrevState), g.const64(0xffffffff)), g.const64(0)));
    return name == "preempt" ? preempted : b.CreateNot(preempted);
  }
};

class WakingHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "tp_btf/sched_waking"; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::WokenTask) return tracepoint_arg(g, 0);
    return Hook::arg(g, source);
  }
};

class PrioHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "tp_btf/sched_pi_setprio"; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::PriorityTask) return tracepoint_arg(g, 0);
    if (source != ArgSource::NewPriority) return Hook::arg(g, source);
    // The kernel's effective priority: the boosting task's prio when lower, else normal_prio.
    auto& b = g.b();
    auto& types = *g.program().types;
    const lang::Type* task = types.kernel_record(lang::TypeKind::Struct, "task_struct", nullptr);
    auto field = [&](llvm::Value* t, const char* name) {
      auto member = task->find_member(name);
      return g.read_kernel(b.CreateAdd(t, g.const64(member->offset_bits / 8)), 4, member->type);
    };
    llvm::Value* normal = field(tracepoint_arg(g, 0), "normal_prio");
    llvm::Value* pi = tracepoint_arg(g, 1);
    llvm::Value* boosted = field(pi, "prio");
    llvm::Value* has_pi = b.CreateICmpNE(pi, g.const64(0));
    llvm::Value* lower = b.CreateICmpSLT(boosted, normal);
    return b.CreateSelect(b.CreateAnd(has_pi, lower), boosted, normal);
  }
};

// The kernel's tick rate, from its build configuration; 250 (Debian's) when unknown.
uint64_t kernel_hz() {
  std::string release;
  std::getline(std::ifstream("/proc/sys/kernel/osrelease"), release);
  std::ifstream config("/boot/config-" + release);
  constexpr std::string_view prefix = "CONFIG_HZ=";
  for (std::string line; std::getline(config, line);) {
    if (line.rfind(prefix, 0) == 0) return std::stoull(line.substr(prefix.size()));
  }
  return 250;
}

class TickHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "perf_event"; }
  AttachPoint::Kind attach_kind() const override { return AttachPoint::Kind::PerfTimer; }
  uint64_t period_ns(const probes::Probe&) const override {
    static const uint64_t period = 1000000000ull / kernel_hz();
    return period;
  }
  bool every_cpu(const probes::Probe&) const override { return true; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::InterruptedTask) return Hook::context_task(g);
    return Hook::arg(g, source);
  }
};

}  // namespace

const Hook* sched_hook(const probes::Probe& probe, std::string& error) {
  static const SwitchHook switch_hook;
  static const WakingHook waking_hook;
  static const PrioHook prio_hook;
  static const TickHook tick_hook;
  const std::string& name = probe.name;
  if (name == "on-cpu" || name == "off-cpu" || name == "preempt" || name == "sleep") return &switch_hook;
  if (name == "wakeup") return &waking_hook;
  if (name == "change-pri") return &prio_hook;
  if (name == "tick") return &tick_hook;
  error = "probe " + probe.full_name() + " is not available yet";
  return nullptr;
}

}  // namespace dsched::codegen
