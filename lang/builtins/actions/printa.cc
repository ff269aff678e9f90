// printa([format,] @a, ...): prints aggregations, in order with the rest of the output.
#include "lang/builtins/support.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"
#include "lang/program.h"

namespace dsched::lang {
namespace {

class Printa : public Action {
 public:
  Printa() : Action("printa", {1, Arity::kUnbounded}) {}

  void check(Checker& c, ExprPtr& call) const override {
    auto& args = call->operands;
    size_t first = 0;
    if (args[0]->kind == ExprKind::StringLiteral) {
      c.value(args[0]);
      first = 1;
      if (args.size() < 2) fail(call->loc, ErrTag::D_PRINTA_PROTO, "printa() needs an aggregation after its format");
    }
    const Aggregation* target = nullptr;
    for (size_t i = first; i < args.size(); ++i) {
      const Aggregation& agg = c.aggregation(*args[i]);
      if (!target) target = &agg;
      // Several aggregations print side by side, so their keys must line up.
      if (target->key_types.size() != agg.key_types.size())
        fail(args[i]->loc, ErrTag::D_PRINTA_AGGKEY, "printa(): @" + agg.name + " and @" + target->name + " have different numbers of keys");
      for (size_t k = 0; k < agg.key_types.size(); ++k)
        if (target->key_types[k]->is_string() != agg.key_types[k]->is_string())
          fail(args[i]->loc, ErrTag::D_PRINTA_AGGPROTO, "printa(): @" + agg.name + " and @" + target->name + " have different key types");
    }
    if (first == 1) c.format(*call, 0, target);
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    abi::RecordedAction& action = l.records.action(*this);
    if (call.operand(0)->kind == ExprKind::StringLiteral)
      action.format = printf_spec::parse_format(call.operand(0)->text).format;
    action.aggregations = aggregation_ids(call);
    return no_value(call);
  }

  void run(const abi::RecordedAction& action, const abi::RecordView&, abi::RunContext& run) const override {
    std::vector<abi::Aggregation*> aggregations;
    for (uint32_t id : action.aggregations) aggregations.push_back(&run.read_aggregation(id));
    run.output().printa(action.format ? &*action.format : nullptr, aggregations);
  }
};

const Registered<Printa> registered;

}  // namespace
}  // namespace dsched::lang
