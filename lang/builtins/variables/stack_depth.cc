// stackdepth and ustackdepth: how many frames the kernel and the user stack hold where the probe
// fired (at most the kernel's perf_event_max_stack, 127 by default); caller: the program counter
// the kernel thread was at (the function holding the probe); ucaller: the user stack's second
// frame, where the user function the thread was in returns to (its caller), as DTrace takes it.
#include "lang/builtins/support.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

constexpr uint32_t kMaxFrames = 127;

class StackDepth : public NamedVariable {
 public:
  StackDepth(std::string_view name, bool user) : NamedVariable(name, "uint32_t"), user_(user) {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    if (user_) require_running_thread(l, use.loc, "ustackdepth");
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* bytes = l.firing.stack(kMaxFrames, user_).bytes;
    llvm::Value* depth = b.CreateLShr(bytes, 3);
    return {b.CreateSelect(b.CreateICmpSLT(bytes, ir.const64(0)), ir.const64(0), depth), use.type};
  }

 private:
  bool user_;
};

class Caller : public NamedVariable {
 public:
  Caller(std::string_view name, bool user) : NamedVariable(name, user ? "uint64_t" : "uintptr_t"), user_(user) {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    if (user_) require_running_thread(l, use.loc, "ucaller");
    // No stack, or a shorter one: the frame is zeroed.
    const uint32_t frame = user_ ? 1 : 0;
    codegen::Firing::Stack stack = l.firing.stack(frame + 1, user_);
    return {l.ir.b().CreateLoad(l.ir.i64(), l.ir.offset_ptr(stack.frames, 8 * frame)), use.type};
  }

 private:
  bool user_;
};

const Registered<StackDepth> stackdepth("stackdepth", false);
const Registered<StackDepth> ustackdepth("ustackdepth", true);
const Registered<Caller> caller("caller", false);
const Registered<Caller> ucaller("ucaller", true);

}  // namespace
}  // namespace dsched::lang
