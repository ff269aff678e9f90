// D variables: global scalars (one array map), associative arrays (a hash map each; storing 0
// deletes, as in DTrace), thread-locals (task local storage of the context task) and clause-locals
// (per-CPU scratch, shared by the clauses of one firing).
#include <linux/bpf.h>

#include "lang/codegen/generator.h"

namespace dsched::codegen {
namespace {

const lang::Variable& variable(const lang::Program& program, const lang::Expr& e) {
  switch (e.scope) {
    case lang::VarScope::Global: return program.globals.at(e.id);
    case lang::VarScope::ThreadLocal: return program.thread_locals.at(e.id);
    default: return program.clause_locals.at(e.id);
  }
}

}  // namespace

llvm::Value* Generator::build_key(const std::vector<const lang::Expr*>& keys,
                                  const std::vector<const lang::Type*>& types, uint64_t* size_out) {
  uint64_t size = 0;
  for (const lang::Type* t : types) size += t->is_string() ? strsize() : 8;
  llvm::Value* key = scratch(std::max<uint64_t>(size, 8));
  uint64_t offset = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    Value v = eval(*keys[i]);
    if (types[i]->is_string()) {
      copy_string(offset_ptr(key, offset), strsize(), to_string(v));
      offset += strsize();
    } else {
      b().CreateStore(types[i]->is_integer() ? normalize(v.v, types[i]) : v.v, offset_ptr(key, offset));
      offset += 8;
    }
  }
  if (size_out) *size_out = size;
  return key;
}

static llvm::Value* task_storage(Generator& g, bool create) {
  if (!create) return g.thread_locals();
  g.forget_thread_locals();  // created storage: later reads must look again
  llvm::Value* task = g.b().CreateIntToPtr(g.context_task(), g.ptr());
  llvm::Value* null = llvm::ConstantPointerNull::get(g.ptr());
  return g.mod().call_helper(BPF_FUNC_task_storage_get,
                             {g.self_, task, null, g.const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
}

// Where a variable lives: `base` + `offset`. For associative-array elements and thread-locals the
// base may be null (no element, no storage): callers test it before adding the offset, since the
// verifier forbids arithmetic on a pointer that may be null.
struct Slot {
  llvm::Value* base;
  uint64_t offset = 0;
  bool may_be_null = false;
};

static Slot variable_slot(Generator& g, const lang::Expr& e, bool create) {
  const lang::Variable& var = variable(g.program(), e);
  switch (e.scope) {
    case lang::VarScope::Global: {
      if (var.key_types.empty()) return {g.globals_base(), g.global_offsets_[var.id]};
      std::vector<const lang::Expr*> keys;
      for (const auto& k : e.operands) keys.push_back(k.get());
      llvm::Value* key = g.build_key(keys, var.key_types, nullptr);
      llvm::GlobalVariable* map = g.assoc_maps_.at(var.id);
      if (create) g.mod().call_helper(BPF_FUNC_map_update_elem, {map, key, g.zeroes_, g.const64(BPF_NOEXIST)});
      return {g.b().CreateIntToPtr(g.mod().call_helper(BPF_FUNC_map_lookup_elem, {map, key}), g.ptr()), 0, true};
    }
    case lang::VarScope::ThreadLocal:
      return {g.b().CreateIntToPtr(task_storage(g, create), g.ptr()), g.self_offsets_[var.id], true};
    case lang::VarScope::ClauseLocal:
      break;
  }
  return {g.scratch_base(), g.this_base_ + g.this_offsets_[var.id]};
}

// Emits `present(pointer)` when the slot exists and `absent()` otherwise; returns to a join block.
template <typename Present, typename Absent>
static void with_slot(Generator& g, const Slot& slot, Present present, Absent absent) {
  if (!slot.may_be_null) {
    present(g.offset_ptr(slot.base, slot.offset));
    return;
  }
  auto& b = g.b();
  llvm::BasicBlock* yes = g.new_block("slot.present");
  llvm::BasicBlock* no = g.new_block("slot.absent");
  llvm::BasicBlock* done = g.new_block("slot.done");
  b.CreateCondBr(b.CreateICmpNE(slot.base, llvm::ConstantPointerNull::get(g.ptr())), yes, no);
  b.SetInsertPoint(yes);
  present(g.offset_ptr(slot.base, slot.offset));
  b.CreateBr(done);
  b.SetInsertPoint(no);
  absent();
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

Value Generator::load_variable(const lang::Expr& e) {
  const lang::Variable& var = variable(program_, e);
  Slot slot = variable_slot(*this, e, false);
  if (var.type->is_string()) {
    // Strings are read where they live; an absent one reads as "" from the zeroes.
    if (!slot.may_be_null) return {offset_ptr(slot.base, slot.offset), var.type, strsize()};
    llvm::Value* text = stack_slot();
    with_slot(*this, slot, [&](llvm::Value* p) { b().CreateStore(p, text); },
              [&] { b().CreateStore(zeroes_, text); });
    return {b().CreateLoad(ptr(), text), var.type, strsize()};
  }
  llvm::Value* result = stack_slot();
  with_slot(*this, slot, [&](llvm::Value* p) { b().CreateStore(b().CreateLoad(i64(), p), result); },
            [&] { b().CreateStore(const64(0), result); });
  return {b().CreateLoad(i64(), result), var.type};
}

static void store_into(Generator& g, llvm::Value* slot, const lang::Variable& var, const Value& value) {
  if (var.type->is_string())
    g.copy_string(slot, g.strsize(), g.to_string(value));
  else
    g.b().CreateStore(value.v, slot);
}

void Generator::store_variable(const lang::Expr& e, const Value& value) {
  const lang::Variable& var = variable(program_, e);
  bool dynamic = e.scope == lang::VarScope::ThreadLocal || !var.key_types.empty();
  if (!dynamic) {
    Slot slot = variable_slot(*this, e, false);
    store_into(*this, offset_ptr(slot.base, slot.offset), var, value);
    return;
  }
  // Storing integer 0 into a dynamic variable deletes it (and never creates it).
  llvm::BasicBlock* done = new_block("store.done");
  if (!var.type->is_string()) {
    llvm::BasicBlock* erase = new_block("store.erase");
    llvm::BasicBlock* write = new_block("store.write");
    b().CreateCondBr(b().CreateICmpEQ(value.v, const64(0)), erase, write);
    b().SetInsertPoint(erase);
    if (e.scope == lang::VarScope::Global) {
      std::vector<const lang::Expr*> keys;
      for (const auto& k : e.operands) keys.push_back(k.get());
      llvm::Value* key = build_key(keys, var.key_types, nullptr);
      mod_.call_helper(BPF_FUNC_map_delete_elem, {assoc_maps_.at(var.id), key});
    } else {
      with_slot(*this, variable_slot(*this, e, false), [&](llvm::Value* p) { b().CreateStore(const64(0), p); },
                [] {});
    }
    b().CreateBr(done);
    b().SetInsertPoint(write);
  }
  with_slot(*this, variable_slot(*this, e, true), [&](llvm::Value* p) { store_into(*this, p, var, value); },
            [&] { bump_drop(DropCounter::DynamicVariable); });
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

}  // namespace dsched::codegen
