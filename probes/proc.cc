// proc provider: process and thread life cycle, typed as in DTrace's documentation.
//   create, lwp-create   tp_btf/sched_process_fork(parent, child): a new process / a new thread
//   exec                 tp_btf/sys_enter(regs, id) of execve and execveat: the path, before the new
//                        program is loaded (its args[0], a string read from the caller's memory)
//   exec-failure         tp_btf/sys_exit(regs, ret) of those calls when they fail: the errno
//   exec-success         tp_btf/sched_process_exec(task, old_pid, bprm)
//   exit, lwp-exit       tp_btf/sched_process_exit(task, ...): the last thread / every thread
//   start, lwp-start     the new task's first sched_switch onto a CPU (marked at fork), in its context:
//                        start for a process, then lwp-start for every new thread, the first included
//   signal-send          tp_btf/signal_generate(sig, info, task, group, result), when the signal is
//                        queued (result TRACE_SIGNAL_DELIVERED or TRACE_SIGNAL_LOSE_INFO)
//   signal-discard       the same, when the target ignores the signal (result TRACE_SIGNAL_IGNORED)
//   signal-handle        tp_btf/signal_deliver(sig, info, ka): the signal's action (a handler, or the
//                        default) is about to be taken, in its thread
#include <asm/unistd.h>
#include <linux/bpf.h>

#include <algorithm>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/programs.h"
#include "lang/provider.h"

namespace dsched::probes {
namespace {

using codegen::Lowering;
using codegen::tracepoint_arg;

constexpr const char* kFork = "tp_btf/sched_process_fork";
constexpr const char* kSwitch = "tp_btf/sched_switch";
constexpr int kSwitchNext = 2;
constexpr int kStartOrder = 3;  // after the sched provider's probes on the same switch
constexpr const char* kTask = "struct task_struct *";

llvm::Value* task_field(Lowering& l, llvm::Value* task, const std::vector<const char*>& path) {
  return l.exprs.kernel_field(task, "task_struct", path);
}

// CLD_EXITED, CLD_KILLED, CLD_DUMPED from the task's exit code, as wait(2) decodes it.
llvm::Value* exit_reason(Lowering& l, llvm::Value* task) {
  auto& b = l.ir.b();
  llvm::Value* code = task_field(l, task, {"exit_code"});
  llvm::Value* signal = b.CreateAnd(code, l.ir.const64(0x7f));
  llvm::Value* dumped = b.CreateICmpNE(b.CreateAnd(code, l.ir.const64(0x80)), l.ir.const64(0));
  llvm::Value* killed = b.CreateSelect(dumped, l.ir.const64(3), l.ir.const64(2));
  return b.CreateSelect(b.CreateICmpEQ(signal, l.ir.const64(0)), l.ir.const64(1), killed);
}

llvm::Value* is_thread(Lowering& l, llvm::Value* task) {
  return l.ir.b().CreateICmpNE(task_field(l, task, {"pid"}), task_field(l, task, {"tgid"}));
}

class ForkHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {kFork}; }
  llvm::Value* arg(Lowering& l, int) const override { return tracepoint_arg(l, 1); }  // the child
  llvm::Value* guard(Lowering& l) const override {
    llvm::Value* thread = is_thread(l, tracepoint_arg(l, 1));
    return l.firing.probe().name == "lwp-create" ? thread : l.ir.b().CreateNot(thread);
  }
};

class ExecHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"tp_btf/sched_process_exec"}; }
};

// exec and exec-failure: the system calls that run a program, made by a 64-bit task.
llvm::Value* is_exec_call(Lowering& l, llvm::Value* number) {
  auto& b = l.ir.b();
  constexpr uint64_t kCompat = 0x0002;  // TS_COMPAT in thread_info.status: a 32-bit call
  llvm::Value* status = l.exprs.kernel_field(l.firing.context_task(), "task_struct", {"thread_info", "status"});
  llvm::Value* native = b.CreateICmpEQ(b.CreateAnd(status, l.ir.const64(kCompat)), l.ir.const64(0));
  llvm::Value* exec = b.CreateOr(b.CreateICmpEQ(number, l.ir.const64(__NR_execve)),
                                 b.CreateICmpEQ(number, l.ir.const64(__NR_execveat)));
  return b.CreateAnd(exec, native);
}

llvm::Value* register_of(Lowering& l, const char* name) {
  return l.exprs.kernel_field(tracepoint_arg(l, 0), "pt_regs", {name});
}

