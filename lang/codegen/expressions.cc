// Lowering of D expressions to BPF IR.
#include <ctime>
#include <linux/bpf.h>

#include "lang/codegen/generator.h"

namespace dsched::codegen {
namespace {

using lang::BinaryOp;
using lang::ExprKind;
using lang::Type;

bool is_kernel_aggregate(const Type* t) { return t->is_array() || t->is_record(); }

// CLOCK_REALTIME minus CLOCK_BOOTTIME now: added to the kernel's boot clock it gives wall time.
int64_t wall_clock_offset() {
  timespec real{}, boot{};
  clock_gettime(CLOCK_REALTIME, &real);
  clock_gettime(CLOCK_BOOTTIME, &boot);
  return (real.tv_sec - boot.tv_sec) * 1000000000ll + (real.tv_nsec - boot.tv_nsec);
}

}  // namespace

llvm::Value* Generator::read_kernel(llvm::Value* address, uint64_t size, const Type* type) {
  // One stack word per program serves every read: each is loaded right after it is made.
  if (!read_slot_) read_slot_ = stack_slot();
  llvm::Value* slot = read_slot_;
  b().CreateStore(const64(0), slot);
  llvm::Value* result =
      mod_.call_helper(BPF_FUNC_probe_read_kernel, {slot, b().getInt64(size), b().CreateIntToPtr(address, ptr())});
  check_fault(b().CreateICmpSLT(result, const64(0)), FaultKind::InvalidAddress, address);
  llvm::Value* raw = b().CreateLoad(b().getIntNTy(static_cast<unsigned>(size * 8)), slot);
  bool is_signed = type->is_integer() && type->is_signed;
  return is_signed ? b().CreateSExt(raw, i64()) : b().CreateZExt(raw, i64());
}

llvm::Value* Generator::load_btf_field(llvm::Value* address, uint64_t size, const Type* type) {
  llvm::Value* raw = b().CreateLoad(b().getIntNTy(static_cast<unsigned>(size * 8)), b().CreateIntToPtr(address, ptr()));
  bool is_signed = type->is_integer() && type->is_signed;
  return is_signed ? b().CreateSExt(raw, i64()) : b().CreateZExt(raw, i64());
}

// A kernel object named by `e` (a member, an element, a dereference): its address, and whether
// the verifier knows it as a BTF-typed pointer.
struct KernelAddress {
  llvm::Value* address;
  bool btf;
};
static KernelAddress kernel_address(Generator& g, const lang::Expr& e);

static KernelAddress member_address(Generator& g, const lang::Expr& e) {
  Value base = g.eval(*e.operand(0));
  return {g.b().CreateAdd(base.v, g.const64(static_cast<int64_t>(e.offset_bits / 8))), base.btf};
}

static KernelAddress element_address(Generator& g, const lang::Expr& e) {
  Value base = g.eval(*e.operand(0));
  llvm::Value* index = g.eval_int(*e.operand(1));
  // Only a constant offset keeps a BTF pointer readable by plain loads.
  bool btf = base.btf && llvm::isa<llvm::ConstantInt>(index);
  return {g.b().CreateAdd(base.v, g.b().CreateMul(index, g.const64(static_cast<int64_t>(e.type->size)))), btf};
}

static KernelAddress kernel_address(Generator& g, const lang::Expr& e) {
  switch (e.kind) {
    case ExprKind::Member: return member_address(g, e);
    case ExprKind::Index: return element_address(g, e);
    case ExprKind::Unary:
      if (e.unary_op == lang::UnaryOp::Deref) {
        Value pointer = g.eval(*e.operand(0));
        return {pointer.v, pointer.btf};
      }
      break;
    default: break;
  }
  throw Unsupported(e.loc, "taking the address of this expression is not supported");
}

// Reads the kernel object at `at` as a value of `type`.
static Value kernel_value(Generator& g, const KernelAddress& at, const Type* type, const lang::Expr& e) {
  llvm::Value* address = at.address;
  if (is_kernel_aggregate(type)) return {address, type, 0, true, at.btf};
  if (type->is_string()) return g.string_from_kernel(address, type->size);
  if (!type->is_scalar()) throw Unsupported(e.loc, "reading a value of type " + lang::type_name(type));
  if (at.btf && !(e.kind == ExprKind::Member && e.bitfield_bits))
    return {g.load_btf_field(address, type->size, type), type, 0, false, type->is_pointer()};
  if (e.kind == ExprKind::Member && e.bitfield_bits) {
    uint64_t bit = e.offset_bits % 8;
    llvm::Value* word = g.read_kernel(address, 8, g.program().types->integer(8, false));
    llvm::Value* shifted = g.b().CreateLShr(word, g.const64(static_cast<int64_t>(bit)));
    llvm::Value* mask = g.const64(static_cast<int64_t>((1ull << e.bitfield_bits) - 1));
    return {g.normalize(g.b().CreateAnd(shifted, mask), type), type};
  }
  return {g.read_kernel(address, type->size, type), type};
}

llvm::Value* Generator::eval_int(const lang::Expr& e) {
  Value v = eval(e);
  if (v.type->is_string()) throw Unsupported(e.loc, "a string where an integer is needed");
  return v.v;
}

llvm::Value* Generator::condition(const lang::Expr& e) {
  Value v = eval(e);
  if (v.type->is_string()) return b().CreateICmpNE(b().CreateLoad(i8(), v.v), b().getInt8(0));
  return truth(v.v);
}

llvm::Value* Generator::kernel_field(llvm::Value* address, const char* record_name,
                                     std::initializer_list<const char*> path, const lang::SourceRange& loc) {
  const Type* record = program_.types->kernel_record(lang::TypeKind::Struct, record_name, nullptr);
  if (!record) throw Unsupported(loc, std::string("this kernel has no struct ") + record_name);
  size_t step = 0;
  for (const char* name : path) {
    auto member = record->find_member(name);
    if (!member) throw Unsupported(loc, std::string("this kernel's ") + record_name + " has no member " + name);
    address = b().CreateAdd(address, const64(static_cast<int64_t>(member->offset_bits / 8)));
    record = member->type;
    if (++step < path.size() && record->is_pointer()) {  // follow a pointer to the next record
      address = load_btf_field(address, 8, record);
      record = record->target;
    }
  }
  return load_btf_field(address, record->size, record);
}

static Value builtin(Generator& g, const lang::Expr& e) {
  auto& b = g.b();
  auto& mod = g.mod();
  const Type* type = e.type;
  auto task_field = [&](std::initializer_list<const char*> path) {
    return g.kernel_field(g.context_task(), "task_struct", path, e.loc);
  };
  switch (e.builtin) {
    case lang::Builtin::Timestamp:
      return {mod.call_helper(BPF_FUNC_ktime_get_ns, {}), type};
    case lang::Builtin::Walltimestamp:
      return {b.CreateAdd(mod.call_helper(BPF_FUNC_ktime_get_boot_ns, {}), g.const64(wall_clock_offset())), type};
    case lang::Builtin::Vtimestamp:
      return {task_field({"se", "sum_exec_runtime"}), type};
    case lang::Builtin::Cpu:
      return {mod.call_helper(BPF_FUNC_get_smp_processor_id, {}), type};
    case lang::Builtin::Pid:
      if (g.context_is_current())
        return {b.CreateLShr(mod.call_helper(BPF_FUNC_get_current_pid_tgid, {}), 32), type};
      return {g.normalize(task_field({"tgid"}), type), type};
    case lang::Builtin::Tid:
      if (g.context_is_current())
        return {b.CreateAnd(mod.call_helper(BPF_FUNC_get_current_pid_tgid, {}), g.const64(0xffffffff)), type};
      return {g.normalize(task_field({"pid"}), type), type};
    case lang::Builtin::Ppid:
      return {g.normalize(task_field({"real_parent", "tgid"}), type), type};
    case lang::Builtin::Uid:
      if (g.context_is_current())
        return {b.CreateAnd(mod.call_helper(BPF_FUNC_get_current_uid_gid, {}), g.const64(0xffffffff)), type};
      return {g.normalize(task_field({"cred", "uid"}), type), type};
    case lang::Builtin::Gid:
      if (g.context_is_current())
        return {b.CreateLShr(mod.call_helper(BPF_FUNC_get_current_uid_gid, {}), 32), type};
      return {g.normalize(task_field({"cred", "gid"}), type), type};
    case lang::Builtin::Execname: {
      if (g.context_is_current()) return g.current_comm();
      const Type* record = g.program().types->kernel_record(lang::TypeKind::Struct, "task_struct", nullptr);
      auto comm = record->find_member("comm");
      return g.string_from_kernel(b.CreateAdd(g.context_task(), g.const64(static_cast<int64_t>(comm->offset_bits / 8))),
                                  comm->type->size);
    }
    case lang::Builtin::Probeprov: return g.string_literal(g.probe().provider);
    case lang::Builtin::Probemod: return g.string_literal(g.probe().module);
    case lang::Builtin::Probefunc: return g.string_literal(g.probe().function);
    case lang::Builtin::Probename: return g.string_literal(g.probe().name);
    case lang::Builtin::Curthread: return {g.context_task(), type, 0, false, /*btf=*/true};
    case lang::Builtin::Epid:
    case lang::Builtin::Id: return {g.const64(g.probe().id), type};
    case lang::Builtin::Errno:
    case lang::Builtin::Stackdepth:
    case lang::Builtin::Ustackdepth: return {g.const64(0), type};
    default: break;
  }
  int arg = static_cast<int>(e.builtin) - static_cast<int>(lang::Builtin::Arg0);
  if (arg >= 0 && arg <= 9) return {g.hook().raw_arg(g, arg), type};
  throw Unsupported(e.loc, std::string("built-in variable ") + lang::builtin_name(e.builtin) + " as a value");
}

// Signed / and % from unsigned ones: the BPF instruction set before v4 divides only unsigned.
// The quotient is negative when the signs differ; the remainder takes the dividend's sign.
static llvm::Value* signed_division(Generator& g, BinaryOp op, llvm::Value* l, llvm::Value* r) {
  auto& b = g.b();
  auto magnitude = [&](llvm::Value* v) {
    return b.CreateSelect(b.CreateICmpSLT(v, g.const64(0)), b.CreateNeg(v), v);
  };
  llvm::Value* l_negative = b.CreateICmpSLT(l, g.const64(0));
  if (op == BinaryOp::Mod) {
    llvm::Value* rem = b.CreateURem(magnitude(l), magnitude(r));
    return b.CreateSelect(l_negative, b.CreateNeg(rem), rem);
  }
  llvm::Value* quotient = b.CreateUDiv(magnitude(l), magnitude(r));
  llvm::Value* negative = b.CreateXor(l_negative, b.CreateICmpSLT(r, g.const64(0)));
  return b.CreateSelect(negative, b.CreateNeg(quotient), quotient);
}

static llvm::Value* arithmetic(Generator& g, BinaryOp op, llvm::Value* l, llvm::Value* r, const Type* type,
                               const Type* left_type, const Type* right_type) {
  auto& b = g.b();
  bool is_signed = type->is_integer() && type->is_signed;
  // Pointer arithmetic scales by the pointee.
  auto scale = [&](const Type* t) -> int64_t {
    return t->is_pointer() && t->target && t->target->size ? static_cast<int64_t>(t->target->size) : 1;
  };
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {
    if (left_type->is_pointer() && right_type->is_pointer() && op == BinaryOp::Sub)
      return b.CreateSDiv(b.CreateSub(l, r), g.const64(scale(left_type)));
    if (left_type->is_pointer()) r = b.CreateMul(r, g.const64(scale(left_type)));
    if (right_type->is_pointer()) l = b.CreateMul(l, g.const64(scale(right_type)));
  }
  llvm::Value* v = nullptr;
  switch (op) {
    case BinaryOp::Mul: v = b.CreateMul(l, r); break;
    case BinaryOp::Div:
    case BinaryOp::Mod: {
      if (!llvm::isa<llvm::ConstantInt>(r)) g.check_fault(b.CreateICmpEQ(r, g.const64(0)), FaultKind::DivideByZero);
      v = is_signed ? signed_division(g, op, l, r) : op == BinaryOp::Div ? b.CreateUDiv(l, r) : b.CreateURem(l, r);
      break;
    }
    case BinaryOp::Add: v = b.CreateAdd(l, r); break;
    case BinaryOp::Sub: v = b.CreateSub(l, r); break;
    case BinaryOp::Shl: v = b.CreateShl(l, b.CreateAnd(r, g.const64(63))); break;
    case BinaryOp::Shr:
      v = is_signed ? b.CreateAShr(l, b.CreateAnd(r, g.const64(63))) : b.CreateLShr(l, b.CreateAnd(r, g.const64(63)));
      break;
    case BinaryOp::BitAnd: v = b.CreateAnd(l, r); break;
    case BinaryOp::BitXor: v = b.CreateXor(l, r); break;
    case BinaryOp::BitOr: v = b.CreateOr(l, r); break;
    default: return nullptr;
  }
  return g.normalize(v, type);
}

static llvm::Value* compare(Generator& g, BinaryOp op, const Value& l, const Value& r) {
  auto& b = g.b();
  llvm::Value* lhs = l.v;
  llvm::Value* rhs = r.v;
  bool is_signed = false;
  if (l.type->is_string() || r.type->is_string()) {
    lhs = g.string_compare(g.to_string(l), g.to_string(r));
    rhs = g.const64(0);
    is_signed = true;
  } else if (l.type->is_integer() && r.type->is_integer()) {
    const Type* common = lang::arithmetic_result(*g.program().types, l.type, r.type);
    is_signed = common->is_signed;
  }
  llvm::CmpInst::Predicate p;
  switch (op) {
    case BinaryOp::Lt: p = is_signed ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT; break;
    case BinaryOp::Le: p = is_signed ? llvm::CmpInst::ICMP_SLE : llvm::CmpInst::ICMP_ULE; break;
    case BinaryOp::Gt: p = is_signed ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT; break;
    case BinaryOp::Ge: p = is_signed ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE; break;
    case BinaryOp::Eq: p = llvm::CmpInst::ICMP_EQ; break;
    default: p = llvm::CmpInst::ICMP_NE; break;
  }
  return g.widen(b.CreateICmp(p, lhs, rhs));
}

// && and || evaluate their right side only when needed; ^^ always evaluates both.
static llvm::Value* logical(Generator& g, const lang::Expr& e) {
  auto& b = g.b();
  llvm::Value* left = g.condition(*e.operand(0));
  if (e.binary_op == BinaryOp::LogXor) return g.widen(b.CreateXor(left, g.condition(*e.operand(1))));
  bool is_and = e.binary_op == BinaryOp::LogAnd;
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* right_block = g.new_block(is_and ? "and.rhs" : "or.rhs");
  llvm::BasicBlock* done = g.new_block("logical.done");
  if (is_and)
    b.CreateCondBr(left, right_block, done);
  else
    b.CreateCondBr(left, done, right_block);
  b.SetInsertPoint(right_block);
  llvm::Value* right = g.condition(*e.operand(1));
  llvm::BasicBlock* right_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(b.getInt1Ty(), 2);
  phi->addIncoming(b.getInt1(!is_and), from);
  phi->addIncoming(right, right_end);
  return g.widen(phi);
}

static Value ternary(Generator& g, const lang::Expr& e) {
  auto& b = g.b();
  llvm::Value* cond = g.condition(*e.operand(0));
  llvm::BasicBlock* then_block = g.new_block("then");
  llvm::BasicBlock* else_block = g.new_block("else");
  llvm::BasicBlock* done = g.new_block("ternary.done");
  b.CreateCondBr(cond, then_block, else_block);
  b.SetInsertPoint(then_block);
  Value then_value = g.eval(*e.operand(1));
  if (e.type->is_string()) then_value = g.to_string(then_value);
  llvm::BasicBlock* then_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(else_block);
  Value else_value = g.eval(*e.operand(2));
  if (e.type->is_string()) else_value = g.to_string(else_value);
  llvm::BasicBlock* else_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(then_value.v->getType(), 2);
  phi->addIncoming(then_value.v, then_end);
  phi->addIncoming(else_value.v, else_end);
  Value result{phi, e.type, std::max(then_value.capacity, else_value.capacity), then_value.in_kernel,
               then_value.btf && else_value.btf};
  if (!e.type->is_string() && e.type->is_integer()) result.v = g.normalize(phi, e.type);
  return result;
}

// Applies compound assignment operator `op` or ++/-- to the current value of a variable.
static Value update(Generator& g, const lang::Expr& target, BinaryOp op, const Value& operand) {
  Value current = g.load_variable(target);
  llvm::Value* v = arithmetic(g, op, current.v, operand.v, target.type, target.type, operand.type);
  if (!v) throw Unsupported(target.loc, "this compound assignment is not supported");
  return {v, target.type};
}

Value Generator::eval(const lang::Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLiteral:
      return {const64(static_cast<int64_t>(e.value)), e.type};
    case ExprKind::StringLiteral:
      return string_literal(e.text);
    case ExprKind::Variable:
      return load_variable(e);
    case ExprKind::Builtin:
      return builtin(*this, e);
    case ExprKind::ProbeArg: {
      probes::ArgSource source = probe_->args.at(e.id).source;
      Value arg{normalize(hook_->arg(*this, source), e.type), e.type};
      arg.btf = e.type->is_pointer() && hook_->arg_is_btf(source);
      return arg;
    }
    case ExprKind::Unary: {
      using lang::UnaryOp;
      if (e.unary_op == UnaryOp::Deref) return kernel_value(*this, kernel_address(*this, e), e.type, e);
      if (e.unary_op == UnaryOp::AddressOf) return {kernel_address(*this, *e.operand(0)).address, e.type};
      if (e.unary_op == UnaryOp::Not) return {widen(b().CreateNot(condition(*e.operand(0)))), e.type};
      llvm::Value* v = eval_int(*e.operand(0));
      if (e.unary_op == UnaryOp::Neg) v = b().CreateNeg(v);
      if (e.unary_op == UnaryOp::BitNot) v = b().CreateNot(v);
      return {normalize(v, e.type), e.type};
    }
    case ExprKind::IncDec: {
      const lang::Expr& target = *e.operand(0);
      Value before = load_variable(target);
      Value one{const64(1), program_.types->integer(4, true)};
      Value after = update(*this, target, e.increment ? BinaryOp::Add : BinaryOp::Sub, one);
      store_variable(target, after);
      return e.prefix ? after : before;
    }
    case ExprKind::Binary: {
      BinaryOp op = e.binary_op;
      if (op == BinaryOp::LogAnd || op == BinaryOp::LogOr || op == BinaryOp::LogXor) return {logical(*this, e), e.type};
      if (op == BinaryOp::Comma) {
        eval(*e.operand(0));
        return eval(*e.operand(1));
      }
      Value l = eval(*e.operand(0));
      Value r = eval(*e.operand(1));
      if (lang::is_comparison(op)) return {compare(*this, op, l, r), e.type};
      return {arithmetic(*this, op, l.v, r.v, e.type, l.type, r.type), e.type};
    }
    case ExprKind::Assign: {
      const lang::Expr& target = *e.operand(0);
      Value value = eval(*e.operand(1));
      if (e.compound) value = update(*this, target, e.binary_op, value);
      if (target.type->is_integer()) value.v = normalize(value.v, target.type);
      value.type = target.type->is_string() ? target.type : value.type;
      store_variable(target, value);
      return value;
    }
    case ExprKind::Ternary:
      return ternary(*this, e);
    case ExprKind::Cast: {
      Value v = eval(*e.operand(0));
      if (e.type->is_string()) return to_string(v);
      if (v.type->is_string()) throw Unsupported(e.loc, "casting a string to " + lang::type_name(e.type));
      return {e.type->is_integer() ? normalize(v.v, e.type) : v.v, e.type};
    }
    case ExprKind::Member:
    case ExprKind::Index:
      if (e.kind == ExprKind::Member && e.operand(0)->type->btf_id == 0 &&
          !(e.operand(0)->type->is_pointer() && e.operand(0)->type->target->btf_id))
        throw Unsupported(e.loc, "members of D structs are not supported yet");
      return kernel_value(*this, kernel_address(*this, e), e.type, e);
    case ExprKind::Call:
      return call(e);
    default:
      throw Unsupported(e.loc, "this expression cannot be compiled");
  }
}

}  // namespace dsched::codegen
