// raise(signal): sends a signal to the current thread from the probe (destructive: needs -w).
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

class Raise : public NamedFunction {
 public:
  Raise() : NamedFunction("raise", {1, 1}) {}
  bool destructive() const override { return true; }
  Speculation speculation() const override { return Speculation::Destructive; }
  bool records() const override { return false; }

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the signal");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    llvm::Value* signal = l.exprs.eval_int(*call.operand(0));
    l.ir.helper(BPF_FUNC_send_signal, {l.ir.b().CreateTrunc(signal, l.ir.b().getInt32Ty())});
    return no_value(call);
  }
};

const Registered<Raise> registered;

}  // namespace
}  // namespace dsched::lang