class ExecCallHook : public codegen::Hook {
 public:
  explicit ExecCallHook(bool entry) : entry_(entry) {}
  std::vector<std::string> sections(const lang::Probe&) const override {
    return {entry_ ? "tp_btf/sys_enter" : "tp_btf/sys_exit"};
  }
  llvm::Value* guard(Lowering& l) const override {
    if (entry_) return is_exec_call(l, tracepoint_arg(l, 1));
    auto& b = l.ir.b();
    llvm::Value* failed = b.CreateICmpSLT(tracepoint_arg(l, 1), l.ir.const64(0));
    return b.CreateAnd(is_exec_call(l, register_of(l, "orig_ax")), failed);
  }
  llvm::Value* arg(Lowering& l, int) const override {
    auto& b = l.ir.b();
    if (!entry_) return b.CreateNeg(tracepoint_arg(l, 1));  // the errno
    // execve(path, ...) and execveat(dirfd, path, ...)
    llvm::Value* is_execve = b.CreateICmpEQ(tracepoint_arg(l, 1), l.ir.const64(__NR_execve));
    return b.CreateSelect(is_execve, register_of(l, "di"), register_of(l, "si"));
  }

 private:
  bool entry_;
};

class ExitHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"tp_btf/sched_process_exit"}; }
  llvm::Value* arg(Lowering& l, int) const override { return exit_reason(l, tracepoint_arg(l, 0)); }
  llvm::Value* guard(Lowering& l) const override {
    // The process is gone when its last thread exits: no live threads remain in its signal struct.
    llvm::Value* live = task_field(l, tracepoint_arg(l, 0), {"signal", "live"});
    if (l.firing.probe().name == "lwp-exit") return nullptr;  // as in DTrace, the last thread too
    return l.ir.b().CreateICmpEQ(l.ir.b().CreateAnd(live, l.ir.const64(0xffffffff)), l.ir.const64(0));
  }
  // The thread's exit comes first, then the process's, as DTrace fires lwp-exit in lwp_exit()
  // before proc_exit() fires exit.
  void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override {
    std::vector<const lang::Probe*> ordered = probes;
    std::ranges::stable_partition(ordered, [](const lang::Probe* probe) { return probe->name == "lwp-exit"; });
    Hook::emit(l, section, ordered);
  }
};

// The signal number, the int first argument of the signal tracepoints.
llvm::Value* signal_number(Lowering& l) { return l.ir.b().CreateAnd(tracepoint_arg(l, 0), l.ir.const64(0xffffffff)); }

class SignalHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"tp_btf/signal_generate"}; }
  llvm::Value* arg(Lowering& l, int index) const override {
    if (index < 2) return tracepoint_arg(l, 2);  // the task receiving the signal
    return signal_number(l);
  }
  llvm::Value* guard(Lowering& l) const override {
    auto& b = l.ir.b();
    // enum trace_signal_result: a signal ignored, already pending or without room is not sent.
    constexpr int64_t kDelivered = 0, kIgnored = 1, kLoseInfo = 4;
    llvm::Value* result = b.CreateAnd(tracepoint_arg(l, 4), l.ir.const64(0xffffffff));
    if (l.firing.probe().name == "signal-discard") return b.CreateICmpEQ(result, l.ir.const64(kIgnored));
    return b.CreateOr(b.CreateICmpEQ(result, l.ir.const64(kDelivered)), b.CreateICmpEQ(result, l.ir.const64(kLoseInfo)));
  }
};

// A thread killed with its process reports SIGKILL; the signal that ended the process is in
// signal->group_exit_code, and DTrace reports that one.
llvm::Value* delivered_signal(Lowering& l) {
  auto& b = l.ir.b();
  constexpr int64_t kSigkill = 9;
  llvm::Value* signal = signal_number(l);
  llvm::Value* fatal =
      b.CreateAnd(task_field(l, l.firing.context_task(), {"signal", "group_exit_code"}), l.ir.const64(0x7f));
  llvm::Value* group_kill =
      b.CreateAnd(b.CreateICmpEQ(signal, l.ir.const64(kSigkill)), b.CreateICmpNE(fatal, l.ir.const64(0)));
  return b.CreateSelect(group_kill, fatal, signal);
}

class SignalHandleHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {"tp_btf/signal_deliver"}; }
  llvm::Value* arg(Lowering& l, int index) const override {
    if (index == 0) return delivered_signal(l);
    if (index == 1) return tracepoint_arg(l, 1);  // the siginfo
    return l.exprs.kernel_field(tracepoint_arg(l, 2), "k_sigaction", {"sa", "sa_handler"});
  }
};

