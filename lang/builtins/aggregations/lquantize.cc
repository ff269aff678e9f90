// lquantize(v, base, limit [, step [, increment]]): a linear histogram. levels = (limit - base) /
// step; index 0 holds v < base, index i (1..levels) holds [base+(i-1)*step, base+i*step), index
// levels+1 holds v >= base+levels*step (which is `limit` when step divides limit-base).
#include "lang/builtins/aggregations/histogram.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

struct Params {
  int64_t base, limit, step;
  explicit Params(std::span<const int64_t> p) : base(p[0]), limit(p[1]), step(p[2]) {}
  int64_t levels() const { return (limit - base) / step; }
  int64_t top() const { return base + levels() * step; }
};

class Lquantize : public Histogram {
 public:
  std::string_view name() const override { return "lquantize"; }
  Arity arity() const override { return {3, 4}; }

  ParamTags param_tags(size_t i) const override {
    static constexpr ParamTags kTags[] = {
        {ErrTag::D_PROTO_ARG, ErrTag::D_LQUANT_BASETYPE, ErrTag::D_LQUANT_MATCHBASE},
        {ErrTag::D_PROTO_ARG, ErrTag::D_LQUANT_LIMTYPE, ErrTag::D_LQUANT_MATCHLIM},
        // The step has no prototype in DTrace: whatever is not a positive constant is its type error.
        {ErrTag::D_LQUANT_STEPTYPE, ErrTag::D_LQUANT_STEPTYPE, ErrTag::D_LQUANT_MATCHSTEP},
    };
    return kTags[i];
  }

  void check_params(std::vector<int64_t>& params, SourceRange where) const override {
    if (params.size() == 2) params.push_back(1);
    int64_t base = params[0], limit = params[1], step = params[2];
    if (base < INT32_MIN || base > INT32_MAX)
      fail(where, ErrTag::D_LQUANT_BASEVAL, "lquantize() base must fit in 32 bits");
    if (limit < INT32_MIN || limit > INT32_MAX)
      fail(where, ErrTag::D_LQUANT_LIMVAL, "lquantize() limit must fit in 32 bits");
    if (limit < base) fail(where, ErrTag::D_LQUANT_MISMATCH, "lquantize() limit must not be below base");
    if (step <= 0) fail(where, ErrTag::D_LQUANT_STEPTYPE, "lquantize() step must be a positive integer constant");
    if (step > UINT16_MAX) fail(where, ErrTag::D_LQUANT_STEPVAL, "lquantize() step must be at most 65535");
    int64_t levels = (limit - base) / step;
    if (levels == 0) fail(where, ErrTag::D_LQUANT_STEPLARGE, "lquantize() step is larger than limit - base: there is no level");
    if (levels > UINT16_MAX) fail(where, ErrTag::D_LQUANT_STEPSMALL, "lquantize() has too many levels (at most 65535)");
  }

  size_t value_words(std::span<const int64_t> params) const override { return size_t(Params(params).levels() + 2); }

  size_t bucket(std::span<const int64_t> params, int64_t value) const override {
    Params p(params);
    if (value < p.base) return 0;
    const __int128 offset = (__int128(value) - p.base) / p.step;
    return offset >= p.levels() ? size_t(p.levels() + 1) : size_t(offset + 1);
  }

  void lower(codegen::AggregationUpdate& u) const override {
    codegen::Ir& ir = u.l.ir;
    auto& b = ir.b();
    Params p(u.params());
    llvm::Value* v = u.value();
    // Used only when v >= base, where v - base is not negative: an unsigned division (BPF before
    // v4 has no signed one).
    llvm::Value* inside =
        b.CreateAdd(b.CreateUDiv(b.CreateSub(v, ir.const64(p.base)), ir.const64(p.step)), ir.const64(1));
    llvm::Value* index = b.CreateSelect(b.CreateICmpSGE(v, ir.const64(p.top())), ir.const64(p.levels() + 1), inside);
    u.add_increment_at(b.CreateSelect(b.CreateICmpSLT(v, ir.const64(p.base)), ir.const64(0), index));
  }

 protected:
  std::vector<abi::HistogramRow> rows(std::span<const int64_t> params) const override {
    Params p(params);
    std::vector<abi::HistogramRow> out{{p.base, bound_label("<", p.base), 0}};
    for (int64_t i = 0; i < p.levels(); ++i) out.push_back({p.base + i * p.step, "", 0});
    out.push_back({p.top(), bound_label(">=", p.top()), 0});
    return out;
  }
  std::vector<int64_t> order_values(std::span<const int64_t> params) const override {
    Params p(params);
    std::vector<int64_t> out{p.base - 1};
    for (int64_t i = 0; i < p.levels(); ++i) out.push_back(p.base + i * p.step);
    out.push_back(p.top() + 1);
    return out;
  }
  EmptyRows empty_rows() const override { return {0, 2}; }
};

const Registered<Lquantize> registered;

}  // namespace
}  // namespace dsched::lang
