// Sema for expressions: names, variables and their implicit declarations, members, indexes and
// assignments (operators are in sema_operators.cc).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/kernel_symbols.h"
#include "lang/parse_context.h"
#include "lang/sema.h"

namespace dsched::lang {
namespace {

std::string describe(const Type* t) { return type_name(t); }

const char* scope_prefix(VarScope scope) {
  return scope == VarScope::ThreadLocal ? "self->" : scope == VarScope::ClauseLocal ? "this->" : "";
}

// DTrace checks clauses in program order: a variable read before any assignment or declaration
// names no variable yet (++ and -- are the exception: they create an int64_t, which reads 0).
[[noreturn]] void not_yet_assigned(SourceRange where, const std::string& shown_name) {
  fail(where, ErrTag::D_VAR_UNDEF, shown_name + " has not yet been declared or assigned");
}

bool is_bound(const std::vector<std::pair<std::string, const Expr*>>& bindings,
              const std::string& name) {
  for (const auto& b : bindings)
    if (b.first == name) return true;
  return false;
}

ExprPtr wrap(ExprKind kind, ExprPtr operand, const Type* type) {
  SourceRange loc = operand->loc;
  uint32_t depth = operand->depth + 1;
  ExprPtr e = make_expr(kind, loc);
  e->operands.push_back(std::move(operand));
  e->type = type;
  e->depth = depth;
  return e;
}

}  // namespace

void Sema::to_string(ExprPtr& e) {
  if (e->type->is_string()) return;
  e = wrap(ExprKind::Cast, std::move(e), types_.string_type());
}

void Sema::check_operand(ExprPtr& e, ErrTag aggregation_tag) {
  if (e->kind == ExprKind::AggRef) refuse_aggregation(*e, aggregation_tag);
  check(e);
}

void Sema::check_value(ExprPtr& e, ErrTag void_tag, ErrTag aggregation_tag) {
  check_operand(e, aggregation_tag);
  if (e->type->is_void()) {
    if (e->kind == ExprKind::Call) fail(e->loc, void_tag, e->text + "() does not return a value");
    fail(e->loc, void_tag, "expression has no value");
  }
}

// DTrace gives an aggregation a "dynamic" type that no operator or function takes.
void Sema::refuse_aggregation(const Expr& e, ErrTag tag) {
  fail(e.loc, tag, "@" + e.text + " is an aggregation: it has no value in an expression; it can be assigned an "
                   "aggregating function or given to printa(), clear(), trunc(), normalize() or denormalize()");
}

void Sema::decay(ExprPtr& e) {
  if (!e->type->is_array() || is_d_object(*e)) return;
  const Type* element = e->type->target;
  e = wrap(ExprKind::Cast, std::move(e), types_.pointer_to(element));
}

void Sema::check_scalar(ExprPtr& e, const char* context, ErrTag tag) {
  check_value(e);
  decay(e);
  if (!e->type->is_scalar())
    fail(e->loc, tag, std::string(context) + " must be an integer or a pointer, not " + describe(e->type));
}

void Sema::check_condition(ExprPtr& e, const char* context, ErrTag tag) {
  check_value(e, tag);
  if (!e->type->is_scalar())
    fail(e->loc, tag, std::string(context) + " must be an integer or a pointer, not " + describe(e->type));
}

void Sema::check_pointer(ExprPtr& e, const char* context) {
  check_value(e);
  decay(e);
  if (e->type->is_pointer() || (e->kind == ExprKind::IntLiteral && e->value == 0)) return;
  fail(e->loc, ErrTag::D_PROTO_ARG, std::string(context) + " must be a pointer, not " + describe(e->type));
}

void Sema::check_string(ExprPtr& e, const char* context) {
  check_value(e);
  if (e->type->is_char_sequence()) to_string(e);
  if (!e->type->is_string())
    fail(e->loc, ErrTag::D_PROTO_ARG, std::string(context) + " must be a string, not " + describe(e->type));
}

// DTrace's limit on the keys of an associative array or aggregation.
constexpr size_t kMaxTupleKeys = 10;

void Sema::check_key_count(size_t count, SourceRange where) {
  if (count > kMaxTupleKeys)
    fail(where, ErrTag::D_UNKNOWN, "too many keys: a tuple has at most " + std::to_string(kMaxTupleKeys) + ", here " + std::to_string(count));
}

// Pointer arithmetic steps by the size of what the pointer points to, which void has not.
void Sema::check_pointer_step(const Type* pointer, SourceRange where) {
  if (pointer->is_pointer() && pointer->target->size == 0)
    fail(where, ErrTag::D_OP_VFPTR, "arithmetic on " + describe(pointer) + ": what it points to has no size");
}

// Stacks and symbols exist only in records and aggregation keys, where user space names them.
static std::string address_misuse(const Type* type) {
  return std::string(type->kind == TypeKind::Stack ? "a stack (stack(), ustack())" : "a symbol (sym(), mod(), usym()...)") +
         " can only be a statement of its own or an aggregation key";
}

void Sema::check_key(ExprPtr& e) {
  check_value(e, ErrTag::D_KEY_TYPE, ErrTag::D_KEY_TYPE);
  if (e->type->is_array() && e->type->is_char_sequence()) to_string(e);
  if (!e->type->is_scalar() && !e->type->is_string() && !e->type->is_address())
    fail(e->loc, ErrTag::D_KEY_TYPE, describe(e->type) + " cannot be used as a key");
}

const Type* Sema::storable(const Type* type, SourceRange loc) {
  switch (type->kind) {
    case TypeKind::Integer: case TypeKind::Pointer: case TypeKind::String: return type;
    case TypeKind::Array:
      if (type->is_char_sequence()) return types_.string_type();
      [[fallthrough]];
    case TypeKind::Struct: case TypeKind::Union:
      return storable_object(type, loc);
    case TypeKind::Stack: case TypeKind::Symbol: fail(loc, ErrTag::D_OP_ACT, address_misuse(type));
    case TypeKind::Void: fail(loc, ErrTag::D_DECL_VOIDOBJ, "expression has no value");
    default: fail(loc, ErrTag::D_OP_INCOMPAT, describe(type) + " cannot be stored in a D variable");
  }
}

const Type* Sema::storable_object(const Type* type, SourceRange loc) {
  if (!type->size || (type->is_record() && !type->complete))
    fail(loc, ErrTag::D_DECL_INCOMPLETE,
         describe(type) + " is an incomplete type and cannot be stored in a D variable");
  if (type->size > kMaxStoredObject)
    fail(loc, ErrTag::D_UNKNOWN,
         describe(type) + " (" + std::to_string(type->size) + " bytes) is too large for a D variable (at most " +
             std::to_string(kMaxStoredObject) + " bytes)");
  return type;
}

// Whether two struct, union or array types have the same layout, so that one can be copied into
// the other: the same type, or the same kernel type met twice.
static bool same_object_type(const Type* a, const Type* b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  if (a->is_array()) return a->count == b->count && same_object_type(a->target, b->target);
  if (a->is_record()) return a->btf_id && a->btf_id == b->btf_id;
  return a->is_integer() && a->size == b->size && a->is_signed == b->is_signed;
}

// Whether a pointer to `from` may be stored where a pointer to `to` is, as DTrace decides it: a
// void pointer goes with any pointer; other pointers must point to the same type.
static bool pointees_compatible(const Type* to, const Type* from) {
  if (to->is_void() || from->is_void()) return true;
  auto same = [](auto& self, const Type* a, const Type* b) -> bool {
    if (a->is_pointer() && b->is_pointer()) return self(self, a->target, b->target);
    return same_object_type(a, b);
  };
  return same(same, to, from);
}

void Sema::convert_for_store(ExprPtr& value, const Type* target, SourceRange loc) {
  const Type* from = value->type;
  if (target->is_string()) {
    if (from->is_char_sequence()) to_string(value);
    if (value->kind == ExprKind::IntLiteral && value->value == 0) return;  // clears it, as for a struct
    if (!value->type->is_string())
      fail(loc, ErrTag::D_OP_INCOMPAT, "cannot assign " + describe(from) + " to a string variable");
    return;
  }
  if (target->is_scalar()) {
    if (!from->is_scalar())
      fail(loc, ErrTag::D_OP_INCOMPAT, "cannot assign " + describe(from) + " to " + describe(target));
    // As in DTrace (and C), a pointer and an integer mix only through a cast; 0 is also NULL.
    bool null = value->kind == ExprKind::IntLiteral && value->value == 0;
    if (from->is_pointer() != target->is_pointer() && !(target->is_pointer() && null))
      fail(loc, ErrTag::D_OP_INCOMPAT,
           "cannot assign " + describe(from) + " to " + describe(target) + " without a cast");
    if (target->is_pointer() && from->is_pointer() && !pointees_compatible(target->target, from->target))
      fail(loc, ErrTag::D_OP_INCOMPAT, "cannot assign " + describe(from) + " to " + describe(target));
    if (from != target && (from->size != target->size || from->is_signed != target->is_signed ||
                           from->kind != target->kind)) {
      value = wrap(ExprKind::Cast, std::move(value), target);
      fold(value);
    }
    return;
  }
  // Structs are copied whole; storing 0 clears one (and frees a dynamic one). D assigns arrays
  // element by element only.
  if (target->is_array() || from->is_array())
    fail(loc, ErrTag::D_OP_ARRFUN, "an array (" + describe(target->is_array() ? target : from) +
                  ") cannot be assigned as a whole: assign its elements");
  if (target->is_record()) {
    if (same_object_type(target, from)) return;
    if (value->kind == ExprKind::IntLiteral && value->value == 0) return;
  }
  fail(loc, ErrTag::D_OP_INCOMPAT, "cannot assign " + describe(from) + " to " + describe(target));
}

void Sema::check(ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::IntLiteral: return;
    case ExprKind::StringLiteral: e->type = types_.string_type(); return;
    case ExprKind::Builtin: case ExprKind::ProbeArg: return;  // already typed (substituted)
    case ExprKind::Ident: check_ident(e); return;
    case ExprKind::MacroVar: check_macro(e); return;
    case ExprKind::Variable: {
      if (e->type) return;  // already resolved (a substituted inline)
      Variable* v = find_variable(e->scope, e->text);
      if (!v)
        not_yet_assigned(e->loc, std::string(scope_prefix(e->scope)) + e->text);
      if (!v->key_types.empty())
        fail(e->loc, ErrTag::D_PROTO_LEN, std::string(scope_prefix(e->scope)) + e->text + " is an associative array: it must be indexed");
      e->id = v->id;
      e->type = v->type;
      return;
    }
    case ExprKind::Index: check_index(e); return;
    case ExprKind::Member: check_member(e); return;
    case ExprKind::Unary: check_unary(e); return;
    case ExprKind::IncDec: check_incdec(e); return;
    case ExprKind::Binary: check_binary(e); return;
    case ExprKind::Assign: check_assign(e); return;
    case ExprKind::Ternary: check_ternary(e); return;
    case ExprKind::Cast: check_cast(e); return;
    case ExprKind::Call: check_call(e); return;
    case ExprKind::AggRef: refuse_aggregation(*e, ErrTag::D_OP_INCOMPAT);
    case ExprKind::SizeofType:
    case ExprKind::SizeofExpr: {
      const Type* t;
      if (e->kind == ExprKind::SizeofType) {
        t = resolve_type_name(*e->type_name);
      } else if (e->operand(0)->kind == ExprKind::StringLiteral) {
        e = make_int(e->operand(0)->text.size() + 1, typedefs_.at("size_t"), e->loc);  // its bytes and NUL
        return;
      } else {
        check_value(e->operands[0], ErrTag::D_SIZEOF_TYPE, ErrTag::D_SIZEOF_TYPE);
        t = e->operand(0)->type;
        if (e->operand(0)->kind == ExprKind::Member && e->operand(0)->bitfield_bits)
          fail(e->loc, ErrTag::D_SIZEOF_BITFIELD, "sizeof cannot be applied to bit-field " + e->operand(0)->text);
      }
      // A stack or a symbol (stack(), func()) is void to DTrace, of no size.
      if (t->is_void() || (t->is_record() && !t->complete) || t->kind == TypeKind::Function || t->is_address())
        fail(e->loc, ErrTag::D_SIZEOF_TYPE, "sizeof cannot be applied to " + describe(t));
      // A string's size is strsize, though its storage holds the NUL too.
      e = make_int(t->is_string() ? program_.options.strsize() : t->size, typedefs_.at("size_t"), e->loc);
      return;
    }
    case ExprKind::Offsetof: {
      const Type* t = resolve_type_name(*e->type_name);
      if (!t->is_record()) fail(e->loc, ErrTag::D_OFFSETOF_TYPE, "offsetof needs a struct or union, not " + describe(t));
      auto member = t->find_member(e->text);
      if (!member) fail(e->loc, ErrTag::D_TYPE_MEMBER, describe(t) + " has no member named " + e->text);
      if (member->bitfield_bits) fail(e->loc, ErrTag::D_OFFSETOF_BITFIELD, "offsetof cannot be applied to bit-field " + e->text);
      e = make_int(member->offset_bits / 8, typedefs_.at("size_t"), e->loc);
      return;
    }
    case ExprKind::Xlate: {
      if (e->type) return;  // already built
      const Type* target = resolve_type_name(*e->type_name);
      if (target->is_pointer())
        fail(e->loc, ErrTag::D_XLATE_SOU, "the result of xlate<" + describe(target) + ">() can only be used with -> to read a member");
      if (!target->is_record()) fail(e->loc, ErrTag::D_XLATE_SOU, "xlate<> needs a translated struct type");
      check_value(e->operands[0]);
      translated_record(e, PendingTranslation{find_translator(target, e->operand(0)->type, e->loc),
                                              std::move(e->operands[0])});
      return;
    }
  }
}

