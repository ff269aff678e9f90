// stack([frames]) and ustack([frames [, strsize]]): the kernel or the user-space stack where the
// probe fired, as program counters (a user stack led by its process id, so user space can name
// its frames). As a statement each records its stack; as an aggregation key the stack is part of
// the key. The frame count is a constant (default: the stackframes and ustackframes options), so
// every stack of a clause takes the same room in a record or a key. As in DTrace for Linux, a count
// above the maxframes option (the kernel's perf_event_max_stack, 127) is lowered to it.
#include <algorithm>
#include <cstdint>

#include "lang/builtins/support.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"
#include "lang/program.h"

namespace dsched::lang {
namespace {

class Stack : public NamedFunction {
 public:
  // DTrace's error tags: the wrong number of arguments, a bad frame count, a bad string size.
  struct Tags {
    ErrTag proto, frames, strsize;
  };
  Stack(std::string_view name, int max_args, bool user, const char* frames_option, Tags tags)
      : NamedFunction(name, Arity{0, max_args, tags.proto, tags.proto}),
        user_(user),
        frames_option_(frames_option),
        tags_(tags) {}

  void check(Checker& c, ExprPtr& call) const override {
    const abi::Options& options = c.program().options;
    int64_t frames = call->operands.empty()
                         ? options.number(frames_option_)
                         : check_constant_arg(c, *call, 0, "the number of frames", 1, INT32_MAX, tags_.frames);
    frames = std::min(frames, options.number("maxframes"));
    // ustack()'s string space holds what ustack helpers (JIT runtimes on Solaris) name; Linux has
    // no such helpers, so there is never a string to record and the space is only checked.
    if (call->operands.size() > 1) check_constant_arg(c, *call, 1, "the string size", 0, 1 << 20, tags_.strsize);
    call->type = c.types().stack(user_, uint32_t(frames));
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    const abi::AddressLayout& layout = call.type->addresses;
    if (user_) require_running_thread(l, call.loc, "ustack()");
    codegen::Firing::Stack stack = l.firing.stack(layout.frames, user_);
    if (!user_) return {stack.frames, call.type};
    // A user stack is led by its process's id: the frames go after it.
    llvm::Value* buffer = l.firing.scratch(layout.byte_size());
    l.records.lead_with_process(buffer);
    l.ir.copy_bytes(l.ir.offset_ptr(buffer, 8), stack.frames, 8 * uint64_t(layout.frames));
    return {buffer, call.type};
  }

 private:
  bool user_;
  const char* frames_option_;
  Tags tags_;
};

class JavaStack : public NamedFunction {
 public:
  JavaStack() : NamedFunction("jstack", {0, 2}) {}
  void check(Checker&, ExprPtr& call) const override {
    fail(call->loc, ErrTag::D_UNKNOWN, "jstack() is not supported: it needs the Java VM's ustack helper, which Linux does not have; "
                    "use ustack() for the native frames");
  }
  codegen::Value lower(codegen::Lowering&, const Expr& call) const override { return no_value(call); }
};

const Registered<Stack> stack("stack", 1, false, "stackframes",
                              Stack::Tags{ErrTag::D_STACK_PROTO, ErrTag::D_STACK_SIZE, ErrTag::D_STACK_SIZE});
const Registered<Stack> ustack("ustack", 2, true, "ustackframes",
                               Stack::Tags{ErrTag::D_USTACK_PROTO, ErrTag::D_USTACK_FRAMES, ErrTag::D_USTACK_STRSIZE});
const Registered<JavaStack> jstack;

}  // namespace
}  // namespace dsched::lang
