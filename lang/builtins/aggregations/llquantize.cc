// llquantize(v, factor, low, high, nsteps [, increment]): a log-linear histogram. Index 0 holds
// v < factor^low; then for each magnitude m = low..high the range [factor^m, factor^(m+1)) is cut
// into buckets of width factor^(m+1)/min(nsteps, factor^(m+1)); there are
// min(nsteps, factor^(m+1)) * (1 - 1/factor) of them, because the lowest 1/factor of the range
// belongs to the magnitude below. The last index holds v >= factor^(high+1).
#include <bit>

#include "lang/builtins/aggregations/histogram.h"
#include "lang/codegen/aggregations.h"
#include "lang/codegen/ir.h"
#include "lang/diagnostics.h"

namespace dsched::lang {
namespace {

struct Params {
  int64_t factor, low, high, nsteps;
  explicit Params(std::span<const int64_t> p) : factor(p[0]), low(p[1]), high(p[2]), nsteps(p[3]) {}
};

// The lower bound of every bucket: [0] is factor^low (the bound of the "< factor^low" bucket),
// [i] for 1..count-2 the first value of bucket i, [count-1] is factor^(high+1).
std::vector<int64_t> bucket_bounds(const Params& p) {
  int64_t value = 1;
  for (int64_t m = 0; m < p.low; ++m) value *= p.factor;
  std::vector<int64_t> bounds{value};
  for (int64_t m = p.low; m <= p.high; ++m) {
    const int64_t next = value * p.factor;
    const int64_t step = next > p.nsteps ? next / p.nsteps : 1;
    for (; value < next; value += step) bounds.push_back(value);
    value = next;
  }
  bounds.push_back(value);
  return bounds;
}

class Llquantize : public Histogram {
 public:
  std::string_view name() const override { return "llquantize"; }
  Arity arity() const override { return {5, 5}; }

  ParamTags param_tags(size_t i) const override {
    static constexpr ParamTags kTags[] = {
        {ErrTag::D_PROTO_ARG, ErrTag::D_LLQUANT_FACTORTYPE, ErrTag::D_LLQUANT_FACTORMATCH},
        {ErrTag::D_PROTO_ARG, ErrTag::D_LLQUANT_LOWTYPE, ErrTag::D_LLQUANT_LOWMATCH},
        {ErrTag::D_PROTO_ARG, ErrTag::D_LLQUANT_HIGHTYPE, ErrTag::D_LLQUANT_HIGHMATCH},
        {ErrTag::D_PROTO_ARG, ErrTag::D_LLQUANT_NSTEPTYPE, ErrTag::D_LLQUANT_NSTEPMATCH},
    };
    return kTags[i];
  }

  // DTrace's rules, in its order: each parameter an unsigned 16-bit quantity, a factor of at least
  // 2, a low magnitude below the high one, at least `factor` steps that the factor divides and that
  // divide a power of the factor, and factor^(high + 2) within 64 bits.
  void check_params(std::vector<int64_t>& params, SourceRange where) const override {
    static constexpr std::pair<ErrTag, const char*> kRanges[] = {
        {ErrTag::D_LLQUANT_FACTORVAL, "factor"},
        {ErrTag::D_LLQUANT_LOWVAL, "low magnitude"},
        {ErrTag::D_LLQUANT_HIGHVAL, "high magnitude"},
        {ErrTag::D_LLQUANT_NSTEPVAL, "number of steps"},
    };
    for (size_t i = 0; i < 4; ++i)
      if (uint64_t(params[i]) > UINT16_MAX)
        fail(where, kRanges[i].first,
             std::string("llquantize() ") + kRanges[i].second + " must be between 0 and 65535");
    const uint64_t factor = uint64_t(params[0]), low = uint64_t(params[1]), high = uint64_t(params[2]),
                   steps = uint64_t(params[3]);
    if (factor < 2) fail(where, ErrTag::D_LLQUANT_FACTORSMALL, "llquantize() factor must be two or more");
    if (low >= high)
      fail(where, ErrTag::D_LLQUANT_MAGRANGE, "llquantize() high magnitude must be greater than the low magnitude");
    if (steps < factor)
      fail(where, ErrTag::D_LLQUANT_FACTORNSTEPS, "llquantize() steps per magnitude must be at least the factor");
    uint64_t power = factor;
    while (power < steps) power *= factor;
    if (steps % factor != 0 || power % steps != 0)
      fail(where, ErrTag::D_LLQUANT_FACTOREVEN,
           "llquantize() steps per magnitude must be a multiple of the factor and divide a power of it");
    unsigned __int128 order = 1;
    for (uint64_t m = 0; m <= high + 1; ++m) {
      order *= factor;
      if (order > UINT64_MAX)
        fail(where, ErrTag::D_LLQUANT_MAGTOOBIG, "llquantize() factor raised to the high magnitude overflows 64 bits");
    }
  }

