// chill(nanoseconds): spins on the CPU for that long in probe context (destructive: needs -w), as
// DTrace's chill() does to widen race windows. DTrace refuses to chill a CPU for more than 500 ms
// at once (chill_max); a longer request is an illegal-operation fault, as there.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/lowering.h"
#include "lang/codegen/records.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

constexpr int64_t kMostNanoseconds = 500'000'000;
// bpf_loop() runs at most 2^23 iterations; one inside another reaches any spin up to the limit.
constexpr uint64_t kOuterIterations = 1 << 12, kInnerIterations = 1 << 20;

class Chill : public NamedFunction {
 public:
  Chill() : NamedFunction("chill", {1, 1}) {}
  bool destructive() const override { return true; }
  Speculation speculation() const override { return Speculation::Destructive; }
  bool records() const override { return false; }

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the time in nanoseconds");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* nanoseconds = l.exprs.eval_int(*call.operand(0));
    l.records.check_fault(b.CreateICmpUGT(nanoseconds, ir.const64(kMostNanoseconds)), abi::FaultKind::IllegalOperation);
    llvm::Value* deadline = ir.stack_slot();
    b.CreateStore(b.CreateAdd(ir.helper(BPF_FUNC_ktime_get_ns, {}), nanoseconds), deadline);
    auto passed = [&](llvm::Value* context) {
      return ir.widen(b.CreateICmpUGE(ir.helper(BPF_FUNC_ktime_get_ns, {}), b.CreateLoad(ir.i64(), context)));
    };
    l.strings.callback_loop(kOuterIterations, deadline, "chill", [&](llvm::Value*, llvm::Value* context) {
      l.strings.callback_loop(kInnerIterations, context, "chill_spin",
                              [&](llvm::Value*, llvm::Value* inner) { return passed(inner); });
      return passed(context);
    });
    return no_value(call);
  }
};

const Registered<Chill> chill_action;

}  // namespace
}  // namespace dsched::lang