void Sema::check_ident(ExprPtr& e) {
  const std::string& name = e->text;
  for (auto it = bindings_.rbegin(); it != bindings_.rend(); ++it) {
    if (it->first == name) {
      SourceRange loc = e->loc;
      e = clone(*it->second);
      e->loc = loc;
      e->translator_input = true;
      return;
    }
  }
  if (auto it = inlines_.find(name); it != inlines_.end()) {
    if (it->second.translated) fail(e->loc, ErrTag::D_XLATE_SOU, name + " is translated: use it as " + name + "->member");
    if (!it->second.parameters.empty()) fail(e->loc, ErrTag::D_IDENT_BADREF, name + " takes arguments: " + name + "[...]");
    SourceRange loc = e->loc;
    note_attributes(it->second.attributes);
    e = clone(*it->second.value);
    e->loc = loc;
    return;
  }
  if (auto it = enum_constants_.find(name); it != enum_constants_.end()) {
    e = make_int(uint64_t(it->second.first), it->second.second, e->loc);
    return;
  }
  if (name == "args") fail(e->loc, ErrTag::D_IDENT_BADREF, "args must be indexed: args[0], args[1]...");
  if (const BuiltinVariable* builtin = find_builtin_variable(name)) {
    if (builtin->translation()) fail(e->loc, ErrTag::D_XLATE_SOU, name + " is translated: use it as " + name + "->member");
    if (builtin->indexed())
      fail(e->loc, ErrTag::D_IDENT_BADREF, name + " must be indexed: " + name + "[R_PC], " + name + "[R_SP]...");
    e->kind = ExprKind::Builtin;
    e->variable = builtin;
    e->type = resolve_type_text(builtin->type(), e->loc);
    builtin->check(*this, *e);
    note_attributes(builtin->attributes(clause_providers_));
    return;
  }
  if (Variable* v = find_variable(VarScope::Global, name)) {
    if (!v->key_types.empty())
      fail(e->loc, ErrTag::D_IDENT_BADREF, name + " is an associative array: it must be indexed");
    e->kind = ExprKind::Variable;
    e->scope = VarScope::Global;
    e->id = v->id;
    e->type = v->type;
    return;
  }
  if (name.starts_with('`')) return kernel_symbol_reference(e);
  if (use_extern(e, name)) return;
  // x = x + 1 with x new: the assignment has created x, untyped, before its value is checked.
  if (name == assigned_new_variable_) not_yet_assigned(e->loc, name);
  if (find_function(name) || find_aggregating_function(name))
    fail(e->loc, ErrTag::D_IDENT_BADREF, name + " is a function: call it as " + name + "()");
  fail(e->loc, ErrTag::D_IDENT_UNDEF, "failed to resolve " + name + ": Unknown variable name");
}

