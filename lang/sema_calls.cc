// Sema for actions, subroutines and aggregations: their names, arity and argument types.
#include <climits>

#include "diagnostics.h"
#include "lang/printf_spec.h"
#include "sema.h"

namespace dsched::lang {
namespace {

struct FuncSpec {
  Func func;
  int min_args, max_args;
  bool destructive;
};

const std::map<std::string, FuncSpec>& functions() {
  static const std::map<std::string, FuncSpec> table = {
      {"trace", {Func::Trace, 1, 1, false}},
      {"printf", {Func::Printf, 1, INT_MAX, false}},
      {"printa", {Func::Printa, 1, INT_MAX, false}},
      {"exit", {Func::Exit, 1, 1, false}},
      {"stack", {Func::Stack, 0, 1, false}},
      {"ustack", {Func::Ustack, 0, 2, false}},
      {"speculation", {Func::Speculation, 0, 0, false}},
      {"speculate", {Func::Speculate, 1, 1, false}},
      {"commit", {Func::Commit, 1, 1, false}},
      {"discard", {Func::Discard, 1, 1, false}},
      {"normalize", {Func::Normalize, 2, 2, false}},
      {"denormalize", {Func::Denormalize, 1, 1, false}},
      {"trunc", {Func::Trunc, 1, 2, false}},
      {"clear", {Func::Clear, 1, 1, false}},
      {"setopt", {Func::Setopt, 1, 2, false}},
      {"stringof", {Func::Stringof, 1, 1, false}},
      {"strlen", {Func::Strlen, 1, 1, false}},
      {"strjoin", {Func::Strjoin, 2, 2, false}},
      {"substr", {Func::Substr, 2, 3, false}},
      {"strchr", {Func::Strchr, 2, 2, false}},
      {"strrchr", {Func::Strrchr, 2, 2, false}},
      {"strstr", {Func::Strstr, 2, 2, false}},
      {"basename", {Func::Basename, 1, 1, false}},
      {"dirname", {Func::Dirname, 1, 1, false}},
      {"lltostr", {Func::Lltostr, 1, 2, false}},
      {"copyinstr", {Func::Copyinstr, 1, 2, false}},
      {"copyin", {Func::Copyin, 2, 2, false}},
      {"rand", {Func::Rand, 0, 0, false}},
      {"system", {Func::System, 1, INT_MAX, true}},
      {"raise", {Func::Raise, 1, 1, true}},
      {"ctprof_snapshot", {Func::CtprofSnapshot, 1, 1, false}},
      {"ctprof_compare", {Func::CtprofCompare, 2, 3, false}},
  };
  return table;
}

const std::map<std::string, AggFunc>& aggregating_functions() {
  static const std::map<std::string, AggFunc> table = {
      {"count", AggFunc::Count}, {"sum", AggFunc::Sum},           {"avg", AggFunc::Avg},
      {"min", AggFunc::Min},     {"max", AggFunc::Max},           {"stddev", AggFunc::Stddev},
      {"quantize", AggFunc::Quantize}, {"lquantize", AggFunc::Lquantize},
      {"llquantize", AggFunc::Llquantize}};
  return table;
}

std::string arity_text(int min, int max) {
  auto args = [](int n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); };
  if (min == max) return args(min);
  if (max == INT_MAX) return "at least " + args(min);
  return std::to_string(min) + " to " + args(max);
}

}  // namespace

void Sema::check_agg_ref(Expr& e) {
  if (e.kind != ExprKind::AggRef) fail(e.loc, "an aggregation (@name) is expected here");
  auto it = aggregation_index_.find(e.text);
  if (it == aggregation_index_.end()) fail(e.loc, "aggregation @" + e.text + " is used before it is defined");
  e.id = it->second;
  e.type = types_.void_type();
}

printf_spec::ArgType Sema::format_arg_type(const Type* t) {
  using printf_spec::ArgType;
  switch (t->kind) {
    case TypeKind::String: return ArgType::string(type_name(t));
    case TypeKind::Pointer: return ArgType::pointer(type_name(t));
    case TypeKind::Stack: return ArgType::stack();
    case TypeKind::Float: return ArgType::floating(unsigned(t->size), type_name(t));
    case TypeKind::Integer: return ArgType::integer(unsigned(t->size), t->is_signed, type_name(t));
    default: return ArgType::integer(unsigned(t->size), false, type_name(t));
  }
}

