// sched provider on tracepoints and perf events (no kprobes, no fentry):
//   off-cpu, preempt, sleep, on-cpu  tp_btf/sched_switch(preempt, prev, next, prev_state)
//   wakeup                           tp_btf/sched_waking(task)
//   change-pri                       tp_btf/sched_pi_setprio(task, pi_task)
//   tick                             a cpu-clock perf event at the kernel's HZ on every CPU
//   enqueue, dequeue                 derived: see QueueHook
//   surrender                        tp_btf/ipi_send_cpu without a callback: a reschedule IPI
//                                    sent to another CPU; args name the thread running there
#include <algorithm>
#include <bpf/libbpf.h>
#include <fstream>
#include <linux/bpf.h>
#include <string_view>

#include "lang/codegen/generator.h"
#include "lang/codegen/hooks.h"

namespace dsched::codegen {
namespace {

using probes::ArgSource;

constexpr const char* kSwitch = "tp_btf/sched_switch";
constexpr const char* kWakeup = "tp_btf/sched_wakeup";
constexpr const char* kWakeupNew = "tp_btf/sched_wakeup_new";
constexpr const char* kMigrate = "tp_btf/sched_migrate_task";
constexpr const char* kIpi = "tp_btf/ipi_send_cpu";

// sched_switch context slots.
constexpr int kSwitchPreempt = 0;
constexpr int kSwitchPrev = 1;
constexpr int kSwitchNext = 2;
constexpr int kSwitchPrevState = 3;

// Firing order on sched_switch, as DTrace fires them: the outgoing thread's probes, then the
// run-queue changes (prev enqueued, next dequeued), then on-cpu.
constexpr int kOutgoingOrder = 0;
constexpr int kQueueOrder = 1;
constexpr int kIncomingOrder = 2;
constexpr int kCurrentTaskOrder = 3;

// True when the switch leaves prev runnable: a preemption, or prev's state still TASK_RUNNING.
llvm::Value* prev_stays_runnable(Generator& g) {
  auto& b = g.b();
  llvm::Value* preempt = b.CreateICmpNE(b.CreateAnd(tracepoint_arg(g, kSwitchPreempt), g.const64(0xff)), g.const64(0));
  llvm::Value* running =
      b.CreateICmpEQ(b.CreateAnd(tracepoint_arg(g, kSwitchPrevState), g.const64(0xffffffff)), g.const64(0));
  return b.CreateOr(preempt, running);
}

class SwitchHook : public Hook {
 public:
  explicit SwitchHook(bool incoming) : incoming_(incoming) {}
  std::string section(const probes::Probe&) const override { return kSwitch; }
  int attach_order(const probes::Probe&) const override { return incoming_ ? kIncomingOrder : kOutgoingOrder; }
  bool context_is_current(const probes::Probe&) const override { return !incoming_; }
  llvm::Value* context_task(Generator& g) const override {
    return incoming_ ? tracepoint_arg(g, kSwitchNext) : Hook::context_task(g);
  }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::NextTask) return tracepoint_arg(g, kSwitchNext);
    return Hook::arg(g, source);
  }
  llvm::Value* guard(Generator& g) const override {
    const std::string& name = g.probe().name;
    if (name == "preempt") return prev_stays_runnable(g);
    if (name == "sleep") return g.b().CreateNot(prev_stays_runnable(g));
    return nullptr;
  }

 private:
  bool incoming_;
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
    llvm::Value* normal = g.kernel_field(tracepoint_arg(g, 0), "task_struct", {"normal_prio"});
    llvm::Value* pi = tracepoint_arg(g, 1);
    llvm::Value* boosted = g.kernel_field(pi, "task_struct", {"prio"});
    llvm::Value* boosts = b.CreateAnd(b.CreateICmpNE(pi, g.const64(0)), b.CreateICmpSLT(boosted, normal));
    return b.CreateSelect(boosts, boosted, normal);
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
  bool arg_is_btf(ArgSource) const override { return true; }  // the current task, from its BTF helper
};

