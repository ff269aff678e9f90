// Actions on aggregations, carried out in user space in order with the output:
//   clear(@a)          zeroes every value, keeps the keys
//   trunc(@a [, n])    keeps the n largest entries (n < 0: the -n smallest); without n, none
//   normalize(@a, n)   prints values divided by n
//   denormalize(@a)    undoes normalize()
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

class AggregationAction : public Action {
 public:
  // DTrace's error tags for a call: with the wrong number of arguments, without an aggregation
  // first, with an aggregation not yet defined, with a second argument that is not an integer.
  struct Tags {
    ErrTag proto, aggregation_arg, undefined, scalar;
  };
  // `argument` names the optional integer after the aggregation, or is null when there is none.
  AggregationAction(std::string_view name, Arity arity, const char* argument, Tags tags)
      : Action(name, Arity{arity.min, arity.max, tags.proto, tags.proto}), argument_(argument), tags_(tags) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.aggregation(*call->operands[0], tags_.aggregation_arg, tags_.undefined);
    if (call->operands.size() == 2) check_integer_arg(c, *call, 1, argument_, tags_.scalar);
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    std::vector<abi::RecordField> fields;
    if (call.operands.size() == 2)
      fields.push_back(l.records.integer(l.exprs.eval_int(*call.operand(1)), call.operand(1)->type));
    abi::RecordedAction& action = l.records.action(*this);
    action.aggregations = aggregation_ids(call);
    action.fields = std::move(fields);
    return no_value(call);
  }

 protected:
  // The integer argument, when the call has one.
  static std::optional<int64_t> argument(const abi::RecordedAction& action, const abi::RecordView& record) {
    if (action.fields.empty()) return std::nullopt;
    return record.field(action.fields[0]).as_signed();
  }

 private:
  const char* argument_;
  Tags tags_;
};

constexpr AggregationAction::Tags kNormalizeTags{ErrTag::D_NORMALIZE_PROTO, ErrTag::D_NORMALIZE_AGGARG,
                                                 ErrTag::D_NORMALIZE_AGGBAD, ErrTag::D_NORMALIZE_SCALAR};

class Clear : public AggregationAction {
 public:
  Clear()
      : AggregationAction("clear", {1, 1}, nullptr,
                          {ErrTag::D_CLEAR_PROTO, ErrTag::D_CLEAR_AGGARG, ErrTag::D_CLEAR_AGGBAD, ErrTag::D_PROTO_ARG}) {}
  void run(const abi::RecordedAction& action, const abi::RecordView&, abi::RunContext& run) const override {
    for (uint32_t id : action.aggregations) run.clear(id);
  }
};

class Trunc : public AggregationAction {
 public:
  Trunc()
      : AggregationAction("trunc", {1, 2}, "the number of entries to keep",
                          {ErrTag::D_TRUNC_PROTO, ErrTag::D_TRUNC_AGGARG, ErrTag::D_TRUNC_AGGBAD, ErrTag::D_TRUNC_SCALAR}) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    int64_t keep = argument(action, record).value_or(0);
    for (uint32_t id : action.aggregations) run.trunc(id, keep);
  }
};

class Normalize : public AggregationAction {
 public:
  Normalize() : AggregationAction("normalize", {2, 2}, "the divisor", kNormalizeTags) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    int64_t factor = argument(action, record).value_or(0);
    if (factor <= 0) return run.output().warning("normalize(): the divisor must be positive, not " + std::to_string(factor));
    for (uint32_t id : action.aggregations) run.aggregation(id).normalize(static_cast<uint64_t>(factor));
  }
};

class Denormalize : public AggregationAction {
 public:
  Denormalize() : AggregationAction("denormalize", {1, 1}, nullptr, kNormalizeTags) {}
  void run(const abi::RecordedAction& action, const abi::RecordView&, abi::RunContext& run) const override {
    for (uint32_t id : action.aggregations) run.aggregation(id).denormalize();
  }
};

const Registered<Clear> clear;
const Registered<Trunc> trunc;
const Registered<Normalize> normalize;
const Registered<Denormalize> denormalize;

}  // namespace
}  // namespace dsched::lang
