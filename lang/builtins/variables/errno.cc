// errno: the error of a system call where the call returns (0 on success), as DTrace for Linux
// gives it; in every other clause it is 0, as there DTrace clears it before the clause runs.
#include "lang/builtins/support.h"
#include "lang/codegen/firing.h"

namespace dsched::lang {
namespace {

class Errno : public NamedVariable {
 public:
  Errno() : NamedVariable("errno", "int") {}
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.firing.hook().errno_value(l), use.type};
  }
};

const Registered<Errno> registered;

}  // namespace
}  // namespace dsched::lang
