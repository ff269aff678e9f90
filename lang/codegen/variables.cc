#include "lang/codegen/variables.h"

#include <linux/bpf.h>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/records.h"
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

llvm::Value* Variables::key(const std::vector<const lang::Expr*>& keys, const std::vector<const lang::Type*>& types,
                            llvm::Value* leading) {
  Ir& ir = l_.ir;
  uint64_t strsize = l_.program.options.strsize();
  uint64_t offset = leading ? Maps::kThreadKeyBytes : 0;
  llvm::Value* key = l_.firing.scratch(std::max<uint64_t>(offset + l_.maps.key_size(types), 8));
  if (leading) ir.b().CreateStore(leading, key);
  for (size_t i = 0; i < keys.size(); ++i) {
    Value v = l_.exprs.eval(*keys[i]);
    if (types[i]->is_string()) {
      l_.strings.copy(ir.offset_ptr(key, offset), strsize, l_.strings.from(v));
      offset += strsize;
    } else if (types[i]->is_address()) {
      ir.copy_bytes(ir.offset_ptr(key, offset), v.v, types[i]->size);
      offset += types[i]->size;
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
  // A thread-local element belongs to the context thread: its id leads the key.
  llvm::Value* thread = e.scope == lang::VarScope::ThreadLocal ? l_.firing.context_tid() : nullptr;
  return key(keys, variable(l_.program, e).key_types, thread);
}

Variables::Slot Variables::slot(const lang::Expr& e, Access access) {
  Ir& ir = l_.ir;
  bool create = access == Access::Create;
  const lang::Variable& var = variable(l_.program, e);
  if (!var.key_types.empty()) {
    llvm::Value* key = element_key(e);
    llvm::GlobalVariable* map = l_.maps.associative_array(var);
    if (create)
      ir.helper(BPF_FUNC_map_update_elem,
                {map, key, l_.maps.zeroes(Maps::storage_size(var.type)), ir.const64(BPF_NOEXIST)});
    return {ir.b().CreateIntToPtr(ir.helper(BPF_FUNC_map_lookup_elem, {map, key}), ir.ptr()), 0, true};
  }
  switch (e.scope) {
    case lang::VarScope::Global: return {l_.firing.globals_base(), l_.maps.global_offset(var.id)};
    case lang::VarScope::ThreadLocal: {
      llvm::Value* storage;
      if (create) {
        l_.firing.forget_thread_locals();  // created storage: later reads must look again
        storage = ir.helper(BPF_FUNC_task_storage_get,
                            {l_.maps.thread_locals(), ir.b().CreateIntToPtr(l_.firing.context_task(), ir.ptr()),
                             ir.null(), ir.const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
      } else {
        storage = l_.firing.thread_locals(access == Access::Read);
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

Variables::Field Variables::field_of(const lang::Type* type, uint64_t offset_bits, uint64_t bitfield_bits,
                                     bool is_signed) {
  Field field{type};
  if (!bitfield_bits) return field;
  field.bits = bitfield_bits;
  field.is_signed = is_signed;
  for (field.unit = 1; field.unit < 8; field.unit *= 2)
    if (offset_bits / (field.unit * 8) == (offset_bits + bitfield_bits - 1) / (field.unit * 8)) break;
  field.shift = offset_bits % (field.unit * 8);
  return field;
}

llvm::Value* Variables::part_address(const lang::Expr& e, llvm::Value* storage) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  if (e.kind == lang::ExprKind::Variable) return storage;
  llvm::Value* base = part_address(*e.operand(0), storage);
  if (e.kind == lang::ExprKind::Member) return ir.offset_ptr(base, unit_offset(field_of(e), e.offset_bits));
  // An element: an index outside the declared bounds is a fault.
  const lang::Type* array = e.operand(0)->type;
  llvm::Value* index = l_.exprs.eval_int(*e.operand(1));
  if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(index))
    return ir.offset_ptr(base, constant->getZExtValue() * e.type->size);
  l_.records.check_fault(b.CreateICmpUGE(index, ir.const64(static_cast<int64_t>(array->count))),
                         abi::FaultKind::InvalidAddress);
  llvm::Value* offset = b.CreateMul(ir.bounded(index, array->count), ir.const64(static_cast<int64_t>(e.type->size)));
  return b.CreateInBoundsGEP(ir.i8(), base, offset);
}

Value Variables::read(llvm::Value* at, const Field& field) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Type* type = field.type;
  if (type->is_string()) return {at, type, l_.program.options.strsize()};
  if (!type->is_scalar()) return {at, type, type->size};
  if (field.bits) {
    llvm::Value* unit = b.CreateLoad(b.getIntNTy(static_cast<unsigned>(field.unit * 8)), at);
    return {ir.bitfield(b.CreateZExt(unit, ir.i64()), field.shift, field.bits, field.is_signed), type};
  }
  llvm::Value* raw = b.CreateLoad(b.getIntNTy(static_cast<unsigned>(type->size * 8)), at);
  bool is_signed = type->is_integer() && type->is_signed;
  return {is_signed ? b.CreateSExt(raw, ir.i64()) : b.CreateZExt(raw, ir.i64()), type};
}

void Variables::write(llvm::Value* at, const Field& field, const Value& value) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Type* type = field.type;
  if (type->is_string() && value.type->is_integer()) return ir.zero_bytes(at, l_.program.options.strsize());  // storing 0
  if (type->is_string()) return l_.strings.copy(at, l_.program.options.strsize(), l_.strings.from(value));
  if (!type->is_scalar()) {
    if (value.type->is_integer()) return ir.zero_bytes(at, type->size);  // storing 0
    llvm::Value* source = value.v;
    if (type->is_char_sequence() && (value.type->is_string() || value.type->is_pointer())) {
      if (value.type->is_pointer()) {  // a translated char pointer: its text
        ir.helper(BPF_FUNC_probe_read_kernel_str, {at, ir.const64(static_cast<int64_t>(type->size)),
                                                   b.CreateIntToPtr(source, ir.ptr())});
        return;
      }
      return l_.strings.copy(at, type->size, value);
    }
    uint64_t size = std::min(type->size, value.type->size);
    if (value.in_kernel) {
      llvm::Value* result = ir.helper(BPF_FUNC_probe_read_kernel,
                                      {at, ir.const64(static_cast<int64_t>(size)), b.CreateIntToPtr(source, ir.ptr())});
      l_.records.check_fault(b.CreateICmpSLT(result, ir.const64(0)), abi::FaultKind::InvalidAddress, source);
      return;
    }
    return ir.copy_bytes(at, source, size);
  }
  llvm::Type* unit = b.getIntNTy(static_cast<unsigned>((field.bits ? field.unit : type->size) * 8));
  llvm::Value* v = value.v;
  if (field.bits) {
    uint64_t mask = (field.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << field.bits) - 1) << field.shift;
    llvm::Value* old = b.CreateZExt(b.CreateLoad(unit, at), ir.i64());
    llvm::Value* kept = b.CreateAnd(old, ir.const64(static_cast<int64_t>(~mask)));
    llvm::Value* put = b.CreateAnd(b.CreateShl(v, ir.const64(static_cast<int64_t>(field.shift))),
                                   ir.const64(static_cast<int64_t>(mask)));
    v = b.CreateOr(kept, put);
  }
  b.CreateStore(b.CreateTrunc(v, unit), at);
}

Value Variables::load(const lang::Expr& e) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  if (e.kind != lang::ExprKind::Variable) {
    const lang::Expr* root = &e;
    while (root->kind != lang::ExprKind::Variable) root = root->operand(0);
    return read(part_address(e, load(*root).v), field_of(e));
  }
  const lang::Variable& var = variable(l_.program, e);
  Slot where = slot(e, Access::Read);
  if (!var.type->is_scalar()) {
    // Strings, structs and arrays are read where they live; an absent one reads from the zeroes.
    if (!where.may_be_null) return read(ir.offset_ptr(where.base, where.offset), Field{var.type});
    llvm::Value* place = ir.stack_slot();
    with_slot(where, [&](llvm::Value* p) { b.CreateStore(p, place); },
              [&] { b.CreateStore(l_.maps.zeroes(Maps::storage_size(var.type)), place); });
    return read(b.CreateLoad(ir.ptr(), place), Field{var.type});
  }
  llvm::Value* result = ir.stack_slot();
  with_slot(where, [&](llvm::Value* p) { b.CreateStore(b.CreateLoad(ir.i64(), p), result); },
            [&] { b.CreateStore(ir.const64(0), result); });
  return {b.CreateLoad(ir.i64(), result), var.type};
}

void Variables::store(const lang::Expr& e, const Value& value) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Expr* root = &e;
  while (root->kind != lang::ExprKind::Variable) root = root->operand(0);
  const lang::Variable& var = variable(l_.program, *root);
  bool dynamic = root->scope == lang::VarScope::ThreadLocal || !var.key_types.empty();
  // Scalar variables take a whole word; the parts of a struct or array their own size.
  auto put = [&](llvm::Value* storage) {
    if (&e == root && var.type->is_scalar())
      b.CreateStore(value.v, storage);
    else
      write(part_address(e, storage), &e == root ? Field{var.type} : field_of(e), value);
  };
  if (!dynamic) {
    Slot where = slot(*root, Access::Read);
    return put(ir.offset_ptr(where.base, where.offset));
  }
  // Storing 0 into a dynamic variable deletes it (and never creates it): an integer 0 at run
  // time, or the constant 0 stored into a struct or array. A thread-local is zeroed in place: it
  // reads back as 0, and task storage is freed with its task.
  auto erase = [&] {
    if (!var.key_types.empty())
      ir.helper(BPF_FUNC_map_delete_elem, {l_.maps.associative_array(var), element_key(*root)});
    else
      with_slot(slot(*root, Access::Clear), [&](llvm::Value* p) { ir.zero_bytes(p, Maps::storage_size(var.type)); }, [] {});
  };
  if (&e == root && !var.type->is_scalar() && value.type->is_integer()) return erase();
  llvm::BasicBlock* done = ir.new_block("store.done");
  if (&e == root && var.type->is_scalar()) {
    llvm::BasicBlock* erasing = ir.new_block("store.erase");
    llvm::BasicBlock* writing = ir.new_block("store.write");
    b.CreateCondBr(b.CreateICmpEQ(value.v, ir.const64(0)), erasing, writing);
    b.SetInsertPoint(erasing);
    erase();
    b.CreateBr(done);
    b.SetInsertPoint(writing);
  }
  with_slot(slot(*root, Access::Create), put, [&] { l_.maps.count_drop(abi::DropCounter::DynamicVariable); });
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace dsched::codegen
