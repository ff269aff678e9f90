// copyout(buf, addr, nbytes) and copyoutstr(str, addr, maxlen): write into the current process's
// memory (destructive: need -w). The bytes come from memory the clause has in scratch (what
// alloca() returned) or from a D string; a source elsewhere, or a user address that cannot be
// written, is a bad-address fault, as in DTrace.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

class UserWrite : public NamedFunction {
 public:
  UserWrite(std::string_view name, bool text) : NamedFunction(name, {3, 3}), text_(text) {}
  bool destructive() const override { return true; }
  Speculation speculation() const override { return Speculation::Destructive; }
  bool records() const override { return false; }

  void check(Checker& c, ExprPtr& call) const override {
    if (text_)
      check_string_arg(c, *call, 0);
    else
      c.pointer(call->operands[0], call->text + "() source");
    c.scalar(call->operands[1], call->text + "() destination");
    check_integer_arg(c, *call, 2, text_ ? "the most bytes" : "the size");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* dest = l.exprs.eval_int(*call.operand(1));
    llvm::Value* size = l.exprs.eval_int(*call.operand(2));
    llvm::Value* source;
    uint64_t most;
    if (text_) {
      codegen::Value text = l.strings.from(l.exprs.eval(*call.operand(0)));
      // The text and its NUL, cut at maxlen.
      llvm::Value* length = b.CreateAdd(l.strings.length(text), ir.const64(1));
      size = b.CreateSelect(b.CreateICmpULT(length, size), length, size);
      source = text.v;
      most = text.capacity;
    } else {
      most = l.firing.clause_scratch_end() - l.firing.clause_scratch_start();
      source = l.exprs.clause_scratch_at(l.exprs.eval_int(*call.operand(0)), size, most);
      if (!source) return no_value(call);
    }
    llvm::BasicBlock* write = ir.new_block("copyout.write");
    llvm::BasicBlock* done = ir.new_block("copyout.done");
    b.CreateCondBr(b.CreateICmpEQ(size, ir.const64(0)), done, write);
    b.SetInsertPoint(write);
    llvm::Value* written = ir.helper(BPF_FUNC_probe_write_user,
                                     {b.CreateIntToPtr(dest, ir.ptr()), source, ir.bounded(size, most + 1)});
    l.records.check_fault(b.CreateICmpSLT(written, ir.const64(0)), abi::FaultKind::InvalidAddress, dest);
    b.CreateBr(done);
    b.SetInsertPoint(done);
    return no_value(call);
  }

 private:
  bool text_;
};

const Registered<UserWrite> copyout_action("copyout", false);
const Registered<UserWrite> copyoutstr_action("copyoutstr", true);

}  // namespace
}  // namespace dsched::lang
