// stackdepth and ustackdepth: how many frames the kernel and the user stack hold where the probe
// fired (at most the kernel's perf_event_max_stack, 127 by default).
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

constexpr uint64_t kMaxFrames = 127;

class StackDepth : public NamedVariable {
 public:
  StackDepth(std::string_view name, uint64_t flags) : NamedVariable(name, "uint32_t"), flags_(flags) {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    // bpf_get_stack() writes the frames and returns their size in bytes (negative on failure).
    llvm::Value* frames = l.firing.scratch(kMaxFrames * 8);
    llvm::Value* bytes = ir.helper(BPF_FUNC_get_stack, {l.firing.context(), frames,
                                                        ir.const64(kMaxFrames * 8), ir.const64(int64_t(flags_))});
    llvm::Value* depth = b.CreateLShr(bytes, 3);
    return {b.CreateSelect(b.CreateICmpSLT(bytes, ir.const64(0)), ir.const64(0), depth), use.type};
  }

 private:
  uint64_t flags_;
};

const Registered<StackDepth> stackdepth("stackdepth", 0);
const Registered<StackDepth> ustackdepth("ustackdepth", BPF_F_USER_STACK);

}  // namespace
}  // namespace dsched::lang
