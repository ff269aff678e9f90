// lltostr(value [, base]): an integer as text, with DTrace's prefixes ("-" for negative decimals,
// "0x" in base 16, "0" in base 8 except for 0).
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

class Lltostr : public Subroutine {
 public:
  Lltostr() : Subroutine("lltostr", {1, 2}) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the value");
    if (call->operands.size() == 2) check_constant_arg(c, *call, 1, "base", 2, 36);
    call->type = c.types().string_type();
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* value = l.exprs.eval_int(*call.operand(0));
    llvm::Value* base = call.operands.size() > 1 ? l.exprs.eval_int(*call.operand(1)) : ir.const64(10);
    base = b.CreateSelect(b.CreateICmpULT(base, ir.const64(2)), ir.const64(10), base);
    // Digits are produced backwards into the end of a scratch buffer, so they end up in order, and
    // their count goes to scratch too: read back from there, it is one unknown number to the
    // verifier, not one path per length (a clause with several lltostr() would not load).
    constexpr uint64_t kDigits = 64;
    llvm::Value* digits = l.firing.scratch(kDigits + 8);
    llvm::Value* count = ir.offset_ptr(digits, kDigits);
    llvm::Value* rest = ir.stack_slot();
    llvm::Value* negative = b.CreateAnd(b.CreateICmpSLT(value, ir.const64(0)), b.CreateICmpEQ(base, ir.const64(10)));
    b.CreateStore(b.CreateSelect(negative, b.CreateNeg(value), value), rest);
    llvm::BasicBlock* produced = ir.new_block("lltostr.produced");
    l.strings.loop(kDigits, produced, [&](llvm::Value* i) {
      llvm::Value* r = b.CreateLoad(ir.i64(), rest);
      llvm::Value* digit = b.CreateURem(r, base);
      llvm::Value* ch = b.CreateAdd(
          digit, b.CreateSelect(b.CreateICmpULT(digit, ir.const64(10)), ir.const64('0'), ir.const64('a' - 10)));
      llvm::Value* at = b.CreateSub(ir.const64(kDigits - 1), i);
      b.CreateStore(b.CreateTrunc(ch, ir.i8()), b.CreateInBoundsGEP(ir.i8(), digits, ir.bounded(at, kDigits)));
      b.CreateStore(b.CreateAdd(i, ir.const64(1)), count, /*isVolatile=*/true);
      llvm::Value* next = b.CreateUDiv(r, base);
      b.CreateStore(next, rest);
      llvm::BasicBlock* more = ir.new_block("lltostr.more");
      b.CreateCondBr(b.CreateICmpEQ(next, ir.const64(0)), produced, more);
      b.SetInsertPoint(more);
    });
    b.SetInsertPoint(produced);
    codegen::Value out = l.strings.fresh();
    llvm::Value* n = ir.bounded(b.CreateLoad(ir.i64(), count, /*isVolatile=*/true), kDigits + 1);
    llvm::Value* hex = b.CreateICmpEQ(base, ir.const64(16));
    llvm::Value* octal = b.CreateAnd(b.CreateICmpEQ(base, ir.const64(8)), b.CreateICmpNE(value, ir.const64(0)));
    ir.when(negative, [&] { b.CreateStore(b.getInt8('-'), out.v); });
    ir.when(b.CreateOr(hex, octal), [&] { b.CreateStore(b.getInt8('0'), out.v); });
    ir.when(hex, [&] { b.CreateStore(b.getInt8('x'), ir.offset_ptr(out.v, 1)); });
    llvm::Value* prefix = b.CreateSelect(hex, ir.const64(2), b.CreateZExt(b.CreateOr(negative, octal), ir.i64()));
    // The most significant digits that fit before the NUL, copied in one helper call.
    llvm::Value* room = b.CreateSub(ir.const64(int64_t(out.capacity) - 1), prefix);
    llvm::Value* size = b.CreateSelect(b.CreateICmpULT(n, room), n, room);
    ir.helper(BPF_FUNC_probe_read_kernel, {b.CreateInBoundsGEP(ir.i8(), out.v, prefix), size,
                                           b.CreateInBoundsGEP(ir.i8(), digits, b.CreateSub(ir.const64(kDigits), n))});
    return out;
  }
};

const Registered<Lltostr> registered;

}  // namespace
}  // namespace dsched::lang
