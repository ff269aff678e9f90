#include "lang/builtins/support.h"

#include "lang/codegen/firing.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::lang {

void FormattedAction::check(Checker& c, ExprPtr& call) const {
  check_literal_arg(c, *call, 0, "format");
  for (size_t i = 1; i < call->operands.size(); ++i) c.value(call->operands[i]);
  c.format(*call, 0, nullptr);
  set_void(c, *call);
}

codegen::Value FormattedAction::lower(codegen::Lowering& l, const Expr& call) const {
  std::vector<abi::RecordField> fields = l.records.values(call, 1);
  abi::RecordedAction& action = l.records.action(*this);
  action.format = printf_spec::parse_format(call.operand(0)->text).format;
  action.fields = std::move(fields);
  return no_value(call);
}

void check_integer_arg(Checker& c, Expr& call, size_t i, std::string_view what, ErrTag tag) {
  c.value(call.operands[i]);
  if (!call.operand(i)->type->is_integer())
    fail(call.operand(i)->loc, tag,
         call.text + "(): " + std::string(what) + " must be an integer, not " + type_name(call.operand(i)->type));
}

void check_string_arg(Checker& c, Expr& call, size_t i) { c.string(call.operands[i], call.text + "() argument"); }

void check_kernel_pointer_arg(Checker& c, Expr& call, size_t i, const char* record) {
  c.value(call.operands[i]);
  const Type* t = call.operand(i)->type;
  if (!t || !t->is_pointer() || !t->target || !t->target->is_record() || t->target->name != record)
    fail(call.operand(i)->loc, ErrTag::D_PROTO_ARG,
         call.text + "() argument #" + std::to_string(i + 1) + " is incompatible with prototype: expected struct " +
             record + " *");
}

int64_t kernel_member_offset(codegen::Lowering& l, const char* record, const std::vector<const char*>& members,
                             SourceRange where) {
  const Type* type = l.program.types->kernel_record(TypeKind::Struct, record, nullptr);
  if (!type) fail(where, ErrTag::D_UNKNOWN, std::string("this kernel has no struct ") + record);
  int64_t offset = 0;
  for (const char* name : members) {
    auto member = type->find_member(name);
    if (!member) fail(where, ErrTag::D_UNKNOWN, std::string("this kernel's struct ") + record + " has no member " + name);
    offset += static_cast<int64_t>(member->offset_bits / 8);
    type = member->type;
  }
  return offset;
}

void check_literal_arg(Checker& c, Expr& call, size_t i, std::string_view what, ErrTag tag) {
  if (call.operand(i)->kind != ExprKind::StringLiteral)
    fail(call.operand(i)->loc, tag, call.text + "() needs a string literal as its " + std::string(what));
  c.value(call.operands[i]);
}

int64_t check_constant_arg(Checker& c, Expr& call, size_t i, std::string_view what, int64_t min, int64_t max,
                           ErrTag tag) {
  std::string described = call.text + "() " + std::string(what);
  int64_t v = c.constant(call.operands[i], described, tag);
  if (v < min || v > max)
    fail(call.operand(i)->loc, tag,
         described + " must be between " + std::to_string(min) + " and " + std::to_string(max));
  return v;
}

void set_void(Checker& c, Expr& call) { call.type = c.types().void_type(); }

std::vector<uint32_t> aggregation_ids(const Expr& call) {
  std::vector<uint32_t> ids;
  for (const auto& arg : call.operands)
    if (arg->kind == ExprKind::AggRef) ids.push_back(static_cast<uint32_t>(arg->id));
  return ids;
}

codegen::Value no_value(const Expr& call) { return {nullptr, call.type}; }

void require_running_thread(codegen::Lowering& l, SourceRange where, std::string_view what) {
  if (l.firing.context_is_current()) return;
  fail(where, ErrTag::D_UNKNOWN, std::string(what) + " is not available in " + l.firing.probe().full_name() +
                  ": its thread is not the one running, and only the running thread's user memory, registers "
                  "and stack can be read; read them where that thread runs (sched:::off-cpu for where it blocked)");
}

}  // namespace dsched::lang
