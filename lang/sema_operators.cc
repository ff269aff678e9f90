// Sema for operators: unary and binary operators, ?: and casts, with the operand rules and
// error tags DTrace has for each.
#include "lang/btf_types.h"
#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/sema.h"

namespace dsched::lang {

void Sema::check_unary(ExprPtr& e) {
  const char* op = unary_op_text(e->unary_op);
  switch (e->unary_op) {
    case UnaryOp::Neg: case UnaryOp::Plus: case UnaryOp::BitNot:
      check_value(e->operands[0], ErrTag::D_TYPE_ERR, e->unary_op == UnaryOp::BitNot ? ErrTag::D_OP_INT : ErrTag::D_OP_ARITH);
      if (!e->operand(0)->type->is_integer())
        fail(e->loc, e->unary_op == UnaryOp::BitNot ? ErrTag::D_OP_INT : ErrTag::D_OP_ARITH,
             std::string("operator ") + op + " needs an integer, not " + type_name(e->operand(0)->type));
      e->type = promoted(types_, e->operand(0)->type);
      break;
    case UnaryOp::Not:
      check_condition(e->operands[0], "the operand of !");
      e->type = types_.integer(4, true);
      break;
    case UnaryOp::Deref: {
      if (auto pending = translation_of(*e->operand(0), true)) return translated_record(e, std::move(*pending));
      check_value(e->operands[0], ErrTag::D_TYPE_ERR, ErrTag::D_DEREF_NONPTR);
      decay(e->operands[0]);  // *array is its first element, as in C
      const Type* t = e->operand(0)->type;
      if (t->is_string()) {  // *s is s[0]: a string is an array of char
        e->kind = ExprKind::Index;
        e->operands.push_back(make_int(0, types_.integer(4, true), e->loc));
        e->type = types_.integer(1, true);
        break;
      }
      if (!t->is_pointer()) fail(e->loc, ErrTag::D_DEREF_NONPTR, "operator * needs a pointer, not " + type_name(t));
      if (t->target->kind == TypeKind::Function)
        fail(e->loc, ErrTag::D_DEREF_FUNC, "cannot dereference a pointer to " + type_name(t->target));
      if (t->target->is_void()) fail(e->loc, ErrTag::D_DEREF_VOID, "cannot dereference a pointer to " + type_name(t->target));
      e->type = t->target;
      break;
    }
    case UnaryOp::AddressOf: {
      check_value(e->operands[0], ErrTag::D_TYPE_ERR, ErrTag::D_ADDROF_VAR);
      const Expr& object = *e->operand(0);
      ExprKind k = object.kind;
      if (k == ExprKind::Member && object.bitfield_bits)
        fail(e->loc, ErrTag::D_ADDROF_BITFIELD, "operator & cannot be applied to bit-field " + object.text);
      // As in DTrace, an array is no lvalue unless it is named (a D or kernel variable): the address
      // of a member or element array is that of its first element, &a[0].
      bool named = is_d_object(object) ||
                   (k == ExprKind::Unary && object.operand(0)->kind == ExprKind::IntLiteral);  // `symbol
      if (object.type->is_array() && !named)
        fail(e->loc, ErrTag::D_ADDROF_LVAL, "operator & cannot be applied to an array (" + type_name(object.type) +
                                                "): take an element's address, as in &a[0]");
      bool is_memory = k == ExprKind::Member || (k == ExprKind::Unary && object.unary_op == UnaryOp::Deref) ||
                       (k == ExprKind::Index);
      const bool is_variable = k == ExprKind::Variable || k == ExprKind::Builtin || is_d_object(object);
      if (!is_memory || is_d_object(object))
        fail(e->loc, is_variable ? ErrTag::D_ADDROF_VAR : ErrTag::D_ADDROF_LVAL,
             is_variable ? "operator & needs an object in kernel memory, not a D variable"
                         : "operator & needs an object in memory, not a value");
      e->type = types_.pointer_to(e->operand(0)->type);
      break;
    }
  }
  fold(e);
}

void Sema::check_incdec(ExprPtr& e) {
  check_lvalue(e->operands[0], types_.integer(8, true), e->loc);
  const Type* t = e->operand(0)->type;
  if (!t->is_scalar())
    fail(e->loc, ErrTag::D_OP_SCALAR, std::string("operator ") + (e->increment ? "++" : "--") + " needs an integer or a pointer, not " + type_name(t));
  check_pointer_step(t, e->loc);
  e->type = t;
}

// DTrace's tag for operands an arithmetic operator cannot take: the bitwise, shift and modulo
// operators need integers, * and / arithmetic values, + and - compatible ones.
ErrTag operand_class_tag(BinaryOp op) {
  switch (op) {
    case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor: case BinaryOp::Shl: case BinaryOp::Shr:
    case BinaryOp::Mod: return ErrTag::D_OP_INT;
    case BinaryOp::Mul: case BinaryOp::Div: return ErrTag::D_OP_ARITH;
    default: return ErrTag::D_OP_INCOMPAT;
  }
}

// Whether two scalars may be compared when one is a pointer: pointers to the same type (or one to
// void), or either of them the constant 0 (NULL).
static bool comparable_pointers(const Expr& x, const Expr& y) {
  const Type* a = x.type;
  const Type* b = y.type;
  if (!a->is_pointer() && !b->is_pointer()) return true;
  if (a->is_pointer() && b->is_pointer()) return a->target == b->target || a->target->is_void() || b->target->is_void();
  return is_null_constant(x) || is_null_constant(y);
}

// DTrace's rule for kernel enums: compared with a value of a kernel enum type, an identifier D
// does not define names one of that enum's enumerators (state == TASK_DEAD-style tests).
void Sema::kernel_enumerator(ExprPtr& e, const Type* compared_with) {
  const std::string prefix = "enum ";
  if (e->kind != ExprKind::Ident || !compared_with->is_integer() || !compared_with->name.starts_with(prefix)) return;
  if (inlines_.count(e->text) || enum_constants_.count(e->text) || find_builtin_variable(e->text) ||
      find_variable(VarScope::Global, e->text))
    return;
  BtfTypes* btf = types_.btf(nullptr);
  if (!btf) return;
  if (std::optional<int64_t> value = btf->enumerator(compared_with->name.substr(prefix.size()), e->text))
    e = make_int(uint64_t(*value), compared_with, e->loc);
}

void Sema::check_binary(ExprPtr& e) {
  BinaryOp op = e->binary_op;
  std::string text = binary_op_text(op);
  if (op == BinaryOp::Comma) {
    check_operand(e->operands[0], ErrTag::D_OP_DYN);
    check_value(e->operands[1], ErrTag::D_TYPE_ERR, ErrTag::D_OP_DYN);
    // Actions are statements: one cannot be a step of an expression.
    for (const ExprPtr& operand : e->operands)
      if (operand->kind == ExprKind::Call && operand->function->speculation() != Function::Speculation::None)
        fail(operand->loc, ErrTag::D_OP_ACT, operand->text + "() is an action and cannot be an operand of ,");
    e->type = e->operand(1)->type;
    return;
  }
  if (op == BinaryOp::LogAnd || op == BinaryOp::LogOr || op == BinaryOp::LogXor) {
    check_condition(e->operands[0], ("the left operand of " + text).c_str());
    check_condition(e->operands[1], ("the right operand of " + text).c_str());
    e->type = types_.integer(4, true);
    fold(e);
    return;
  }
  check_value(e->operands[0], ErrTag::D_TYPE_ERR, operand_class_tag(op));
  if (is_comparison(op)) kernel_enumerator(e->operands[1], e->operand(0)->type);
  check_value(e->operands[1], ErrTag::D_TYPE_ERR, operand_class_tag(op));
  const Type* a = e->operand(0)->type;
  const Type* b = e->operand(1)->type;
  auto mismatch = [&] {
    fail(e->loc, operand_class_tag(op), "operator " + text + " cannot be applied to " + type_name(a) + " and " + type_name(b));
  };
  if ((op == BinaryOp::Div || op == BinaryOp::Mod) && is_null_constant(*e->operand(1)))
    fail(e->loc, ErrTag::D_DIV_ZERO, "division by zero");
  if (is_comparison(op)) {
    bool a_text = a->is_string() || a->is_char_sequence();
    bool b_text = b->is_string() || b->is_char_sequence();
    if ((a->is_string() || b->is_string()) && a_text && b_text) {
      to_string(e->operands[0]);
      to_string(e->operands[1]);
    } else if ((op == BinaryOp::Eq || op == BinaryOp::Ne) &&
               ((a->is_string() && is_null_constant(*e->operand(1))) ||
                (b->is_string() && is_null_constant(*e->operand(0))))) {
      // s == NULL: whether s is DTrace's NULL string (what strtok() returns when no token is left).
    } else if (!a->is_scalar() || !b->is_scalar() || !comparable_pointers(*e->operand(0), *e->operand(1))) {
      mismatch();
    }
    e->type = types_.integer(4, true);
    fold(e);
    return;
  }
  // To arithmetic a string is a char pointer, as in DTrace: s + n is the text from its n-th byte on.
  if ((op == BinaryOp::Add && ((a->is_string() && b->is_integer()) || (a->is_integer() && b->is_string()))) ||
      (op == BinaryOp::Sub && a->is_string() && b->is_integer())) {
    e->type = types_.string_type();
    return;
  }
  decay(e->operands[0]);
  decay(e->operands[1]);
  a = e->operand(0)->type;
  b = e->operand(1)->type;
  if (a->is_pointer() || b->is_pointer()) {
    if (op == BinaryOp::Add || op == BinaryOp::Sub) {
      check_pointer_step(a, e->loc);
      check_pointer_step(b, e->loc);
    }
    if (op == BinaryOp::Add && a->is_pointer() != b->is_pointer() && a->is_scalar() && b->is_scalar()) {
      e->type = a->is_pointer() ? a : b;
    } else if (op == BinaryOp::Sub && a->is_pointer() && b->is_integer()) {
      e->type = a;
    } else if (op == BinaryOp::Sub && a->is_pointer() && b->is_pointer() && a->target == b->target) {
      e->type = types_.integer(8, true);
    } else {
      mismatch();
    }
    return;
  }
  if (!a->is_integer() || !b->is_integer()) mismatch();
  e->type = (op == BinaryOp::Shl || op == BinaryOp::Shr) ? promoted(types_, a)
                                                         : arithmetic_result(types_, a, b);
  fold(e);
}

void Sema::check_ternary(ExprPtr& e) {
  check_condition(e->operands[0], "the condition of ?:");
  for (size_t i : {1, 2}) check_operand(e->operands[i], ErrTag::D_OP_DYN);
  const Type* a = e->operand(1)->type;
  const Type* b = e->operand(2)->type;
  // As DTrace checks it: the branches' types first, then whether they are actions.
  if (a->is_void() != b->is_void())
    fail(e->loc, ErrTag::D_OP_INCOMPAT, "the branches of ?: have incompatible types " + type_name(a) + " and " + type_name(b));
  if (a->is_void()) fail(e->loc, ErrTag::D_OP_ACT, "an action cannot be a branch of ?: (use if/else)");
  bool a_text = a->is_string() || a->is_char_sequence();
  bool b_text = b->is_string() || b->is_char_sequence();
  if (a_text && b_text && (a->is_string() || b->is_string() || a->is_array() || b->is_array())) {
    to_string(e->operands[1]);
    to_string(e->operands[2]);
    e->type = types_.string_type();
  } else if (a->is_integer() && b->is_integer()) {
    e->type = arithmetic_result(types_, a, b);
  } else if ((a->is_pointer() || b->is_pointer()) && a->is_scalar() && b->is_scalar() &&
             comparable_pointers(*e->operand(1), *e->operand(2))) {
    // A pointer and NULL, or pointers to one type (or to void): the typed pointer.
    e->type = !a->is_pointer() || (a->target->is_void() && b->is_pointer()) ? b : a;
  } else {
    fail(e->loc, ErrTag::D_OP_INCOMPAT, "the branches of ?: have incompatible types " + type_name(a) + " and " + type_name(b));
  }
  fold(e);
}

void Sema::check_cast(ExprPtr& e) {
  const Type* target = resolve_type_name(*e->type_name);
  if (target->is_string()) {
    // (string)x is stringof(x), as in DTrace.
    ExprPtr call = make_expr(ExprKind::Call, e->loc);
    call->text = "stringof";
    call->operands.push_back(std::move(e->operands[0]));
    e = std::move(call);
    check_call(e);
    return;
  }
  check_value(e->operands[0], ErrTag::D_CG_EXPR);  // (void)trace(1): DTrace finds no value to generate
  const Type* from = e->operand(0)->type;
  if (target->is_scalar()) {
    decay(e->operands[0]);
    from = e->operand(0)->type;
    if (!from->is_scalar() && !(from->is_array() && target->is_pointer()))
      fail(e->loc, ErrTag::D_CAST_INVAL, "cannot cast " + type_name(from) + " to " + type_name(target));
  } else if (!target->is_void()) {
    fail(e->loc, ErrTag::D_CAST_INVAL, "cannot cast to " + type_name(target));
  }
  e->type = target;
  fold(e);
}

}  // namespace dsched::lang
