// A readable rendering of the typed program, used by golden tests and `dsched -e -v` style debugging.
#include <sstream>

#include "diagnostics.h"
#include "program.h"

namespace dsched::lang {
namespace {

const char* scope_word(VarScope scope) {
  return scope == VarScope::Global ? "global" : scope == VarScope::ThreadLocal ? "self" : "this";
}

void dump_expr(std::ostream& out, const Expr& e) {
  auto operands = [&](size_t from) {
    for (size_t i = from; i < e.operands.size(); ++i) {
      out << ' ';
      dump_expr(out, *e.operands[i]);
    }
  };
  switch (e.kind) {
    case ExprKind::IntLiteral:
      if (e.type && e.type->is_signed) out << int64_t(e.value);
      else out << e.value;
      break;
    case ExprKind::StringLiteral: out << '"' << printable(e.text, 200) << '"'; break;
    case ExprKind::Variable:
      out << '(' << scope_word(e.scope) << ' ' << e.text << '#' << e.id;
      operands(0);
      out << ')';
      break;
    case ExprKind::Builtin: out << builtin_name(e.builtin); break;
    case ExprKind::ProbeArg: out << "(probe-arg " << e.id << ')'; break;
    case ExprKind::Unary: out << '(' << unary_op_text(e.unary_op); operands(0); out << ')'; break;
    case ExprKind::IncDec:
      out << '(' << (e.prefix ? "pre" : "post") << (e.increment ? "++" : "--");
      operands(0);
      out << ')';
      break;
    case ExprKind::Binary: out << '(' << binary_op_text(e.binary_op); operands(0); out << ')'; break;
    case ExprKind::Assign:
      out << '(' << (e.compound ? binary_op_text(e.binary_op) : "") << '=';
      operands(0);
      out << ')';
      break;
    case ExprKind::Ternary: out << "(?:"; operands(0); out << ')'; break;
    case ExprKind::Cast: out << "(cast"; operands(0); out << ')'; break;
    case ExprKind::Member:
      out << '(' << (e.arrow ? "->" : ".");
      operands(0);
      out << ' ' << e.text << " @" << e.offset_bits / 8;
      if (e.offset_bits % 8 || e.bitfield_bits) out << '.' << e.offset_bits % 8 << ':' << e.bitfield_bits;
      out << ')';
      break;
    case ExprKind::Index: out << "(index"; operands(0); out << ')'; break;
    case ExprKind::Call: out << '(' << e.text; operands(0); out << ')'; break;
    case ExprKind::AggRef: out << '@' << e.text << '#' << e.id; return;
    default: out << "(unresolved " << e.text << ')'; return;
  }
  if (e.type) out << ':' << type_name(e.type);
}

std::string key_list(const std::vector<const Type*>& keys) {
  std::string s;
  for (const Type* k : keys) s += (s.empty() ? "" : ", ") + type_name(k);
  return s;
}

void dump_variables(std::ostream& out, const char* title, const std::vector<Variable>& vars) {
  if (vars.empty()) return;
  out << title << ":\n";
  for (const Variable& v : vars) {
    out << "  #" << v.id << ' ' << v.name;
    if (!v.key_types.empty()) out << '[' << key_list(v.key_types) << ']';
    out << ": " << type_name(v.type) << (v.declared ? " (declared)" : "") << '\n';
  }
}

}  // namespace

std::string dump(const Expr& expr) {
  std::ostringstream out;
  dump_expr(out, expr);
  return out.str();
}

std::string dump(const Program& program) {
  std::ostringstream out;
  if (!program.options.values.empty()) {
    out << "options:";
    for (const auto& [name, value] : program.options.values) {
      out << ' ' << name;
      if (value.kind != OptionKind::Flag) out << '=' << value.number;
    }
    out << '\n';
  }
  dump_variables(out, "globals", program.globals);
  dump_variables(out, "thread-locals", program.thread_locals);
  dump_variables(out, "clause-locals", program.clause_locals);
  if (!program.aggregations.empty()) {
    out << "aggregations:\n";
    for (const Aggregation& a : program.aggregations) {
      out << "  @" << a.name << '#' << a.id << " = " << agg_func_name(a.func) << '(';
      for (size_t i = 0; i < a.params.size(); ++i) out << (i ? ", " : "") << a.params[i];
      out << ") keys [" << key_list(a.key_types) << "] value "
          << (a.arg_type ? type_name(a.arg_type) : "-") << '\n';
    }
  }
  for (size_t c = 0; c < program.clauses.size(); ++c) {
    const Clause& clause = program.clauses[c];
    out << "clause " << c << ':';
    for (const probes::Probe* probe : clause.probes) out << ' ' << probe->full_name() << " #" << probe->id;
    out << '\n';
    if (clause.predicate) out << "  predicate " << dump(*clause.predicate) << '\n';
    for (const StmtPtr& stmt : clause.statements) {
      if (stmt->kind == StmtKind::Expr) {
        out << "  " << dump(*stmt->expr) << '\n';
        continue;
      }
      out << "  @" << stmt->agg_name << '#' << stmt->agg_id << '[';
      for (size_t i = 0; i < stmt->keys.size(); ++i) out << (i ? ", " : "") << dump(*stmt->keys[i]);
      out << "] = " << agg_func_name(stmt->agg_func) << '(';
      if (!stmt->args.empty()) out << dump(*stmt->args[0]);
      if (stmt->increment) out << ", increment " << dump(*stmt->increment);
      out << ")\n";
    }
  }
  return out.str();
}

}  // namespace dsched::lang
