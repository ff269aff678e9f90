// sched provider on tracepoints and perf events (no kprobes, no fentry), typed as in DTrace's
// documentation: args[0] lwpsinfo_t *, args[1] psinfo_t * (both translated from the task),
// args[2] cpuinfo_t * (translated from a CPU number).
//   off-cpu, preempt, sleep, on-cpu  tp_btf/sched_switch(preempt, prev, next, prev_state)
//   wakeup                           tp_btf/sched_waking(task)
//   change-pri                       tp_btf/sched_pi_setprio(task, pi_task)
//   tick                             a cpu-clock perf event at the kernel's HZ on every CPU
//   enqueue, dequeue                 derived: see queue.cc
//   surrender                        reschedule IPIs: see surrender.cc
//   remain-cpu                       refused: the Linux scheduler has no such point
#include <fstream>
#include <string_view>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/provider.h"
#include "probes/sched/sched.h"

namespace dsched::probes::sched {

using codegen::Lowering;
using codegen::tracepoint_arg;

llvm::Value* prev_stays_runnable(Lowering& l) {
  auto& b = l.ir.b();
  llvm::Value* preempt =
      b.CreateICmpNE(b.CreateAnd(tracepoint_arg(l, kSwitchPreempt), l.ir.const64(0xff)), l.ir.const64(0));
  llvm::Value* running =
      b.CreateICmpEQ(b.CreateAnd(tracepoint_arg(l, kSwitchPrevState), l.ir.const64(0xffffffff)), l.ir.const64(0));
  return b.CreateOr(preempt, running);
}

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

namespace {

constexpr const char* kTask = "struct task_struct *";

class SwitchHook : public codegen::Hook {
 public:
  explicit SwitchHook(bool incoming) : incoming_(incoming) {}
  std::vector<std::string> sections(const lang::Probe&) const override { return {kSwitch}; }
  int attach_order(const lang::Probe&) const override { return incoming_ ? kIncomingOrder : kOutgoingOrder; }
  bool context_is_current(const lang::Probe&) const override { return !incoming_; }
  bool context_is_running(const lang::Probe&) const override { return incoming_; }
  llvm::Value* context_task(Lowering& l) const override {
    // prev is the current task here: the argument is one load, the helper a call.
    return tracepoint_arg(l, incoming_ ? kSwitchNext : kSwitchPrev);
  }
  // off-cpu's arguments name the thread switched to.
  llvm::Value* arg(Lowering& l, int) const override { return tracepoint_arg(l, kSwitchNext); }
  llvm::Value* guard(Lowering& l) const override {
    const std::string& name = l.firing.probe().name;
    if (name == "preempt") return prev_stays_runnable(l);
    if (name == "sleep") {
      // A thread that exits leaves the CPU for good (TASK_DEAD): it does not sleep.
      auto& b = l.ir.b();
      constexpr int64_t kTaskDead = 0x80;
      llvm::Value* dead = b.CreateICmpNE(b.CreateAnd(tracepoint_arg(l, kSwitchPrevState), l.ir.const64(kTaskDead)),
                                         l.ir.const64(0));
      return b.CreateAnd(b.CreateNot(prev_stays_runnable(l)), b.CreateNot(dead));
    }
    return nullptr;
  }

 private:
  bool incoming_;
};

class WakingHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"tp_btf/sched_waking"}; }
  llvm::Value* arg(Lowering& l, int) const override { return tracepoint_arg(l, 0); }  // the woken task
};

class PrioHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"tp_btf/sched_pi_setprio"}; }
  llvm::Value* arg(Lowering& l, int index) const override {
    if (index < 2) return tracepoint_arg(l, 0);  // the task whose priority changes
    // The kernel's effective priority: the boosting task's prio when lower, else normal_prio.
    auto& b = l.ir.b();
    llvm::Value* normal = l.exprs.kernel_field(tracepoint_arg(l, 0), "task_struct", {"normal_prio"});
    // pi_task is NULL when nothing boosts the task: the verifier lets its prio be read only once
    // it is known not to be.
    llvm::Value* pi = tracepoint_arg(l, 1);
    llvm::Value* has_pi = b.CreateICmpNE(pi, l.ir.const64(0));
    llvm::Value* slot = l.ir.stack_slot();
    b.CreateStore(normal, slot);
    l.ir.when(has_pi, [&] { b.CreateStore(l.exprs.kernel_field(pi, "task_struct", {"prio"}), slot); });
    llvm::Value* boosted = b.CreateLoad(l.ir.i64(), slot);
    llvm::Value* boosts = b.CreateICmpSLT(boosted, normal);
    return b.CreateSelect(boosts, boosted, normal);
  }
};


class TickHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"perf_event"}; }
  abi::AttachPoint::Kind attach_kind() const override { return abi::AttachPoint::Kind::PerfTimer; }
  uint64_t period_ns(const lang::Probe&) const override {
    static const uint64_t period = 1000000000ull / kernel_hz();
    return period;
  }
  bool every_cpu(const lang::Probe&) const override { return true; }
  // The interrupted task: the current one, from its BTF helper.
  llvm::Value* arg(Lowering& l, int) const override { return Hook::context_task(l); }
  bool arg_is_btf(int) const override { return true; }
};

class SchedProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "sched"; }

  std::vector<lang::Probe> probes() const override {
    auto probe = [&](const char* name, std::vector<lang::ProbeArg> args, const char* unsupported = "") {
      return lang::Probe{0, "sched", "vmlinux", "", name, std::move(args), unsupported, this};
    };
    std::vector<lang::ProbeArg> task_args{{kTask, "lwpsinfo_t *"}, {kTask, "psinfo_t *"}};
    auto with = [&](std::vector<lang::ProbeArg> more) {
      std::vector<lang::ProbeArg> args = task_args;
      args.insert(args.end(), more.begin(), more.end());
      return args;
    };
    return {
        probe("change-pri", with({{"int", ""}})),
        probe("dequeue", with({{"int", "cpuinfo_t *"}})),
        probe("enqueue", with({{"int", "cpuinfo_t *"}, {"int", ""}})),
        probe("off-cpu", task_args),
        probe("on-cpu", {}),
        probe("preempt", {}),
        probe("remain-cpu", {}, "sched:::remain-cpu has no equivalent hook in the Linux scheduler"),
        probe("sleep", {}),
        probe("surrender", task_args),
        probe("tick", task_args),
        probe("wakeup", task_args),
    };
  }

  const codegen::Hook& hook(const lang::Probe& probe) const override {
    const std::string& name = probe.name;
    if (name == "off-cpu" || name == "preempt" || name == "sleep") return outgoing_;
    if (name == "on-cpu") return incoming_;
    if (name == "wakeup") return waking_;
    if (name == "change-pri") return priority_;
    if (name == "tick") return tick_;
    if (name == "enqueue" || name == "dequeue") return queue_hook();
    return surrender_hook();
  }

 private:
  SwitchHook outgoing_{false};
  SwitchHook incoming_{true};
  WakingHook waking_;
  PrioHook priority_;
  TickHook tick_;
};

const lang::RegisteredProvider<SchedProvider> registered;

}  // namespace
}  // namespace dsched::probes::sched
