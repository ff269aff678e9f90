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

  void enqueue_if_idle(llvm::Value* task, llvm::Value* cpu) {
    auto& b = l_.ir.b();
    with_state(task, true, [&](llvm::Value* word, llvm::Value* value) {
      l_.ir.when(b.CreateICmpEQ(value, l_.ir.const64(0)), [&] {
        b.CreateStore(b.CreateAdd(cpu, l_.ir.const64(1)), word);
        if (enqueue_) l_.programs.fire(*enqueue_, {task, cpu});
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
        if (enqueue_) l_.programs.fire(*enqueue_, {task, dest});
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

class QueueHook : public codegen::Hook {
 public:
  std::vector<std::string> sections(const lang::Probe&) const override {
    return {kWakeup, kWakeupNew, kSwitch, kMigrate};
  }
  int attach_order(const lang::Probe&) const override { return kQueueOrder; }
  // args: the thread, twice (lwpsinfo_t and psinfo_t), the CPU, and (enqueue) whether it went to
  // the front of the queue: Linux has no such notion, so 0 (the back).
  llvm::Value* arg(Lowering& l, int index) const override {
    if (index < 2) return l.firing.binding().task;
    if (index == 2) return l.firing.binding().cpu;
    return l.ir.const64(0);
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
                [&] { transitions.enqueue_if_idle(prev, cpu); });
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
