// proc provider on the sched_process_* and signal tracepoints:
//   create, lwp-create   tp_btf/sched_process_fork(parent, child): a new process / a new thread
//   exec-success         tp_btf/sched_process_exec(task, old_pid, bprm)
//   exit, lwp-exit       tp_btf/sched_process_exit(task, ...): the last thread / any other thread
//   start, lwp-start     the new task's first sched_switch onto a CPU (marked at fork), in its context
//   signal-send          tp_btf/signal_generate(sig, info, task, group, result)
#include <linux/bpf.h>

#include "lang/codegen/generator.h"
#include "lang/codegen/hooks.h"

namespace dsched::codegen {
namespace {

using probes::ArgSource;

constexpr const char* kFork = "tp_btf/sched_process_fork";
constexpr const char* kSwitch = "tp_btf/sched_switch";
constexpr int kSwitchNext = 2;
constexpr int kStartOrder = 3;  // after the sched provider's probes on the same switch

// CLD_EXITED, CLD_KILLED, CLD_DUMPED from the task's exit code, as wait(2) decodes it.
llvm::Value* exit_reason(Generator& g, llvm::Value* task) {
  auto& b = g.b();
  llvm::Value* code = g.kernel_field(task, "task_struct", {"exit_code"});
  llvm::Value* signal = b.CreateAnd(code, g.const64(0x7f));
  llvm::Value* dumped = b.CreateICmpNE(b.CreateAnd(code, g.const64(0x80)), g.const64(0));
  llvm::Value* killed = b.CreateSelect(dumped, g.const64(3), g.const64(2));
  return b.CreateSelect(b.CreateICmpEQ(signal, g.const64(0)), g.const64(1), killed);
}

llvm::Value* is_thread(Generator& g, llvm::Value* task) {
  return g.b().CreateICmpNE(g.kernel_field(task, "task_struct", {"pid"}),
                            g.kernel_field(task, "task_struct", {"tgid"}));
}

llvm::GlobalVariable* new_task_map(Generator& g) {
  return g.hook_map({"proc_new_task", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, 8, BPF_F_NO_PREALLOC, true});
}

class ForkHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return kFork; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::ChildTask) return tracepoint_arg(g, 1);
    return Hook::arg(g, source);
  }
  llvm::Value* guard(Generator& g) const override {
    llvm::Value* thread = is_thread(g, tracepoint_arg(g, 1));
    return g.probe().name == "lwp-create" ? thread : g.b().CreateNot(thread);
  }
};

class ExecHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "tp_btf/sched_process_exec"; }
};

class ExitHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "tp_btf/sched_process_exit"; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::ExitReason) return exit_reason(g, tracepoint_arg(g, 0));
    return Hook::arg(g, source);
  }
  llvm::Value* guard(Generator& g) const override {
    // The process is gone when its last thread exits: no live threads remain in its signal struct.
    llvm::Value* live = g.kernel_field(tracepoint_arg(g, 0), "task_struct", {"signal", "live"});
    llvm::Value* last = g.b().CreateICmpEQ(g.b().CreateAnd(live, g.const64(0xffffffff)), g.const64(0));
    return g.probe().name == "exit" ? last : g.b().CreateNot(last);
  }
};

class SignalHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return "tp_btf/signal_generate"; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::SignalTarget) return tracepoint_arg(g, 2);
    if (source == ArgSource::SignalNumber) return g.b().CreateAnd(tracepoint_arg(g, 0), g.const64(0xffffffff));
    return Hook::arg(g, source);
  }
};

// start/lwp-start: fork marks the child (1: process, 2: thread) in task storage; the first switch
// onto a CPU of a marked task fires the probe in the new task's context and clears the mark.
class StartHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return kSwitch; }
  std::vector<std::string> sections(const probes::Probe&) const override { return {kFork, kSwitch}; }
  int attach_order(const probes::Probe&) const override { return kStartOrder; }
  bool context_is_current(const probes::Probe&) const override { return false; }
  llvm::Value* context_task(Generator& g) const override { return tracepoint_arg(g, kSwitchNext); }

  void emit(Generator& g, const std::string& section, const std::vector<const probes::Probe*>& probes) const override {
    auto& b = g.b();
    llvm::Value* null = llvm::ConstantPointerNull::get(g.ptr());
    if (section == kFork) {
      llvm::Value* child = tracepoint_arg(g, 1);
      llvm::Value* mark = b.CreateSelect(is_thread(g, child), g.const64(2), g.const64(1));
      llvm::Value* slot = g.mod().call_helper(
          BPF_FUNC_task_storage_get,
          {new_task_map(g), b.CreateIntToPtr(child, g.ptr()), null, g.const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
      g.when(b.CreateICmpNE(slot, g.const64(0)), [&] { b.CreateStore(mark, b.CreateIntToPtr(slot, g.ptr())); });
      return;
    }
    llvm::Value* next = tracepoint_arg(g, kSwitchNext);
    llvm::Value* slot =
        g.mod().call_helper(BPF_FUNC_task_storage_get, {new_task_map(g), b.CreateIntToPtr(next, g.ptr()), null,
                                                        g.const64(0)});
    g.when(b.CreateICmpNE(slot, g.const64(0)), [&] {
      llvm::Value* word = b.CreateIntToPtr(slot, g.ptr());
      llvm::Value* mark = b.CreateLoad(g.i64(), word);
      b.CreateStore(g.const64(0), word);
      for (const probes::Probe* probe : probes) {
        int64_t wanted = probe->name == "lwp-start" ? 2 : 1;
        g.when(b.CreateICmpEQ(mark, g.const64(wanted)), [&] { g.fire(*probe); });
      }
    });
  }

};

}  // namespace

const Hook* proc_hook(const probes::Probe& probe, std::string& error) {
  static const ForkHook fork;
  static const ExecHook exec;
  static const ExitHook exit;
  static const SignalHook signal;
  static const StartHook start;
  const std::string& name = probe.name;
  if (name == "create" || name == "lwp-create") return &fork;
  if (name == "exec-success") return &exec;
  if (name == "exit" || name == "lwp-exit") return &exit;
  if (name == "signal-send") return &signal;
  if (name == "start" || name == "lwp-start") return &start;
  error = "probe " + probe.full_name() + " is not available";
  return nullptr;
}

}  // namespace dsched::codegen
