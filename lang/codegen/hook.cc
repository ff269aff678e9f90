#include "lang/codegen/hook.h"

#include <linux/bpf.h>

#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/programs.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {

llvm::Value* Hook::context_task(Lowering& l) const { return l.ir.helper(BPF_FUNC_get_current_task_btf, {}); }

llvm::Value* Hook::arg(Lowering& l, int index) const {
  lang::fail({}, lang::ErrTag::D_ARGS_IDX, "args[" + std::to_string(index) + "] of " + l.firing.probe().full_name() + " has no value here");
}

llvm::Value* Hook::raw_arg(Lowering& l, int n) const {
  if (size_t(n) < l.firing.probe().args.size()) return arg(l, n);
  return l.ir.const64(0);
}

llvm::Value* Hook::errno_value(Lowering& l) const { return l.ir.const64(0); }

void Hook::emit(Lowering& l, const std::string&, const std::vector<const lang::Probe*>& probes) const {
  for (const lang::Probe* probe : probes) l.programs.fire(*probe);
}

llvm::Value* tracepoint_arg(Lowering& l, int index) {
  // Volatile: the verifier accepts only whole 8-byte context loads, which LLVM would narrow.
  return l.ir.b().CreateLoad(l.ir.i64(), l.ir.offset_ptr(l.firing.context(), 8 * index), /*isVolatile=*/true);
}

}  // namespace dsched::codegen
