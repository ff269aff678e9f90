// uregs[]: the user registers of the thread the probe fires in, saved as it entered the kernel (or
// at the uprobe). The indexes are DTrace for Linux's on x86-64 (stdlib/regs.d: R_PC, R_SP, R_RAX...),
// the words of struct pt_regs; R_DS..R_GS and R_TRAPNO are not saved there and are refused.
#include "lang/builtins/support.h"
#include "lang/codegen/user_registers.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Uregs : public NamedVariable {
 public:
  Uregs() : NamedVariable("uregs", "uint64_t") {}
  bool indexed() const override { return true; }

  void check(Checker&, const Expr& use) const override {
    const Expr& index = *use.operand(0);
    if (index.kind != ExprKind::IntLiteral)  // as in DTrace: which register is known at compile time
      fail(index.loc, ErrTag::D_PROTO_ARG, "the index of uregs[] must be an integer constant, such as R_PC");
    if (int64_t(index.value) < 0 || int64_t(index.value) >= codegen::kUserRegisterWords)
      fail(index.loc, ErrTag::D_REGS_IDX, "uregs[" + std::to_string(int64_t(index.value)) +
                          "]: Linux saves only R_R15 (0) to R_SS (20) of a thread's user registers");
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    require_running_thread(l, use.loc, "uregs[]");
    return {codegen::user_register(l, int(use.operand(0)->value)), use.type};
  }
};

const Registered<Uregs> uregs;

}  // namespace
}  // namespace dsched::lang
