// errno: the error of the context thread's last system call. No provider here traces system
// calls yet, so there is nothing to read it from: a use is refused rather than reading 0.
#include "lang/builtins/support.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Errno : public NamedVariable {
 public:
  Errno() : NamedVariable("errno", "int") {}
  void check(Checker&, const Expr& use) const override {
    fail(use.loc, "errno is not available: no probe here observes system call errors");
  }
  codegen::Value lower(codegen::Lowering&, const Expr& use) const override {
    fail(use.loc, "errno is not available");
  }
};

const Registered<Errno> registered;

}  // namespace
}  // namespace dsched::lang