// Replaces `e` by the kernel variable declared extern as `name`, if there is one.
bool Sema::use_extern(ExprPtr& e, const std::string& name) {
  auto it = externs_.find(name);
  if (it == externs_.end()) return false;
  SourceRange loc = e->loc;
  e = clone(*it->second);
  e->loc = loc;
  return true;
}

// The kernel object of `type` at `address`: what an extern variable or a typed `symbol names.
ExprPtr Sema::kernel_object(uint64_t address, const Type* type, SourceRange loc) {
  ExprPtr object = make_expr(ExprKind::Unary, loc);
  object->unary_op = UnaryOp::Deref;
  object->operands.push_back(make_int(address, types_.pointer_to(type), loc));
  object->type = type;
  return object;
}

// `name (or module`name): a kernel symbol. A variable declared extern has its declared type; a
// function is an object of function type, whose address & takes. Other symbols carry no type
// here (this kernel's BTF describes no global variables), so reading one needs an extern.
void Sema::kernel_symbol_reference(ExprPtr& e) {
  note_attributes(kPrivateUnknown);  // as DTrace rates every kernel symbol
  std::string name = e->text.substr(1);
  SourceRange loc = e->loc;
  if (use_extern(e, name)) return;
  std::string error;
  std::optional<KernelSymbol> symbol = kernel_symbol(name, &error);
  if (!symbol) fail(loc, ErrTag::D_IDENT_UNDEF, "kernel symbol `" + name + ": " + error);
  if (!symbol->function)
    fail(loc, ErrTag::D_SYM_NOTYPES, "no type information is available for kernel symbol `" + name + ": declare it, as extern TYPE " + name + ";");
  e = kernel_object(symbol->address, types_.function_type(), loc);
}

