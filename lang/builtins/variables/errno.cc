// errno: the error of a system call, as DTrace gives it where the call returns (0 on success).
// It has a value only in probes whose provider observes system call errors (syscall:::return);
// anywhere else a use is refused, naming the probe, rather than reading a made-up 0.
#include "lang/builtins/support.h"
#include "lang/codegen/firing.h"
#include "lang/diagnostics.h"
#include "lang/provider.h"

namespace dsched::lang {
namespace {

class Errno : public NamedVariable {
 public:
  Errno() : NamedVariable("errno", "int") {}
  void check(Checker& checker, const Expr& use) const override {
    const std::vector<const Probe*>& probes = checker.clause_probes();
    if (probes.empty()) fail(use.loc, ErrTag::D_UNKNOWN, "errno is only available in syscall:::return clauses");
    for (const Probe* probe : probes)
      if (!probe->owner->observes_errno(*probe))
        fail(use.loc, ErrTag::D_UNKNOWN, "errno has no value in " + probe->full_name() +
                          ": only syscall:::return probes observe system call errors");
  }
  codegen::Value lower(codegen::Lowering& l, const Expr& use) const override {
    return {l.firing.hook().errno_value(l), use.type};
  }
};

const Registered<Errno> registered;

}  // namespace
}  // namespace dsched::lang
