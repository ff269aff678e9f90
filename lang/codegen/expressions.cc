// Lowering of D expressions to BPF IR. Built-in variables and calls lower through their
// descriptors; kernel memory reads are in kernel_memory.cc.
#include "lang/builtins/builtin.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"
#include "lang/codegen/strings.h"
#include "lang/codegen/variables.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {
namespace {

using lang::BinaryOp;
using lang::ExprKind;
using lang::Type;

// Signed / and % from unsigned ones: the BPF instruction set before v4 divides only unsigned.
// The quotient is negative when the signs differ; the remainder takes the dividend's sign.
llvm::Value* signed_division(Lowering& l, BinaryOp op, llvm::Value* left, llvm::Value* right) {
  auto& b = l.ir.b();
  auto magnitude = [&](llvm::Value* v) { return b.CreateSelect(b.CreateICmpSLT(v, l.ir.const64(0)), b.CreateNeg(v), v); };
  llvm::Value* left_negative = b.CreateICmpSLT(left, l.ir.const64(0));
  if (op == BinaryOp::Mod) {
    llvm::Value* rem = b.CreateURem(magnitude(left), magnitude(right));
    return b.CreateSelect(left_negative, b.CreateNeg(rem), rem);
  }
  llvm::Value* quotient = b.CreateUDiv(magnitude(left), magnitude(right));
  llvm::Value* negative = b.CreateXor(left_negative, b.CreateICmpSLT(right, l.ir.const64(0)));
  return b.CreateSelect(negative, b.CreateNeg(quotient), quotient);
}

llvm::Value* arithmetic(Lowering& l, BinaryOp op, llvm::Value* left, llvm::Value* right, const Type* type,
                        const Type* left_type, const Type* right_type) {
  auto& b = l.ir.b();
  bool is_signed = type->is_integer() && type->is_signed;
  // Pointer arithmetic scales by the pointee.
  auto scale = [&](const Type* t) -> int64_t {
    return t->is_pointer() && t->target && t->target->size ? static_cast<int64_t>(t->target->size) : 1;
  };
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {
    if (left_type->is_pointer() && right_type->is_pointer() && op == BinaryOp::Sub)
      return b.CreateSDiv(b.CreateSub(left, right), l.ir.const64(scale(left_type)));
    if (left_type->is_pointer()) right = b.CreateMul(right, l.ir.const64(scale(left_type)));
    if (right_type->is_pointer()) left = b.CreateMul(left, l.ir.const64(scale(right_type)));
  }
  llvm::Value* v = nullptr;
  switch (op) {
    case BinaryOp::Mul: v = b.CreateMul(left, right); break;
    case BinaryOp::Div:
    case BinaryOp::Mod: {
      // A constant divisor needs no test unless it is 0 (x /= 0): then the clause always faults.
      if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(right); !constant || constant->isZero())
        l.records.check_fault(b.CreateICmpEQ(right, l.ir.const64(0)), abi::FaultKind::DivideByZero);
      v = is_signed ? signed_division(l, op, left, right)
                    : op == BinaryOp::Div ? b.CreateUDiv(left, right) : b.CreateURem(left, right);
      break;
    }
    case BinaryOp::Add: v = b.CreateAdd(left, right); break;
    case BinaryOp::Sub: v = b.CreateSub(left, right); break;
    case BinaryOp::Shl: v = b.CreateShl(left, b.CreateAnd(right, l.ir.const64(63))); break;
    case BinaryOp::Shr:
      v = is_signed ? b.CreateAShr(left, b.CreateAnd(right, l.ir.const64(63)))
                    : b.CreateLShr(left, b.CreateAnd(right, l.ir.const64(63)));
      break;
    case BinaryOp::BitAnd: v = b.CreateAnd(left, right); break;
    case BinaryOp::BitXor: v = b.CreateXor(left, right); break;
    case BinaryOp::BitOr: v = b.CreateOr(left, right); break;
    default: return nullptr;
  }
  return v;  // as in D's 64-bit registers: narrowed only where stored, recorded or cast
}