void Sema::check_macro(ExprPtr& e, bool as_text) {
  const std::string& name = e->text;
  std::optional<std::string> text;  // the macro's value as text
  bool numeric_name = !name.empty() && std::isdigit((unsigned char)name[0]);
  if (numeric_name) {
    size_t index = std::strtoul(name.c_str(), nullptr, 10);
    if (name.size() > 6) index = SIZE_MAX;
    if (index < options_.macro_args.size()) {
      if (arguments_referenced_.size() <= index) arguments_referenced_.resize(index + 1);
      arguments_referenced_[index] = true;
      text = options_.macro_args[index];
    } else if (program_.options.flag("defaultargs")) {
      text = e->string_macro ? "" : "0";
    } else {
      fail(e->loc, ErrTag::D_MACRO_UNDEF, std::string("macro argument ") + (e->string_macro ? "$$" : "$") + name +
                       " is not defined: the script was given " +
                       std::to_string(options_.macro_args.empty() ? 0 : options_.macro_args.size() - 1) +
                       " argument(s)");
    }
  } else {
    long value;
    if (name == "pid") value = getpid();
    else if (name == "ppid") value = getppid();
    else if (name == "uid") value = getuid();
    else if (name == "gid") value = getgid();
    else if (name == "euid") value = geteuid();
    else if (name == "egid") value = getegid();
    else if (name == "sid") value = getsid(0);
    else if (name == "pgid") value = getpgrp();
    else if (name == "projid" || name == "taskid") value = 0;  // Solaris's; as psinfo_t's, none on Linux
    else if (name == "target") value = options_.target_pid;
    else if (name == "#") {  // a script that counts its arguments reads them as it sees fit
      value = options_.macro_args.empty() ? 0 : long(options_.macro_args.size() - 1);
      arguments_referenced_.assign(options_.macro_args.size(), true);
    }
    else fail(e->loc, ErrTag::D_MACRO_UNDEF, "unknown macro variable $" + name);
    text = std::to_string(value);
  }
  SourceRange loc = e->loc;
  if (e->string_macro || as_text) {
    e = make_expr(ExprKind::StringLiteral, loc);
    e->text = *text;
    e->type = types_.string_type();
    return;
  }
  // As DTrace's lexer substitutes $N: an integer (signed, or with a suffix), an identifier, or
  // else a string, its surrounding quotes removed.
  std::string_view digits = *text;
  const bool negative = digits.starts_with('-');
  if (negative || digits.starts_with('+')) digits.remove_prefix(1);
  if (std::optional<IntToken> number = integer_constant(digits, loc)) {
    if (!negative) {
      e = make_int(number->value, types_.integer(number->size, number->is_signed), loc);
      return;
    }
    const int64_t value = -int64_t(number->value);
    e = make_int(uint64_t(value), types_.integer(value >= INT32_MIN ? 4 : 8, true), loc);
    return;
  }
  if (is_plain_identifier(*text)) {
    e = make_expr(ExprKind::Ident, loc);
    e->text = *text;
    check(e);
    return;
  }
  std::string_view unquoted = *text;
  if (unquoted.size() >= 2 && unquoted.front() == '"' && unquoted.back() == '"')
    unquoted = unquoted.substr(1, unquoted.size() - 2);
  e = make_expr(ExprKind::StringLiteral, loc);
  e->text = std::string(unquoted);
  e->type = types_.string_type();
}