void Sema::check_format(Expr& call, size_t format_index, const Aggregation* printa_target) {
  Expr& format = *call.operands[format_index];
  printf_spec::ParseResult parsed = printf_spec::parse_format(format.text);
  if (!parsed.ok()) fail(format.loc, parsed.error);
  std::optional<printf_spec::ArgError> error;
  if (printa_target) {
    std::vector<printf_spec::ArgType> keys;
    for (const Type* key : printa_target->key_types) keys.push_back(format_arg_type(key));
    error = printf_spec::check_printa_args(parsed.format, keys, printa_target->func == AggFunc::Count);
  } else {
    std::vector<printf_spec::ArgType> args;
    for (size_t i = format_index + 1; i < call.operands.size(); ++i) {
      if (call.operand(i)->type->is_array() && call.operand(i)->type->is_char_sequence())
        to_string(call.operands[i]);
      if (call.operand(i)->type->is_record() || call.operand(i)->type->is_array())
        fail(call.operand(i)->loc, call.text + "() cannot format " + type_name(call.operand(i)->type));
      args.push_back(format_arg_type(call.operand(i)->type));
    }
    error = printf_spec::check_printf_args(parsed.format, args, call.text);
  }
  if (!error) return;
  // error->argument counts the call's arguments from 1, the format being the first.
  size_t index = format_index + size_t(error->argument) - 1;
  bool located = error->argument > 0 && index < call.operands.size();
  fail(located ? call.operand(index)->loc : call.loc, error->message);
}

