// rand(): a pseudo-random integer in DTrace's range, [0, 1771875): DTrace steps a linear
// congruential generator modulo 1771875. The kernel's random bits reduced to that range print as
// DTrace's do (never negative as an int) and scale the same under `rand() % n`.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

constexpr int64_t kRange = 1771875;

class Rand : public Subroutine {
 public:
  Rand() : Subroutine("rand", {0, 0}) {}
  void check(Checker& c, ExprPtr& call) const override { call->type = c.types().integer(4, true); }
  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    return {l.ir.b().CreateURem(l.ir.helper(BPF_FUNC_get_prandom_u32, {}), l.ir.const64(kRange)), call.type};
  }
};

const Registered<Rand> registered;

}  // namespace
}  // namespace dsched::lang
