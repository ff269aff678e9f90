// Readable renderings of the parse tree (--dump=ast) and of the typed program (--dump=types), used
// by golden tests.
#include <sstream>

#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/program.h"

namespace dsched::lang {
namespace {

const char* scope_word(VarScope scope) {
  return scope == VarScope::Global ? "global" : scope == VarScope::ThreadLocal ? "self" : "this";
}

const char* base_word(DeclSpec::Base base) {
  switch (base) {
    case DeclSpec::Base::Void: return "void";
    case DeclSpec::Base::Char: return "char";
    case DeclSpec::Base::Int: return "int";
    case DeclSpec::Base::Float: return "float";
    case DeclSpec::Base::Double: return "double";
    case DeclSpec::Base::String: return "string";
    default: return "";
  }
}

// A declaration's type as written (enough to tell declarations apart in a dump).
std::string spec_text(const DeclSpec& spec) {
  static const char* const storage[] = {"", "typedef ", "inline ", "extern ", "static ", "self ", "this "};
  std::string out = storage[int(spec.storage)];
  for (int i = 0; i < spec.unsigned_count; ++i) out += "unsigned ";
  for (int i = 0; i < spec.signed_count; ++i) out += "signed ";
  for (int i = 0; i < spec.short_count; ++i) out += "short ";
  for (int i = 0; i < spec.long_count; ++i) out += "long ";
  if (spec.base == DeclSpec::Base::Named) out += spec.name;
  else if (spec.base == DeclSpec::Base::Record)
    out += std::string(spec.record->kind == TypeKind::Union ? "union " : "struct ") + spec.record->tag +
           (spec.record->has_body ? " {" + std::to_string(spec.record->fields.size()) + " members}" : "");
  else if (spec.base == DeclSpec::Base::Enum)
    out += "enum " + spec.enumeration->tag;
  else out += base_word(spec.base);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string declarator_text(const Declarator& d) {
  std::string out(size_t(d.pointer_depth), '*');
  out += d.inner ? "(" + declarator_text(*d.inner) + ")" : d.name;
  for (const ArraySuffix& suffix : d.suffixes)
    out += suffix.function ? "(" + std::to_string(suffix.parameters.size()) + " parameters)"
           : suffix.key_types.empty() ? "[N]" : "[keys]";
  return out;
}

std::string type_text(const TypeName& t) {
  std::string declarator = declarator_text(t.declarator);
  return spec_text(t.spec) + (declarator.empty() ? "" : " " + declarator);
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
    case ExprKind::Builtin: out << e.variable->name(); break;
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
    case ExprKind::Cast:
      out << "(cast";
      if (e.type_name) out << ' ' << type_text(*e.type_name);
      operands(0);
      out << ')';
      break;
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
    // What only the parse tree holds.
    case ExprKind::Ident: out << e.text; return;
    case ExprKind::MacroVar: out << (e.string_macro ? "$$" : "$") << e.text; return;
    case ExprKind::SizeofType: out << "(sizeof " << type_text(*e.type_name) << ')'; return;
    case ExprKind::SizeofExpr: out << "(sizeof"; operands(0); out << ')'; return;
    case ExprKind::Offsetof: out << "(offsetof " << type_text(*e.type_name) << ' ' << e.text << ')'; return;
    case ExprKind::Xlate:  // typed: a translated struct built member by member
      out << "(xlate";
      if (e.type_name) out << ' ' << type_text(*e.type_name);
      operands(0);
      out << ')';
      break;
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

void dump_statement(std::ostream& out, const Stmt& stmt, const std::string& indent = "  ") {
  if (stmt.kind == StmtKind::If) {
    out << indent << "if " << dump(*stmt.expr) << '\n';
    for (const StmtPtr& s : stmt.then_body) dump_statement(out, *s, indent + "  ");
    if (stmt.else_body.empty()) return;
    out << indent << "else\n";
    for (const StmtPtr& s : stmt.else_body) dump_statement(out, *s, indent + "  ");
    return;
  }
  if (stmt.kind == StmtKind::Expr) {
    out << indent << dump(*stmt.expr) << '\n';
    return;
  }
  out << indent << "@" << stmt.agg_name;
  if (stmt.agg_id >= 0) out << '#' << stmt.agg_id;
  if (!stmt.keys.empty()) {
    out << '[';
    for (size_t i = 0; i < stmt.keys.size(); ++i) out << (i ? ", " : "") << dump(*stmt.keys[i]);
    out << ']';
  }
  out << " = " << (stmt.aggregating ? std::string(stmt.aggregating->name()) : stmt.func_text) << '(';
  for (size_t i = 0; i < stmt.args.size(); ++i) out << (i ? ", " : "") << dump(*stmt.args[i]);
  if (stmt.increment) out << ", increment " << dump(*stmt.increment);
  out << ")\n";
}

}  // namespace

std::string dump(const ParseTree& tree) {
  std::ostringstream out;
  for (const TopItem& item : tree.items) {
    if (const auto* clause = std::get_if<ClauseSyntax>(&item)) {
      out << "clause";
      for (const ProbeDescText& d : clause->descriptions) out << ' ' << d.text;
      out << '\n';
      if (clause->predicate) out << "  predicate " << dump(*clause->predicate) << '\n';
      for (const StmtPtr& stmt : clause->body) dump_statement(out, *stmt);
    } else if (const auto* pragma = std::get_if<PragmaSyntax>(&item)) {
      out << "pragma" << pragma->text << '\n';
    } else if (const auto* decl = std::get_if<DeclarationSyntax>(&item)) {
      out << "declaration " << spec_text(decl->spec);
      for (const InitDeclarator& d : decl->declarators) {
        out << ' ' << declarator_text(d.declarator);
        if (d.init) out << " = " << dump(*d.init);
      }
      out << '\n';
    } else if (const auto* t = std::get_if<TranslatorSyntax>(&item)) {
      out << "translator " << type_text(*t->output) << " < " << type_text(*t->input) << ' ' << t->input_name << " >\n";
      for (const TranslatorMemberSyntax& m : t->members) out << "  " << m.name << " = " << dump(*m.value) << '\n';
    } else if (const auto* p = std::get_if<ProviderSyntax>(&item)) {
      out << "provider " << p->name << '\n';
      auto parameters = [&](const std::vector<ProbeParameterSyntax>& list) {
        out << '(';
        for (size_t i = 0; i < list.size(); ++i)
          out << (i ? ", " : "") << type_text(*list[i].type) << (list[i].name.empty() ? "" : " " + list[i].name);
        out << ')';
      };
      for (const ProviderProbeSyntax& probe : p->probes) {
        out << "  probe " << probe.name;
        parameters(probe.native);
        if (probe.translated) {
          out << " : ";
          parameters(*probe.translated);
        }
        out << '\n';
      }
    }
  }
  return out.str();
}

std::string dump(const Expr& expr) {
  std::ostringstream out;
  dump_expr(out, expr);
  return out.str();
}

std::string dump(const Program& program) {
  std::ostringstream out;
  if (!program.options.values().empty()) {
    out << "options:";
    for (const auto& [name, value] : program.options.values()) {
      out << ' ' << name;
      if (value.kind != abi::OptionKind::Flag) out << '=' << value.number;
    }
    out << '\n';
  }
  dump_variables(out, "globals", program.globals);
  dump_variables(out, "thread-locals", program.thread_locals);
  dump_variables(out, "clause-locals", program.clause_locals);
  if (!program.aggregations.empty()) {
    out << "aggregations:\n";
    for (const Aggregation& a : program.aggregations) {
      out << "  @" << a.name << '#' << a.id << " = " << a.function->name() << '(';
      for (size_t i = 0; i < a.params.size(); ++i) out << (i ? ", " : "") << a.params[i];
      out << ") keys [" << key_list(a.key_types) << "] value "
          << (a.arg_type ? type_name(a.arg_type) : "-") << '\n';
    }
  }
  for (size_t c = 0; c < program.clauses.size(); ++c) {
    const Clause& clause = program.clauses[c];
    out << "clause " << c << ':';
    for (const Probe* probe : clause.probes) out << ' ' << probe->full_name() << " #" << probe->id;
    out << '\n';
    if (clause.predicate) out << "  predicate " << dump(*clause.predicate) << '\n';
    for (const StmtPtr& stmt : clause.statements) dump_statement(out, *stmt);
  }
  return out.str();
}

}  // namespace dsched::lang