// enqueue/dequeue with DTrace's dispatch-queue meaning: a thread is queued while it is runnable
// and waiting for a CPU. Each task's state (queued on CPU c, kept as c + 1, or 0) lives in task
// storage and changes on:
//   sched_wakeup / sched_wakeup_new of a task not queued and not on a CPU  -> enqueue on its CPU
//   sched_switch leaving prev runnable                                      -> enqueue prev here
//   sched_switch picking a queued next                                       -> dequeue next
//   sched_migrate_task of a queued task     -> dequeue from the old CPU, enqueue on the new one
// Every section tracks the state whether or not both probes are used; only used probes fire.
class QueueHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return kSwitch; }
  std::vector<std::string> sections(const probes::Probe&) const override {
    return {kWakeup, kWakeupNew, kSwitch, kMigrate};
  }
  int attach_order(const probes::Probe&) const override { return kQueueOrder; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::QueuedTask) return g.binding().task;
    if (source == ArgSource::QueueCpu) return g.binding().cpu;
    if (source == ArgSource::QueueAtFront) return g.const64(0);
    return Hook::arg(g, source);
  }

  void emit(Generator& g, const std::string& section, const std::vector<const probes::Probe*>& probes) const override {
    const probes::Probe* enqueue = nullptr;
    const probes::Probe* dequeue = nullptr;
    for (const probes::Probe* probe : probes) (probe->name == "enqueue" ? enqueue : dequeue) = probe;
    Events events{g, enqueue, dequeue};
    if (section == kSwitch) {
      llvm::Value* prev = tracepoint_arg(g, kSwitchPrev);
      llvm::Value* next = tracepoint_arg(g, kSwitchNext);
      llvm::Value* cpu = g.mod().call_helper(BPF_FUNC_get_smp_processor_id, {});
      g.when(g.b().CreateAnd(prev_stays_runnable(g), not_idle(g, prev)),
                  [&] { events.enqueue_if_idle(prev, cpu); });
      g.when(not_idle(g, next), [&] { events.dequeue_if_queued(next); });
    } else if (section == kMigrate) {
      llvm::Value* task = tracepoint_arg(g, 0);
      llvm::Value* dest = g.b().CreateAnd(tracepoint_arg(g, 1), g.const64(0xffffffff));
      events.migrate_if_queued(task, dest);
    } else {
      llvm::Value* task = tracepoint_arg(g, 0);
      // A wakeup of a task still on a CPU (it had not gone to sleep yet) queues nothing.
      llvm::Value* off_cpu = g.b().CreateICmpEQ(g.kernel_field(task, "task_struct", {"on_cpu"}), g.const64(0));
      g.when(off_cpu, [&] { events.enqueue_if_idle(task, task_cpu(g, task)); });
    }
  }

 private:
  static llvm::Value* not_idle(Generator& g, llvm::Value* task) {
    return g.b().CreateICmpNE(g.kernel_field(task, "task_struct", {"pid"}), g.const64(0));
  }
  static llvm::Value* task_cpu(Generator& g, llvm::Value* task) {
    return g.kernel_field(task, "task_struct", {"thread_info", "cpu"});
  }

  struct Events {
    Generator& g;
    const probes::Probe* enqueue;
    const probes::Probe* dequeue;

    llvm::GlobalVariable* state_map() {
      return g.hook_map({"queue_state", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, 8, BPF_F_NO_PREALLOC, true});
    }
    // The task's state word, or null; created (as 0) when `create`.
    llvm::Value* state(llvm::Value* task, bool create) {
      llvm::Value* null = llvm::ConstantPointerNull::get(g.ptr());
      llvm::Value* flags = g.const64(create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
      return g.mod().call_helper(BPF_FUNC_task_storage_get,
                                 {state_map(), g.b().CreateIntToPtr(task, g.ptr()), null, flags});
    }
    // Runs body(pointer to the state word, its value) when the task has storage.
    template <typename Body>
    void with_state(llvm::Value* task, bool create, Body body) {
      llvm::Value* slot = state(task, create);
      g.when(g.b().CreateICmpNE(slot, g.const64(0)), [&] {
        llvm::Value* word = g.b().CreateIntToPtr(slot, g.ptr());
        body(word, g.b().CreateLoad(g.i64(), word));
      });
    }
    void enqueue_if_idle(llvm::Value* task, llvm::Value* cpu) {
      with_state(task, true, [&](llvm::Value* word, llvm::Value* value) {
        g.when(g.b().CreateICmpEQ(value, g.const64(0)), [&] {
          g.b().CreateStore(g.b().CreateAdd(cpu, g.const64(1)), word);
          if (enqueue) g.fire(*enqueue, {task, cpu});
        });
      });
    }
    void dequeue_if_queued(llvm::Value* task) {
      with_state(task, false, [&](llvm::Value* word, llvm::Value* value) {
        g.when(g.b().CreateICmpNE(value, g.const64(0)), [&] {
          g.b().CreateStore(g.const64(0), word);
          if (dequeue) g.fire(*dequeue, {task, g.b().CreateSub(value, g.const64(1))});
        });
      });
    }
    void migrate_if_queued(llvm::Value* task, llvm::Value* dest) {
      with_state(task, false, [&](llvm::Value* word, llvm::Value* value) {
        g.when(g.b().CreateICmpNE(value, g.const64(0)), [&] {
          g.b().CreateStore(g.b().CreateAdd(dest, g.const64(1)), word);
          if (dequeue) g.fire(*dequeue, {task, g.b().CreateSub(value, g.const64(1))});
          if (enqueue) g.fire(*enqueue, {task, dest});
        });
      });
    }
  };
};

