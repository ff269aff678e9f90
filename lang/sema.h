// Semantic analysis: resolves names, checks and annotates types, lowers translated arguments,
// folds constants and fills the Program tables. Internal to the front end.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <string>
#include <vector>

#include "abi/printf_spec.h"
#include "lang/ast.h"
#include "lang/checker.h"
#include "lang/error_tags.h"
#include "lang/frontend.h"
#include "lang/program.h"

namespace dsched::lang {

struct Translator {
  const Type* output = nullptr;  // the translated struct (psinfo_t...)
  TypeNamePtr input_syntax;      // resolved on first use: kernel types stay untouched until then
  const Type* input = nullptr;
  std::string input_name;
  std::map<std::string, const TranslatorMemberSyntax*> members;
  SourceRange loc;
};

struct InlineDefinition {
  const Type* type;
  ExprPtr value;            // checked expression; for a translated pointer, the xlate<T *>() as written
  bool translated = false;  // inline T *name = xlate<T *>(x): checked where a member is read
  // inline T name[int a, string b] = value: the named parameters. The value stays unchecked; each
  // use name[x, y] checks a copy with the arguments in the parameters' places.
  std::vector<TypeNamePtr> parameters;
  Attributes attributes = kStableCommon;  // the weakest of the names its value uses (-v)
};

// While alive, the stability of every name checked is noted in `sink` (null: nowhere).
class NotingAttributes {
 public:
  NotingAttributes(Attributes*& noted, Attributes* sink) : noted_(noted), saved_(noted) { noted = sink; }
  ~NotingAttributes() { noted_ = saved_; }
  NotingAttributes(const NotingAttributes&) = delete;
  NotingAttributes& operator=(const NotingAttributes&) = delete;

 private:
  Attributes*& noted_;
  Attributes* saved_;
};

// DTrace's tag for operands arithmetic operator `op` (or its compound assignment) cannot take.
ErrTag operand_class_tag(BinaryOp op);

// The largest struct or array a D variable holds.
constexpr uint64_t kMaxStoredObject = 8192;

class Sema : public Checker {
 public:
  Sema(Program& program, const FrontendOptions& options, ProbeCatalog& catalog, std::vector<TopItem*> items);
  void run();

  // ---- Checker, for the built-ins' checks ----
  Program& program() override { return program_; }
  const std::vector<const Probe*>& clause_probes() override {
    static const std::vector<const Probe*> none;
    return clause_ ? clause_->probes : none;
  }
  TypeUniverse& types() override { return types_; }
  const Type* type(std::string_view text, SourceRange where) override {
    return resolve_type_text(std::string(text), where);
  }
  void value(ExprPtr& e, ErrTag void_tag = ErrTag::D_TYPE_ERR, ErrTag aggregation_tag = ErrTag::D_OP_INCOMPAT) override {
    check_value(e, void_tag, aggregation_tag);
  }
  void scalar(ExprPtr& e, std::string_view context, ErrTag tag = ErrTag::D_PROTO_ARG) override {
    check_scalar(e, std::string(context).c_str(), tag);
  }
  void pointer(ExprPtr& e, std::string_view context) override { check_pointer(e, std::string(context).c_str()); }
  void string(ExprPtr& e, std::string_view context) override { check_string(e, std::string(context).c_str()); }
  void to_string(ExprPtr& e) override;
  int64_t constant(ExprPtr& e, std::string_view what, ErrTag tag = ErrTag::D_PROTO_ARG) override {
    return constant_integer(e, std::string(what).c_str(), tag);
  }
  const Aggregation& aggregation(Expr& reference, ErrTag not_aggregation = ErrTag::D_PRINTA_AGGARG,
                                 ErrTag undefined = ErrTag::D_PRINTA_AGGBAD) override;
  void format(Expr& call, size_t format_index, const Aggregation* printa_target) override;

