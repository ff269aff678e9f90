// alloca(size), bcopy(src, dest, size) and copyinto(addr, size, dest): scratch memory of the
// clause, as DTrace has it.
// alloca's memory is per-CPU scratch, 8-byte aligned and zeroed, valid until the clause ends.
// bcopy copies size bytes from a kernel or D address, copyinto from the process's memory, into
// memory the clause has in scratch (what alloca returned, or a string the clause made); any other
// destination is a bad-address fault, found at run time as DTrace finds it.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

// The most one alloca() takes: scratch is one per-CPU map value, which the kernel keeps small.
constexpr int64_t kMaxAllocaBytes = 4096;

class Alloca : public Subroutine {
 public:
  Alloca() : Subroutine("alloca", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    // The memory is laid out when the program is compiled, so its size must be known then.
    check_constant_arg(c, *call, 0, "size", 0, kMaxAllocaBytes);
    call->type = c.types().pointer_to(c.types().void_type());
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    uint64_t size = call.operand(0)->value;
    llvm::Value* memory = l.firing.scratch(size);
    l.ir.zero_bytes(memory, codegen::round8(size));
    return {l.ir.b().CreatePtrToInt(memory, l.ir.i64()), call.type};
  }
};

// bcopy(src, dest, size) from kernel memory and copyinto(addr, size, dest) from the process's:
// the destination must be scratch the clause allocated.
class ScratchCopy : public Subroutine {
 public:
  struct Operands { size_t source, dest, size; };
  ScratchCopy(std::string_view name, Operands at, int read_helper)
      : Subroutine(name, {3, 3}), at_(at), read_helper_(read_helper) {}

  void check(Checker& c, ExprPtr& call) const override {
    // bcopy's source is a kernel pointer; copyinto's a user address, an integer.
    if (read_helper_ == BPF_FUNC_probe_read_kernel)
      c.pointer(call->operands[at_.source], call->text + "() source");
    else
      c.scalar(call->operands[at_.source], call->text + "() source");
    c.pointer(call->operands[at_.dest], call->text + "() destination");
    check_integer_arg(c, *call, at_.size, "the size");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    if (read_helper_ == BPF_FUNC_probe_read_user) require_running_thread(l, call.loc, call.text + "()");
    codegen::Ir& ir = l.ir;
    llvm::Value* source = l.exprs.eval_int(*call.operand(at_.source));
    llvm::Value* dest = l.exprs.eval_int(*call.operand(at_.dest));
    llvm::Value* size = l.exprs.eval_int(*call.operand(at_.size));
    uint64_t region = l.firing.clause_scratch_end() - l.firing.clause_scratch_start();
    llvm::Value* target = l.exprs.clause_scratch_at(dest, size, region);
    if (!target) return no_value(call);
    llvm::Value* copied =
        ir.helper(read_helper_, {target, ir.bounded(size, region + 1), ir.b().CreateIntToPtr(source, ir.ptr())});
    l.records.check_fault(ir.b().CreateICmpSLT(copied, ir.const64(0)), abi::FaultKind::InvalidAddress, source);
    return no_value(call);
  }

 private:
  Operands at_;
  int read_helper_;
};

class Bcopy : public ScratchCopy {
 public:
  Bcopy() : ScratchCopy("bcopy", {0, 1, 2}, BPF_FUNC_probe_read_kernel) {}
};

class Copyinto : public ScratchCopy {
 public:
  Copyinto() : ScratchCopy("copyinto", {0, 2, 1}, BPF_FUNC_probe_read_user) {}
};

const Registered<Alloca> alloca_function;
const Registered<Bcopy> bcopy_function;
const Registered<Copyinto> copyinto_function;

}  // namespace
}  // namespace dsched::lang
