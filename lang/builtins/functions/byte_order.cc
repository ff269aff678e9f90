// htons, htonl, htonll, ntohs, ntohl, ntohll: an integer between host and network (big-endian)
// byte order. The host is little-endian (x86, arm64), so each swaps the bytes of its width.
#include <llvm/IR/Intrinsics.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"

namespace dsched::lang {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte order functions assume a little-endian host");

class ByteOrder : public Subroutine {
 public:
  ByteOrder(std::string_view name, const char* type, unsigned bits) : Subroutine(name, {1, 1}), type_(type), bits_(bits) {}
  Attributes attributes() const override { return kEvolvingCommon; }  // as DTrace declares them

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the value");
    call->type = c.type(type_, call->loc);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    auto& b = l.ir.b();
    llvm::Type* width = b.getIntNTy(bits_);
    llvm::Value* value = b.CreateTrunc(l.exprs.eval_int(*call.operand(0)), width);
    llvm::Value* swapped = b.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, value);
    return {b.CreateZExt(swapped, l.ir.i64()), call.type};
  }

 private:
  const char* type_;
  unsigned bits_;
};

const Registered<ByteOrder> htons_function("htons", "uint16_t", 16);
const Registered<ByteOrder> htonl_function("htonl", "uint32_t", 32);
const Registered<ByteOrder> htonll_function("htonll", "uint64_t", 64);
const Registered<ByteOrder> ntohs_function("ntohs", "uint16_t", 16);
const Registered<ByteOrder> ntohl_function("ntohl", "uint32_t", 32);
const Registered<ByteOrder> ntohll_function("ntohll", "uint64_t", 64);

}  // namespace
}  // namespace dsched::lang