// start/lwp-start: fork marks the child (1: process, 2: thread) in task storage; the first switch
// onto a CPU of a marked task fires the probe in the new task's context and clears the mark.
class StartHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override { return {kFork, kSwitch}; }
  int attach_order(const lang::Probe&) const override { return kStartOrder; }
  bool context_is_current(const lang::Probe&) const override { return false; }
  llvm::Value* context_task(Lowering& l) const override { return tracepoint_arg(l, kSwitchNext); }

  void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::GlobalVariable* marks =
        l.maps.hook_map({"proc_new_task", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, 8, BPF_F_NO_PREALLOC, true});
    if (section == kFork) {
      llvm::Value* child = tracepoint_arg(l, 1);
      llvm::Value* mark = b.CreateSelect(is_thread(l, child), ir.const64(2), ir.const64(1));
      llvm::Value* slot = ir.helper(BPF_FUNC_task_storage_get, {marks, b.CreateIntToPtr(child, ir.ptr()), ir.null(),
                                                                ir.const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
      ir.when(b.CreateICmpNE(slot, ir.const64(0)), [&] { b.CreateStore(mark, b.CreateIntToPtr(slot, ir.ptr())); });
      return;
    }
    llvm::Value* next = tracepoint_arg(l, kSwitchNext);
    llvm::Value* slot =
        ir.helper(BPF_FUNC_task_storage_get, {marks, b.CreateIntToPtr(next, ir.ptr()), ir.null(), ir.const64(0)});
    ir.when(b.CreateICmpNE(slot, ir.const64(0)), [&] {
      llvm::Value* word = b.CreateIntToPtr(slot, ir.ptr());
      llvm::Value* mark = b.CreateLoad(ir.i64(), word);
      b.CreateStore(ir.const64(0), word);
      // start, then lwp-start (a process's first thread is a new thread too).
      for (const lang::Probe* probe : probes)
        if (probe->name == "start") ir.when(b.CreateICmpEQ(mark, ir.const64(1)), [&] { l.programs.fire(*probe); });
      for (const lang::Probe* probe : probes)
        if (probe->name == "lwp-start") ir.when(b.CreateICmpNE(mark, ir.const64(0)), [&] { l.programs.fire(*probe); });
    });
  }
};

class ProcProvider : public lang::Provider {
 public:
  std::string_view name() const override { return "proc"; }

  std::vector<lang::Probe> probes() const override {
    auto probe = [&](const char* name, std::vector<lang::ProbeArg> args) {
      return lang::Probe{0, "proc", "vmlinux", "", name, std::move(args), "", this};
    };
    return {
        probe("create", {{kTask, "psinfo_t *"}}),
        probe("exec", {{"string", ""}}),
        probe("exec-failure", {{"int", ""}}),
        probe("exec-success", {}),
        probe("exit", {{"int", ""}}),
        probe("lwp-create", {{kTask, "lwpsinfo_t *"}, {kTask, "psinfo_t *"}}),
        probe("lwp-exit", {}),
        probe("lwp-start", {}),
        probe("signal-discard", {{kTask, "lwpsinfo_t *"}, {kTask, "psinfo_t *"}, {"int", ""}}),
        probe("signal-handle", {{"int", ""}, {"struct kernel_siginfo *", ""}, {"void *", ""}}),
        probe("signal-send", {{kTask, "lwpsinfo_t *"}, {kTask, "psinfo_t *"}, {"int", ""}}),
        probe("start", {}),
    };
  }

  const codegen::Hook& hook(const lang::Probe& probe) const override {
    const std::string& name = probe.name;
    if (name == "create" || name == "lwp-create") return fork_;
    if (name == "exec") return exec_call_;
    if (name == "exec-failure") return exec_failure_;
    if (name == "exec-success") return exec_;
    if (name == "exit" || name == "lwp-exit") return exit_;
    if (name == "signal-send" || name == "signal-discard") return signal_;
    if (name == "signal-handle") return signal_handle_;
    return start_;
  }

 private:
  ForkHook fork_;
  ExecCallHook exec_call_{true};
  ExecCallHook exec_failure_{false};
  ExecHook exec_;
  ExitHook exit_;
  SignalHook signal_;
  SignalHandleHook signal_handle_;
  StartHook start_;
};

const lang::RegisteredProvider<ProcProvider> registered;

}  // namespace
}  // namespace dsched::probes
