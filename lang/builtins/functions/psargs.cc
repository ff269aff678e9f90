// __psargs(task): what psinfo_t's pr_psargs holds, the process's arguments as `ps -o args` shows
// them: argv joined by spaces, at most 79 bytes (DTrace's PRARGSZ of 80 with its NUL). The arguments
// live in the process's memory, which a probe can read only for the task it runs in; for any other
// task (and for kernel threads, which have none) it is the command name, as ps shows [kthreadd].
// stdlib/procfs.d's psinfo_t translator is its caller.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

constexpr uint64_t kMostArgumentBytes = 79;

class Psargs : public Subroutine {
 public:
  Psargs() : Subroutine("__psargs", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_kernel_pointer_arg(c, *call, 0, "task_struct");
    call->type = c.types().string_type();
  }

  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    const Type* word = l.program.types->integer(8, false);
    llvm::Value* task = l.exprs.eval_int(*call.operand(0));
    Value out = l.strings.fresh();
    uint64_t most = std::min(kMostArgumentBytes, out.capacity - 1);
    llvm::Value* current = b.CreatePtrToInt(ir.helper(BPF_FUNC_get_current_task_btf, {}), ir.i64());
    llvm::Value* mm = l.exprs.read_kernel(
        b.CreateAdd(task, ir.const64(kernel_member_offset(l, "task_struct", {"mm"}, call.loc))), 8, word);
    llvm::Value* has_arguments = b.CreateAnd(b.CreateICmpEQ(task, current), b.CreateICmpNE(mm, ir.const64(0)));
    llvm::Value* length = ir.stack_slot();
    b.CreateStore(ir.const64(0), length);
    ir.when(has_arguments, [&] {
      auto mm_word = [&](const char* member) {
        return l.exprs.read_kernel(
            b.CreateAdd(mm, ir.const64(kernel_member_offset(l, "mm_struct", {member}, call.loc))), 8, word);
      };
      llvm::Value* start = mm_word("arg_start");
      llvm::Value* size = b.CreateSub(mm_word("arg_end"), start);
      size = b.CreateSelect(b.CreateICmpUGT(size, ir.const64(most)), ir.const64(most), size);
      // Arguments not yet paged in read as nothing, and the command name stands in.
      llvm::Value* read =
          ir.helper(BPF_FUNC_probe_read_user, {out.v, ir.bounded(size, most + 1), b.CreateIntToPtr(start, ir.ptr())});
      b.CreateStore(b.CreateSelect(b.CreateICmpEQ(read, ir.const64(0)), size, ir.const64(0)), length);
    });
    llvm::Value* n = b.CreateLoad(ir.i64(), length);
    ir.when(b.CreateICmpEQ(n, ir.const64(0)), [&] {
      int64_t comm = kernel_member_offset(l, "task_struct", {"comm"}, call.loc);
      ir.helper(BPF_FUNC_probe_read_kernel_str,
                {out.v, ir.const64(static_cast<int64_t>(std::min(codegen::Strings::kCommBytes, out.capacity))),
                 b.CreateIntToPtr(b.CreateAdd(task, ir.const64(comm)), ir.ptr())});
    });
    // The NULs between arguments become spaces; the last argument's own NUL ends the text.
    auto* type = llvm::StructType::get(b.getContext(), {ir.ptr(), ir.i64()});
    llvm::Value* context = ir.entry_alloca(type);
    b.CreateStore(out.v, b.CreateStructGEP(type, context, 0));
    b.CreateStore(b.CreateSub(n, b.CreateZExt(b.CreateICmpNE(n, ir.const64(0)), ir.i64())),
                  b.CreateStructGEP(type, context, 1));
    l.strings.callback_loop(most, context, "psargs_spaces", [&](llvm::Value* i, llvm::Value* c) {
      llvm::Value* text = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, c, 0));
      llvm::Value* end = b.CreateLoad(ir.i64(), b.CreateStructGEP(type, c, 1));
      llvm::Value* at = b.CreateInBoundsGEP(ir.i8(), text, ir.bounded(i, most + 1));
      llvm::Value* inside = b.CreateICmpULT(i, end);
      ir.when(b.CreateAnd(inside, b.CreateICmpEQ(b.CreateLoad(ir.i8(), at), b.getInt8(0))),
              [&] { b.CreateStore(b.getInt8(' '), at); });
      return ir.widen(b.CreateNot(inside));
    });
    return out;
  }
};

const Registered<Psargs> psargs_function;

}  // namespace
}  // namespace dsched::lang
