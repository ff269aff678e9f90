// Built-ins as descriptors: every D function, action, aggregating function and built-in variable
// is one object that knows its name, checks its uses, lowers them to BPF, lays out what it records
// and (for actions) carries it out in user space. Each lives in one file under builtins/ and
// registers itself; nothing else in the compiler switches over built-in names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "abi/action.h"
#include "abi/aggregation.h"
#include "lang/ast.h"
#include "lang/error_tags.h"
#include "lang/stability.h"

namespace dsched::codegen {
struct Lowering;
struct Value;
class AggregationUpdate;
}  // namespace dsched::codegen

namespace dsched::lang {

class Checker;
struct Aggregation;

struct Arity {
  int min = 0;
  int max = 0;  // kUnbounded: any number
  ErrTag too_few_tag = ErrTag::D_PROTO_LEN;   // DTrace's tags for a call with too few arguments
  ErrTag too_many_tag = ErrTag::D_PROTO_LEN;  // and with too many
  static constexpr int kUnbounded = 1 << 20;
};

// A function or action: name(args).
class Function {
 public:
  // How a call takes part in DTrace's rules for speculative clauses.
  enum class Speculation {
    Data,         // records data: after speculate() it is speculative
    Speculate,    // speculate() itself
    Commit,       // commit(): not after data-recording actions, nor they after it
    Discard,      // discard(): records nothing
    Exit,         // exit(): records its status; may not follow speculate()
    Destructive,  // system(), raise(): record nothing; may not follow speculate()
    None,         // a subroutine: a value, no part in the rules
  };

  virtual ~Function() = default;
  virtual std::string_view name() const = 0;
  virtual Arity arity() const = 0;
  virtual bool destructive() const { return false; }
  virtual Speculation speculation() const { return Speculation::Data; }
  // Whether a clause calling it needs a record (actions whose values user space receives).
  virtual bool records() const { return speculation() != Speculation::None; }
  // DTrace's stability attributes of the name (-v).
  virtual Attributes attributes() const { return kStableCommon; }
  // Checks the arguments (already in `call->operands`, unchecked) and sets call->type (void for
  // actions). May replace `call` by an equivalent expression.
  virtual void check(Checker& checker, ExprPtr& call) const = 0;
  // Emits the call: a subroutine's value, or an action's effect and its record fields.
  virtual codegen::Value lower(codegen::Lowering& lowering, const Expr& call) const = 0;
};

// An aggregating function: @name[keys] = name(args).
class AggregatingFunction : public abi::AggregatingFunction {
 public:
  // Arguments: the value (if the function takes one), then the constant parameters; a histogram
  // may take one more, an increment.
  virtual Arity arity() const = 0;
  virtual bool takes_value() const { return true; }
  virtual bool takes_increment() const { return false; }
  // Whether printa()'s %@ conversions take the value as unsigned (count()).
  virtual bool printa_unsigned() const { return false; }
  // DTrace's tags for constant parameter i: not an integer, not a constant, and different from an
  // earlier use of the same aggregation.
  struct ParamTags {
    ErrTag not_integer = ErrTag::D_PROTO_ARG;
    ErrTag not_constant = ErrTag::D_PROTO_ARG;
    ErrTag mismatch = ErrTag::D_AGG_REDEF;
  };
  virtual ParamTags param_tags(size_t i) const { return {}; }
  // Checks (and completes with defaults) the constant parameters; fails located at `where`.
  virtual void check_params(std::vector<int64_t>& params, SourceRange where) const {}
  // Emits the update of one CPU's value words.
  virtual void lower(codegen::AggregationUpdate& update) const = 0;
};

// A built-in variable: timestamp, pid, curthread...
class BuiltinVariable {
 public:
  // Translated variables read members through a translator: curpsinfo is psinfo_t from curthread.
  struct Translation {
    const char* output;  // "psinfo_t"
    const char* input;   // the built-in variable that is the translator's input, "curthread"
  };

  virtual ~BuiltinVariable() = default;
  virtual std::string_view name() const = 0;
  // The C type of its value ("uint64_t", "struct task_struct *").
  virtual const char* type() const = 0;
  virtual std::optional<Translation> translation() const { return std::nullopt; }
  // An array the script indexes (uregs[R_PC]): the use's operand 0 is the integer index, and
  // type() the element's type.
  virtual bool indexed() const { return false; }
  // Called where the variable is used as a value; refuses uses it does not support.
  virtual void check(Checker& checker, const Expr& use) const {}
  // How many distinct values it can take on this machine, when the machine bounds them (cpu: the
  // possible CPUs), else 0. An aggregation keyed by it alone never needs more entries.
  virtual uint64_t distinct_values() const { return 0; }
  // DTrace's stability attributes of the name (-v), in a clause of a provider with `provider`'s.
  virtual Attributes attributes(const ProviderStability& provider) const { return kStableCommon; }
  virtual codegen::Value lower(codegen::Lowering& lowering, const Expr& use) const = 0;
};

// The registry of every built-in; descriptors add themselves with Registered<T>.
const Function* find_function(std::string_view name);
const AggregatingFunction* find_aggregating_function(std::string_view name);
const BuiltinVariable* find_builtin_variable(std::string_view name);
// Names no D variable may take: the built-in variables and args.
bool is_reserved_variable_name(std::string_view name);
std::vector<const Function*> all_functions();
std::vector<const AggregatingFunction*> all_aggregating_functions();
std::vector<const BuiltinVariable*> all_builtin_variables();

void register_builtin(const Function& f);
void register_builtin(const AggregatingFunction& f);
void register_builtin(const BuiltinVariable& v);

// At namespace scope in a descriptor's file: `const Registered<Trace> registered;`.
template <typename Descriptor>
struct Registered {
  Descriptor descriptor;
  template <typename... Args>
  explicit Registered(Args&&... args) : descriptor(std::forward<Args>(args)...) {
    register_builtin(descriptor);
  }
};

}  // namespace dsched::lang
