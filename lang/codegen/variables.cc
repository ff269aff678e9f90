#include "lang/codegen/variables.h"

#include <algorithm>
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

// A task's thread and process ids, read through a pointer: they do not change while the task
// lives, so two reads in one firing agree (a probe's task arguments, args[0]->pr_lwpid).
bool reads_task_id(const lang::Expr& member) {
  const lang::Type* pointer = member.operand(0)->type;
  return member.arrow && member.bitfield_bits == 0 && pointer && pointer->is_pointer() && pointer->target &&
         pointer->target->name == "task_struct" && (member.text == "pid" || member.text == "tgid");
}

// Whether two integer expressions have the same value wherever a firing evaluates them: the same
// constants, probe arguments (fixed when the probe fires) and task ids of those, combined by the
// same operators.
bool same_in_firing(const lang::Expr& a, const lang::Expr& b) {
  using lang::ExprKind;
  if (a.kind != b.kind || a.type != b.type || a.operands.size() != b.operands.size()) return false;
  if (!a.type->is_scalar()) return false;
  switch (a.kind) {
    case ExprKind::IntLiteral: return a.value == b.value;
    case ExprKind::ProbeArg: return a.id == b.id;
    case ExprKind::Cast: break;
    case ExprKind::Member:
      if (a.text != b.text || a.offset_bits != b.offset_bits || !reads_task_id(a) || !reads_task_id(b)) return false;
      break;
    case ExprKind::Unary:
      if (a.unary_op != b.unary_op || a.unary_op == lang::UnaryOp::Deref || a.unary_op == lang::UnaryOp::AddressOf)
        return false;
      break;
    case ExprKind::Binary:
      if (a.binary_op != b.binary_op) return false;
      break;
    default: return false;
  }
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!same_in_firing(*a.operand(i), *b.operand(i))) return false;
  return true;
}

bool same_element(const lang::Expr& a, const lang::Expr& b) {
  if (a.scope != b.scope || a.id != b.id || a.operands.size() != b.operands.size()) return false;
  for (size_t i = 0; i < a.operands.size(); ++i)
    if (!same_in_firing(*a.operand(i), *b.operand(i))) return false;
  return true;
}

// The associative-array element reads of `e` that happen whenever `e` is evaluated (not behind
// &&, ||, ?: or inside a call) and whose keys have one value throughout the firing.
void unconditional_element_reads(const lang::Expr& e, std::vector<const lang::Expr*>& out) {
  using lang::ExprKind;
  switch (e.kind) {
    case ExprKind::Variable:
      if (!e.operands.empty() && same_element(e, e)) out.push_back(&e);
      return;
    case ExprKind::Unary:
    case ExprKind::Cast: break;
    case ExprKind::Binary:
      if (e.binary_op == lang::BinaryOp::LogAnd || e.binary_op == lang::BinaryOp::LogOr)
        return unconditional_element_reads(*e.operand(0), out);
      break;
    case ExprKind::Ternary: return unconditional_element_reads(*e.operand(0), out);
    default: return;
  }
  for (const auto& operand : e.operands) unconditional_element_reads(*operand, out);
}

}  // namespace

void Variables::begin_clause(const lang::Expr* predicate) {
  kept_.clear();
  keepable_.clear();
  if (predicate) unconditional_element_reads(*predicate, keepable_);
}

llvm::Value* Variables::kept_lookup(const lang::Expr& e) const {
  llvm::Function* here = l_.ir.b().GetInsertBlock()->getParent();
  for (const KeptLookup& kept : kept_)
    if (kept.pointer->getFunction() == here && same_element(*kept.element, e)) return kept.pointer;
  return nullptr;
}

void Variables::forget_lookups(const lang::Expr& e) {
  std::erase_if(kept_, [&](const KeptLookup& kept) { return kept.element->scope == e.scope && kept.element->id == e.id; });
}

