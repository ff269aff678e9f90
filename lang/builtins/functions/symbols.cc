// func()/sym(), mod(), ufunc()/usym(), umod() and uaddr(): an address that prints as the name of
// what holds it. User-space ones carry the process id with the address, which names nothing
// without it. As aggregation keys, addresses in one function (sym) or one module (mod) make one
// entry, as DTrace merges them.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

class SymbolFunction : public Subroutine {
 public:
  SymbolFunction(std::string_view name, bool user, abi::AddressForm form)
      : Subroutine(name, {1, 1}), user_(user), form_(form) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the address");
    call->type = c.types().symbol(user_, form_);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* address = l.exprs.eval_int(*call.operand(0));
    llvm::Value* buffer = l.firing.scratch(call.type->size);
    llvm::Value* slot = buffer;
    if (user_) {
      l.records.lead_with_process(buffer);
      slot = ir.offset_ptr(buffer, 8);
    }
    b.CreateStore(address, slot);
    return {buffer, call.type};
  }

 private:
  bool user_;
  abi::AddressForm form_;
};

using Form = abi::AddressForm;
const Registered<SymbolFunction> func("func", false, Form::Function);
const Registered<SymbolFunction> sym("sym", false, Form::Function);
const Registered<SymbolFunction> mod("mod", false, Form::Module);
const Registered<SymbolFunction> ufunc("ufunc", true, Form::Function);
const Registered<SymbolFunction> usym("usym", true, Form::Function);
const Registered<SymbolFunction> umod("umod", true, Form::Module);
const Registered<SymbolFunction> uaddr("uaddr", true, Form::Frame);

}  // namespace
}  // namespace dsched::lang
