// Time: timestamp (nanoseconds since boot, CLOCK_MONOTONIC, the same throughout a clause), vtimestamp (the context thread's
// time on CPU, to the nanosecond), walltimestamp (nanoseconds since the epoch).
#include <ctime>
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"

namespace dsched::lang {
namespace {

class Timestamp : public NamedVariable {
 public:
  Timestamp() : NamedVariable("timestamp", "uint64_t") {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.firing.clause_timestamp(), use.type};
  }
};

// The kernel adds to a task's sum_exec_runtime only at ticks and as it leaves a CPU, so while it
// runs the sum stands still between ticks. Where the probe's thread runs, it keeps an anchor: the
// sum it last saw and when. While the sum is the same, the thread has run all the time since
// (leaving the CPU would have added to it), and vtimestamp is the sum plus the time since the
// anchor; a new sum sets a new anchor. Where the thread is not running (off-cpu: it is leaving,
// its sum complete), vtimestamp is the sum and the anchor is dropped, so that the time off the CPU
// never counts. The sum leaves out time stolen by the hypervisor and spent in interrupts, which
// the clock counts, so a new sum may fall short of the last value given: vtimestamp never goes
// back.
class Vtimestamp : public NamedVariable {
 public:
  Vtimestamp() : NamedVariable("vtimestamp", "uint64_t") {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* task = l.firing.context_task();
    llvm::Value* runtime = l.exprs.kernel_field(task, "task_struct", {"se", "sum_exec_runtime"}, use.loc);
    llvm::Value* now = ir.helper(BPF_FUNC_ktime_get_ns, {});
    llvm::GlobalVariable* anchors =
        l.maps.hook_map({"vtimestamp_anchor", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, 24, BPF_F_NO_PREALLOC, true});
    llvm::Value* slot = ir.helper(BPF_FUNC_task_storage_get, {anchors, b.CreateIntToPtr(task, ir.ptr()), ir.null(),
                                                              ir.const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
    llvm::Value* result = ir.stack_slot();
    b.CreateStore(runtime, result);
    ir.when(b.CreateICmpNE(slot, ir.const64(0)), [&] {
      llvm::Value* anchored_sum = b.CreateIntToPtr(slot, ir.ptr());
      llvm::Value* anchored_at = ir.offset_ptr(anchored_sum, 8);
      llvm::Value* last_given = ir.offset_ptr(anchored_sum, 16);
      // A new task's sum is 0 until its first tick: an anchor is there only once it has a time.
      llvm::Value* anchored_when = b.CreateLoad(ir.i64(), anchored_at);
      llvm::Value* same = b.CreateAnd(b.CreateICmpEQ(b.CreateLoad(ir.i64(), anchored_sum), runtime),
                                      b.CreateICmpNE(anchored_when, ir.const64(0)));
      const bool running = l.firing.context_is_running();
      if (!running) same = b.getFalse();
      llvm::Value* since = b.CreateSub(now, anchored_when);
      llvm::Value* value = b.CreateSelect(same, b.CreateAdd(runtime, since), runtime);
      llvm::Value* last = b.CreateLoad(ir.i64(), last_given);
      value = b.CreateSelect(b.CreateICmpUGT(last, value), last, value);
      b.CreateStore(value, result);
      b.CreateStore(value, last_given);
      ir.when(b.CreateNot(same), [&] {
        b.CreateStore(runtime, anchored_sum);
        b.CreateStore(running ? now : ir.const64(0), anchored_at);
      });
    });
    return {b.CreateLoad(ir.i64(), result), use.type};
  }
};

// CLOCK_REALTIME minus CLOCK_BOOTTIME now: added to the kernel's boot clock it gives wall time.
int64_t wall_clock_offset() {
  timespec real{}, boot{};
  clock_gettime(CLOCK_REALTIME, &real);
  clock_gettime(CLOCK_BOOTTIME, &boot);
  return (real.tv_sec - boot.tv_sec) * 1000000000ll + (real.tv_nsec - boot.tv_nsec);
}

class Walltimestamp : public NamedVariable {
 public:
  Walltimestamp() : NamedVariable("walltimestamp", "int64_t") {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.ir.b().CreateAdd(l.ir.helper(BPF_FUNC_ktime_get_boot_ns, {}), l.ir.const64(wall_clock_offset())),
            use.type};
  }
};

const Registered<Timestamp> timestamp;
const Registered<Vtimestamp> vtimestamp;
const Registered<Walltimestamp> walltimestamp;

}  // namespace
}  // namespace dsched::lang
