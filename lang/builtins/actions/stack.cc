// stack() and ustack(): not available yet; refused where they are used.
#include "lang/builtins/support.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Stack : public NamedFunction {
 public:
  Stack(std::string_view name, Arity arity) : NamedFunction(name, arity) {}
  void check(Checker&, ExprPtr& call) const override {
    fail(call->loc, std::string(name()) + "() is not supported yet: dsched cannot record stacks");
  }
  codegen::Value lower(codegen::Lowering&, const Expr& call) const override { return no_value(call); }
};

const Registered<Stack> stack("stack", Arity{0, 1});
const Registered<Stack> ustack("ustack", Arity{0, 2});
const Registered<Stack> jstack("jstack", Arity{0, 2});

}  // namespace
}  // namespace dsched::lang
