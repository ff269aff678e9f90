// Sema for calls and aggregations: finds the built-in's descriptor, checks the arity and the
// destructive rule, and lets the descriptor check the arguments; also the services descriptors
// share (aggregation references, formats).
#include "abi/printf_spec.h"
#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/sema.h"

namespace dsched::lang {
namespace {

std::string arity_text(Arity arity) {
  auto args = [](int n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); };
  if (arity.min == arity.max) return args(arity.min);
  if (arity.max == Arity::kUnbounded) return "at least " + args(arity.min);
  return std::to_string(arity.min) + " to " + args(arity.max);
}

void check_arity(const std::string& name, Arity arity, size_t given, SourceRange where) {
  int n = int(given);
  if (n < arity.min || n > arity.max)
    fail(where, n < arity.min ? arity.too_few_tag : arity.too_many_tag,
         name + "() takes " + arity_text(arity) + ", not " + std::to_string(n));
}

}  // namespace

const Aggregation& Sema::aggregation(Expr& e, ErrTag not_aggregation, ErrTag undefined) {
  if (e.kind != ExprKind::AggRef) fail(e.loc, not_aggregation, "an aggregation (@name) is expected here");
  auto it = aggregation_index_.find(e.text);
  // DTrace knows @name[keys] as an aggregation still to be assigned; @name alone as nothing.
  if (it == aggregation_index_.end())
    fail(e.loc, e.operands.empty() ? ErrTag::D_IDENT_UNDEF : undefined,
         "aggregation @" + e.text + " is used before it is defined");
  e.id = it->second;
  e.type = types_.void_type();
  return program_.aggregations[size_t(e.id)];
}

printf_spec::ArgType Sema::format_arg_type(const Type* t) {
  using printf_spec::ArgType;
  switch (t->kind) {
    case TypeKind::String: return ArgType::string(type_name(t));
    case TypeKind::Pointer: return ArgType::pointer(type_name(t));
    case TypeKind::Stack: return ArgType::stack();  // a printa key
    case TypeKind::Symbol:
      return ArgType::integer(unsigned(t->size), false, type_name(t));
    case TypeKind::Integer: return ArgType::integer(unsigned(t->size), t->is_signed, type_name(t));
    default: return ArgType::integer(unsigned(t->size), false, type_name(t));
  }
}

void Sema::format(Expr& call, size_t format_index, const Aggregation* printa_target) {
  Expr& format = *call.operands[format_index];
  printf_spec::ParseResult parsed = printf_spec::parse_format(format.text);
  // DTrace reports a malformed format as a syntax error.
  if (!parsed.ok()) fail(format.loc, ErrTag::D_SYNTAX, parsed.error);
  std::optional<printf_spec::ArgError> error;
  if (printa_target) {
    std::vector<printf_spec::ArgType> keys;
    for (const Type* key : printa_target->key_types) keys.push_back(format_arg_type(key));
    error = printf_spec::check_printa_args(parsed.format, keys, printa_target->function->printa_unsigned());
  } else {
    std::vector<printf_spec::ArgType> args;
    for (size_t i = format_index + 1; i < call.operands.size(); ++i) {
      if (call.operand(i)->type->is_address()) fail_action_value(*call.operand(i));
      if (call.operand(i)->type->is_array() && call.operand(i)->type->is_char_sequence())
        to_string(call.operands[i]);
      decay(call.operands[i]);
      if (call.operand(i)->type->is_record() || call.operand(i)->type->is_array())
        fail(call.operand(i)->loc, ErrTag::D_PRINTF_ARG_TYPE, call.text + "() cannot format " + type_name(call.operand(i)->type));
      if (call.operand(i)->type->kind == TypeKind::Float)
        fail(call.operand(i)->loc, ErrTag::D_PRINTF_ARG_TYPE,
             call.text + "() cannot format " + type_name(call.operand(i)->type) +
                 ": D records no floating-point values (print() shows them)");
      args.push_back(format_arg_type(call.operand(i)->type));
    }
    error = printf_spec::check_printf_args(parsed.format, args, call.text);
    if (!error) user_addresses(call, format_index, parsed.format);
  }
  if (!error) return;
  // error->argument counts the call's arguments from 1, the format being the first.
  size_t index = format_index + size_t(error->argument) - 1;
  bool located = error->argument > 0 && index < call.operands.size();
  using Kind = printf_spec::ArgError::Kind;
  static constexpr std::pair<Kind, ErrTag> tags[] = {
      {Kind::DynamicMissing, ErrTag::D_PRINTF_DYN_PROTO}, {Kind::DynamicType, ErrTag::D_PRINTF_DYN_TYPE},
      {Kind::AggregationConversion, ErrTag::D_PRINTF_AGG_CONV}, {Kind::ValueMissing, ErrTag::D_PRINTF_ARG_PROTO},
      {Kind::ValueType, ErrTag::D_PRINTF_ARG_TYPE}, {Kind::Extra, ErrTag::D_PRINTF_ARG_EXTRA},
      {Kind::EmptyFormat, ErrTag::D_PRINTF_FMT_EMPTY}};
  ErrTag tag = ErrTag::D_PRINTF_ARG_TYPE;
  for (auto [kind, kind_tag] : tags)
    if (kind == error->kind) tag = kind_tag;
  fail(located ? call.operand(index)->loc : call.loc, tag, error->message);
}

