// trace(x): records a value; printed as DTrace prints traced data.
#include "lang/builtins/support.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Trace : public Action {
 public:
  Trace() : Action("trace", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    ExprPtr& arg = call->operands[0];
    c.value(arg);
    if (arg->type->is_char_sequence() && arg->type->is_array()) c.to_string(arg);
    if (arg->type->is_record() || arg->type->is_array())
      fail(arg->loc, ErrTag::D_TRACE_DYN, "trace() cannot record " + type_name(arg->type));
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    abi::RecordField field = l.records.value(*call.operand(0));
    l.records.action(*this).fields.push_back(field);
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.output().trace(record.field(action.fields[0]));
  }
};

const Registered<Trace> registered;

}  // namespace
}  // namespace dsched::lang