llvm::Value* compare(Lowering& l, BinaryOp op, const Value& left, const Value& right) {
  llvm::Value* lhs = left.v;
  llvm::Value* rhs = right.v;
  bool is_signed = false;
  if (left.type->is_string() != right.type->is_string()) {  // s == NULL, s != NULL
    lhs = l.ir.widen(l.strings.is_null(left.type->is_string() ? left : right));
    rhs = l.ir.const64(1);
  } else if (left.type->is_string()) {
    lhs = l.strings.compare(l.strings.from(left), l.strings.from(right));
    rhs = l.ir.const64(0);
    is_signed = true;
  } else if (left.type->is_integer() && right.type->is_integer()) {
    is_signed = lang::arithmetic_result(*l.program.types, left.type, right.type)->is_signed;
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
  return l.ir.widen(l.ir.b().CreateICmp(p, lhs, rhs));
}

// Applies compound assignment operator `op` or ++/-- to `current`.
Value apply(Lowering& l, const Value& current, const lang::Expr& target, BinaryOp op, const Value& operand) {
  llvm::Value* v = arithmetic(l, op, current.v, operand.v, target.type, target.type, operand.type);
  if (!v) lang::fail(target.loc, lang::ErrTag::D_UNKNOWN, "this compound assignment is not supported");
  return {v, target.type};
}

// A probe's hook refuses an argument it cannot produce without knowing where the script asks for
// it: the refusal is placed at the expression that does.
template <typename Lower>
Value placed_at(const lang::Expr& e, Lower&& lower) {
  try {
    return lower();
  } catch (lang::CompileError& error) {
    if (!error.has_location) error.loc = e.loc, error.has_location = true;
    throw;
  }
}

}  // namespace

llvm::Value* Exprs::eval_int(const lang::Expr& e) {
  Value v = eval(e);
  if (v.type->is_string()) lang::fail(e.loc, lang::ErrTag::D_OP_INCOMPAT, "a string is used where an integer is needed");
  return v.v;
}

llvm::Value* Exprs::condition(const lang::Expr& e) {
  Value v = eval(e);
  if (v.type->is_string()) return l_.ir.b().CreateICmpNE(l_.ir.b().CreateLoad(l_.ir.i8(), v.v), l_.ir.b().getInt8(0));
  return l_.ir.truth(v.v);
}

Value Exprs::eval(const lang::Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLiteral: return {l_.ir.const64(static_cast<int64_t>(e.value)), e.type};
    case ExprKind::StringLiteral: return l_.strings.literal(e.text);
    case ExprKind::Variable: return l_.variables.load(e);
    case ExprKind::Builtin: return placed_at(e, [&] { return e.variable->lower(l_, e); });
    case ExprKind::ProbeArg: return placed_at(e, [&] { return l_.firing.arg(e.id, e.type); });
    case ExprKind::Unary: return unary(e);
    case ExprKind::IncDec: return incdec(e);
    case ExprKind::Binary: return binary(e);
    case ExprKind::Assign: return assign(e);
    case ExprKind::Ternary: return ternary(e);
    case ExprKind::Cast: return cast(e);
    case ExprKind::Index:
      if (e.operand(0)->type->is_string()) {  // s[i]: a byte of a D string (0 past its end)
        llvm::Value* byte = l_.strings.byte_at(l_.strings.from(eval(*e.operand(0))), eval_int(*e.operand(1)));
        return {l_.ir.normalize(byte, e.type), e.type};
      }
      return kernel_object(e);
    case ExprKind::Member: return kernel_object(e);
    case ExprKind::Call: return e.function->lower(l_, e);
    case ExprKind::Xlate: return translated(e);
    default: lang::fail(e.loc, lang::ErrTag::D_UNKNOWN, "this expression cannot be compiled");
  }
}

Value Exprs::unary(const lang::Expr& e) {
  using lang::UnaryOp;
  Ir& ir = l_.ir;
  switch (e.unary_op) {
    case UnaryOp::Deref: return kernel_object(e);
    case UnaryOp::AddressOf: return {address_of(*e.operand(0)), e.type};
    case UnaryOp::Not: return {ir.widen(ir.b().CreateNot(condition(*e.operand(0)))), e.type};
    default: break;
  }
  llvm::Value* v = eval_int(*e.operand(0));
  if (e.unary_op == UnaryOp::Neg) v = ir.b().CreateNeg(v);
  if (e.unary_op == UnaryOp::BitNot) v = ir.b().CreateNot(v);
  return {v, e.type};
}

