// trace(x): records a value; printed as DTrace prints traced data. A struct or array is recorded
// as its bytes, which print as a string when they read as one and as a hex dump otherwise.
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

// As tracemem(): the bytes must fit in one record.
constexpr uint64_t kMaxObject = 4096;

class Trace : public Action {
 public:
  Trace() : Action("trace", {1, 1}) {}

  void check(Checker& c, ExprPtr& call) const override {
    ExprPtr& arg = call->operands[0];
    c.value(arg, ErrTag::D_TRACE_VOID, ErrTag::D_TRACE_AGG);
    if (arg->type->is_address()) fail_action_value(*arg);
    if (arg->type->is_char_sequence() && arg->type->is_array()) c.to_string(arg);
    if (arg->type->kind == TypeKind::Float)
      fail(arg->loc, ErrTag::D_TRACE_DYN,
           "trace() cannot record " + type_name(arg->type) +
               ": D records no floating-point values (print() shows them)");
    if ((arg->type->is_record() || arg->type->is_array()) && (!arg->type->size || arg->type->size > kMaxObject))
      fail(arg->loc, ErrTag::D_TRACE_DYN, "trace() cannot record " + type_name(arg->type) + ": it has " +
                                              std::to_string(arg->type->size) + " bytes, and at most " +
                                              std::to_string(kMaxObject) + " can be traced");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    const Expr& arg = *call.operand(0);
    abi::RecordField field;
    if (arg.type->is_record() || arg.type->is_array()) {
      codegen::Value object = l.exprs.eval(arg);
      llvm::Value* address = object.in_kernel ? object.v : l.ir.b().CreatePtrToInt(object.v, l.ir.i64());
      field = l.records.memory(address, static_cast<uint32_t>(arg.type->size));
    } else {
      field = l.records.value(arg);
    }
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
