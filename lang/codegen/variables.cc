#include "lang/codegen/variables.h"

#include <linux/bpf.h>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/strings.h"

namespace dsched::codegen {
namespace {

const lang::Variable& variable(const lang::Program& program, const lang::Expr& e) {
  switch (e.scope) {
    case lang::VarScope::Global: return program.globals.at(size_t(e.id));
    case lang::VarScope::ThreadLocal: return program.thread_locals.at(size_t(e.id));
    default: return program.clause_locals.at(size_t(e.id));
  }
}

}  // namespace

llvm::Value* Variables::key(const std::vector<const lang::Expr*>& keys, const std::vector<const lang::Type*>& types) {
  Ir& ir = l_.ir;
  uint64_t strsize = l_.program.options.strsize();
  llvm::Value* key = l_.firing.scratch(std::max<uint64_t>(l_.maps.key_size(types), 8));
  uint64_t offset = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    Value v = l_.exprs.eval(*keys[i]);
    if (types[i]->is_string()) {
      l_.strings.copy(ir.offset_ptr(key, offset), strsize, l_.strings.from(v));
      offset += strsize;
    } else {
      ir.b().CreateStore(types[i]->is_integer() ? ir.normalize(v.v, types[i]) : v.v, ir.offset_ptr(key, offset));
      offset += 8;
    }
  }
  return key;
}

llvm::Value* Variables::element_key(const lang::Expr& e) {
  std::vector<const lang::Expr*> keys;
  for (const auto& k : e.operands) keys.push_back(k.get());
  return key(keys, variable(l_.program, e).key_types);
}

Variables::Slot Variables::slot(const lang::Expr& e, bool create) {
  Ir& ir = l_.ir;
  const lang::Variable& var = variable(l_.program, e);
  switch (e.scope) {
    case lang::VarScope::Global: {
      if (var.key_types.empty()) return {l_.firing.globals_base(), l_.maps.global_offset(var.id)};
      llvm::Value* key = element_key(e);
      llvm::GlobalVariable* map = l_.maps.associative_array(var.id);
      if (create)
        ir.helper(BPF_FUNC_map_update_elem,
                  {map, key, l_.maps.zeroes(Maps::storage_size(var.type)), ir.const64(BPF_NOEXIST)});
      return {ir.b().CreateIntToPtr(ir.helper(BPF_FUNC_map_lookup_elem, {map, key}), ir.ptr()), 0, true};
    }
    case lang::VarScope::ThreadLocal: {
      llvm::Value* storage;
      if (create) {
        l_.firing.forget_thread_locals();  // created storage: later reads must look again
        storage = ir.helper(BPF_FUNC_task_storage_get,
                            {l_.maps.thread_locals(), ir.b().CreateIntToPtr(l_.firing.context_task(), ir.ptr()),
                             ir.null(), ir.const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
      } else {
        storage = l_.firing.thread_locals();
      }
      return {ir.b().CreateIntToPtr(storage, ir.ptr()), l_.maps.thread_local_offset(var.id), true};
    }
    case lang::VarScope::ClauseLocal:
      break;
  }
  return {l_.firing.scratch_base(), l_.firing.clause_locals_base() + l_.maps.clause_local_offset(var.id)};
}

template <typename Present, typename Absent>
void Variables::with_slot(const Slot& slot, Present present, Absent absent) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  if (!slot.may_be_null) {
    present(ir.offset_ptr(slot.base, slot.offset));
    return;
  }
  llvm::BasicBlock* yes = ir.new_block("slot.present");
  llvm::BasicBlock* no = ir.new_block("slot.absent");
  llvm::BasicBlock* done = ir.new_block("slot.done");
  b.CreateCondBr(b.CreateICmpNE(slot.base, ir.null()), yes, no);
  b.SetInsertPoint(yes);
  present(ir.offset_ptr(slot.base, slot.offset));
  b.CreateBr(done);
  b.SetInsertPoint(no);
  absent();
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

Value Variables::load(const lang::Expr& e) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Variable& var = variable(l_.program, e);
  uint64_t strsize = l_.program.options.strsize();
  Slot where = slot(e, false);
  if (var.type->is_string()) {
    // Strings are read where they live; an absent one reads as "" from the zeroes.
    if (!where.may_be_null) return {ir.offset_ptr(where.base, where.offset), var.type, strsize};
    llvm::Value* text = ir.stack_slot();
    with_slot(where, [&](llvm::Value* p) { b.CreateStore(p, text); },
              [&] { b.CreateStore(l_.maps.zeroes(strsize), text); });
    return {b.CreateLoad(ir.ptr(), text), var.type, strsize};
  }
  llvm::Value* result = ir.stack_slot();
  with_slot(where, [&](llvm::Value* p) { b.CreateStore(b.CreateLoad(ir.i64(), p), result); },
            [&] { b.CreateStore(ir.const64(0), result); });
  return {b.CreateLoad(ir.i64(), result), var.type};
}

void Variables::store_into(llvm::Value* slot, const lang::Variable& var, const Value& value) {
  if (var.type->is_string())
    l_.strings.copy(slot, l_.program.options.strsize(), l_.strings.from(value));
  else
    l_.ir.b().CreateStore(value.v, slot);
}

void Variables::store(const lang::Expr& e, const Value& value) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Variable& var = variable(l_.program, e);
  bool dynamic = e.scope == lang::VarScope::ThreadLocal || !var.key_types.empty();
  if (!dynamic) {
    Slot where = slot(e, false);
    store_into(ir.offset_ptr(where.base, where.offset), var, value);
    return;
  }
  // Storing integer 0 into a dynamic variable deletes it (and never creates it).
  llvm::BasicBlock* done = ir.new_block("store.done");
  if (!var.type->is_string()) {
    llvm::BasicBlock* erase = ir.new_block("store.erase");
    llvm::BasicBlock* write = ir.new_block("store.write");
    b.CreateCondBr(b.CreateICmpEQ(value.v, ir.const64(0)), erase, write);
    b.SetInsertPoint(erase);
    if (e.scope == lang::VarScope::Global)
      ir.helper(BPF_FUNC_map_delete_elem, {l_.maps.associative_array(var.id), element_key(e)});
    else
      with_slot(slot(e, false), [&](llvm::Value* p) { b.CreateStore(ir.const64(0), p); }, [] {});
    b.CreateBr(done);
    b.SetInsertPoint(write);
  }
  with_slot(slot(e, true), [&](llvm::Value* p) { store_into(p, var, value); },
            [&] { l_.maps.count_drop(abi::DropCounter::DynamicVariable); });
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace dsched::codegen
