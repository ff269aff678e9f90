// copyinstr(address [, size]) and copyin(address, size): user memory of the current process.
// copyin's value points at its copy in scratch memory.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/codegen/strings.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class CopyFunction : public Subroutine {
 public:
  CopyFunction(std::string_view name, Arity arity) : Subroutine(name, arity) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.scalar(call->operands[0], call->text + "() address");
    if (call->operands.size() == 2) check_integer_arg(c, *call, 1, "the size");
    call->type = result_type(c);
  }

 protected:
  virtual const Type* result_type(Checker& c) const = 0;
};

class Copyinstr : public CopyFunction {
 public:
  Copyinstr() : CopyFunction("copyinstr", {1, 2}) {}
  const Type* result_type(Checker& c) const override { return c.types().string_type(); }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    require_running_thread(l, call.loc, call.text + "()");
    codegen::Ir& ir = l.ir;
    codegen::Value text = l.strings.fresh();
    llvm::Value* address = l.exprs.eval_int(*call.operand(0));
    // The copy holds at most `size` bytes of text (strsize at most), then the NUL.
    llvm::Value* capacity = ir.const64(static_cast<int64_t>(text.capacity));
    if (call.operands.size() == 2)
      capacity = ir.b().CreateAdd(ir.bounded(l.exprs.eval_int(*call.operand(1)), text.capacity), ir.const64(1));
    llvm::Value* result =
        ir.helper(BPF_FUNC_probe_read_user_str, {text.v, capacity, ir.b().CreateIntToPtr(address, ir.ptr())});
    l.records.check_fault(ir.b().CreateICmpSLT(result, ir.const64(0)), abi::FaultKind::InvalidAddress, address);
    return {text.v, call.type, text.capacity};
  }
};

// copyin's bytes land in scratch memory: a constant size up to kLargestCopy, a computed one up to
// kLargestComputedCopy (larger at run time: DTrace's out-of-scratch fault).
constexpr uint64_t kLargestCopy = 16384;
constexpr uint64_t kLargestComputedCopy = 4096;

class Copyin : public CopyFunction {
 public:
  Copyin() : CopyFunction("copyin", {2, 2}) {}
  const Type* result_type(Checker& c) const override { return c.types().pointer_to(c.types().void_type()); }

  void check(Checker& c, ExprPtr& call) const override {
    CopyFunction::check(c, call);
    const Expr& size = *call->operand(1);
    if (size.kind == ExprKind::IntLiteral && size.value > kLargestCopy)
      fail(size.loc, ErrTag::D_PROTO_ARG, "copyin() of " + std::to_string(size.value) + " bytes: at most " + std::to_string(kLargestCopy) +
                         " bytes fit in scratch memory");
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    require_running_thread(l, call.loc, call.text + "()");
    codegen::Ir& ir = l.ir;
    const Expr& size_expr = *call.operand(1);
    const bool constant = size_expr.kind == ExprKind::IntLiteral;
    const uint64_t room = constant ? size_expr.value : kLargestComputedCopy;
    llvm::Value* buffer = l.firing.scratch(room + 1);
    ir.zero_bytes(buffer, (room + 8) & ~uint64_t(7));
    llvm::Value* size = ir.const64(static_cast<int64_t>(room));
    if (!constant) {
      size = l.exprs.eval_int(size_expr);
      l.records.check_fault(ir.b().CreateICmpUGT(size, ir.const64(int64_t(room))), abi::FaultKind::NoScratch);
      size = ir.bounded(size, room + 1);
    }
    llvm::Value* address = l.exprs.eval_int(*call.operand(0));
    llvm::Value* result =
        ir.helper(BPF_FUNC_probe_read_user, {buffer, size, ir.b().CreateIntToPtr(address, ir.ptr())});
    l.records.check_fault(ir.b().CreateICmpSLT(result, ir.const64(0)), abi::FaultKind::InvalidAddress, address);
    return {ir.b().CreatePtrToInt(buffer, ir.i64()), call.type};
  }
};

const Registered<Copyinstr> copyinstr;
const Registered<Copyin> copyin;

}  // namespace
}  // namespace dsched::lang
