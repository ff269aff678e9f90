// Time: timestamp (nanoseconds since boot, CLOCK_MONOTONIC, the same throughout a clause), vtimestamp (the context thread's
// time on CPU), walltimestamp (nanoseconds since the epoch).
#include <ctime>
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

class Timestamp : public NamedVariable {
 public:
  Timestamp() : NamedVariable("timestamp", "uint64_t") {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.firing.clause_timestamp(), use.type};
  }
};

class Vtimestamp : public NamedVariable {
 public:
  Vtimestamp() : NamedVariable("vtimestamp", "uint64_t") {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.exprs.kernel_field(l.firing.context_task(), "task_struct", {"se", "sum_exec_runtime"}, use.loc),
            use.type};
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
