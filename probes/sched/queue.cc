// enqueue/dequeue with DTrace's dispatch-queue meaning: a thread is queued while it is runnable
// and waiting for a CPU. Each task's state (queued on CPU c, kept as c + 1, or 0) lives in task
// storage and changes on:
//   sched_wakeup / sched_wakeup_new of a task not queued and not on a CPU  -> enqueue on its CPU
//   sched_switch leaving prev runnable                                      -> enqueue prev here
//   sched_switch picking a queued next                                       -> dequeue next
//   sched_migrate_task of a queued task     -> dequeue from the old CPU, enqueue on the new one
// Every section tracks the state whether or not both probes are used; only used probes fire.
// Scripts without enqueue/dequeue carry none of it.
#include <linux/bpf.h>

#include <fstream>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/programs.h"
#include "probes/sched/sched.h"

namespace dsched::probes::sched {
namespace {

using codegen::Lowering;
using codegen::tracepoint_arg;

llvm::Value* not_idle(Lowering& l, llvm::Value* task) {
  return l.ir.b().CreateICmpNE(l.exprs.kernel_field(task, "task_struct", {"pid"}), l.ir.const64(0));
}

llvm::Value* task_cpu(Lowering& l, llvm::Value* task) {
  return l.exprs.kernel_field(task, "task_struct", {"thread_info", "cpu"});
}

// The state changes of one program, firing the probes the script uses.
class Transitions {
 public:
  Transitions(Lowering& l, const lang::Probe* enqueue, const lang::Probe* dequeue)
      : l_(l), enqueue_(enqueue), dequeue_(dequeue) {}

  // `head`: an i64, 1 when the task goes to the front of its queue (null: the back).
  void enqueue_if_idle(llvm::Value* task, llvm::Value* cpu, llvm::Value* head = nullptr) {
    auto& b = l_.ir.b();
    with_state(task, true, [&](llvm::Value* word, llvm::Value* value) {
      l_.ir.when(b.CreateICmpEQ(value, l_.ir.const64(0)), [&] {
        b.CreateStore(b.CreateAdd(cpu, l_.ir.const64(1)), word);
        if (enqueue_) l_.programs.fire(*enqueue_, {task, cpu, {head ? head : l_.ir.const64(0)}});
      });
    });
  }
  void dequeue_if_queued(llvm::Value* task) {
    auto& b = l_.ir.b();
    with_state(task, false, [&](llvm::Value* word, llvm::Value* value) {
      l_.ir.when(b.CreateICmpNE(value, l_.ir.const64(0)), [&] {
        b.CreateStore(l_.ir.const64(0), word);
        if (dequeue_) l_.programs.fire(*dequeue_, {task, b.CreateSub(value, l_.ir.const64(1))});
      });
    });
  }
  void migrate_if_queued(llvm::Value* task, llvm::Value* dest) {
    auto& b = l_.ir.b();
    with_state(task, false, [&](llvm::Value* word, llvm::Value* value) {
      l_.ir.when(b.CreateICmpNE(value, l_.ir.const64(0)), [&] {
        b.CreateStore(b.CreateAdd(dest, l_.ir.const64(1)), word);
        if (dequeue_) l_.programs.fire(*dequeue_, {task, b.CreateSub(value, l_.ir.const64(1))});
        if (enqueue_) l_.programs.fire(*enqueue_, {task, dest, {l_.ir.const64(0)}});
      });
    });
  }