void Sema::check_assoc_keys(ExprPtr& e, Variable* existing) {
  check_key_count(e->operands.size() - 1, e->loc);
  std::vector<const Type*> keys;
  for (size_t i = 1; i < e->operands.size(); ++i) {
    check_key(e->operands[i]);
    if (e->operand(i)->type->is_address()) fail(e->operand(i)->loc, ErrTag::D_KEY_TYPE, address_misuse(e->operand(i)->type));
    keys.push_back(e->operand(i)->type);
  }
  const std::string& name = e->operand(0)->text;
  if (!existing) return;
  if (existing->key_types.size() != keys.size())
    fail(e->loc, ErrTag::D_PROTO_LEN, name + " has " + std::to_string(existing->key_types.size()) +
                     " key(s) elsewhere but " + std::to_string(keys.size()) + " here");
  for (size_t i = 0; i < keys.size(); ++i) {
    const Type* want = existing->key_types[i];
    if (want->is_string() != keys[i]->is_string())
      fail(e->operand(i + 1)->loc, ErrTag::D_PROTO_ARG, name + ": key #" + std::to_string(i + 1) + " is " +
                                       describe(keys[i]) + " here but " + describe(want) +
                                       " elsewhere");
  }
}

// Turns Index(name, keys...) into a Variable node over associative array `v` (name is an Ident
// for a global, a Variable for self->name).
static void become_assoc(ExprPtr& e, const Variable& v) {
  std::vector<ExprPtr> keys;
  for (size_t i = 1; i < e->operands.size(); ++i) keys.push_back(std::move(e->operands[i]));
  std::string name = e->operand(0)->text;
  e->kind = ExprKind::Variable;
  e->scope = v.scope;
  e->text = name;
  e->id = v.id;
  e->type = v.type;
  e->operands = std::move(keys);
}

// name[x, y] of an inline with parameters becomes a copy of its value, each parameter replaced by
// its argument (converted to the parameter's integer type, as a call would), still to be checked.
bool Sema::expand_inline_call(ExprPtr& e) {
  if (e->kind != ExprKind::Index || e->operand(0)->kind != ExprKind::Ident || is_bound(bindings_, e->operand(0)->text))
    return false;
  const std::string& name = e->operand(0)->text;
  auto it = inlines_.find(name);
  if (it == inlines_.end() || it->second.parameters.empty()) return false;
  const std::vector<TypeNamePtr>& parameters = it->second.parameters;
  if (e->operands.size() - 1 != parameters.size())
    fail(e->loc, ErrTag::D_PROTO_LEN, name + "[] takes " + std::to_string(parameters.size()) + " argument" +
                                          (parameters.size() == 1 ? "" : "s") + ", not " + std::to_string(e->operands.size() - 1));
  ExprPtr expansion = clone(*it->second.value, [&](const Expr& node) -> ExprPtr {
    if (node.kind != ExprKind::Ident) return nullptr;
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (node.text != parameters[i]->declarator.name) continue;
      ExprPtr argument = clone(*e->operand(i + 1));
      if (!resolve_type_name(*parameters[i])->is_integer()) return argument;
      ExprPtr cast = make_expr(ExprKind::Cast, argument->loc);
      cast->type_name = parameters[i];
      cast->operands.push_back(std::move(argument));
      return cast;
    }
    return nullptr;
  });
  expansion->loc = e->loc;
  e = std::move(expansion);
  return true;
}

