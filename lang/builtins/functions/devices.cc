// getmajor(dev) and getminor(dev): the major and minor numbers of a device number as the kernel
// holds it (dev_t of struct super_block, struct block_device...): 12 bits of major above 20 bits
// of minor (MINORBITS in include/linux/kdev_t.h).
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

constexpr unsigned kMinorBits = 20;

class DevicePart : public Subroutine {
 public:
  DevicePart(std::string_view name, bool major) : Subroutine(name, {1, 1}), major_(major) {}
  Attributes attributes() const override { return kEvolvingCommon; }  // as DTrace declares them

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the device number");
    call->type = c.type("dev_t", call->loc);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    auto& b = l.ir.b();
    llvm::Value* dev = b.CreateAnd(l.exprs.eval_int(*call.operand(0)), l.ir.const64(0xffffffff));
    llvm::Value* part = major_ ? b.CreateLShr(dev, kMinorBits) : b.CreateAnd(dev, l.ir.const64((1 << kMinorBits) - 1));
    return {part, call.type};
  }

 private:
  bool major_;
};

const Registered<DevicePart> getmajor_function("getmajor", true);
const Registered<DevicePart> getminor_function("getminor", false);

}  // namespace
}  // namespace dsched::lang