 private:
  // ---- declarations.cc ----
  void declare_builtin_types();
  void pragma(const PragmaSyntax& pragma);
  void depends_on(const PragmaSyntax& pragma, const std::vector<std::string>& words);
  void identifier_pragma(const PragmaSyntax& pragma, const std::vector<std::string>& words);
  void check_pragmas_applied() const;
  void declaration(DeclarationSyntax& decl);
  void define_inline_function(const Declarator& d, const Type* type, ExprPtr value);
  void translator(TranslatorSyntax& syntax);
  const Type* resolve_spec(const DeclSpec& spec);
  const Type* resolve_declarator(const Type* base, const Declarator& declarator,
                                 std::vector<const Type*>* key_types);
  const Type* resolve_type_name(const TypeName& name);
  const Type* resolve_type_text(const std::string& text, SourceRange loc);
  const Type* parse_type_text(const std::string& text, SourceRange loc);
  const Type* record_type(const RecordSpec& spec);
  const Type* enum_type(const EnumSpec& spec);
  int64_t constant_integer(ExprPtr& e, const char* what, ErrTag tag);

  // ---- provider_declarations.cc ----
  void provider_declaration(const ProviderSyntax& provider);
  // A probe's input prototype, or with `inputs` its output prototype; (void) is none.
  std::vector<const Type*> probe_prototype(const std::vector<ProbeParameterSyntax>& parameters,
                                           const std::vector<ProbeParameterSyntax>* inputs);

  // ---- sema.cc ----
  void clause(ClauseSyntax& syntax);
  void statement(Stmt& stmt);
  void trace_statement(Stmt& stmt);
  void user_addresses(Expr& call, size_t format_index, const printf_spec::Format& format);
  void check_speculation_order(const Clause& clause);
  void check_arguments_referenced() const;
  void check_key_count(size_t count, SourceRange where);
  ExprPtr kernel_object(uint64_t address, const Type* type, SourceRange loc);
  void kernel_symbol_reference(ExprPtr& e);
  bool use_extern(ExprPtr& e, const std::string& name);
  void check_pointer_step(const Type* pointer, SourceRange where);

  // ---- conditionals.cc ----
  void check_if(Stmt& stmt);
  // Replaces the clause just checked by predicated clauses when its body has if statements.
  bool lower_conditionals();
  void resolve_descriptions(ClauseSyntax& syntax, Clause& clause);
  std::string expand_macros_in_description(const ProbeDescText& desc);
  Variable* find_variable(VarScope scope, const std::string& name);
  Variable& add_variable(VarScope scope, const std::string& name, const Type* type,
                         std::vector<const Type*> keys, SourceRange loc, bool declared);
  std::vector<Variable>& table(VarScope scope);

  // ---- sema_expr.cc ----
  void check(ExprPtr& e);                 // any expression, may be void
  // An expression that must produce a value: the tags as in Checker::value.
  void check_value(ExprPtr& e, ErrTag void_tag = ErrTag::D_TYPE_ERR, ErrTag aggregation_tag = ErrTag::D_OP_INCOMPAT);
  void check_scalar(ExprPtr& e, const char* context, ErrTag tag = ErrTag::D_OP_SCALAR);
  // The operand of a truth test (predicate, if, !, &&, ||, ^^, ?:): a scalar, arrays not decayed.
  void check_condition(ExprPtr& e, const char* context, ErrTag tag = ErrTag::D_OP_SCALAR);
  // An array in kernel memory used as a value is the address of its first element, as in C.
  void decay(ExprPtr& e);
  void check_pointer(ExprPtr& e, const char* context);
  void check_string(ExprPtr& e, const char* context);  // string or char sequence -> string
  [[noreturn]] void refuse_aggregation(const Expr& e, ErrTag tag);
  // An operand that may have no value (an action), but is not an aggregation (`aggregation_tag`).
  void check_operand(ExprPtr& e, ErrTag aggregation_tag);
  void check_key(ExprPtr& e);             // associative array or aggregation key
  void check_ident(ExprPtr& e);
  // $N, $$N and the macro variables; `as_text` gives the text of $N as $$N does.
  void check_macro(ExprPtr& e, bool as_text = false);
  void check_index(ExprPtr& e);
  bool expand_inline_call(ExprPtr& e);
  void check_member(ExprPtr& e);
  void check_assign(ExprPtr& e);
  std::string new_variable_name(const Expr& target);
  void check_lvalue(ExprPtr& target, const Type* value_type, SourceRange op_loc);
  void d_object_lvalue(ExprPtr& target);
  void check_assoc_keys(ExprPtr& e, Variable* existing);
  const Type* storable(const Type* type, SourceRange loc);
  // A struct, union or array kept whole in a D variable: complete, and small enough.
  const Type* storable_object(const Type* type, SourceRange loc);
  void convert_for_store(ExprPtr& value, const Type* target, SourceRange loc);
  void probe_arg(ExprPtr& e, int64_t index);

