// alloca(size) and bcopy(src, dest, size): scratch memory of the clause, as DTrace has it.
// alloca's memory is per-CPU scratch, 8-byte aligned and zeroed, valid until the clause ends.
// bcopy copies size bytes from a kernel or D address into memory the clause has in scratch (what
// alloca returned, or a string the clause made); any other destination is a bad-address fault,
// found at run time as DTrace finds it.
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
    l.ir.zero_bytes(memory, (size + 7) & ~uint64_t(7));
    return {l.ir.b().CreatePtrToInt(memory, l.ir.i64()), call.type};
  }
};

class Bcopy : public Subroutine {
 public:
  Bcopy() : Subroutine("bcopy", {3, 3}) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.scalar(call->operands[0], "bcopy() source");
    c.scalar(call->operands[1], "bcopy() destination");
    check_integer_arg(c, *call, 2, "the size");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* source = l.exprs.eval_int(*call.operand(0));
    llvm::Value* dest = l.exprs.eval_int(*call.operand(1));
    llvm::Value* size = l.exprs.eval_int(*call.operand(2));
    uint64_t start = l.firing.clause_scratch_start();
    uint64_t region = l.firing.clause_scratch_end() - start;
    llvm::Value* region_start = ir.offset_ptr(l.firing.scratch_base(), start);
    // Addresses as numbers: the verifier refuses arithmetic between a pointer it tracks (the
    // region, or the destination when it is alloca's value) and an unknown number, but a
    // pointer stored in map memory reads back as a number.
    llvm::Value* word = l.firing.scratch(8);
    auto as_number = [&](llvm::Value* address) {
      b.CreateStore(address, word, /*isVolatile=*/true);
      return b.CreateLoad(ir.i64(), word, /*isVolatile=*/true);
    };
    llvm::Value* first = as_number(b.CreatePtrToInt(region_start, ir.i64()));
    dest = as_number(dest);
    // dest .. dest + size must lie in [first, first + region): the offset and the size, both
    // unsigned, with offset <= region - size.
    llvm::Value* offset = b.CreateSub(dest, first);
    llvm::Value* fits = b.CreateAnd(b.CreateICmpULE(size, ir.const64(int64_t(region))),
                                    b.CreateICmpULE(offset, b.CreateSub(ir.const64(int64_t(region)), size)));
    l.records.check_fault(b.CreateNot(fits), abi::FaultKind::InvalidAddress, dest);
    if (region == 0) return no_value(call);  // only an empty copy to the very start passed
    // The verifier bounds the offset and the size apart, each by the region: the scratch after
    // the region is reserved so that their largest sum stays inside the map value.
    l.firing.scratch(region);
    llvm::Value* target = b.CreateGEP(ir.i8(), region_start, ir.bounded(offset, region));
    llvm::Value* copied = ir.helper(BPF_FUNC_probe_read_kernel,
                                    {target, ir.bounded(size, region + 1), b.CreateIntToPtr(source, ir.ptr())});
    l.records.check_fault(b.CreateICmpSLT(copied, ir.const64(0)), abi::FaultKind::InvalidAddress, source);
    return no_value(call);
  }
};

const Registered<Alloca> alloca_function;
const Registered<Bcopy> bcopy_function;

}  // namespace
}  // namespace dsched::lang