void Sema::check_call(ExprPtr& e) {
  const std::string name = e->text;
  auto spec_it = functions().find(name);
  if (spec_it == functions().end()) {
    if (aggregating_functions().count(name))
      fail(e->loc, name + "() is an aggregating function: use it as @name[keys] = " + name + "(...)");
    fail(e->loc, "unknown function " + printable(name) + "()");
  }
  const FuncSpec& spec = spec_it->second;
  int n = int(e->operands.size());
  if (n < spec.min_args || n > spec.max_args)
    fail(e->loc, name + "() takes " + arity_text(spec.min_args, spec.max_args) + ", not " + std::to_string(n));
  if (spec.destructive && !options_.destructive && !program_.options.destructive())
    fail(e->loc, name + "() is a destructive action: run with -w or #pragma D option destructive");
  e->func = spec.func;
  auto& args = e->operands;
  const Type* void_type = types_.void_type();
  const Type* string_type = types_.string_type();
  auto integer_arg = [&](size_t i, const char* what) {
    check_value(args[i]);
    if (!args[i]->type->is_integer())
      fail(args[i]->loc, name + "(): " + what + " must be an integer, not " + type_name(args[i]->type));
  };
  auto constant_arg = [&](size_t i, const char* what, int64_t min, int64_t max) {
    int64_t v = constant_integer(args[i], (name + "() " + what).c_str());
    if (v < min || v > max)
      fail(args[i]->loc, name + "() " + what + " must be between " + std::to_string(min) + " and " + std::to_string(max));
  };
  auto string_arg = [&](size_t i) { check_string(args[i], (name + "() argument").c_str()); };
  auto literal_arg = [&](size_t i, const char* what) {
    if (args[i]->kind != ExprKind::StringLiteral)
      fail(args[i]->loc, name + "() needs a string literal as its " + what);
    check(args[i]);
  };
  switch (spec.func) {
    case Func::Trace:
      check_value(args[0]);
      if (args[0]->type->is_char_sequence() && args[0]->type->is_array()) to_string(args[0]);
      if (args[0]->type->is_record() || args[0]->type->is_array())
        fail(args[0]->loc, "trace() cannot record " + type_name(args[0]->type));
      e->type = void_type;
      break;
    case Func::Printf:
    case Func::System:
      literal_arg(0, "format");
      for (size_t i = 1; i < args.size(); ++i) check_value(args[i]);
      check_format(*e, 0, nullptr);
      e->type = void_type;
      break;
    case Func::Printa: {
      size_t first = 0;
      if (args[0]->kind == ExprKind::StringLiteral) {
        check(args[0]);
        first = 1;
        if (args.size() < 2) fail(e->loc, "printa() needs an aggregation after its format");
      }
      for (size_t i = first; i < args.size(); ++i) {
        check_agg_ref(*args[i]);
        // Several aggregations print side by side, so their keys must line up.
        const Aggregation& a = program_.aggregations[size_t(args[first]->id)];
        const Aggregation& b = program_.aggregations[size_t(args[i]->id)];
        bool same = a.key_types.size() == b.key_types.size();
        for (size_t k = 0; same && k < a.key_types.size(); ++k)
          same = a.key_types[k]->is_string() == b.key_types[k]->is_string();
        if (!same)
          fail(args[i]->loc, "printa(): @" + b.name + " and @" + a.name + " have different keys");
      }
      if (first == 1) check_format(*e, 0, &program_.aggregations[size_t(args[1]->id)]);
      e->type = void_type;
      break;
    }
    case Func::Exit:
      integer_arg(0, "the exit status");
      e->type = void_type;
      break;
    case Func::Stack:
    case Func::Ustack:
      if (n >= 1) constant_arg(0, "frame count", 1, 1024);
      if (n >= 2) constant_arg(1, "string size", 0, 1 << 20);
      e->type = types_.stack(spec.func == Func::Ustack);
      break;
    case Func::Speculation:
      program_.uses_speculation = true;
      e->type = types_.integer(4, true);
      break;
    case Func::Speculate:
    case Func::Commit:
    case Func::Discard:
      program_.uses_speculation = true;
      integer_arg(0, "the speculation id");
      e->type = void_type;
      break;
    case Func::Normalize:
    case Func::Denormalize:
    case Func::Trunc:
    case Func::Clear:
      check_agg_ref(*args[0]);
      if (n == 2) integer_arg(1, spec.func == Func::Trunc ? "the number of entries to keep" : "the divisor");
      e->type = void_type;
      break;
    case Func::Setopt: {
      literal_arg(0, "option name");
      std::optional<std::string> value;
      if (n == 2) {
        literal_arg(1, "option value");
        value = args[1]->text;
      }
      OptionValue parsed;
      std::string error;
      if (!parse_option(args[0]->text, value, &parsed, &error)) fail(e->loc, error);
      e->type = void_type;
      break;
    }
    case Func::Stringof: {
      check_value(args[0]);
      const Type* t = args[0]->type;
      if (t->is_string()) {
        ExprPtr inner = std::move(args[0]);
        inner->loc = e->loc;
        e = std::move(inner);
        return;
      }
      if (!t->is_char_sequence() && !t->is_pointer())
        fail(e->loc, "stringof() needs a string, a char array or a pointer, not " + type_name(t));
      e->type = string_type;
      break;
    }
    case Func::Strlen:
      string_arg(0);
      e->type = typedefs_.at("size_t");
      break;
    case Func::Strjoin:
    case Func::Strstr:
      string_arg(0);
      string_arg(1);
      e->type = string_type;
      break;
    case Func::Substr:
      string_arg(0);
      integer_arg(1, "the start index");
      if (n == 3) integer_arg(2, "the length");
      e->type = string_type;
      break;
    case Func::Strchr:
    case Func::Strrchr:
      string_arg(0);
      integer_arg(1, "the character");
      e->type = string_type;
      break;
    case Func::Basename:
    case Func::Dirname:
      string_arg(0);
      e->type = string_type;
      break;
    case Func::Lltostr:
      integer_arg(0, "the value");
      if (n == 2) constant_arg(1, "base", 2, 36);
      e->type = string_type;
      break;
    case Func::Copyinstr:
    case Func::Copyin:
      check_scalar(args[0], (name + "() address").c_str());
      if (n == 2) integer_arg(1, "the size");
      e->type = spec.func == Func::Copyin ? types_.pointer_to(void_type) : string_type;
      break;
    case Func::Rand:
      e->type = types_.integer(4, true);
      break;
    case Func::Raise:
      integer_arg(0, "the signal");
      e->type = void_type;
      break;
    case Func::CtprofSnapshot:
    case Func::CtprofCompare:
      for (size_t i = 0; i < args.size(); ++i) string_arg(i);
      e->type = void_type;
      break;
  }
}