// surrender: the kernel asks another CPU to reschedule through smp_send_reschedule(), which
// traces ipi_send_cpu with no callback. The thread it asks is whatever runs on that CPU, which
// sched_switch keeps in a per-CPU array for this purpose.
class SurrenderHook : public Hook {
 public:
  std::string section(const probes::Probe&) const override { return kIpi; }
  std::vector<std::string> sections(const probes::Probe&) const override { return {kSwitch, kIpi}; }
  int attach_order(const probes::Probe&) const override { return kCurrentTaskOrder; }
  llvm::Value* arg(Generator& g, ArgSource source) const override {
    if (source == ArgSource::InterruptedTask) return g.binding().task;
    return Hook::arg(g, source);
  }
  // The task comes out of a map: a plain number to the verifier.
  bool arg_is_btf(ArgSource) const override { return false; }

  void emit(Generator& g, const std::string& section, const std::vector<const probes::Probe*>& probes) const override {
    auto& b = g.b();
    llvm::Value* key = g.stack_slot();
    auto current_task_slot = [&](llvm::Value* cpu) {
      b.CreateStore(cpu, key);
      uint32_t cpus = static_cast<uint32_t>(std::max(libbpf_num_possible_cpus(), 1));
      llvm::GlobalVariable* map = g.hook_map({"cpu_current_task", BPF_MAP_TYPE_ARRAY, cpus, 4, 8, 0, false});
      return g.mod().call_helper(BPF_FUNC_map_lookup_elem, {map, key});
    };
    llvm::Value* this_cpu = g.mod().call_helper(BPF_FUNC_get_smp_processor_id, {});
    if (section == kSwitch) {
      llvm::Value* slot = current_task_slot(this_cpu);
      g.when(b.CreateICmpNE(slot, g.const64(0)),
             [&] { b.CreateStore(tracepoint_arg(g, kSwitchNext), b.CreateIntToPtr(slot, g.ptr())); });
      return;
    }
    llvm::Value* target = b.CreateAnd(tracepoint_arg(g, 0), g.const64(0xffffffff));
    llvm::Value* reschedule = b.CreateICmpEQ(tracepoint_arg(g, 2), g.const64(0));
    g.when(b.CreateAnd(reschedule, b.CreateICmpNE(target, this_cpu)), [&] {
      llvm::Value* slot = current_task_slot(target);
      g.when(b.CreateICmpNE(slot, g.const64(0)), [&] {
        llvm::Value* task = b.CreateLoad(g.i64(), b.CreateIntToPtr(slot, g.ptr()));
        g.when(b.CreateICmpNE(task, g.const64(0)), [&] {
          for (const probes::Probe* probe : probes) g.fire(*probe, {task, target});
        });
      });
    });
  }
};

}  // namespace

const Hook* sched_hook(const probes::Probe& probe, std::string& error) {
  static const SwitchHook outgoing(false);
  static const SwitchHook incoming(true);
  static const WakingHook waking;
  static const PrioHook priority;
  static const TickHook tick;
  static const QueueHook queue;
  static const SurrenderHook surrender;
  const std::string& name = probe.name;
  if (name == "off-cpu" || name == "preempt" || name == "sleep") return &outgoing;
  if (name == "on-cpu") return &incoming;
  if (name == "wakeup") return &waking;
  if (name == "change-pri") return &priority;
  if (name == "tick") return &tick;
  if (name == "enqueue" || name == "dequeue") return &queue;
  if (name == "surrender") return &surrender;
  error = "probe " + probe.full_name() + " is not available yet";
  return nullptr;
}

}  // namespace dsched::codegen