void Sema::check_index(ExprPtr& e) {
  if (expand_inline_call(e)) return check(e);
  Expr* base = e->operand(0);
  if (base->kind == ExprKind::Ident && !is_bound(bindings_, base->text)) {
    if (base->text == "args") {
      if (e->operands.size() != 2) fail(e->loc, ErrTag::D_PROTO_LEN, "args takes a single index");
      int64_t index = constant_integer(e->operands[1], "the index of args[]", ErrTag::D_PROTO_ARG);
      probe_arg(e, index);
      return;
    }
    if (const BuiltinVariable* builtin = find_builtin_variable(base->text); builtin && builtin->indexed()) {
      if (e->operands.size() != 2) fail(e->loc, ErrTag::D_PROTO_LEN, base->text + " takes a single index");
      scalar(e->operands[1], "the index of " + base->text + "[]");
      if (!e->operand(1)->type->is_integer())
        fail(e->operand(1)->loc, ErrTag::D_REGS_IDX, "the index of " + base->text + "[] must be an integer");
      e->operands.erase(e->operands.begin());
      e->kind = ExprKind::Builtin;
      e->variable = builtin;
      e->type = resolve_type_text(builtin->type(), e->loc);
      builtin->check(*this, *e);
      return;
    }
    if (!is_reserved_variable_name(base->text) && !inlines_.count(base->text) && !enum_constants_.count(base->text)) {
      Variable* v = find_variable(VarScope::Global, base->text);
      if (!v) not_yet_assigned(base->loc, base->text);
      if (!v->key_types.empty()) {
        check_assoc_keys(e, v);
        become_assoc(e, *v);
        return;
      }
    }
  }
  if (base->kind == ExprKind::Variable && !base->type) {  // self->name[keys], this->name[...]
    Variable* v = find_variable(base->scope, base->text);
    if (!v) not_yet_assigned(base->loc, std::string(scope_prefix(base->scope)) + base->text);
    if (!v->key_types.empty()) {
      check_assoc_keys(e, v);
      become_assoc(e, *v);
      return;
    }
  }
  check_value(e->operands[0]);
  const Type* t = e->operand(0)->type;
  if (e->operands.size() != 2) fail(e->loc, ErrTag::D_ARR_BADREF, "only an associative array takes several keys");
  if (!t->is_array() && !t->is_pointer() && !t->is_string())
    fail(e->loc, ErrTag::D_DEREF_NONPTR, describe(t) + " cannot be indexed");
  check_scalar(e->operands[1], "an array index");
  if (!e->operand(1)->type->is_integer()) fail(e->operand(1)->loc, ErrTag::D_OP_INT, "an array index must be an integer");
  if (t->is_string()) {  // a string is an array of char
    e->type = types_.integer(1, true);
    return;
  }
  if (t->target->is_void() || t->target->kind == TypeKind::Function)
    fail(e->loc, ErrTag::D_DEREF_VOID, "cannot index a pointer to " + describe(t->target));
  // An array held in a D variable has its declared bounds: checked now for a constant index, at
  // run time (a fault) otherwise. A constant index past a kernel array is refused here too: the
  // verifier would refuse the load without saying where. (An array of one element may be the
  // head of a longer one, as in C before flexible array members.)
  const bool bounded = is_d_object(*e->operand(0)) || t->count > 1;
  if (t->is_array() && bounded && e->operand(1)->kind == ExprKind::IntLiteral) {
    uint64_t index = e->operand(1)->value;
    bool negative = e->operand(1)->type->is_signed && int64_t(index) < 0;
    if (negative || index >= t->count)
      fail(e->operand(1)->loc, ErrTag::D_ARR_BOUNDS,
           "index outside array bounds: " + (negative ? std::to_string(int64_t(index)) : std::to_string(index)) +
               ", max is " + std::to_string(t->count) + " (" + describe(t) + ")");
  }
  e->type = t->target;
}

void Sema::check_member(ExprPtr& e) {
  expand_inline_call(e->operands[0]);
  if (auto pending = translation_of(*e->operand(0), e->arrow)) {
    lower_translated_member(e, std::move(*pending));
    return;
  }
  check_value(e->operands[0]);
  const Type* t = e->operand(0)->type;
  const char* op = e->arrow ? "->" : ".";
  if (e->arrow) {
    if (!t->is_pointer() || !t->target->is_record())
      fail(e->loc, t->is_pointer() ? ErrTag::D_OP_SOU : ErrTag::D_OP_PTR,
           std::string("operator -> needs a pointer to a struct or union, not ") + describe(t));
    t = t->target;
  } else if (!t->is_record()) {
    fail(e->loc, ErrTag::D_OP_SOU, std::string("operator . needs a struct or union, not ") + describe(t));
  }
  if (!t->complete)
    fail(e->loc, ErrTag::D_OP_INCOMPLETE,
         describe(t) + " is an incomplete type: the script does not define it and the kernel has no such type");
  auto member = t->find_member(e->text);
  if (!member) fail(e->loc, ErrTag::D_TYPE_MEMBER, describe(t) + " has no member named " + e->text + " (operator " + op + ")");
  e->offset_bits = member->offset_bits;
  e->bitfield_bits = member->bitfield_bits;
  e->type = member->type;
  if (member->bitfield_bits && member->type->is_integer()) {
    // C's promotion: a bit-field whose values all fit in int is an int.
    e->bitfield_signed = member->type->is_signed;
    if (member->bitfield_bits < 32 || (member->type->is_signed && member->bitfield_bits == 32))
      e->type = types_.integer(4, true);
  }
}

