// if/else statements, lowered to predicated clauses. A checked clause whose body holds if
// statements becomes a run of clauses for the same probes, fired one after the other: the first
// keeps the clause's predicate, each later one is predicated on a clause-local guard that the
// clauses before it set. A fault stops the clause that has it before it sets the guards that
// follow, so the rest of the original clause does not run, as in DTrace. Predicates and if
// conditions therefore share one lowering. A speculate() before the ifs keeps its id in a guard
// and is repeated at the start of every later clause, so all their data is speculative.
#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/sema.h"

namespace dsched::lang {
namespace {

struct Guard {
  int id;
  std::string name;
  const Type* type;
};

struct Segment {
  ExprPtr predicate;
  std::vector<StmtPtr> statements;
};

ExprPtr read(const Guard& guard, SourceRange loc) {
  ExprPtr e = make_expr(ExprKind::Variable, loc);
  e->scope = VarScope::ClauseLocal;
  e->text = guard.name;
  e->id = guard.id;
  e->type = guard.type;
  return e;
}

ExprPtr negation(ExprPtr operand, const Type* type) {
  ExprPtr e = make_expr(ExprKind::Unary, operand->loc);
  e->unary_op = UnaryOp::Not;
  e->depth = operand->depth + 1;
  e->operands.push_back(std::move(operand));
  e->type = type;
  return e;
}

ExprPtr assign(const Guard& guard, ExprPtr value, SourceRange loc) {
  ExprPtr e = make_expr(ExprKind::Assign, loc);
  e->depth = value->depth + 1;
  e->operands.push_back(read(guard, loc));
  e->operands.push_back(std::move(value));
  e->type = guard.type;
  return e;
}

StmtPtr expr_statement(ExprPtr e) {
  auto stmt = std::make_unique<Stmt>(StmtKind::Expr, e->loc);
  stmt->expr = std::move(e);
  return stmt;
}

StmtPtr set(const Guard& guard, ExprPtr value, SourceRange loc) {
  return expr_statement(assign(guard, std::move(value), loc));
}

bool is_speculate(const Stmt& stmt) {
  return stmt.kind == StmtKind::Expr && stmt.expr->kind == ExprKind::Call &&
         stmt.expr->function->speculation() == Function::Speculation::Speculate;
}

bool has_conditional(const std::vector<StmtPtr>& body) {
  for (const StmtPtr& stmt : body)
    if (stmt->kind == StmtKind::If) return true;
  return false;
}

// speculate() inside an if statement, which could not cover the clause's other data.
const Stmt* nested_speculate(const std::vector<StmtPtr>& body, bool nested) {
  for (const StmtPtr& stmt : body) {
    if (stmt->kind == StmtKind::If) {
      if (const Stmt* s = nested_speculate(stmt->then_body, true)) return s;
      if (const Stmt* s = nested_speculate(stmt->else_body, true)) return s;
    } else if (nested && is_speculate(*stmt)) {
      return stmt.get();
    }
  }
  return nullptr;
}

}  // namespace

void Sema::check_if(Stmt& stmt) {
  check_condition(stmt.expr, "an if condition");
  for (StmtPtr& s : stmt.then_body) statement(*s);
  for (StmtPtr& s : stmt.else_body) statement(*s);
}

bool Sema::lower_conditionals() {
  if (!has_conditional(program_.clauses.back().statements)) return false;
  Clause original = std::move(program_.clauses.back());
  program_.clauses.pop_back();
  if (const Stmt* s = nested_speculate(original.statements, false))
    fail(s->loc, ErrTag::D_SPEC_SPEC, "speculate( ) cannot be used inside an if statement: speculate before it");
  const Type* int_type = types_.integer(4, true);
  auto new_guard = [&](SourceRange loc, const Type* type) {
    std::string name = "if." + std::to_string(program_.clause_locals.size());
    const Variable& v = add_variable(VarScope::ClauseLocal, name, type, {}, loc, false);
    return Guard{v.id, name, type};
  };
  // speculate(id) before the ifs: the id is kept, and every later clause speculates to it too.
  std::optional<Guard> speculation;
  const Expr* speculate_call = nullptr;
  bool after_if = false;
  for (StmtPtr& stmt : original.statements) {
    after_if |= stmt->kind == StmtKind::If;
    if (!is_speculate(*stmt)) continue;
    if (after_if) fail(stmt->loc, ErrTag::D_SPEC_SPEC, "speculate( ) must come before the if statements of its clause");
    ExprPtr& id = stmt->expr->operands[0];
    speculation = new_guard(id->loc, id->type);
    id = assign(*speculation, std::move(id), stmt->loc);
    speculate_call = stmt->expr.get();
  }
  std::vector<Segment> segments;
  segments.push_back(Segment{std::move(original.predicate), {}});
  // Appends `body` to the last segment, opening new segments at each if.
  auto flatten = [&](auto& self, std::vector<StmtPtr>& body) -> void {
    for (StmtPtr& stmt : body) {
      if (stmt->kind != StmtKind::If) {
        segments.back().statements.push_back(std::move(stmt));
        continue;
      }
      SourceRange loc = stmt->loc;
      Guard taken = new_guard(loc, int_type), after = new_guard(loc, int_type);
      std::vector<StmtPtr>& here = segments.back().statements;
      here.push_back(set(taken, negation(negation(std::move(stmt->expr), int_type), int_type), loc));
      std::optional<Guard> otherwise;
      if (stmt->else_body.empty()) {
        here.push_back(set(after, negation(read(taken, loc), int_type), loc));
      } else {
        otherwise = new_guard(loc, int_type);
        here.push_back(set(*otherwise, negation(read(taken, loc), int_type), loc));
      }
      auto branch = [&](const Guard& guard, std::vector<StmtPtr>& statements) {
        segments.push_back(Segment{read(guard, loc), {}});
        self(self, statements);
        segments.back().statements.push_back(set(after, make_int(1, int_type, loc), loc));
      };
      branch(taken, stmt->then_body);
      if (otherwise) branch(*otherwise, stmt->else_body);
      segments.push_back(Segment{read(after, loc), {}});
    }
  };
  flatten(flatten, original.statements);
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i > 0 && segments[i].statements.empty()) continue;  // nothing follows that if
    if (i > 0 && speculation) {
      ExprPtr again = make_expr(ExprKind::Call, speculate_call->loc);
      again->text = speculate_call->text;
      again->function = speculate_call->function;
      again->type = speculate_call->type;
      again->operands.push_back(read(*speculation, speculate_call->loc));
      segments[i].statements.insert(segments[i].statements.begin(), expr_statement(std::move(again)));
    }
    Clause& c = program_.clauses.emplace_back();
    c.descriptions = original.descriptions;
    c.probes = original.probes;
    c.predicate = std::move(segments[i].predicate);
    c.statements = std::move(segments[i].statements);
    c.loc = original.loc;
    c.description_attributes = original.description_attributes;
    c.statement_attributes = original.statement_attributes;
    c.continues = i > 0;
    check_speculation_order(c);
  }
  return true;
}

}  // namespace dsched::lang
