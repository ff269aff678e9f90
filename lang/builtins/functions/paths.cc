// basename(s) and dirname(s): the last component of a path, and what precedes it.
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

class PathFunction : public Subroutine {
 public:
  PathFunction(std::string_view name, bool base) : Subroutine(name, {1, 1}), base_(base) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_string_arg(c, *call, 0);
    call->type = c.types().string_type();
  }

  // As basename(1)/dirname(1), trailing slashes aside: split at the last '/'.
  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    codegen::Value s = l.strings.from(l.exprs.eval(*call.operand(0)));
    llvm::Value* length = l.strings.length(s);
    llvm::Value* slash = l.strings.find_byte(s, ir.const64('/'), true);
    llvm::Value* none = b.CreateICmpSLT(slash, ir.const64(0));
    if (base_)
      return l.strings.copy_range(s, b.CreateSelect(none, ir.const64(0), b.CreateAdd(slash, ir.const64(1))), length);
    // dirname: what precedes the last '/', "/" when that is the first byte, "." without one.
    llvm::Value* end = b.CreateSelect(none, ir.const64(0),
                                      b.CreateSelect(b.CreateICmpEQ(slash, ir.const64(0)), ir.const64(1), slash));
    codegen::Value out = l.strings.copy_range(s, ir.const64(0), end);
    ir.when(none, [&] { b.CreateStore(b.getInt8('.'), out.v); });
    return out;
  }

 private:
  bool base_;
};

const Registered<PathFunction> basename_function("basename", true);
const Registered<PathFunction> dirname_function("dirname", false);

}  // namespace
}  // namespace dsched::lang
