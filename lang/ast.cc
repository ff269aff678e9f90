#include "ast.h"

#include "diagnostics.h"
#include "parse_context.h"

namespace dsched::lang {

ExprPtr make_expr(ExprKind kind, SourceRange loc) { return std::make_unique<Expr>(kind, loc); }

ExprPtr make_int(uint64_t value, const Type* type, SourceRange loc) {
  ExprPtr e = make_expr(ExprKind::IntLiteral, loc);
  e->value = value;
  e->type = type;
  return e;
}

ExprPtr clone(const Expr& expr) {
  auto copy = std::make_unique<Expr>(expr.kind, expr.loc);
  copy->type = expr.type;
  copy->value = expr.value;
  copy->text = expr.text;
  copy->binary_op = expr.binary_op;  // copies whichever union member is active (same size)
  copy->compound = expr.compound;
  copy->increment = expr.increment;
  copy->prefix = expr.prefix;
  copy->arrow = expr.arrow;
  copy->string_macro = expr.string_macro;
  copy->id = expr.id;
  copy->offset_bits = expr.offset_bits;
  copy->bitfield_bits = expr.bitfield_bits;
  copy->type_name = expr.type_name;
  copy->depth = expr.depth;
  for (const ExprPtr& operand : expr.operands) copy->operands.push_back(clone(*operand));
  return copy;
}

ExprPtr ParseContext::node(ExprKind kind, SourceRange loc, std::vector<ExprPtr> operands) {
  uint32_t depth = 1;
  for (const ExprPtr& operand : operands) depth = std::max(depth, operand->depth + 1);
  if (depth > kMaxExpressionDepth) fail(loc, "expression nested too deeply");
  ExprPtr e = make_expr(kind, loc);
  e->operands = std::move(operands);
  e->depth = depth;
  return e;
}

const char* builtin_name(Builtin builtin) {
  static const char* const names[] = {
      "timestamp", "vtimestamp", "walltimestamp", "cpu", "curcpu", "pid", "ppid", "tid",
      "execname", "uid", "gid", "probeprov", "probemod", "probefunc", "probename", "arg0",
      "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7", "arg8", "arg9", "args",
      "curthread", "curlwpsinfo", "curpsinfo", "stackdepth", "ustackdepth", "errno", "epid", "id"};
  return names[int(builtin)];
}

const char* unary_op_text(UnaryOp op) {
  static const char* const names[] = {"-", "+", "!", "~", "*", "&"};
  return names[int(op)];
}

const char* binary_op_text(BinaryOp op) {
  static const char* const names[] = {"*", "/", "%", "+", "-", "<<", ">>", "<", "<=", ">",
                                      ">=", "==", "!=", "&", "^", "|", "&&", "^^", "||", ","};
  return names[int(op)];
}

bool is_comparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
    case BinaryOp::Eq: case BinaryOp::Ne:
      return true;
    default:
      return false;
  }
}

const char* func_name(Func func) {
  static const char* const names[] = {
      "trace", "printf", "printa", "exit", "stack", "ustack", "speculation", "speculate",
      "commit", "discard", "normalize", "denormalize", "trunc", "clear", "setopt", "stringof",
      "strlen", "strjoin", "substr", "strchr", "strrchr", "strstr", "basename", "dirname",
      "lltostr", "copyinstr", "copyin", "rand", "system", "raise", "ctprof_snapshot",
      "ctprof_compare"};
  return names[int(func)];
}

const char* agg_func_name(AggFunc func) {
  static const char* const names[] = {"count", "sum", "avg", "min", "max", "stddev",
                                      "quantize", "lquantize", "llquantize"};
  return names[int(func)];
}

}  // namespace dsched::lang
