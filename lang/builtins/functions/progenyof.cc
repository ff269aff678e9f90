// progenyof(pid): 1 when the context thread's process is `pid` or one of its descendants, else 0.
// The walk follows real_parent up to init, at most kMaxDepth generations (deeper ancestry is
// not found).
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

constexpr uint64_t kMaxDepth = 64;

class Progenyof : public Subroutine {
 public:
  Progenyof() : Subroutine("progenyof", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the process id");
    call->type = c.types().integer(4, true);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* pid = b.CreateAnd(l.exprs.eval_int(*call.operand(0)), ir.const64(0xffffffff));
    llvm::Value* task = ir.stack_slot();
    llvm::Value* found = ir.stack_slot();
    b.CreateStore(l.firing.context_task(), task);
    b.CreateStore(ir.const64(0), found);
    llvm::BasicBlock* done = ir.new_block("progenyof.done");
    l.strings.loop(kMaxDepth, done, [&](llvm::Value*) {
      llvm::Value* t = b.CreateLoad(ir.i64(), task);
      l.strings.leave_when(b.CreateICmpEQ(t, ir.const64(0)), found, ir.const64(0), done);
      llvm::Value* tgid = b.CreateAnd(l.exprs.kernel_field(t, "task_struct", {"tgid"}, call.loc), ir.const64(0xffffffff));
      l.strings.leave_when(b.CreateICmpEQ(tgid, pid), found, ir.const64(1), done);
      llvm::Value* parent = l.exprs.kernel_field(t, "task_struct", {"real_parent"}, call.loc);
      // The idle task is its own parent: the walk ends there.
      b.CreateStore(b.CreateSelect(b.CreateICmpEQ(parent, t), ir.const64(0), parent), task);
    });
    return {b.CreateLoad(ir.i64(), found), call.type};
  }
};

const Registered<Progenyof> registered;

}  // namespace
}  // namespace dsched::lang