Value Exprs::incdec(const lang::Expr& e) {
  Value one{l_.ir.const64(1), l_.program.types->integer(4, true)};
  auto [before, after] = update(*e.operand(0), e.increment ? BinaryOp::Add : BinaryOp::Sub, [&] { return one; });
  return e.prefix ? after : before;
}

// A compound assignment or ++/-- of an assignment's target: its values before and after.
std::pair<Value, Value> Exprs::update(const lang::Expr& target, BinaryOp op, const std::function<Value()>& operand) {
  auto next = [&](const Value& current) { return apply(l_, current, target, op, operand()); };
  if (!lang::stored_through(target)) return l_.variables.update(target, next);
  Value before = kernel_object(target);
  Value after = next(before);
  if (target.type->is_integer()) after.v = l_.ir.normalize(after.v, target.type);
  store(target, after);
  return {before, after};
}

void Exprs::store(const lang::Expr& target, const Value& value) {
  if (!lang::stored_through(target)) return l_.variables.store(target, value);
  // Only scratch the clause allocated may be written: DTrace's rule for stores through pointers.
  auto& b = l_.ir.b();
  uint64_t size = target.type->size;
  llvm::Value* place = clause_scratch_at(address_of(target), l_.ir.const64(static_cast<int64_t>(size)), size);
  if (place) b.CreateStore(b.CreateTrunc(value.v, b.getIntNTy(static_cast<unsigned>(size * 8))), place);
}

Value Exprs::binary(const lang::Expr& e) {
  BinaryOp op = e.binary_op;
  if (op == BinaryOp::LogAnd || op == BinaryOp::LogOr || op == BinaryOp::LogXor) return {logical(e), e.type};
  if (op == BinaryOp::Comma) {
    eval(*e.operand(0));
    return eval(*e.operand(1));
  }
  if (e.type->is_string()) return string_step(e);
  Value left = eval(*e.operand(0));
  Value right = eval(*e.operand(1));
  if (lang::is_comparison(op)) return {compare(l_, op, left, right), e.type};
  return {arithmetic(l_, op, left.v, right.v, e.type, left.type, right.type), e.type};
}

// s + n, n + s, s - n: the text from byte n on. Steps add up before the text is cut, so that
// (s + 3) - 1 is s + 2; an offset below 0 reads from 0.
Value Exprs::string_step(const lang::Expr& e) {
  auto& b = l_.ir.b();
  llvm::Value* offset = l_.ir.const64(0);
  const lang::Expr* text = &e;
  while (text->kind == lang::ExprKind::Binary && text->type->is_string()) {
    bool text_first = text->operand(0)->type->is_string();
    llvm::Value* n = eval_int(*text->operand(text_first ? 1 : 0));
    offset = text->binary_op == BinaryOp::Sub ? b.CreateSub(offset, n) : b.CreateAdd(offset, n);
    text = text->operand(text_first ? 0 : 1);
  }
  Value s = l_.strings.from(eval(*text));
  llvm::Value* start = b.CreateSelect(b.CreateICmpSLT(offset, l_.ir.const64(0)), l_.ir.const64(0), offset);
  return l_.strings.copy_range(s, start, l_.ir.const64(static_cast<int64_t>(s.capacity)));
}

Value Exprs::assign(const lang::Expr& e) {
  const lang::Expr& target = *e.operand(0);
  if (e.compound) return update(target, e.binary_op, [&] { return eval(*e.operand(1)); }).second;
  Value value = eval(*e.operand(1));
  if (target.type->is_integer()) value.v = l_.ir.normalize(value.v, target.type);
  // Text becomes the string it is stored as; 0 stays an integer, which frees the variable.
  if (target.type->is_string() && !value.type->is_integer()) value.type = target.type;
  store(target, value);
  return value;
}

Value Exprs::cast(const lang::Expr& e) {
  Value v = eval(*e.operand(0));
  if (e.type->is_string()) return l_.strings.from(v);
  if (v.type->is_string()) lang::fail(e.loc, lang::ErrTag::D_CAST_INVAL, "casting a string to " + lang::type_name(e.type) + " is not supported");
  if (!e.type->is_integer()) return {v.v, e.type};
  // The verifier lets a kernel pointer (curthread, a tracepoint's struct argument) be stored but
  // not computed with; a round trip through scratch memory makes it a plain number.
  if (v.type->is_pointer() || v.type->is_array()) {
    llvm::Value* word = l_.firing.scratch(8);
    l_.ir.b().CreateStore(v.v, word, /*isVolatile=*/true);
    v.v = l_.ir.b().CreateLoad(l_.ir.i64(), word, /*isVolatile=*/true);
  }
  return {l_.ir.normalize(v.v, e.type), e.type};
}

