// rand(): a pseudo-random integer.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

class Rand : public Subroutine {
 public:
  Rand() : Subroutine("rand", {0, 0}) {}
  void check(Checker& c, ExprPtr& call) const override { call->type = c.types().integer(4, true); }
  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    return {l.ir.helper(BPF_FUNC_get_prandom_u32, {}), call.type};
  }
};

const Registered<Rand> registered;

}  // namespace
}  // namespace dsched::lang