void Sema::check_lvalue(ExprPtr& target, const Type* value_type, SourceRange op_loc) {
  switch (target->kind) {
    case ExprKind::Ident: {
      const std::string& name = target->text;
      if (is_reserved_variable_name(name)) fail(target->loc, ErrTag::D_OP_WRITE, "cannot assign to built-in variable " + name);
      if (name.starts_with('`')) {
        std::string error;
        if (!kernel_symbol(name.substr(1), &error))
          fail(target->loc, ErrTag::D_IDENT_UNDEF, "failed to resolve " + name + ": Unknown variable name");
        fail(target->loc, ErrTag::D_OP_WRITE, "kernel symbol " + name + " cannot be assigned");
      }
      if (is_bound(bindings_, name) || inlines_.count(name) || enum_constants_.count(name))
        fail(target->loc, ErrTag::D_OP_WRITE, name + " is a constant and cannot be assigned");
      if (externs_.count(name)) fail(target->loc, ErrTag::D_OP_WRITE, "kernel variable " + name + " cannot be assigned");
      Variable* v = find_variable(VarScope::Global, name);
      if (v && !v->key_types.empty()) fail(target->loc, ErrTag::D_IDENT_BADREF, name + " is an associative array: it must be indexed");
      if (!v) v = &add_variable(VarScope::Global, name, storable(value_type, op_loc), {}, target->loc, false);
      target->kind = ExprKind::Variable;
      target->scope = VarScope::Global;
      target->id = v->id;
      target->type = v->type;
      return;
    }
    case ExprKind::Variable: {
      Variable* v = find_variable(target->scope, target->text);
      if (v && !v->key_types.empty())
        fail(target->loc, ErrTag::D_PROTO_LEN, std::string(scope_prefix(target->scope)) + target->text + " is an associative array: it must be indexed");
      if (!v) v = &add_variable(target->scope, target->text, storable(value_type, op_loc), {}, target->loc, false);
      target->id = v->id;
      target->type = v->type;
      return;
    }
    case ExprKind::Index: {
      Expr* base = target->operand(0);
      if (base->kind == ExprKind::Ident && !is_reserved_variable_name(base->text) && !is_bound(bindings_, base->text) &&
          !inlines_.count(base->text) && !enum_constants_.count(base->text)) {
        Variable* v = find_variable(VarScope::Global, base->text);
        // As DTrace reads x[i] of a scalar x: *(x + i), which needs a pointer; x[i, j] is no array.
        bool one_index = target->operands.size() == 2;
        if (v && v->key_types.empty() && (v->type->is_array() || (one_index && v->type->is_pointer())))
          return d_object_lvalue(target);
        if (v && v->key_types.empty())
          fail(target->loc, one_index ? ErrTag::D_DEREF_NONPTR : ErrTag::D_ARR_BADREF,
               base->text + " is not an associative array");
        check_assoc_keys(target, v);
        if (!v) {
          std::vector<const Type*> keys;
          for (size_t i = 1; i < target->operands.size(); ++i) keys.push_back(target->operand(i)->type);
          v = &add_variable(VarScope::Global, base->text, storable(value_type, op_loc), std::move(keys),
                            base->loc, false);
        }
        become_assoc(target, *v);
        return;
      }
      if (base->kind == ExprKind::Variable && !base->type) {  // self->name[keys]
        Variable* v = find_variable(base->scope, base->text);
        if (v && v->key_types.empty()) return d_object_lvalue(target);
        if (base->scope == VarScope::ClauseLocal)
          fail(target->loc, ErrTag::D_ARR_LOCAL, "associative arrays may not be declared as local variables: this->" + base->text);
        check_assoc_keys(target, v);
        if (!v) {
          std::vector<const Type*> keys;
          for (size_t i = 1; i < target->operands.size(); ++i) keys.push_back(target->operand(i)->type);
          v = &add_variable(base->scope, base->text, storable(value_type, op_loc), std::move(keys), base->loc, false);
        }
        become_assoc(target, *v);
        return;
      }
      if (base->kind == ExprKind::Ident && base->text == "args")
        fail(target->loc, ErrTag::D_OP_WRITE, "probe arguments cannot be assigned");
      return d_object_lvalue(target);
    }
    case ExprKind::Member:
      // A translation is a value DTrace computes, not memory: its members are read-only.
      for (const Expr* part = target.get(); part->kind == ExprKind::Member || part->kind == ExprKind::Index;
           part = part->operand(0)) {
        if (part->operand(0)->kind == ExprKind::Xlate)
          fail(target->loc, part->arrow ? ErrTag::D_OP_WRITE : ErrTag::D_OP_LVAL,
               "cannot assign here: the members of a translation cannot be modified");
      }
      return d_object_lvalue(target);
    case ExprKind::Unary:
      if (target->unary_op == UnaryOp::Deref) return d_object_lvalue(target);
      break;
    default:
      break;
  }
  fail(target->loc, ErrTag::D_OP_LVAL, "cannot assign here: only D variables (x, a[k], self->x, this->x) can be modified");
}