  size_t value_words(std::span<const int64_t> params) const override { return bucket_bounds(Params(params)).size(); }

  size_t bucket(std::span<const int64_t> params, int64_t value) const override {
    std::vector<int64_t> bounds = bucket_bounds(Params(params));
    if (value < bounds[0]) return 0;
    size_t i = 1;
    while (i + 1 < bounds.size() && value >= bounds[i + 1]) ++i;
    return i;
  }

  // Walks the bounds (a handful, known at compile time) from the bottom.
  // The index is how many bounds after the first are at most v (a negative v counts none, as 0
  // does). A branch-free binary search over the bounds, kept in .rodata and padded to a power of two
  // with INT64_MAX, finds it in log2(buckets) steps: a chain of compare-and-branch would cost one
  // step per bucket and give the verifier a path per bucket.
  void lower(codegen::AggregationUpdate& u) const override {
    codegen::Ir& ir = u.l.ir;
    auto& b = ir.b();
    std::vector<int64_t> bounds = bucket_bounds(Params(u.params()));
    std::vector<uint64_t> sorted(bounds.begin() + 1, bounds.end());
    sorted.resize(std::bit_ceil(sorted.size()), uint64_t(INT64_MAX));
    llvm::GlobalVariable* table =
        ir.rodata(llvm::ConstantDataArray::get(ir.module().context(), sorted), "llquantize_bounds");
    llvm::Value* v = u.value();
    llvm::Value* value = b.CreateAnd(v, b.CreateNot(b.CreateAShr(v, 63)));
    // 1 when the bound at `at` is at most the value; both are in [0, INT64_MAX], so the difference
    // cannot overflow and its sign says which is larger.
    auto at_most = [&](llvm::Value* at) {
      llvm::Value* bound = b.CreateLoad(ir.i64(), b.CreateInBoundsGEP(ir.i64(), table, at));
      return b.CreateLShr(b.CreateNot(b.CreateSub(value, bound)), 63);
    };
    llvm::Value* index = ir.const64(0);
    for (size_t half = sorted.size() / 2; half > 0; half /= 2) {
      llvm::Value* probe = b.CreateAdd(index, ir.const64(int64_t(half) - 1));
      index = b.CreateAdd(index, b.CreateShl(at_most(probe), int64_t(std::countr_zero(half))));
    }
    u.add_increment_at(b.CreateAdd(index, at_most(index)));
  }

 protected:
  std::vector<abi::HistogramRow> rows(std::span<const int64_t> params) const override {
    std::vector<int64_t> bounds = bucket_bounds(Params(params));
    std::vector<abi::HistogramRow> out;
    for (int64_t bound : bounds) out.push_back({bound, "", 0});
    out.front().label = bound_label("<", bounds.front());
    out.back().label = bound_label(">=", bounds.back());
    return out;
  }
  std::vector<int64_t> order_values(std::span<const int64_t> params) const override {
    std::vector<int64_t> bounds = bucket_bounds(Params(params));
    bounds.front() -= 1;
    return bounds;
  }
  EmptyRows empty_rows() const override { return {0, 1}; }
};

const Registered<Llquantize> registered;

}  // namespace
}  // namespace dsched::lang