// %A names a user-space address, which means nothing without its process: the argument becomes
// uaddr(argument), which records the process with the address, as DTrace compiles it.
void Sema::user_addresses(Expr& call, size_t format_index, const printf_spec::Format& format) {
  size_t next = format_index + 1;
  for (const printf_spec::Conversion* conv : format.conversions()) {
    if (conv->specifier == '%') continue;
    next += size_t(conv->width_from_arg) + size_t(conv->precision_from_arg);
    if (next >= call.operands.size()) return;
    ExprPtr& arg = call.operands[next++];
    if (conv->specifier != 'A' || arg->type->is_address()) continue;
    auto wrapped = std::make_unique<Expr>(ExprKind::Call, arg->loc);
    wrapped->text = "uaddr";
    wrapped->operands.push_back(std::move(arg));
    arg = std::move(wrapped);
    check(arg);
  }
}

// "a user stack of 5 frames", "a kernel function (func)": what a stack or symbol key holds.
static std::string address_kind(const Type* type) {
  const abi::AddressLayout& layout = type->addresses;
  std::string space = layout.user ? "a user " : "a kernel ";
  if (type->kind == TypeKind::Stack) return space + "stack of " + std::to_string(layout.frames) + " frames";
  static constexpr const char* kForms[] = {"address (sym, usym)", "function (func, ufunc)", "module (mod, umod)"};
  return space + kForms[size_t(layout.form)];
}

void Sema::check_call(ExprPtr& e) {
  const std::string name = e->text;
  const Function* function = find_function(name);
  if (!function) {
    if (find_aggregating_function(name))
      fail(e->loc, ErrTag::D_FUNC_IDKIND, name + "() is an aggregating function: use it as @name[keys] = " + name + "(...)");
    if (find_builtin_variable(name) || find_variable(VarScope::Global, name))
      fail(e->loc, ErrTag::D_FUNC_IDKIND, name + " is a variable, not a function");
    fail(e->loc, ErrTag::D_FUNC_UNDEF, "unknown function " + printable(name) + "()");
  }
  check_arity(name, function->arity(), e->operands.size(), e->loc);
  if (function->destructive() && !program_.options.destructive() && !options_.compile_only)
    fail(e->loc, ErrTag::None, name + "() is a destructive action: run with -w or #pragma D option destructive");
  e->function = function;
  note_attributes(function->attributes());
  function->check(*this, e);
}

