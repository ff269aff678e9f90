// A checked D program: what the code generator and the runtime consume.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abi/options.h"
#include "lang/ast.h"
#include "lang/provider.h"
#include "lang/types.h"

namespace dsched::lang {

struct ResolvedDescription {
  std::string text;                  // as written (macros expanded)
  std::vector<const Probe*> probes;  // every probe it matched (at least one)
};

struct Clause {
  std::vector<ResolvedDescription> descriptions;
  std::vector<const Probe*> probes;  // union of the above, in id order, no repeats
  ExprPtr predicate;                 // null when none
  std::vector<StmtPtr> statements;
  SourceRange loc;
  // -v: the weakest stability of its probe descriptions, and of the names its predicate and
  // actions use (DTrace's "statement attributes").
  Attributes description_attributes = kStableCommon;
  Attributes statement_attributes = kStableCommon;
  // A later part of a clause split at its if statements (conditionals.cc): it belongs to the
  // clause before it, so an exit() there does not stop it.
  bool continues = false;
};

struct Variable {
  int id = 0;                        // index in its table
  std::string name;
  VarScope scope = VarScope::Global;
  const Type* type = nullptr;        // the value type
  std::vector<const Type*> key_types;  // non-empty: an associative array (global or self->)
  bool declared = false;             // declared with a D declaration rather than by first use
  SourceRange loc;                   // first appearance
};

struct Aggregation {
  int id = 0;                        // in order of first appearance; also the print order
  std::string name;                  // "" for @
  const AggregatingFunction* function = nullptr;
  std::vector<int64_t> params;       // the function's constant parameters (lquantize: base,
                                     // limit, step; llquantize: factor, low, high, nsteps)
  std::vector<const Type*> key_types;
  const Type* arg_type = nullptr;    // type of the value argument; null for count()
  SourceRange loc;
};

struct Program {
  std::shared_ptr<TypeUniverse> types;  // owns every Type the program refers to
  std::vector<Clause> clauses;          // in source order
  std::vector<Variable> globals;        // scalars and associative arrays
  std::vector<Variable> thread_locals;  // self->
  std::vector<Variable> clause_locals;  // this->
  std::vector<Aggregation> aggregations;
  abi::Options options;
  bool uses_speculation = false;        // speculation buffers are needed
  bool uses_exit = false;               // exit() appears: clauses test whether it has run
  bool stamp_records = false;           // see FrontendOptions::stamp_records
};

// Readable dumps, stable for golden tests: the parse tree (before checking) and the typed program.
std::string dump(const ParseTree& tree);
std::string dump(const Program& program);
std::string dump(const Expr& expr);

}  // namespace dsched::lang