 private:
  // Runs body(pointer to the state word, its value) when the task has storage (created, as 0,
  // when `create`).
  template <typename Body>
  void with_state(llvm::Value* task, bool create, Body body) {
    codegen::Ir& ir = l_.ir;
    llvm::GlobalVariable* states =
        l_.maps.hook_map({"queue_state", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, 8, BPF_F_NO_PREALLOC, true});
    llvm::Value* flags = ir.const64(create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
    llvm::Value* slot =
        ir.helper(BPF_FUNC_task_storage_get, {states, ir.b().CreateIntToPtr(task, ir.ptr()), ir.null(), flags});
    ir.when(ir.b().CreateICmpNE(slot, ir.const64(0)), [&] {
      llvm::Value* word = ir.b().CreateIntToPtr(slot, ir.ptr());
      body(word, ir.b().CreateLoad(ir.i64(), word));
    });
  }

  Lowering& l_;
  const lang::Probe* enqueue_;
  const lang::Probe* dequeue_;
};

// Where prev leaves the CPU still runnable: only the real-time class keeps an order a thread can
// go back into at the front. A SCHED_FIFO or SCHED_RR thread preempted (by a higher priority)
// stays at the head of its priority's list, as Solaris puts a preempted thread at the front of its
// dispatch queue; a SCHED_RR thread whose time slice ran out (given a new full slice) goes to the
// back. (One that calls sched_yield() goes to the back too, which the switch does not tell.) The
// fair class has no front or back.
llvm::Value* preempted_to_front(Lowering& l, llvm::Value* prev) {
  constexpr int64_t kFifo = 1, kRoundRobin = 2, kFirstFairPrio = 100;
  static const int64_t full_slice = [] {
    int64_t ms = 100;  // the kernel's default, when the tunable cannot be read
    std::ifstream("/proc/sys/kernel/sched_rr_timeslice_ms") >> ms;
    return ms * int64_t(kernel_hz()) / 1000;
  }();
  auto& b = l.ir.b();
  llvm::Value* prio = l.exprs.kernel_field(prev, "task_struct", {"prio"});
  llvm::Value* real_time = b.CreateAnd(b.CreateICmpSGE(prio, l.ir.const64(0)), b.CreateICmpSLT(prio, l.ir.const64(kFirstFairPrio)));
  llvm::Value* policy = l.exprs.kernel_field(prev, "task_struct", {"policy"});
  llvm::Value* slice = l.exprs.kernel_field(prev, "task_struct", {"rt", "time_slice"});
  llvm::Value* keeps_place = b.CreateOr(b.CreateICmpEQ(policy, l.ir.const64(kFifo)),
                                        b.CreateAnd(b.CreateICmpEQ(policy, l.ir.const64(kRoundRobin)),
                                                    b.CreateICmpNE(slice, l.ir.const64(full_slice))));
  return b.CreateZExt(b.CreateAnd(real_time, keeps_place), l.ir.i64());
}

class QueueHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override {
    return {kWakeup, kWakeupNew, kSwitch, kMigrate};
  }
  int attach_order(const lang::Probe&) const override { return kQueueOrder; }
  // args: the thread, twice (lwpsinfo_t and psinfo_t), the CPU, and (enqueue) whether it went to
  // the front of the queue.
  llvm::Value* arg(Lowering& l, int index) const override {
    if (index < 2) return l.firing.binding().task;
    if (index == 2) return l.firing.binding().cpu;
    const std::vector<llvm::Value*>& rest = l.firing.binding().args;
    return rest.empty() ? l.ir.const64(0) : rest[0];
  }

  void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const override {
    const lang::Probe* enqueue = nullptr;
    const lang::Probe* dequeue = nullptr;
    for (const lang::Probe* probe : probes) (probe->name == "enqueue" ? enqueue : dequeue) = probe;
    Transitions transitions(l, enqueue, dequeue);
    auto& b = l.ir.b();
    if (section == kSwitch) {
      llvm::Value* prev = tracepoint_arg(l, kSwitchPrev);
      llvm::Value* next = tracepoint_arg(l, kSwitchNext);
      llvm::Value* cpu = l.ir.helper(BPF_FUNC_get_smp_processor_id, {});
      l.ir.when(b.CreateAnd(prev_stays_runnable(l), not_idle(l, prev)),
                [&] { transitions.enqueue_if_idle(prev, cpu, preempted_to_front(l, prev)); });
      l.ir.when(not_idle(l, next), [&] { transitions.dequeue_if_queued(next); });
    } else if (section == kMigrate) {
      llvm::Value* task = tracepoint_arg(l, 0);
      llvm::Value* dest = b.CreateAnd(tracepoint_arg(l, 1), l.ir.const64(0xffffffff));
      transitions.migrate_if_queued(task, dest);
    } else {
      llvm::Value* task = tracepoint_arg(l, 0);
      // A wakeup of a task still on a CPU (it had not gone to sleep yet) queues nothing.
      llvm::Value* off_cpu =
          b.CreateICmpEQ(l.exprs.kernel_field(task, "task_struct", {"on_cpu"}), l.ir.const64(0));
      l.ir.when(off_cpu, [&] { transitions.enqueue_if_idle(task, task_cpu(l, task)); });
    }
  }
};

}  // namespace

const codegen::Hook& queue_hook() {
  static const QueueHook hook;
  return hook;
}

}  // namespace dsched::probes::sched
