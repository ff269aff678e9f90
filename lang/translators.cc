// Translated arguments: args[N] of sched/proc probes, curlwpsinfo, curpsinfo, curcpu and
// xlate<T>(x). A member read through one of them becomes the translator's expression for that
// member, with the translator's input replaced by the native value (a ProbeArg, curthread or cpu).
#include "lang/builtins/builtin.h"
#include "lang/diagnostics.h"
#include "lang/sema.h"

namespace dsched::lang {
namespace {

bool same_record(const Type* a, const Type* b) {
  if (a == b) return true;
  return a->is_record() && b->is_record() && a->kind == b->kind && a->btf_id && b->btf_id &&
         a->name == b->name;
}

bool input_accepts(const Type* declared, const Type* given) {
  if (declared->is_integer()) return given->is_integer();
  if (declared->is_pointer() && given->is_pointer())
    return same_record(declared->target, given->target) || declared->target == given->target;
  return declared == given;
}

ExprPtr builtin_node(const BuiltinVariable* builtin, const Type* type, SourceRange loc) {
  ExprPtr e = make_expr(ExprKind::Builtin, loc);
  e->variable = builtin;
  e->text = std::string(builtin->name());
  e->type = type;
  return e;
}

std::string translated_type(const ProbeArg& arg) { return arg.translated.empty() ? arg.native : arg.translated; }

}  // namespace

const ProbeArg& Sema::arg_spec(int64_t index, SourceRange loc) {
  if (!clause_) fail(loc, ErrTag::D_ARGS_NONE, "args[] can only be used in a probe clause");
  if (clause_->probes.empty()) fail(loc, ErrTag::D_ARGS_NONE, "args[] needs a probe");
  const ProbeArg* first = nullptr;
  const Probe* first_probe = nullptr;
  for (const Probe* probe : clause_->probes) {
    if (index < 0 || size_t(index) >= probe->args.size()) {
      // Another probe of the clause has it: the argument differs across the probes.
      for (const Probe* other : clause_->probes)
        if (index >= 0 && size_t(index) < other->args.size())
          fail(loc, ErrTag::D_ARGS_MULTI, "args[" + std::to_string(index) + "] is defined for probe " + other->provider +
                                              ":::" + other->name + " but not for " + probe->provider + ":::" + probe->name +
                                              ", both of this clause");
      std::string count = probe->args.empty() ? "no arguments"
                          : probe->args.size() == 1 ? "1 argument"
                          : std::to_string(probe->args.size()) + " arguments";
      fail(loc, ErrTag::D_ARGS_IDX, "args[" + std::to_string(index) + "] is not defined for probe " +
                    probe->provider + ":::" + probe->name + " (it has " + count + ")");
    }
    const ProbeArg& spec = probe->args[size_t(index)];
    note_attributes(clause_providers_.arguments);
    if (!first) {
      first = &spec;
      first_probe = probe;
      continue;
    }
    if (translated_type(spec) != translated_type(*first) || spec.native != first->native)
      fail(loc, ErrTag::D_ARGS_MULTI, "args[" + std::to_string(index) + "] has different types in the probes of this clause (" +
                    translated_type(*first) + " in " + first_probe->name + ", " + translated_type(spec) + " in " +
                    probe->name + ")");
  }
  return *first;
}

void Sema::probe_arg(ExprPtr& e, int64_t index) {
  const ProbeArg& spec = arg_spec(index, e->loc);
  if (!spec.translated.empty())
    fail(e->loc, ErrTag::D_ARGS_XLATOR, "args[" + std::to_string(index) + "] is a translated " + spec.translated +
                     ": read its members with args[" + std::to_string(index) + "]->member");
  SourceRange loc = e->loc;
  e = make_expr(ExprKind::ProbeArg, loc);
  e->id = int(index);
  e->type = resolve_type_text(spec.native, loc);
}

const Type* Sema::translator_input(Translator& t) {
  if (t.input) return t.input;
  NotingAttributes library(noted_, nullptr);  // a declaration's type, not the script's use of it
  t.input = resolve_type_name(*t.input_syntax);
  return t.input;
}

const Translator* Sema::lookup_translator(const Type* output, const Type* input) {
  for (auto& t : translators_)
    if (t->output == output && input_accepts(translator_input(*t), input)) return t.get();
  return nullptr;
}

const Translator* Sema::find_translator(const Type* output, const Type* input, SourceRange loc) {
  if (const Translator* t = lookup_translator(output, input)) return t;
  fail(loc, ErrTag::D_XLATE_NONE, "no translator from " + type_name(input) + " to " + type_name(output));
}

std::optional<Sema::PendingTranslation> Sema::translate_probe_arg(int64_t index, SourceRange loc) {
  const ProbeArg& spec = arg_spec(index, loc);
  if (spec.translated.empty()) return std::nullopt;
  const Type* pointer = resolve_type_text(spec.translated, loc);
  ExprPtr input = make_expr(ExprKind::ProbeArg, loc);
  input->id = int(index);
  input->type = resolve_type_text(spec.native, loc);
  const Translator* t = find_translator(pointer->target, input->type, loc);
  return PendingTranslation{t, std::move(input)};
}

std::optional<Sema::PendingTranslation> Sema::translation_of(Expr& written, bool arrow) {
  Expr* base = &written;
  if (!arrow) {
    // (*args[0]).pr_pid reads like args[0]->pr_pid; xlate<psinfo_t>(x).pr_pid is a value.
    if (base->kind == ExprKind::Unary && base->unary_op == UnaryOp::Deref) {
      base = base->operand(0);
    } else if (base->kind != ExprKind::Xlate || base->type) {
      return std::nullopt;
    }
  }
  bool bound = false;
  if (base->kind == ExprKind::Ident || base->kind == ExprKind::Index) {
    const std::string& name = base->kind == ExprKind::Ident ? base->text : base->operand(0)->text;
    for (const auto& b : bindings_) bound |= b.first == name;
  }
  if (bound) return std::nullopt;

  if (base->kind == ExprKind::Index && base->operand(0)->kind == ExprKind::Ident &&
      base->operand(0)->text == "args" && base->operands.size() == 2) {
    int64_t index = constant_integer(base->operands[1], "the index of args[]", ErrTag::D_ARGS_IDX);
    return translate_probe_arg(index, base->loc);
  }
  if (base->kind == ExprKind::Ident) {
    if (auto it = inlines_.find(base->text); it != inlines_.end() && it->second.translated) {
      ExprPtr xlate = clone(*it->second.value);
      xlate->loc = base->loc;
      return translation_of(*xlate, true);
    }
    const BuiltinVariable* variable = find_builtin_variable(base->text);
    if (!variable || !variable->translation()) return std::nullopt;
    note_attributes(variable->attributes(clause_providers_));
    BuiltinVariable::Translation translation = *variable->translation();
    const BuiltinVariable* input_variable = find_builtin_variable(translation.input);
    ExprPtr input = builtin_node(input_variable, resolve_type_text(input_variable->type(), base->loc), base->loc);
    const Translator* t = find_translator(resolve_type_text(translation.output, base->loc), input->type, base->loc);
    return PendingTranslation{t, std::move(input)};
  }
  if (base->kind == ExprKind::Xlate && !base->type) {
    const Type* target = resolve_type_name(*base->type_name);
    bool pointer_form = target->is_pointer();
    if (pointer_form != arrow)
      fail(base->loc, ErrTag::D_XLATE_SOU, arrow ? "xlate<" + type_name(target) + ">() is not a pointer: use ."
                            : "xlate<" + type_name(target) + ">() is a pointer: use ->");
    const Type* output = pointer_form ? target->target : target;
    if (!output->is_record()) fail(base->loc, ErrTag::D_XLATE_SOU, "xlate<> needs a translated struct type");
    ExprPtr input = std::move(base->operands[0]);
    check_value(input);
    const Translator* t = find_translator(output, input->type, base->loc);
    return PendingTranslation{t, std::move(input)};
  }
  return std::nullopt;
}

// A copy of `e` with every substituted translator input replaced by a copy of `input`.
static ExprPtr with_input(const Expr& e, const Expr& input) {
  return clone(e, [&](const Expr& node) -> ExprPtr {
    if (!node.translator_input) return nullptr;
    ExprPtr replaced = clone(input);
    replaced->loc = node.loc;
    replaced->translator_input = true;
    return replaced;
  });
}

ExprPtr Sema::translated_value(const Translator& t, const std::string& name, const Expr& input, SourceRange use) {
  bool cacheable = input.kind == ExprKind::ProbeArg || input.kind == ExprKind::Builtin;
  auto key = std::make_tuple(&t, name, input.type);
  if (cacheable)
    if (auto hit = translated_.find(key); hit != translated_.end()) return with_input(*hit->second, input);
  auto it = t.members.find(name);
  if (it == t.members.end())
    fail(use, ErrTag::D_XLATE_NOCONV, "the translator to " + type_name(t.output) + " does not define member " + name);
  ExprPtr value = clone(*it->second->value);
  bindings_.emplace_back(t.input_name, &input);
  // A member's value is the library's business: the script's stability is the translated type's.
  NotingAttributes library(noted_, nullptr);
  try {
    check_value(value);
  } catch (const CompileError& error) {
    // The translator is library code: report the use, which is what the user can change.
    fail(use, ErrTag::D_XLATE_MEMB, "cannot read " + name + " through the translator to " + type_name(t.output) + ": " + error.what());
  }
  bindings_.pop_back();
  if (cacheable) translated_[key] = clone(*value);
  return value;
}

void Sema::lower_translated_member(ExprPtr& e, PendingTranslation pending) {
  const Translator& t = *pending.translator;
  const std::string& name = e->text;
  auto declared = t.output->find_member(name);
  if (!declared) fail(e->loc, ErrTag::D_TYPE_MEMBER, type_name(t.output) + " has no member named " + name);
  ExprPtr value = translated_value(t, name, *pending.input, e->loc);
  convert_translated(t, name, value);
  value->loc = e->loc;
  e = std::move(value);
}

// A translated member's value as its declared type, or D_XLATE_INCOMPAT.
void Sema::convert_translated(const Translator& t, const std::string& name, ExprPtr& value) {
  auto it = t.members.find(name);
  const Type* want = t.output->find_member(name)->type;
  const Type* got = value->type;
  if (want->is_integer() && got->is_integer() && got->size == want->size &&
      got->is_signed == want->is_signed) {
    value->type = want;  // same representation: just name the declared type
  } else if (want->is_integer() && got->is_scalar()) {
    if (got != want) {
      ExprPtr cast = make_expr(ExprKind::Cast, value->loc);
      cast->depth = value->depth + 1;
      cast->operands.push_back(std::move(value));
      cast->type = want;
      value = std::move(cast);
      fold(value);
    }
  } else if (want->is_string() && (got->is_string() || got->is_char_sequence())) {
    to_string(value);
  } else if (!(want->is_array() && got->is_char_sequence()) && !(want->is_pointer() && got->is_pointer()) &&
             !(want->is_char_sequence() && got->is_string())) {  // char[] computed as a string (pr_clname)
    fail(it->second->loc, ErrTag::D_XLATE_INCOMPAT, "translator member " + name + " is " + type_name(got) + " but " +
                              type_name(t.output) + " declares it " + type_name(want));
  }
}

// As DTrace does where a script declares a translator: each member's value must be valid for the
// input type (an input of that type stands in) and of its member's type.
void Sema::check_translator_members(Translator& t) {
  const Type* input = translator_input(t);
  if (!input->is_scalar()) return;  // a struct passed by value has no stand-in
  ExprPtr stand_in = make_int(0, input, t.loc);
  for (const auto& [name, member] : t.members) {
    ExprPtr value = clone(*member->value);
    bindings_.emplace_back(t.input_name, stand_in.get());
    check_value(value);
    bindings_.pop_back();
    convert_translated(t, name, value);
  }
}

void Sema::translated_record(ExprPtr& e, PendingTranslation pending) {
  const Translator& t = *pending.translator;
  ExprPtr record = make_expr(ExprKind::Xlate, e->loc);
  record->type_name = e->type_name;
  record->type = t.output;
  for (const Member& m : t.output->members()) {
    if (!t.members.count(m.name)) {
      record->operands.push_back(make_int(0, types_.integer(4, true), e->loc));
      continue;
    }
    ExprPtr member = make_expr(ExprKind::Member, e->loc);
    member->text = m.name;
    lower_translated_member(member, PendingTranslation{&t, clone(*pending.input)});
    record->depth = std::max(record->depth, member->depth + 1);
    record->operands.push_back(std::move(member));
  }
  e = std::move(record);
}

}  // namespace dsched::lang