void Sema::check_aggregation(Stmt& stmt) {
  const std::string& fname = stmt.func_text;
  const AggregatingFunction* function = find_aggregating_function(fname);
  if (!function) {
    if (find_function(fname)) fail(stmt.func_loc, ErrTag::D_AGG_FUNC, fname + "() is not an aggregating function");
    fail(stmt.func_loc, ErrTag::D_FUNC_UNDEF, "unknown aggregating function " + printable(fname) + "()");
  }
  Arity arity = function->arity();
  if (function->takes_increment()) ++arity.max;
  check_arity(fname, arity, stmt.args.size(), stmt.func_loc);
  // A histogram's optional last argument is an increment (an expression), not a parameter.
  if (function->takes_increment() && int(stmt.args.size()) == arity.max) {
    stmt.increment = std::move(stmt.args.back());
    stmt.args.pop_back();
    check_value(stmt.increment);
    if (!stmt.increment->type->is_integer())
      fail(stmt.increment->loc, ErrTag::D_PROTO_ARG,
           "the increment of " + fname + "() must be an integer, not " + type_name(stmt.increment->type));
  }
  size_t n = stmt.args.size();
  const Type* arg_type = nullptr;
  if (function->takes_value()) {
    check_value(stmt.args[0]);
    arg_type = stmt.args[0]->type;
    if (!arg_type->is_integer())
      fail(stmt.args[0]->loc, ErrTag::D_AGG_SCALAR, "the value of " + fname + "() must be an integer, not " + type_name(arg_type));
  }
  std::vector<int64_t> params;
  for (size_t i = function->takes_value() ? 1 : 0; i < n; ++i) {
    const AggregatingFunction::ParamTags tags = function->param_tags(params.size());
    const std::string what = fname + "() argument #" + std::to_string(i + 1);
    check_value(stmt.args[i]);
    if (!stmt.args[i]->type->is_integer())
      fail(stmt.args[i]->loc, tags.not_integer, what + " must be an integer, not " + type_name(stmt.args[i]->type));
    if (stmt.args[i]->kind != ExprKind::IntLiteral)
      fail(stmt.args[i]->loc, tags.not_constant, what + " must be an integer constant");
    params.push_back(int64_t(stmt.args[i]->value));
  }
  function->check_params(params, stmt.func_loc);
  // Each CPU's value (and a key-less one's presence word) must fit where the kernel keeps it.
  size_t value_bytes = (function->value_words(params) + (stmt.keys.empty() ? 1 : 0)) * 8;
  if (value_bytes > abi::kLargestPerCpuValue)
    fail(stmt.func_loc, ErrTag::D_UNKNOWN, fname + "(): a value of " + std::to_string(value_bytes) +
                                               " bytes is more than the kernel keeps per CPU (" +
                                               std::to_string(abi::kLargestPerCpuValue) + "): use fewer levels");

  std::vector<const Type*> keys;
  if (!stmt.keys.empty()) check_key_count(stmt.keys.size(), stmt.keys.front()->loc);
  for (ExprPtr& key : stmt.keys) {
    check_key(key);
    keys.push_back(key->type);
  }
  std::string shown = "@" + stmt.agg_name;
  auto it = aggregation_index_.find(stmt.agg_name);
  if (it == aggregation_index_.end()) {
    Aggregation agg;
    agg.id = int(program_.aggregations.size());
    agg.name = stmt.agg_name;
    agg.function = function;
    agg.params = params;
    agg.key_types = keys;
    agg.arg_type = arg_type;
    agg.loc = stmt.loc;
    aggregation_index_[stmt.agg_name] = agg.id;
    program_.aggregations.push_back(std::move(agg));
    it = aggregation_index_.find(stmt.agg_name);
  } else {
    const Aggregation& agg = program_.aggregations[it->second];
    if (agg.function != function)
      fail(stmt.func_loc, ErrTag::D_AGG_REDEF, shown + " is a " + std::string(agg.function->name()) + "() aggregation and cannot also use " +
                              fname + "()");
    for (size_t i = 0; i < params.size(); ++i)
      if (agg.params[i] != params[i])
        fail(stmt.func_loc, function->param_tags(i).mismatch,
             shown + ": " + fname + "() argument #" + std::to_string(i + 2) + " differs from an earlier use");
    if (agg.key_types.size() != keys.size())
      fail(stmt.loc, ErrTag::D_PROTO_LEN, shown + " has " + std::to_string(agg.key_types.size()) + " key(s) elsewhere but " +
                         std::to_string(keys.size()) + " here");
    for (size_t i = 0; i < keys.size(); ++i) {
      const Type* want = agg.key_types[i];
      bool same_kind = want->kind == keys[i]->kind || (want->is_scalar() && keys[i]->is_scalar());
      if (!same_kind)
        fail(stmt.keys[i]->loc, ErrTag::D_PROTO_ARG, shown + ": key #" + std::to_string(i + 1) + " is " + type_name(keys[i]) +
                                    " here but " + type_name(want) + " elsewhere");
      // The key's layout is its first use's: a stack or symbol of another kind would be misread.
      const abi::AddressLayout& a = want->addresses;
      const abi::AddressLayout& b = keys[i]->addresses;
      if (want->is_address() && (a.user != b.user || a.frames != b.frames || a.form != b.form))
        fail(stmt.keys[i]->loc, ErrTag::D_PROTO_ARG, shown + ": key #" + std::to_string(i + 1) + " is " + address_kind(keys[i]) +
                                    " here but " + address_kind(want) + " elsewhere: an aggregation's key holds one kind");
    }
  }
  stmt.agg_id = it->second;
  stmt.aggregating = function;
  stmt.args.resize(function->takes_value() ? 1 : 0);
}

}  // namespace dsched::lang
