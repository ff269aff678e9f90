// Aggregations: one per-CPU map each (no atomics on the hot path), laid out as
// runtime/output/aggregation.h describes; user space combines the CPUs when it prints.
#include <algorithm>
#include <linux/bpf.h>

#include "lang/codegen/generator.h"
#include "runtime/output/histogram.h"

namespace dsched::codegen {
namespace {

output::AggFunc output_function(lang::AggFunc f) {
  switch (f) {
    case lang::AggFunc::Count: return output::AggFunc::Count;
    case lang::AggFunc::Sum: return output::AggFunc::Sum;
    case lang::AggFunc::Avg: return output::AggFunc::Avg;
    case lang::AggFunc::Min: return output::AggFunc::Min;
    case lang::AggFunc::Max: return output::AggFunc::Max;
    case lang::AggFunc::Stddev: return output::AggFunc::Stddev;
    case lang::AggFunc::Quantize: return output::AggFunc::Quantize;
    case lang::AggFunc::Lquantize: return output::AggFunc::Lquantize;
    case lang::AggFunc::Llquantize: return output::AggFunc::Llquantize;
  }
  return output::AggFunc::Count;
}

output::AggregationSpec output_spec(const lang::Aggregation& agg, uint64_t strsize) {
  output::AggregationSpec spec;
  spec.id = static_cast<uint32_t>(agg.id);
  spec.name = agg.name;
  spec.function = output_function(agg.func);
  if (agg.func == lang::AggFunc::Lquantize)
    spec.lquantize = {agg.params.at(0), agg.params.at(1), agg.params.size() > 2 ? agg.params[2] : 1};
  if (agg.func == lang::AggFunc::Llquantize)
    spec.llquantize = {agg.params.at(0), agg.params.at(1), agg.params.at(2), agg.params.at(3)};
  for (const lang::Type* key : agg.key_types) {
    if (key->is_string())
      spec.keys.push_back(output::KeyComponent::string(static_cast<unsigned>(strsize)));
    else
      spec.keys.push_back(output::KeyComponent::integer(static_cast<unsigned>(key->size),
                                                        key->is_integer() && key->is_signed));
  }
  return spec;
}

}  // namespace

void Generator::define_aggregation_maps() {
  uint64_t aggsize = static_cast<uint64_t>(program_.options.number("aggsize", 4 << 20));
  for (const lang::Aggregation& agg : program_.aggregations) {
    output::AggregationSpec spec = output_spec(agg, strsize());
    uint64_t value_size = spec.value_words() * 8;
    std::string name = "agg_" + std::to_string(agg.id);
    if (spec.keys.empty()) {
      agg_maps_.push_back(mod_.define_map({name, BPF_MAP_TYPE_PERCPU_ARRAY, 1, 4,
                                           static_cast<uint32_t>(value_size), 0, false}));
    } else {
      uint64_t entry = spec.key_size() + value_size;
      uint32_t entries = static_cast<uint32_t>(std::clamp<uint64_t>(aggsize / entry, 1, 1 << 20));
      // Not preallocated: the kernel would otherwise allocate every entry on every CPU up front
      // (25 MB and a quarter second per map at the default aggsize).
      agg_maps_.push_back(mod_.define_map({name, BPF_MAP_TYPE_PERCPU_HASH, entries,
                                           static_cast<uint32_t>(spec.key_size()), static_cast<uint32_t>(value_size),
                                           BPF_F_NO_PREALLOC, false}));
    }
    zeroes_size_ = std::max(zeroes_size_, value_size);
    out_.aggregations.push_back(std::move(spec));
  }
}

// floor(log2(v)) for v > 0 by binary search: BPF has no count-leading-zeros instruction, and
// six compare-and-shift steps are shorter than LLVM's generic expansion of one.
static llvm::Value* log2_floor(Generator& g, llvm::Value* v) {
  auto& b = g.b();
  llvm::Value* result = g.const64(0);
  for (int shift : {32, 16, 8, 4, 2, 1}) {
    llvm::Value* high = b.CreateICmpUGE(v, g.const64(int64_t(1) << shift));
    v = b.CreateSelect(high, b.CreateLShr(v, shift), v);
    result = b.CreateSelect(high, b.CreateAdd(result, g.const64(shift)), result);
  }
  return result;
}

// Bucket index of quantize(): 63 for 0, 64 + log2(v) above, 62 - log2(-v) below, clamped.
static llvm::Value* quantize_index(Generator& g, llvm::Value* v) {
  auto& b = g.b();
  llvm::Value* negative = b.CreateICmpSLT(v, g.const64(0));
  llvm::Value* magnitude = b.CreateSelect(negative, b.CreateNeg(v), v);
  llvm::Value* log2 = log2_floor(g, magnitude);
  log2 = b.CreateSelect(b.CreateICmpUGT(log2, g.const64(62)), g.const64(62), log2);
  llvm::Value* index = b.CreateSelect(negative, b.CreateSub(g.const64(62), log2), b.CreateAdd(g.const64(64), log2));
  return b.CreateSelect(b.CreateICmpEQ(v, g.const64(0)), g.const64(output::kQuantizeZeroBucket), index);
}

static llvm::Value* lquantize_index(Generator& g, llvm::Value* v, const output::LquantizeParams& p) {
  auto& b = g.b();
  int64_t levels = p.levels();
  llvm::Value* inside = b.CreateAdd(b.CreateSDiv(b.CreateSub(v, g.const64(p.base)), g.const64(p.step)), g.const64(1));
  llvm::Value* index = b.CreateSelect(b.CreateICmpSGE(v, g.const64(p.base + levels * p.step)),
                                      g.const64(levels + 1), inside);
  return b.CreateSelect(b.CreateICmpSLT(v, g.const64(p.base)), g.const64(0), index);
}

// llquantize(): walks the magnitudes (a handful, known at compile time) from the top.
static llvm::Value* llquantize_index(Generator& g, llvm::Value* v, const output::LlquantizeParams& p) {
  auto& b = g.b();
  std::vector<int64_t> bounds = output::llquantize_bucket_bounds(p);
  // bounds[i] is the first value of bucket i (1..count-2); below bounds[0] is bucket 0.
  llvm::Value* index = g.const64(0);
  for (size_t i = 1; i < bounds.size(); ++i)
    index = b.CreateSelect(b.CreateICmpSGE(v, g.const64(bounds[i])), g.const64(static_cast<int64_t>(i)), index);
  return index;
}

void Generator::aggregate(const lang::Stmt& stmt) {
  const output::AggregationSpec& spec = out_.aggregations.at(stmt.agg_id);
  const lang::Aggregation& agg = program_.aggregations.at(stmt.agg_id);
  llvm::GlobalVariable* map = agg_maps_.at(stmt.agg_id);
  llvm::Value* value = stmt.args.empty() ? const64(0) : eval_int(*stmt.args[0]);
  llvm::Value* increment = stmt.increment ? eval_int(*stmt.increment) : const64(1);

  llvm::Value* key;
  if (spec.keys.empty()) {
    key = scratch(4);
    b().CreateStore(b().getInt32(0), key);
  } else {
    std::vector<const lang::Expr*> keys;
    for (const auto& k : stmt.keys) keys.push_back(k.get());
    key = build_key(keys, agg.key_types, nullptr);
  }
  llvm::Value* found = mod_.call_helper(BPF_FUNC_map_lookup_elem, {map, key});
  llvm::BasicBlock* have = new_block("agg.have");
  llvm::BasicBlock* create = new_block("agg.create");
  llvm::BasicBlock* update = new_block("agg.update");
  llvm::BasicBlock* full = new_block("agg.full");
  llvm::BasicBlock* done = new_block("agg.done");
  llvm::BasicBlock* from = b().GetInsertBlock();
  b().CreateCondBr(b().CreateICmpNE(found, const64(0)), update, create);
  b().SetInsertPoint(create);
  mod_.call_helper(BPF_FUNC_map_update_elem, {map, key, zeroes_, const64(BPF_NOEXIST)});
  llvm::Value* created = mod_.call_helper(BPF_FUNC_map_lookup_elem, {map, key});
  b().CreateCondBr(b().CreateICmpNE(created, const64(0)), have, full);
  b().SetInsertPoint(have);
  b().CreateBr(update);
  b().SetInsertPoint(full);
  bump_drop(DropCounter::Aggregation);
  b().CreateBr(done);

  b().SetInsertPoint(update);
  llvm::PHINode* slot_int = b().CreatePHI(i64(), 2);
  slot_int->addIncoming(found, from);
  slot_int->addIncoming(created, have);
  llvm::Value* words = b().CreateIntToPtr(slot_int, ptr());
  auto word = [&](uint64_t i) { return offset_ptr(words, i * 8); };
  auto add = [&](llvm::Value* p, llvm::Value* amount) {
    b().CreateStore(b().CreateAdd(b().CreateLoad(i64(), p), amount), p);
  };
  auto add_at_index = [&](llvm::Value* index) {
    add(b().CreateInBoundsGEP(i64(), words, bounded(index, spec.value_words())), increment);
  };
  switch (spec.function) {
    case output::AggFunc::Count: add(word(0), const64(1)); break;
    case output::AggFunc::Sum: add(word(0), value); break;
    case output::AggFunc::Avg:
      add(word(0), value);
      add(word(1), const64(1));
      break;
    case output::AggFunc::Min:
    case output::AggFunc::Max: {
      llvm::Value* current = b().CreateLoad(i64(), word(0));
      llvm::Value* seen = b().CreateICmpNE(b().CreateLoad(i64(), word(1)), const64(0));
      llvm::Value* better = spec.function == output::AggFunc::Min ? b().CreateICmpSLT(value, current)
                                                                  : b().CreateICmpSGT(value, current);
      b().CreateStore(b().CreateSelect(b().CreateAnd(seen, b().CreateNot(better)), current, value), word(0));
      b().CreateStore(const64(1), word(1));
      break;
    }
    case output::AggFunc::Stddev: {
      add(word(0), const64(1));
      add(word(1), value);
      // value^2 as 128 bits from 32-bit halves (BPF has no 128-bit multiply).
      llvm::Value* a = b().CreateSelect(b().CreateICmpSLT(value, const64(0)), b().CreateNeg(value), value);
      llvm::Value* lo32 = b().CreateAnd(a, const64(0xffffffff));
      llvm::Value* hi32 = b().CreateLShr(a, 32);
      llvm::Value* low = b().CreateMul(lo32, lo32);
      llvm::Value* cross = b().CreateMul(lo32, hi32);
      llvm::Value* high = b().CreateMul(hi32, hi32);
      llvm::Value* square_lo = b().CreateAdd(low, b().CreateShl(cross, 33));
      llvm::Value* carry = b().CreateZExt(b().CreateICmpULT(square_lo, low), i64());
      llvm::Value* square_hi = b().CreateAdd(b().CreateAdd(high, b().CreateLShr(cross, 31)), carry);
      llvm::Value* old_lo = b().CreateLoad(i64(), word(2));
      llvm::Value* new_lo = b().CreateAdd(old_lo, square_lo);
      b().CreateStore(new_lo, word(2));
      llvm::Value* carry_lo = b().CreateZExt(b().CreateICmpULT(new_lo, old_lo), i64());
      add(word(3), b().CreateAdd(square_hi, carry_lo));
      break;
    }
    case output::AggFunc::Quantize: add_at_index(quantize_index(*this, value)); break;
    case output::AggFunc::Lquantize: add_at_index(lquantize_index(*this, value, spec.lquantize)); break;
    case output::AggFunc::Llquantize: add_at_index(llquantize_index(*this, value, spec.llquantize)); break;
  }
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

}  // namespace dsched::codegen
