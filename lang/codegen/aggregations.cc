#include "lang/codegen/aggregations.h"

#include <linux/bpf.h>

#include "lang/builtins/builtin.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/variables.h"

namespace dsched::codegen {

llvm::Value* AggregationUpdate::word(uint64_t i) { return l.ir.offset_ptr(words_, i * 8); }

void AggregationUpdate::add(llvm::Value* word, llvm::Value* amount) {
  auto& b = l.ir.b();
  b.CreateStore(b.CreateAdd(b.CreateLoad(l.ir.i64(), word), amount), word);
}

void AggregationUpdate::add_increment_at(llvm::Value* index) {
  add(l.ir.b().CreateInBoundsGEP(l.ir.i64(), words_, l.ir.bounded(index, word_count_)), increment_);
}

void aggregate(Lowering& l, const lang::Stmt& stmt) {
  Ir& ir = l.ir;
  auto& b = ir.b();
  const lang::Aggregation& agg = l.program.aggregations.at(size_t(stmt.agg_id));
  const abi::AggregationSpec& spec = l.maps.aggregation_specs().at(size_t(stmt.agg_id));
  llvm::GlobalVariable* map = l.maps.aggregation(stmt.agg_id);
  llvm::Value* value = stmt.args.empty() ? ir.const64(0) : l.exprs.eval_int(*stmt.args[0]);
  llvm::Value* increment = stmt.increment ? l.exprs.eval_int(*stmt.increment) : ir.const64(1);

  llvm::Value* key;
  if (agg.key_types.empty()) {
    key = l.maps.index_key(0);
  } else {
    std::vector<const lang::Expr*> keys;
    for (const auto& k : stmt.keys) keys.push_back(k.get());
    key = l.variables.key(keys, agg.key_types);
  }
  uint64_t value_bytes = spec.map_value_words() * 8;
  llvm::Value* found = ir.helper(BPF_FUNC_map_lookup_elem, {map, key});
  llvm::BasicBlock* have = ir.new_block("agg.have");
  llvm::BasicBlock* create = ir.new_block("agg.create");
  llvm::BasicBlock* update = ir.new_block("agg.update");
  llvm::BasicBlock* full = ir.new_block("agg.full");
  llvm::BasicBlock* done = ir.new_block("agg.done");
  llvm::BasicBlock* from = b.GetInsertBlock();
  b.CreateCondBr(b.CreateICmpNE(found, ir.const64(0)), update, create);
  b.SetInsertPoint(create);
  ir.helper(BPF_FUNC_map_update_elem, {map, key, l.ir.zeroes(value_bytes), ir.const64(BPF_NOEXIST)});
  llvm::Value* created = ir.helper(BPF_FUNC_map_lookup_elem, {map, key});
  b.CreateCondBr(b.CreateICmpNE(created, ir.const64(0)), have, full);
  b.SetInsertPoint(have);
  b.CreateBr(update);
  b.SetInsertPoint(full);
  l.maps.count_drop(abi::DropCounter::Aggregation);
  b.CreateBr(done);

  b.SetInsertPoint(update);
  llvm::PHINode* slot = b.CreatePHI(ir.i64(), 2);
  slot->addIncoming(found, from);
  slot->addIncoming(created, have);
  AggregationUpdate words(l, b.CreateIntToPtr(slot, ir.ptr()), value, increment, agg.params, spec.value_words());
  agg.function->lower(words);
  if (spec.keys.empty()) b.CreateStore(ir.const64(1), words.word(spec.value_words()));  // present
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace dsched::codegen
