#include "ast.h"

#include "diagnostics.h"
#include "parse_context.h"

namespace dsched::lang {

namespace {

// Sanitizer builds keep malloc, whose checks catch a node used after it is freed.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPoolNodes = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPoolNodes = false;
#else
constexpr bool kPoolNodes = true;
#endif
#else
constexpr bool kPoolNodes = true;
#endif

struct FreeNode {
  FreeNode* next;
};

struct NodePool {
  static constexpr size_t kNodesPerBlock = 256;
  FreeNode* free = nullptr;
  std::vector<std::unique_ptr<std::byte[]>> blocks;  // never shrinks: later compiles reuse them

  void* take() {
    if (!free) refill();
    FreeNode* node = free;
    free = node->next;
    return node;
  }
  void give(void* node) { free = new (node) FreeNode{free}; }
  void refill() {
    static_assert(alignof(Expr) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    auto& block = blocks.emplace_back(new std::byte[kNodesPerBlock * sizeof(Expr)]);
    for (size_t i = 0; i < kNodesPerBlock; ++i) give(block.get() + i * sizeof(Expr));
  }
};

thread_local NodePool node_pool;

}  // namespace

void* Expr::operator new(size_t size) {
  if (!kPoolNodes || size != sizeof(Expr)) return ::operator new(size);
  return node_pool.take();
}

void Expr::operator delete(void* node, size_t size) {
  if (!kPoolNodes || size != sizeof(Expr)) return ::operator delete(node, size);
  node_pool.give(node);
}

bool is_d_object(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Variable: return e.type && (e.type->is_record() || e.type->is_array());
    case ExprKind::Member: return !e.arrow && is_d_object(*e.operand(0));
    case ExprKind::Index: return e.operand(0)->type->is_array() && is_d_object(*e.operand(0));
    default: return false;
  }
}

const Expr* stored_through(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Unary: return e.unary_op == UnaryOp::Deref ? e.operand(0) : nullptr;
    case ExprKind::Member: return e.arrow ? e.operand(0) : stored_through(*e.operand(0));
    case ExprKind::Index:
      if (e.operand(0)->type->is_pointer()) return e.operand(0);
      return e.operand(0)->type->is_array() ? stored_through(*e.operand(0)) : nullptr;
    default: return nullptr;
  }
}

ExprPtr make_expr(ExprKind kind, SourceRange loc) { return std::make_unique<Expr>(kind, loc); }

ExprPtr make_int(uint64_t value, const Type* type, SourceRange loc) {
  ExprPtr e = make_expr(ExprKind::IntLiteral, loc);
  e->value = value;
  e->type = type;
  return e;
}

ExprPtr clone(const Expr& expr, const std::function<ExprPtr(const Expr&)>& replace) {
  if (replace)
    if (ExprPtr replaced = replace(expr)) return replaced;
  auto copy = std::make_unique<Expr>(expr.kind, expr.loc);
  copy->type = expr.type;
  copy->value = expr.value;
  copy->text = expr.text;
  copy->binary_op = expr.binary_op;  // copies whichever union member is active (same size)
  copy->function = expr.function;
  copy->variable = expr.variable;
  copy->compound = expr.compound;
  copy->increment = expr.increment;
  copy->prefix = expr.prefix;
  copy->arrow = expr.arrow;
  copy->string_macro = expr.string_macro;
  copy->translator_input = expr.translator_input;
  copy->id = expr.id;
  copy->offset_bits = expr.offset_bits;
  copy->bitfield_bits = expr.bitfield_bits;
  copy->bitfield_signed = expr.bitfield_signed;
  copy->type_name = expr.type_name;
  copy->depth = expr.depth;
  copy->operands.reserve(expr.operands.size());
  for (const ExprPtr& operand : expr.operands) copy->operands.push_back(clone(*operand, replace));
  return copy;
}

StmtPtr clone(const Stmt& stmt) {
  auto copy = std::make_unique<Stmt>(stmt.kind, stmt.loc);
  auto clone_all = [](const auto& from, auto& to) {
    for (const auto& item : from) to.push_back(clone(*item));
  };
  if (stmt.expr) copy->expr = clone(*stmt.expr);
  clone_all(stmt.then_body, copy->then_body);
  clone_all(stmt.else_body, copy->else_body);
  copy->agg_name = stmt.agg_name;
  copy->agg_id = stmt.agg_id;
  clone_all(stmt.keys, copy->keys);
  copy->func_text = stmt.func_text;
  copy->aggregating = stmt.aggregating;
  clone_all(stmt.args, copy->args);
  if (stmt.increment) copy->increment = clone(*stmt.increment);
  copy->func_loc = stmt.func_loc;
  return copy;
}

ExprPtr ParseContext::node(ExprKind kind, SourceRange loc, std::vector<ExprPtr> operands) {
  uint32_t depth = 1;
  for (const ExprPtr& operand : operands) depth = std::max(depth, operand->depth + 1);
  if (depth > kMaxExpressionDepth) fail(loc, ErrTag::D_UNKNOWN, "expression nested too deeply");
  ExprPtr e = make_expr(kind, loc);
  e->operands = std::move(operands);
  e->depth = depth;
  return e;
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

}  // namespace dsched::lang
