// exit(status): ends the run once the record is read; END clauses still run. From the moment it
// runs, no other clause does (but ERROR's), as in DTrace's draining state.
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

class Exit : public Action {
 public:
  Exit() : Action("exit", {1, 1}) {}
  Speculation speculation() const override { return Speculation::Exit; }

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the exit status");
    c.program().uses_exit = true;
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    const Expr& status = *call.operand(0);
    abi::RecordField field = l.records.integer(l.exprs.eval_int(status), status.type);
    l.records.action(*this).fields.push_back(field);
    llvm::Value* flag = l.maps.exit_flag();
    l.ir.when(
        l.ir.b().CreateICmpNE(flag, l.ir.const64(0)),
        [&] { l.ir.b().CreateStore(l.ir.const64(1), l.ir.b().CreateIntToPtr(flag, l.ir.ptr())); }, "exit.flag");
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.exit(static_cast<int>(record.field(action.fields[0]).as_signed()));
  }
};

const Registered<Exit> registered;

}  // namespace
}  // namespace dsched::lang
