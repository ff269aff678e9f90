// raise(signal) and stop(): signals to the current process from the probe (destructive: need -w).
// stop() is DTrace's way to stop the process that fired the probe; on Linux that is SIGSTOP, and
// `kill -CONT` (or prun) lets it go on.
#include <linux/bpf.h>
#include <signal.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

class SignalAction : public NamedFunction {
 public:
  // `fixed`: the signal a call without arguments sends; 0: the signal is the argument.
  SignalAction(std::string_view name, int fixed) : NamedFunction(name, fixed ? Arity{0, 0} : Arity{1, 1}), fixed_(fixed) {}
  bool destructive() const override { return true; }
  Speculation speculation() const override { return Speculation::Destructive; }
  bool records() const override { return false; }

  void check(Checker& c, ExprPtr& call) const override {
    if (!fixed_) check_integer_arg(c, *call, 0, "the signal");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    llvm::Value* signal = fixed_ ? l.ir.const64(fixed_) : l.exprs.eval_int(*call.operand(0));
    l.ir.helper(BPF_FUNC_send_signal, {l.ir.b().CreateTrunc(signal, l.ir.b().getInt32Ty())});
    return no_value(call);
  }

 private:
  int fixed_;
};

const Registered<SignalAction> raise_action("raise", 0);
const Registered<SignalAction> stop_action("stop", SIGSTOP);

}  // namespace
}  // namespace dsched::lang