void Sema::check_aggregation(Stmt& stmt) {
  auto func_it = aggregating_functions().find(stmt.func_text);
  if (func_it == aggregating_functions().end()) {
    if (functions().count(stmt.func_text))
      fail(stmt.func_loc, stmt.func_text + "() is not an aggregating function");
    fail(stmt.func_loc, "unknown aggregating function " + printable(stmt.func_text) + "()");
  }
  AggFunc func = func_it->second;
  const std::string& fname = stmt.func_text;
  size_t want_min = 1, want_max = 1;
  if (func == AggFunc::Count) want_min = want_max = 0;
  if (func == AggFunc::Quantize) want_max = 2;
  if (func == AggFunc::Lquantize) want_min = 3, want_max = 5;
  if (func == AggFunc::Llquantize) want_min = 5, want_max = 6;
  size_t n = stmt.args.size();
  if (n < want_min || n > want_max)
    fail(stmt.func_loc, fname + "() takes " + arity_text(int(want_min), int(want_max)) + ", not " + std::to_string(n));
  // The histograms' last optional argument is an increment (an expression), not a parameter.
  bool has_increment = (func == AggFunc::Quantize && n == 2) || (func == AggFunc::Lquantize && n == 5) ||
                       (func == AggFunc::Llquantize && n == 6);
  if (has_increment) {
    stmt.increment = std::move(stmt.args.back());
    stmt.args.pop_back();
    --n;
    check_value(stmt.increment);
    if (!stmt.increment->type->is_integer())
      fail(stmt.increment->loc, "the increment of " + fname + "() must be an integer, not " +
                                    type_name(stmt.increment->type));
  }

  const Type* arg_type = nullptr;
  if (n > 0) {
    check_value(stmt.args[0]);
    arg_type = stmt.args[0]->type;
    if (!arg_type->is_integer())
      fail(stmt.args[0]->loc, "the value of " + fname + "() must be an integer, not " + type_name(arg_type));
  }
  std::vector<int64_t> params;
  for (size_t i = 1; i < n; ++i) params.push_back(constant_integer(stmt.args[i], (fname + "() parameter").c_str()));
  SourceRange ploc = stmt.func_loc;
  if (func == AggFunc::Lquantize) {
    if (params.size() == 2) params.push_back(1);
    int64_t base = params[0], limit = params[1], step = params[2];
    if (base < INT32_MIN || base > INT32_MAX || limit < INT32_MIN || limit > INT32_MAX)
      fail(ploc, "lquantize() base and limit must fit in 32 bits");
    if (step <= 0 || step > INT32_MAX) fail(ploc, "lquantize() step must be positive");
    if (limit <= base) fail(ploc, "lquantize() limit must be greater than base");
    if ((limit - base) / step > UINT16_MAX) fail(ploc, "lquantize() has too many levels (at most 65535)");
    if ((limit - base) / step == 0) fail(ploc, "lquantize() step is larger than limit - base");
  }
  if (func == AggFunc::Llquantize) {
    int64_t factor = params[0], low = params[1], high = params[2], steps = params[3];
    if (factor < 2 || factor > UINT16_MAX) fail(ploc, "llquantize() factor must be between 2 and 65535");
    if (low < 0 || high < low) fail(ploc, "llquantize() needs 0 <= low magnitude <= high magnitude");
    if (steps < 1 || steps > UINT16_MAX || (steps % factor != 0 && factor % steps != 0))
      fail(ploc, "llquantize() steps must divide or be a multiple of the factor");
    unsigned __int128 top = 1;
    for (int64_t i = 0; i <= high; ++i) {
      top *= uint64_t(factor);
      if (top > uint64_t(INT64_MAX)) fail(ploc, "llquantize() factor^(high magnitude + 1) overflows 64 bits");
    }
  }

  std::vector<const Type*> keys;
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
    agg.func = func;
    agg.params = params;
    agg.key_types = keys;
    agg.arg_type = arg_type;
    agg.loc = stmt.loc;
    aggregation_index_[stmt.agg_name] = agg.id;
    program_.aggregations.push_back(std::move(agg));
    it = aggregation_index_.find(stmt.agg_name);
  } else {
    const Aggregation& agg = program_.aggregations[it->second];
    if (agg.func != func)
      fail(stmt.func_loc, shown + " is a " + agg_func_name(agg.func) + "() aggregation and cannot also use " + fname + "()");
    if (agg.params != params) fail(stmt.func_loc, shown + ": " + fname + "() parameters differ from an earlier use");
    if (agg.key_types.size() != keys.size())
      fail(stmt.loc, shown + " has " + std::to_string(agg.key_types.size()) + " key(s) elsewhere but " +
                         std::to_string(keys.size()) + " here");
    for (size_t i = 0; i < keys.size(); ++i) {
      const Type* want = agg.key_types[i];
      bool same_kind = want->kind == keys[i]->kind || (want->is_scalar() && keys[i]->is_scalar());
      if (!same_kind)
        fail(stmt.keys[i]->loc, shown + ": key #" + std::to_string(i + 1) + " is " + type_name(keys[i]) +
                                    " here but " + type_name(want) + " elsewhere");
    }
  }
  stmt.agg_id = it->second;
  stmt.agg_func = func;
  stmt.args.resize(n > 0 ? 1 : 0);
}

}  // namespace dsched::lang