llvm::Value* Variables::key(const std::vector<const lang::Expr*>& keys, const std::vector<const lang::Type*>& types,
                            llvm::Value* leading) {
  Ir& ir = l_.ir;
  uint64_t offset = leading ? Maps::kThreadKeyBytes : 0;
  uint64_t width = Maps::integer_key_width(types);
  uint64_t size = offset + l_.maps.key_size(types);
  // The parts first: one of them may build a key of its own.
  std::vector<Value> parts;
  for (const lang::Expr* k : keys) parts.push_back(l_.exprs.eval(*k));
  // A short key of integers goes on the stack, as a hand-written program keeps it.
  llvm::Value* key;
  if (size <= kStackKeyBytes && std::all_of(types.begin(), types.end(), [](const lang::Type* t) { return t->is_scalar(); })) {
    if (stack_key_of_ != ir.function()) {
      stack_key_ = ir.entry_alloca(llvm::ArrayType::get(ir.i64(), kStackKeyBytes / 8));
      stack_key_of_ = ir.function();
    }
    key = stack_key_;
  } else {
    key = l_.firing.scratch(std::max<uint64_t>(size, 8));
  }
  if (leading) ir.b().CreateStore(leading, key);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (types[i]->is_string()) {
      l_.strings.copy(ir.offset_ptr(key, offset), l_.strings.from(parts[i]));
      offset += l_.strings.bytes_of_strings();
    } else if (types[i]->is_address()) {
      ir.copy_bytes(ir.offset_ptr(key, offset), parts[i].v, types[i]->size);
      offset += types[i]->size;
    } else {
      llvm::Value* word = types[i]->is_integer() ? ir.normalize(parts[i].v, types[i]) : parts[i].v;
      if (width < 8) word = ir.b().CreateTrunc(word, ir.b().getIntNTy(static_cast<unsigned>(width * 8)));
      ir.b().CreateStore(word, ir.offset_ptr(key, offset));
      offset += width;
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
    if (access == Access::Read)
      if (llvm::Value* kept = kept_lookup(e)) return {kept, 0, true};
    llvm::Value* key = element_key(e);
    llvm::GlobalVariable* map = l_.maps.associative_array(var);
    if (create)
      ir.helper(BPF_FUNC_map_update_elem,
                {map, key, l_.ir.zeroes(Maps::storage_size(var.type)), ir.const64(BPF_NOEXIST)});
    llvm::Value* element = ir.b().CreateIntToPtr(ir.helper(BPF_FUNC_map_lookup_elem, {map, key}), ir.ptr());
    auto* lookup = llvm::dyn_cast<llvm::Instruction>(element);
    if (access == Access::Read && lookup && std::find(keepable_.begin(), keepable_.end(), &e) != keepable_.end())
      kept_.push_back({&e, lookup});
    return {element, 0, true, key};
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
  if (l_.maps.clause_local_on_stack(var.id)) return {l_.firing.clause_local_slot(var.id)};
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
                         abi::FaultKind::BadIndex, index);
  llvm::Value* offset = b.CreateMul(ir.bounded(index, array->count), ir.const64(static_cast<int64_t>(e.type->size)));
  return b.CreateInBoundsGEP(ir.i8(), base, offset);
}

Value Variables::read(llvm::Value* at, const Field& field) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Type* type = field.type;
  if (type->is_string()) return {at, type, l_.strings.capacity_of_strings()};
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
  if (type->is_string() && value.type->is_integer()) return ir.zero_bytes(at, l_.strings.bytes_of_strings());  // storing 0
  if (type->is_string()) return l_.strings.copy(at, l_.strings.from(value));
  if (!type->is_scalar()) {
    if (value.type->is_integer()) return ir.zero_bytes(at, type->size);  // storing 0
    llvm::Value* source = value.v;
    if (type->is_char_sequence() && (value.type->is_string() || value.type->is_pointer())) {
      if (value.type->is_pointer()) {  // a translated char pointer: its text
        ir.helper(BPF_FUNC_probe_read_kernel_str, {at, ir.const64(static_cast<int64_t>(type->size)),
                                                   b.CreateIntToPtr(source, ir.ptr())});
        return;
      }
      return l_.strings.copy(at, type->size, type->size, value);
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
    // Strings, structs and arrays are read where they live; an absent one reads from the zeroes,
    // an absent string as NULL.
    if (!where.may_be_null) return read(ir.offset_ptr(where.base, where.offset), Field{var.type});
    llvm::Value* place = ir.stack_slot();
    const bool string = var.type->is_string();
    llvm::Value* absent = string ? static_cast<llvm::Value*>(l_.strings.null_text())
                                 : l_.ir.zeroes(Maps::storage_size(var.type));
    // A thread's variables share one slot of task storage, where a string never assigned, or
    // freed by assigning 0, is zeroes: it reads as NULL too (an assigned "" does as well).
    const bool zero_is_absent = string && e.scope == lang::VarScope::ThreadLocal;
    with_slot(
        where,
        [&](llvm::Value* p) {
          if (zero_is_absent) p = b.CreateSelect(b.CreateICmpEQ(b.CreateLoad(ir.i8(), p), b.getInt8(0)), absent, p);
          b.CreateStore(p, place);
        },
        [&] { b.CreateStore(absent, place); });
    return read(b.CreateLoad(ir.ptr(), place), Field{var.type});
  }
  return read_scalar(where, var.type);
}

