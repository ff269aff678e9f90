// exit(status): ends the run once the record is read; END clauses still run.
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

class Exit : public Action {
 public:
  Exit() : Action("exit", {1, 1}) {}
  Speculation speculation() const override { return Speculation::Exit; }

  void check(Checker& c, ExprPtr& call) const override {
    check_integer_arg(c, *call, 0, "the exit status");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    const Expr& status = *call.operand(0);
    abi::RecordField field = l.records.integer(l.exprs.eval_int(status), status.type);
    l.records.action(*this).fields.push_back(field);
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.exit(static_cast<int>(record.field(action.fields[0]).as_signed()));
  }
};

const Registered<Exit> registered;

}  // namespace
}  // namespace dsched::lang
