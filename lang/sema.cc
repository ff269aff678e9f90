// Sema driver: options first, then declarations and clauses in source order.
#include "sema.h"

#include <unistd.h>

#include <algorithm>

#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"

namespace dsched::lang {

Sema::Sema(Program& program, const FrontendOptions& options, ProbeCatalog& catalog, std::vector<TopItem*> items)
    : program_(program), types_(*program.types), options_(options), catalog_(catalog), items_(std::move(items)) {
  declare_builtin_types();
}

void Sema::run() {
  // Options come first: strsize decides the size of every string. As dtrace(1M) sets -x options
  // before it compiles, the script's pragmas override them.
  for (const auto& [name, value] : options_.cli_options.values()) program_.options.set(name, value);
  for (TopItem* item : items_)
    if (auto* p = std::get_if<PragmaSyntax>(item)) pragma(*p);
  program_.stamp_records = options_.stamp_records;
  if (options_.destructive) program_.options.set("destructive", abi::OptionValue{abi::OptionKind::Flag, 1, ""});
  types_.set_string_size(program_.options.string_bytes());
  for (TopItem* item : items_) {
    if (auto* c = std::get_if<ClauseSyntax>(item)) {
      clause(*c);
    } else if (auto* d = std::get_if<DeclarationSyntax>(item)) {
      declaration(*d);
    } else if (auto* t = std::get_if<TranslatorSyntax>(item)) {
      translator(*t);
    } else if (auto* p = std::get_if<ProviderSyntax>(item)) {
      provider_declaration(*p);
    }
  }
  check_arguments_referenced();
  check_pragmas_applied();
}

// As DTrace: an argument the script never reads is most likely a mistake in how it was run,
// unless the argref option says arguments may go unused.
void Sema::check_arguments_referenced() const {
  if (program_.options.flag("argref")) return;
  for (size_t i = 1; i < options_.macro_args.size(); ++i)
    if (i >= arguments_referenced_.size() || !arguments_referenced_[i])
      throw CompileError({}, ErrTag::D_MACRO_UNUSED, "extraneous argument '" + printable(options_.macro_args[i]) + "' ($" + std::to_string(i) +
                                 " is not referenced)", false);
}

std::vector<Variable>& Sema::table(VarScope scope) {
  switch (scope) {
    case VarScope::Global: return program_.globals;
    case VarScope::ThreadLocal: return program_.thread_locals;
    case VarScope::ClauseLocal: return program_.clause_locals;
  }
  return program_.globals;
}

Variable* Sema::find_variable(VarScope scope, const std::string& name) {
  auto& index = variable_index_[int(scope)];
  auto it = index.find(name);
  return it == index.end() ? nullptr : &table(scope)[it->second];
}

Variable& Sema::add_variable(VarScope scope, const std::string& name, const Type* type,
                             std::vector<const Type*> keys, SourceRange loc, bool declared) {
  auto& vars = table(scope);
  Variable v;
  v.id = int(vars.size());
  v.name = name;
  v.scope = scope;
  v.type = type;
  v.key_types = std::move(keys);
  v.declared = declared;
  v.loc = loc;
  variable_index_[int(scope)][name] = v.id;
  vars.push_back(std::move(v));
  return vars.back();
}

std::string Sema::expand_macros_in_description(const ProbeDescText& desc) {
  // "pid$target:::" and "$1" in a description take the macro's text.
  std::string out;
  const std::string& text = desc.text;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      out.push_back(text[i++]);
      continue;
    }
    size_t start = i++;
    if (i < text.size() && text[i] == '$') ++i;
    size_t name_start = i;
    while (i < text.size() && (std::isalnum((unsigned char)text[i]) || text[i] == '_')) ++i;
    std::string name = text.substr(name_start, i - name_start);
    if (name.empty()) fail(desc.loc, ErrTag::D_PDESC_INVAL, "invalid macro in probe description " + printable(text));
    ExprPtr macro = make_expr(ExprKind::MacroVar, desc.loc);
    macro->text = name;
    macro->string_macro = text[start + 1] == '$';
    try {
      check_macro(macro, /*as_text=*/true);  // in a description, $N and $$N both give the text
    } catch (const CompileError& error) {
      fail(desc.loc, ErrTag::D_PDESC_INVAL, error.what());  // DTrace's tag for a description it cannot expand
    }
    out += macro->kind == ExprKind::StringLiteral ? macro->text : std::to_string(int64_t(macro->value));
  }
  return out;
}