Value Variables::read_scalar(const Slot& where, const lang::Type* type) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::Value* result = ir.stack_slot();
  with_slot(where, [&](llvm::Value* p) { b.CreateStore(b.CreateLoad(ir.i64(), p), result); },
            [&] { b.CreateStore(ir.const64(0), result); });
  return {b.CreateLoad(ir.i64(), result), type};
}

std::pair<Value, Value> Variables::update(const lang::Expr& e, const Change& change) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Variable* var = e.kind == lang::ExprKind::Variable ? &variable(l_.program, e) : nullptr;
  bool keyed = var && !var->key_types.empty();
  if (!var || !var->type->is_scalar() || (!keyed && e.scope != lang::VarScope::ThreadLocal)) {
    Value before = load(e);
    Value after = change(before);
    store(e, after);
    return {before, after};
  }
  Slot where = slot(e, Access::Read);
  Value before = read_scalar(where, var->type);
  Value after = change(before);
  llvm::Value* is_zero = b.CreateICmpEQ(after.v, ir.const64(0));
  with_slot(
      where,
      [&](llvm::Value* p) {
        if (!keyed) return (void)b.CreateStore(after.v, p);  // a thread-local of 0 is zeroed in place
        erase_or(e, is_zero, where.key, [&] { b.CreateStore(after.v, p); });
      },
      [&] { ir.when(b.CreateNot(is_zero), [&] { create(e, after, where.key); }, "update.create"); });
  forget_lookups(e);
  return {before, after};
}

void Variables::create(const lang::Expr& e, const Value& value, llvm::Value* key) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  const lang::Variable& var = variable(l_.program, e);
  if (var.key_types.empty()) {
    with_slot(slot(e, Access::Create), [&](llvm::Value* p) { b.CreateStore(value.v, p); },
              [&] { count_lost_store(e); });
    return;
  }
  // One update creates the element or replaces it; it fails only when the array is full. The
  // value goes through the stack, as in a hand-written program.
  if (value_word_of_ != ir.function()) {
    value_word_ = ir.stack_slot();
    value_word_of_ = ir.function();
  }
  llvm::Value* word = value_word_;
  b.CreateStore(value.v, word);
  llvm::Value* result = ir.helper(BPF_FUNC_map_update_elem,
                                  {l_.maps.associative_array(var), key ? key : element_key(e), word, ir.const64(BPF_ANY)});
  ir.when(b.CreateICmpSLT(result, ir.const64(0)), [&] { l_.maps.count_drop(abi::DropCounter::DynamicVariable); },
          "create.full");
}

void Variables::erase_or(const lang::Expr& e, llvm::Value* is_zero, llvm::Value* key, const std::function<void()>& write) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::BasicBlock* erasing = ir.new_block("store.erase");
  llvm::BasicBlock* writing = ir.new_block("store.write");
  llvm::BasicBlock* done = ir.new_block("store.done");
  b.CreateCondBr(is_zero, erasing, writing);
  b.SetInsertPoint(erasing);
  erase(e, key);
  b.CreateBr(done);
  b.SetInsertPoint(writing);
  write();
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

void Variables::erase(const lang::Expr& e, llvm::Value* key) {
  Ir& ir = l_.ir;
  const lang::Variable& var = variable(l_.program, e);
  if (!var.key_types.empty())
    ir.helper(BPF_FUNC_map_delete_elem, {l_.maps.associative_array(var), key ? key : element_key(e)});
  else
    with_slot(slot(e, Access::Clear), [&](llvm::Value* p) { ir.zero_bytes(p, Maps::storage_size(var.type)); }, [] {});
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
  forget_lookups(*root);
  // Storing 0 into a dynamic variable deletes it (and never creates it): an integer 0 at run
  // time, or the constant 0 stored into a struct or array. A thread-local is zeroed in place: it
  // reads back as 0, and task storage is freed with its task.
  if (&e == root && !var.type->is_scalar() && value.type->is_integer()) return erase(*root, nullptr);
  if (&e == root && var.type->is_scalar())
    return erase_or(*root, b.CreateICmpEQ(value.v, ir.const64(0)), nullptr, [&] { create(*root, value, nullptr); });
  with_slot(slot(*root, Access::Create), put, [&] { count_lost_store(*root); });
}

void Variables::count_lost_store(const lang::Expr& e) {
  bool task_storage = e.scope == lang::VarScope::ThreadLocal && variable(l_.program, e).key_types.empty();
  l_.maps.count_drop(task_storage ? abi::DropCounter::ThreadLocalRefused : abi::DropCounter::DynamicVariable);
}

}  // namespace dsched::codegen
