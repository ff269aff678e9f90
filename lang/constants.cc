// Constant folding: operators over integer literals become literals, so that lquantize()
// parameters, array sizes and enumerators can be written as expressions, and codegen sees values.
// As D computes in 64-bit registers, an operator's result is not narrowed to its type (0x7fffffff
// + 1 is 2^31, typed int); only a cast narrows.
#include "diagnostics.h"
#include "sema.h"

namespace dsched::lang {
namespace {

// The bits of `v` as a value of integer type `t` (truncated, then sign- or zero-extended).
uint64_t normalize(uint64_t v, const Type* t) {
  if (!t->is_integer() || t->size >= 8) return v;
  unsigned bits = unsigned(t->size * 8);
  uint64_t mask = (uint64_t(1) << bits) - 1;
  v &= mask;
  if (t->is_signed && (v >> (bits - 1)) & 1) v |= ~mask;
  return v;
}

bool is_literal(const Expr* e) { return e->kind == ExprKind::IntLiteral; }

}  // namespace

void Sema::fold(ExprPtr& e) {
  const Type* type = e->type;
  if (!type->is_scalar()) return;
  uint64_t result = 0;
  switch (e->kind) {
    case ExprKind::Unary: {
      const Expr* x = e->operand(0);
      if (!is_literal(x)) return;
      uint64_t v = x->value;
      switch (e->unary_op) {
        case UnaryOp::Neg: result = uint64_t(0) - v; break;
        case UnaryOp::Plus: result = v; break;
        case UnaryOp::BitNot: result = ~v; break;
        case UnaryOp::Not: result = x->value == 0; break;
        default: return;
      }
      break;
    }
    case ExprKind::Cast: {
      const Expr* x = e->operand(0);
      // (void *)0, the NULL of the D library, is the null pointer constant.
      bool null_pointer = type->is_pointer() && type->target->is_void() && is_literal(x) && x->value == 0;
      if (!is_literal(x) || !(type->is_integer() || null_pointer)) return;
      result = x->value;
      break;
    }
    case ExprKind::Ternary: {
      if (!is_literal(e->operand(0)) || !is_literal(e->operand(1)) || !is_literal(e->operand(2))) return;
      result = e->operand(0)->value ? e->operand(1)->value : e->operand(2)->value;
      break;
    }
    case ExprKind::Binary: {
      const Expr* a = e->operand(0);
      const Expr* b = e->operand(1);
      if (!is_literal(a) || !is_literal(b) || !a->type->is_integer() || !b->type->is_integer()) return;
      BinaryOp op = e->binary_op;
      const Type* common = (op == BinaryOp::Shl || op == BinaryOp::Shr) ? type
                           : (op == BinaryOp::LogAnd || op == BinaryOp::LogOr || op == BinaryOp::LogXor)
                               ? type
                               : arithmetic_result(types_, a->type, b->type);
      uint64_t x = a->value, y = b->value;
      bool is_signed = common->is_signed;
      auto sx = int64_t(x), sy = int64_t(y);
      switch (op) {
        case BinaryOp::Mul: result = x * y; break;
        case BinaryOp::Div:
        case BinaryOp::Mod:
          if (y == 0) fail(e->loc, ErrTag::D_DIV_ZERO, "division by zero in a constant expression");
          if (is_signed && sx == INT64_MIN && sy == -1) {
            result = op == BinaryOp::Div ? x : 0;
          } else if (op == BinaryOp::Div) {
            result = is_signed ? uint64_t(sx / sy) : x / y;
          } else {
            result = is_signed ? uint64_t(sx % sy) : x % y;
          }
          break;
        case BinaryOp::Add: result = x + y; break;
        case BinaryOp::Sub: result = x - y; break;
        case BinaryOp::Shl:
        case BinaryOp::Shr:
          if (y >= 64) fail(e->loc, ErrTag::D_UNKNOWN, "shift count is out of range in a constant expression");
          // D shifts in 64-bit registers and keeps the operand's type, as DTrace's folding does:
          // 1 << 40 is 2^40 typed int, so an aggregation takes 2^40 but a record or a variable of
          // its type keeps the low 32 bits (0).
          result = op == BinaryOp::Shl ? x << y : is_signed ? uint64_t(sx >> y) : x >> y;
          break;
        case BinaryOp::Lt: result = is_signed ? sx < sy : x < y; break;
        case BinaryOp::Le: result = is_signed ? sx <= sy : x <= y; break;
        case BinaryOp::Gt: result = is_signed ? sx > sy : x > y; break;
        case BinaryOp::Ge: result = is_signed ? sx >= sy : x >= y; break;
        case BinaryOp::Eq: result = x == y; break;
        case BinaryOp::Ne: result = x != y; break;
        case BinaryOp::BitAnd: result = x & y; break;
        case BinaryOp::BitXor: result = x ^ y; break;
        case BinaryOp::BitOr: result = x | y; break;
        case BinaryOp::LogAnd: result = a->value && b->value; break;
        case BinaryOp::LogOr: result = a->value || b->value; break;
        case BinaryOp::LogXor: result = (a->value != 0) != (b->value != 0); break;
        case BinaryOp::Comma: return;
      }
      break;
    }
    default:
      return;
  }
  if (e->kind == ExprKind::Cast) result = normalize(result, type);
  e = make_int(result, type, e->loc);
}

}  // namespace dsched::lang
