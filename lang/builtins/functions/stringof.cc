// stringof(x): x as a D string; an integer is taken as the kernel address of the text. It is a conversion: the call becomes the same conversion sema
// makes wherever text is used as a string (a cast to string), so it has no lowering of its own.
#include "lang/builtins/support.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Stringof : public Subroutine {
 public:
  Stringof() : Subroutine("stringof", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.value(call->operands[0], ErrTag::D_TYPE_ERR, ErrTag::D_STRINGOF_TYPE);
    const Type* t = call->operand(0)->type;
    if (t->is_integer()) {
      // DTrace takes any scalar: an integer (arg1 of a probe) is the address of the text.
      ExprPtr address = make_expr(ExprKind::Cast, call->operand(0)->loc);
      address->type = c.type("char *", call->loc);
      address->operands.push_back(std::move(call->operands[0]));
      call->operands[0] = std::move(address);
      t = call->operand(0)->type;
    }
    if (!t->is_string() && !t->is_char_sequence() && !t->is_pointer())
      fail(call->loc, ErrTag::D_STRINGOF_TYPE, "stringof() needs a string, a char array, a pointer or an address, not " + type_name(t));
    ExprPtr converted = std::move(call->operands[0]);
    c.to_string(converted);
    converted->loc = call->loc;
    call = std::move(converted);
  }

  codegen::Value lower(codegen::Lowering&, const Expr& call) const override {
    fail(call.loc, ErrTag::D_UNKNOWN, "internal error: stringof() is lowered as a conversion");
  }
};

const Registered<Stringof> registered;

}  // namespace
}  // namespace dsched::lang
