// A checked D program: what the code generator and the runtime consume.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ast.h"
#include "options.h"
#include "registry.h"
#include "types.h"

namespace dsched::lang {

struct ResolvedDescription {
  std::string text;                         // as written (macros expanded)
  std::vector<const probes::Probe*> probes;  // every probe it matched (at least one)
};

struct Clause {
  std::vector<ResolvedDescription> descriptions;
  std::vector<const probes::Probe*> probes;  // union of the above, in registry order, no repeats
  ExprPtr predicate;                         // null when none
  std::vector<StmtPtr> statements;
  SourceRange loc;
};

struct Variable {
  int id = 0;                        // index in its table
  std::string name;
  VarScope scope = VarScope::Global;
  const Type* type = nullptr;        // the value type
  std::vector<const Type*> key_types;  // non-empty: a global associative array
  bool declared = false;             // declared with a D declaration rather than by first use
  SourceRange loc;                   // first appearance
};

struct Aggregation {
  int id = 0;                        // in order of first appearance; also the print order
  std::string name;                  // "" for @
  AggFunc func = AggFunc::Count;
  std::vector<int64_t> params;       // lquantize: base, limit, step; llquantize: factor, low,
                                     // high, nsteps; empty otherwise
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
  Options options;
  std::vector<std::string> macro_args;  // [0] = script name
  std::set<Builtin> builtins_used;
  std::set<std::string> providers_used;
  bool uses_speculation = false;
};

// A readable dump of the typed program, stable for golden tests.
std::string dump(const Program& program);
std::string dump(const Expr& expr);

}  // namespace dsched::lang
