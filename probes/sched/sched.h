// The sched provider's pieces shared between its files: the tracepoints it hooks, the slots of
// sched_switch's context, the firing order on sched_switch, and its derived hooks.
#pragma once

#include "lang/codegen/hook.h"

namespace dsched::probes::sched {

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
// run-queue changes (prev enqueued, next dequeued), then on-cpu, then whoever watches the current
// task.
constexpr int kOutgoingOrder = 0;
constexpr int kQueueOrder = 1;
constexpr int kIncomingOrder = 2;
constexpr int kCurrentTaskOrder = 3;

// True when the switch leaves prev runnable: a preemption, or prev's state still TASK_RUNNING.
llvm::Value* prev_stays_runnable(codegen::Lowering& l);

// The kernel's tick rate, from its build configuration; 250 (Debian's) when unknown.
uint64_t kernel_hz();

// enqueue/dequeue (queue.cc) and surrender (surrender.cc).
const codegen::Hook& queue_hook();
const codegen::Hook& surrender_hook();

}  // namespace dsched::probes::sched