// DTrace's limits on a description: at most four fields (provider:module:function:name), each
// shorter than its field's size in the kernel's probe description.
static void check_description_fields(const std::string& text, SourceRange loc) {
  static constexpr std::pair<const char*, size_t> kFields[] = {
      {"provider", 64}, {"module", 64}, {"function", 192}, {"name", 64}};
  const size_t fields = size_t(std::count(text.begin(), text.end(), ':')) + 1;
  if (fields > 4)
    fail(loc, ErrTag::D_PDESC_INVAL, "invalid probe description " + printable(text) + ": more than four fields");
  // The given fields are the last ones: "BEGIN" is a name, "read:entry" a function and a name.
  size_t field = 4 - fields, start = 0;
  for (; field < 4; ++field) {
    size_t end = std::min(text.find(':', start), text.size());
    if (end - start >= kFields[field].second)
      fail(loc, ErrTag::D_PDESC_INVAL,
           std::string("invalid probe description: its ") + kFields[field].first + " is longer than " +
               std::to_string(kFields[field].second - 1) + " characters");
    start = end + 1;
  }
}

void Sema::resolve_descriptions(ClauseSyntax& syntax, Clause& clause) {
  bool allow_zero_matches = options_.allow_zero_matches || program_.options.flag("zdefs");
  for (const ProbeDescText& desc : syntax.descriptions) {
    ResolvedDescription resolved;
    resolved.text = expand_macros_in_description(desc);
    check_description_fields(resolved.text, desc.loc);
    std::string why;
    std::vector<const Probe*> matched = catalog_.match(resolved.text, &why);
    if (matched.empty() && allow_zero_matches) continue;
    if (matched.empty() && !why.empty()) fail(desc.loc, ErrTag::D_PDESC_INVAL, why);
    if (matched.empty() && std::ranges::all_of(resolved.text, [](char c) { return std::isdigit((unsigned char)c); }))
      fail(desc.loc, ErrTag::D_PDESC_INVAL,
           "probe description " + resolved.text + " is a probe id: name the probe instead");
    if (matched.empty())
      fail(desc.loc, ErrTag::D_PDESC_ZERO, "probe description " + printable(resolved.text) + " does not match any probes");
    // A wildcard passes over probes this kernel cannot offer; naming only those is an error, unless
    // -Z lets a description enable nothing.
    for (const Probe* probe : matched)
      if (probe->unsupported.empty()) resolved.probes.push_back(probe);
    if (resolved.probes.empty() && allow_zero_matches) continue;
    if (resolved.probes.empty()) fail(desc.loc, ErrTag::D_PDESC_ZERO, matched[0]->unsupported);
    for (const Probe* probe : resolved.probes)
      if (std::find(clause.probes.begin(), clause.probes.end(), probe) == clause.probes.end())
        clause.probes.push_back(probe);
    Attributes attributes = resolved.probes[0]->owner
                                ? description_attributes(split_fields(resolved.text), resolved.probes[0]->owner->stability())
                                : kStableCommon;
    clause.description_attributes =
        clause.descriptions.empty() ? attributes : weakest(clause.description_attributes, attributes);
    clause.descriptions.push_back(std::move(resolved));
  }
  std::sort(clause.probes.begin(), clause.probes.end(), [](const Probe* a, const Probe* b) { return a->id < b->id; });
}

// The weakest attributes of the providers of `probes`, field by field (DTrace's Unstable ones when
// no probe has a provider).
static ProviderStability weakest_providers(const std::vector<const Probe*>& probes) {
  std::optional<ProviderStability> weakest_so_far;
  const Provider* seen = nullptr;
  for (const Probe* probe : probes) {
    if (!probe->owner || probe->owner == seen) continue;  // a clause's probes come mostly from one
    seen = probe->owner;
    ProviderStability s = probe->owner->stability();
    if (weakest_so_far)
      for (Attributes ProviderStability::*field : {&ProviderStability::provider, &ProviderStability::module,
                                                   &ProviderStability::function, &ProviderStability::name,
                                                   &ProviderStability::arguments})
        s.*field = weakest(s.*field, *weakest_so_far.*field);
    weakest_so_far = s;
  }
  return weakest_so_far.value_or(kAnyProviderStability);
}

// Whether args[] means the same in every probe: the same native and translated types.
static bool same_arguments(const std::vector<const Probe*>& probes) {
  auto signature = [](const Probe* probe) {
    std::vector<std::pair<std::string_view, std::string_view>> types;
    for (const ProbeArg& arg : probe->args) types.emplace_back(arg.native, arg.translated);
    return types;
  };
  return std::ranges::all_of(probes, [&](const Probe* p) { return signature(p) == signature(probes.front()); });
}