// Whether a pointer is the value of a D variable (or of a part of one), possibly cast or
// stepped: DTrace lets a clause store through such a pointer, never through one the kernel gave.
static bool held_in_d_variable(const Expr& p) {
  switch (p.kind) {
    case ExprKind::Variable: return true;
    case ExprKind::Cast: return held_in_d_variable(*p.operand(0));
    case ExprKind::Binary: return held_in_d_variable(*p.operand(p.operand(0)->type->is_pointer() ? 0 : 1));
    case ExprKind::Member: return !p.arrow && is_d_object(*p.operand(0));
    case ExprKind::Index: return p.operand(0)->type->is_array() && is_d_object(*p.operand(0));
    default: return false;
  }
}

// A member or element of a struct or array held in a D variable (x.a, a[1], self->s.b[2]), or
// memory reached through a pointer a D variable holds (*p, p[1], p->m): a store there must land
// in scratch the clause allocated, which is checked when it runs.
void Sema::d_object_lvalue(ExprPtr& target) {
  check_value(target);
  if (is_d_object(*target)) return;
  const Expr* pointer = stored_through(*target);
  if (!pointer)
    fail(target->loc, ErrTag::D_OP_LVAL, "cannot assign here: only D variables (x, a[k], self->x, this->x) and their members can be modified");
  if (!held_in_d_variable(*pointer))
    fail(target->loc, ErrTag::D_OP_WRITE, "cannot assign here: kernel memory is not writable; only memory from alloca() can be written through a pointer");
  if (!target->type->is_scalar() || (target->kind == ExprKind::Member && target->bitfield_bits))
    fail(target->loc, ErrTag::D_OP_INCOMPAT, "only an integer or a pointer can be stored through a pointer, not " + describe(target->type));
}

// The name of the D variable that assigning to `target` would create ("x", "self->x", "a" for
// a[k]), or "" when `target` is not a new variable.
std::string Sema::new_variable_name(const Expr& target) {
  const Expr* named = target.kind == ExprKind::Index ? target.operand(0) : &target;
  const std::string& name = named->text;
  if (named->kind == ExprKind::Variable && !named->type)
    return find_variable(named->scope, name) ? "" : scope_prefix(named->scope) + name;
  if (named->kind != ExprKind::Ident || is_reserved_variable_name(name) || is_bound(bindings_, name) ||
      inlines_.count(name) || enum_constants_.count(name) || externs_.count(name) || name == "args")
    return "";
  return find_variable(VarScope::Global, name) ? "" : name;
}

void Sema::check_assign(ExprPtr& e) {
  std::string op = e->compound ? std::string(binary_op_text(e->binary_op)) + "=" : "=";
  std::string created = new_variable_name(*e->operand(0));
  if (!e->compound) {
    assigned_new_variable_ = e->operand(0)->kind == ExprKind::Ident ? created : "";
    check_value(e->operands[1]);
    assigned_new_variable_.clear();
    check_lvalue(e->operands[0], e->operand(1)->type, e->loc);
    // Storing 0 deletes a dynamic variable (an associative array's element, a thread-local);
    // another struct is not an integer.
    const Expr& target = *e->operand(0);
    bool dynamic = target.kind == ExprKind::Variable && (target.scope == VarScope::ThreadLocal || !target.operands.empty());
    if (target.type->is_record() && !dynamic && is_null_constant(*e->operand(1)))
      fail(e->loc, ErrTag::D_OP_INCOMPAT, "cannot assign 0 to " + describe(target.type) +
                       ": storing 0 deletes only an associative array's element or a thread-local variable");
    convert_for_store(e->operands[1], e->operand(0)->type, e->loc);
    e->type = e->operand(0)->type;
    return;
  }
  // Unlike ++ and --, a compound assignment reads its variable first: it must exist.
  if (!created.empty()) not_yet_assigned(e->operand(0)->loc, created);
  check_value(e->operands[1]);
  check_lvalue(e->operands[0], types_.integer(8, true), e->loc);
  const Type* t = e->operand(0)->type;
  const Type* v = e->operand(1)->type;
  bool pointer_step = t->is_pointer() && v->is_integer() &&
                      (e->binary_op == BinaryOp::Add || e->binary_op == BinaryOp::Sub);
  if (!(t->is_integer() && v->is_integer()) && !pointer_step)
    fail(e->loc, operand_class_tag(e->binary_op),
         "operator " + op + " cannot be applied to " + describe(t) + " and " + describe(v));
  if ((e->binary_op == BinaryOp::Div || e->binary_op == BinaryOp::Mod) && is_null_constant(*e->operand(1)))
    fail(e->loc, ErrTag::D_DIV_ZERO, "division by zero");
  if (pointer_step) check_pointer_step(t, e->loc);
  e->type = t;
}

}  // namespace dsched::lang