  // ---- sema_operators.cc ----
  void check_unary(ExprPtr& e);
  void check_incdec(ExprPtr& e);
  void check_binary(ExprPtr& e);
  void kernel_enumerator(ExprPtr& e, const Type* compared_with);
  void check_ternary(ExprPtr& e);
  void check_cast(ExprPtr& e);

  // ---- translators.cc ----
  struct PendingTranslation {
    const Translator* translator;
    ExprPtr input;
  };
  std::optional<PendingTranslation> translation_of(Expr& base, bool arrow);
  const Translator* find_translator(const Type* output, const Type* input, SourceRange loc);
  const Translator* lookup_translator(const Type* output, const Type* input);  // null when none
  const Type* translator_input(Translator& t);
  void lower_translated_member(ExprPtr& e, PendingTranslation pending);
  void convert_translated(const Translator& t, const std::string& name, ExprPtr& value);
  void check_translator_members(Translator& t);
  // Replaces e by the translated struct by value: every member the translator defines.
  void translated_record(ExprPtr& e, PendingTranslation pending);
  std::optional<PendingTranslation> translate_probe_arg(int64_t index, SourceRange loc);
  ExprPtr translated_value(const Translator& t, const std::string& member, const Expr& input, SourceRange use);
  const ProbeArg& arg_spec(int64_t index, SourceRange loc);

  // ---- sema_calls.cc ----
  void check_call(ExprPtr& e);
  void check_aggregation(Stmt& stmt);
  static printf_spec::ArgType format_arg_type(const Type* type);

  // ---- constants.cc ----
  void fold(ExprPtr& e);  // replaces an operator over constants by its value

  Program& program_;
  TypeUniverse& types_;
  const FrontendOptions& options_;
  ProbeCatalog& catalog_;
  std::vector<TopItem*> items_;

  std::map<std::string, const Type*> typedefs_;
  std::map<std::string, Type*> structs_, unions_;
  std::map<std::string, const Type*> enums_;
  std::map<std::string, std::pair<int64_t, const Type*>> enum_constants_;
  std::map<std::string, InlineDefinition> inlines_;
  std::set<std::string> script_identifiers_;  // globals and inlines the script itself declares
  struct IdentifierPragma {
    std::string directive;  // attributes or binding
    std::string name;
    SourceRange loc;
  };
  std::vector<IdentifierPragma> identifier_pragmas_;  // each must name an identifier of the script
  std::map<std::string, ExprPtr> externs_;  // extern kernel variables: *(type *)address
  std::unordered_map<std::string, const Type*> resolved_texts_;
  std::vector<bool> arguments_referenced_;  // by macro-argument number ($1 is [1]); all for $#
  std::vector<std::unique_ptr<Translator>> translators_;
  // Declared providers: each probe's output prototype, by probe name.
  std::map<std::string, std::map<std::string, std::vector<const Type*>>> declared_providers_;
  std::map<std::string, int> variable_index_[3];
  std::map<std::string, int> aggregation_index_;

  // Checked translator members, by translator, member and input type, for inputs whose value the
  // check cannot depend on (a probe argument, a built-in variable): later uses copy them.
  std::map<std::tuple<const Translator*, std::string, const Type*>, ExprPtr> translated_;
  Clause* clause_ = nullptr;  // the clause being checked
  // -v: where the stability of the names being checked goes (a clause's statement attributes, an
  // inline's), and the weakest of the clause's providers' attributes, field by field.
  Attributes* noted_ = nullptr;
  ProviderStability clause_providers_ = kAnyProviderStability;
  void note_attributes(Attributes attributes) {
    if (noted_) *noted_ = weakest(*noted_, attributes);
  }
  std::string assigned_new_variable_;  // while checking the value of `x = value` that creates x
  std::vector<std::pair<std::string, const Expr*>> bindings_;  // translator inputs in scope
};

}  // namespace dsched::lang
