// What the built-ins' descriptors share: a base with a name and an arity, the argument checks
// their checks are made of, and lowering helpers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lang/builtins/builtin.h"
#include "lang/checker.h"
#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::lang {

// A function or action with a fixed name and arity.
class NamedFunction : public Function {
 public:
  NamedFunction(std::string_view name, Arity arity) : name_(name), arity_(arity) {}
  std::string_view name() const override { return name_; }
  Arity arity() const override { return arity_; }

 private:
  std::string_view name_;
  Arity arity_;
};

// A function with no value (call->type void) whose record user space acts on.
class Action : public NamedFunction, public abi::ActionHandler {
 public:
  using NamedFunction::NamedFunction;
  bool acts_when_traced() const override {
    const Speculation role = speculation();
    return role == Speculation::Exit || role == Speculation::Commit || role == Speculation::Discard;
  }
};

// An action taking a printf-style format and its arguments (printf(), system()): the arguments
// are recorded, the format parsed once at compile time.
class FormattedAction : public Action {
 public:
  using Action::Action;
  void check(Checker& c, ExprPtr& call) const override;
  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override;
};

// A subroutine: computes a value, records nothing.
class Subroutine : public NamedFunction {
 public:
  using NamedFunction::NamedFunction;
  Speculation speculation() const override { return Speculation::None; }
};

// A built-in variable with a fixed name and C type.
class NamedVariable : public BuiltinVariable {
 public:
  NamedVariable(std::string_view name, const char* type) : name_(name), type_(type) {}
  std::string_view name() const override { return name_; }
  const char* type() const override { return type_; }

 private:
  std::string_view name_;
  const char* type_;
};

// Argument checks; messages name the function and the argument.
void check_integer_arg(Checker& c, Expr& call, size_t i, std::string_view what, ErrTag tag = ErrTag::D_PROTO_ARG);
void check_string_arg(Checker& c, Expr& call, size_t i);
// A string literal argument (printf()'s format, setopt()'s option).
void check_literal_arg(Checker& c, Expr& call, size_t i, std::string_view what, ErrTag tag = ErrTag::D_PRINTF_ARG_FMT);
// An integer constant between min and max; its value.
int64_t check_constant_arg(Checker& c, Expr& call, size_t i, std::string_view what, int64_t min, int64_t max,
                           ErrTag tag = ErrTag::D_PROTO_ARG);
// A pointer to the kernel's struct `record` (d_path()'s struct path *).
void check_kernel_pointer_arg(Checker& c, Expr& call, size_t i, const char* record);
// The byte offset of record.members[0].members[1]... in this kernel's BTF; fails located at `where`.
int64_t kernel_member_offset(codegen::Lowering& l, const char* record, const std::vector<const char*>& members,
                             SourceRange where);
void set_void(Checker& c, Expr& call);

// The aggregation ids named by a call's @ arguments, in order.
std::vector<uint32_t> aggregation_ids(const Expr& call);
// User-space stacks and registers belong to the running thread: refuses `what` where the probe's
// thread is another one (sched:::on-cpu's, which is about to run).
void require_running_thread(codegen::Lowering& l, SourceRange where, std::string_view what);
// What an action's lowering returns: no value.
codegen::Value no_value(const Expr& call);

}  // namespace dsched::lang