// && and || evaluate their right side only when needed; ^^ always evaluates both.
llvm::Value* Exprs::logical(const lang::Expr& e) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::Value* left = condition(*e.operand(0));
  if (e.binary_op == BinaryOp::LogXor) return ir.widen(b.CreateXor(left, condition(*e.operand(1))));
  bool is_and = e.binary_op == BinaryOp::LogAnd;
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* right_block = ir.new_block(is_and ? "and.rhs" : "or.rhs");
  llvm::BasicBlock* done = ir.new_block("logical.done");
  if (is_and)
    b.CreateCondBr(left, right_block, done);
  else
    b.CreateCondBr(left, done, right_block);
  b.SetInsertPoint(right_block);
  llvm::Value* right = condition(*e.operand(1));
  llvm::BasicBlock* right_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(b.getInt1Ty(), 2);
  phi->addIncoming(b.getInt1(!is_and), from);
  phi->addIncoming(right, right_end);
  return ir.widen(phi);
}

Value Exprs::ternary(const lang::Expr& e) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::Value* cond = condition(*e.operand(0));
  llvm::BasicBlock* then_block = ir.new_block("then");
  llvm::BasicBlock* else_block = ir.new_block("else");
  llvm::BasicBlock* done = ir.new_block("ternary.done");
  b.CreateCondBr(cond, then_block, else_block);
  auto branch = [&](llvm::BasicBlock* block, const lang::Expr& operand, llvm::BasicBlock** end) {
    b.SetInsertPoint(block);
    Value value = eval(operand);
    if (e.type->is_string()) value = l_.strings.from(value);
    else if (value.v->getType()->isIntegerTy(64) && !llvm::isa<llvm::Constant>(value.v)) value.v = ir.opaque(value.v);
    *end = b.GetInsertBlock();
    b.CreateBr(done);
    return value;
  };
  llvm::BasicBlock *then_end, *else_end;
  Value then_value = branch(then_block, *e.operand(1), &then_end);
  Value else_value = branch(else_block, *e.operand(2), &else_end);
  if (e.type->is_string() && then_value.capacity != else_value.capacity) {
    // Whichever text is read must hold as many bytes as the larger branch gives (a literal is
    // only as long as its text): the smaller one is copied into scratch of that size.
    bool then_smaller = then_value.capacity < else_value.capacity;
    Value& smaller = then_smaller ? then_value : else_value;
    uint64_t capacity = std::max(then_value.capacity, else_value.capacity);
    b.SetInsertPoint((then_smaller ? then_end : else_end)->getTerminator());
    llvm::Value* buffer = l_.firing.scratch(capacity);
    l_.strings.copy(buffer, capacity, round8(capacity), smaller);
    smaller = Value{buffer, smaller.type, capacity};
  }
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(then_value.v->getType(), 2);
  phi->addIncoming(then_value.v, then_end);
  phi->addIncoming(else_value.v, else_end);
  Value result{phi, e.type, std::max(then_value.capacity, else_value.capacity), then_value.in_kernel,
               then_value.btf && else_value.btf};
  if (!e.type->is_string() && e.type->is_integer()) result.v = ir.normalize(phi, e.type);
  return result;
}

// A translated struct by value, built member by member in scratch memory.
Value Exprs::translated(const lang::Expr& e) {
  llvm::Value* at = l_.firing.scratch(e.type->size);
  l_.ir.zero_bytes(at, round8(e.type->size));
  const std::vector<lang::Member>& members = e.type->members();
  for (size_t i = 0; i < members.size(); ++i) {
    const lang::Expr& value = *e.operand(i);
    if (value.kind == ExprKind::IntLiteral && value.value == 0) continue;  // not translated: stays 0
    Variables::Field field = Variables::field_of(members[i].type, members[i].offset_bits, members[i].bitfield_bits,
                                                 members[i].type->is_signed);
    l_.variables.write(l_.ir.offset_ptr(at, Variables::unit_offset(field, members[i].offset_bits)), field, eval(value));
  }
  return {at, e.type, e.type->size};
}

}  // namespace dsched::codegen