void Sema::clause(ClauseSyntax& syntax) {
  Clause resolved;
  resolved.loc = syntax.loc;
  resolve_descriptions(syntax, resolved);
  // DTrace compiles a clause once for each of its probe descriptions, so args[] may have other
  // types, or come through other translators, in each (tcp:::accept-established, accept-refused).
  if (resolved.descriptions.size() > 1 && !same_arguments(resolved.probes)) {
    for (const ProbeDescText& description : syntax.descriptions) {
      ClauseSyntax one{{description}, syntax.predicate ? clone(*syntax.predicate) : nullptr, {}, syntax.loc};
      for (const StmtPtr& stmt : syntax.body) one.body.push_back(clone(*stmt));
      clause(one);
    }
    return;
  }
  program_.clauses.push_back(std::move(resolved));
  Clause& clause = program_.clauses.back();
  clause_ = &clause;
  clause_providers_ = weakest_providers(clause.probes);
  std::optional<NotingAttributes> noting;
  noting.emplace(noted_, &clause.statement_attributes);
  // As in DTrace, a predicate may read a variable its own actions are the first to assign
  // (`/x == 0/ { x = 1; }`), and the actions one the predicate is the first to assign
  // (`/n++ > 5/ { trace(n); }`): when the predicate names an unknown variable, the actions are
  // checked first and the predicate again after them.
  ExprPtr predicate = syntax.predicate ? clone(*syntax.predicate) : nullptr;
  bool actions_first = false;
  if (syntax.predicate) {
    try {
      check_condition(syntax.predicate, "a predicate", ErrTag::D_PRED_SCALAR);
    } catch (const CompileError& error) {
      if (error.tag != ErrTag::D_IDENT_UNDEF && error.tag != ErrTag::D_VAR_UNDEF) throw;
      actions_first = true;
    }
  }
  for (StmtPtr& stmt : syntax.body) {
    statement(*stmt);
    clause.statements.push_back(std::move(stmt));
  }
  if (actions_first)
    check_condition(predicate, "a predicate", ErrTag::D_PRED_SCALAR);
  else
    predicate = std::move(syntax.predicate);
  clause.predicate = std::move(predicate);
  noting.reset();
  clause_ = nullptr;
  if (!lower_conditionals()) check_speculation_order(clause);
}

// DTrace's rules for speculative clauses: speculate() comes before any data is recorded, once,
// and is followed by no aggregation, exit() or destructive action; commit() comes once, after no
// data-recording action, and no data-recording action (exit() is one) or aggregation follows it.
// Data recorded after speculate() is speculative, so commit() may follow it. discard() and
// destructive actions record nothing.
void Sema::check_speculation_order(const Clause& clause) {
  using Role = Function::Speculation;
  bool recorded = false, speculating = false, committed = false;
  for (const StmtPtr& stmt : clause.statements) {
    if (stmt->kind == StmtKind::Aggregate) {
      if (speculating) fail(stmt->loc, ErrTag::D_AGG_SPEC, "aggregating actions may not follow speculate( )");
      if (committed) fail(stmt->loc, ErrTag::D_AGG_COMM, "aggregating actions may not follow commit( )");
      continue;
    }
    const Expr& e = *stmt->expr;
    if (e.kind != ExprKind::Call || !e.type->is_void()) continue;
    std::string name(e.function->name());
    const Role role = e.function->speculation();
    switch (role) {
      case Role::Speculate:
        if (speculating) fail(e.loc, ErrTag::D_SPEC_SPEC, "speculate( ) may not follow speculate( )");
        if (recorded) fail(e.loc, ErrTag::D_SPEC_DREC, "speculate( ) may not follow data-recording actions");
        if (committed) fail(e.loc, ErrTag::D_SPEC_COMM, "speculate( ) may not follow commit( )");
        speculating = true;
        break;
      case Role::Commit:
        if (committed) fail(e.loc, ErrTag::D_COMM_COMM, "commit( ) may not follow commit( )");
        if (recorded) fail(e.loc, ErrTag::D_COMM_DREC, "commit( ) may not follow data-recording actions");
        committed = true;
        break;
      case Role::Discard:
        break;
      case Role::Destructive:
        if (speculating) fail(e.loc, ErrTag::D_ACT_SPEC, "destructive actions may not follow speculate( )");
        break;
      case Role::Exit:
      case Role::Data:
      case Role::None:
        if (role == Role::Exit && speculating) fail(e.loc, ErrTag::D_EXIT_SPEC, "exit( ) may not follow speculate( )");
        if (committed) fail(e.loc, ErrTag::D_DREC_COMM, "data-recording actions may not follow commit( )");
        if (!speculating) recorded = true;
        break;
    }
  }
}

void Sema::statement(Stmt& stmt) {
  if (stmt.kind == StmtKind::Aggregate) return check_aggregation(stmt);
  if (stmt.kind == StmtKind::If) return check_if(stmt);
  check(stmt.expr);
  if (stmt.expr->type->is_address()) trace_statement(stmt);
}

// A statement of a stack or a symbol records it (`stack();`, `ustack(5);`, `func(arg0);`): the
// statement becomes trace() of its value.
void Sema::trace_statement(Stmt& stmt) {
  auto call = std::make_unique<Expr>(ExprKind::Call, stmt.expr->loc);
  call->text = "trace";
  call->function = find_function("trace");
  call->type = types_.void_type();
  call->operands.push_back(std::move(stmt.expr));
  stmt.expr = std::move(call);
}

}  // namespace dsched::lang
