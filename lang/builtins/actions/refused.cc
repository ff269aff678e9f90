// DTrace actions that Linux gives BPF programs no way to carry out. Each is refused where it is
// called, with the reason, rather than reported as an unknown function.
#include "lang/builtins/support.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class RefusedAction : public NamedFunction {
 public:
  RefusedAction(std::string_view name, Arity arity, const char* reason) : NamedFunction(name, arity), reason_(reason) {}
  bool destructive() const override { return true; }

  void check(Checker&, ExprPtr& call) const override {
    fail(call->loc, ErrTag::D_UNKNOWN, call->text + "() is not supported on Linux: " + reason_);
  }
  codegen::Value lower(codegen::Lowering&, const Expr& call) const override { return no_value(call); }

 private:
  const char* reason_;
};

const Registered<RefusedAction> breakpoint_action("breakpoint", Arity{0, 0},
                                                  "a BPF program cannot stop the kernel in a debugger");
const Registered<RefusedAction> panic_action("panic", Arity{0, 0}, "a BPF program cannot panic the kernel");

}  // namespace
}  // namespace dsched::lang
