// setopt(name [, value]): sets an option while tracing. The name and value are checked when the
// script compiles; user space applies dynamic options and warns about the others, as DTrace does.
#include "abi/options.h"
#include "lang/builtins/support.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

class Setopt : public Action {
 public:
  Setopt() : Action("setopt", {1, 2}) {}

  void check(Checker& c, ExprPtr& call) const override {
    check_literal_arg(c, *call, 0, "option name", ErrTag::D_PROTO_ARG);
    std::optional<std::string> value;
    if (call->operands.size() == 2) {
      check_literal_arg(c, *call, 1, "option value", ErrTag::D_PROTO_ARG);
      value = call->operand(1)->text;
    }
    abi::OptionValue parsed;
    std::string error;
    if (!abi::parse_option(call->operand(0)->text, value, &parsed, &error)) fail(call->loc, ErrTag::D_PRAGMA_OPTSET, error);
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    std::vector<abi::RecordField> fields = l.records.values(call, 1);
    abi::RecordedAction& action = l.records.action(*this);
    action.name = call.operand(0)->text;
    action.fields = std::move(fields);
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    std::optional<std::string> value;
    if (!action.fields.empty()) value = record.field(action.fields[0]).text;
    run.set_option(action.name, value);
  }
};

const Registered<Setopt> registered;

}  // namespace
}  // namespace dsched::lang
