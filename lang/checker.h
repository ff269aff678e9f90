// What semantic analysis offers the built-ins' checks: checking sub-expressions, the program's
// types and tables. Sema implements it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "lang/ast.h"
#include "lang/error_tags.h"

namespace dsched::lang {

struct Aggregation;
struct Program;
struct Probe;

class Checker {
 public:
  virtual ~Checker() = default;

  virtual Program& program() = 0;
  // The probes of the clause being checked (none outside clauses).
  virtual const std::vector<const Probe*>& clause_probes() = 0;
  virtual TypeUniverse& types() = 0;
  // A type named as C writes it: "size_t", "int", "struct task_struct *".
  virtual const Type* type(std::string_view text, SourceRange where) = 0;

  // An expression that must produce a value; `void_tag` is DTrace's error tag when it has none,
  // `aggregation_tag` when it is an @aggregation (which has no value outside its own statement).
  virtual void value(ExprPtr& e, ErrTag void_tag = ErrTag::D_TYPE_ERR,
                     ErrTag aggregation_tag = ErrTag::D_OP_INCOMPAT) = 0;
  // A value that is an integer or a pointer; `context` names it in messages, `tag` is DTrace's
  // error tag when it is not (an argument against its prototype, by default).
  virtual void scalar(ExprPtr& e, std::string_view context, ErrTag tag = ErrTag::D_PROTO_ARG) = 0;
  // A value for a pointer parameter: a pointer, an array, or the constant 0 (DTrace takes no
  // other integer for a pointer).
  virtual void pointer(ExprPtr& e, std::string_view context) = 0;
  // A string, or text (char arrays, char pointers) converted to one.
  virtual void string(ExprPtr& e, std::string_view context) = 0;
  // Converts a char array or pointer value to a D string.
  virtual void to_string(ExprPtr& e) = 0;
  // An integer constant expression; its value.
  virtual int64_t constant(ExprPtr& e, std::string_view what, ErrTag tag = ErrTag::D_PROTO_ARG) = 0;
  // An @aggregation argument (printa, clear...): resolves it and returns its table entry;
  // `not_aggregation` is DTrace's tag for an argument that is not one, `undefined` for @name[keys]
  // that no earlier statement assigns (@name alone is an unknown identifier). Keys after the name
  // are allowed and, as in DTrace, mean nothing.
  virtual const Aggregation& aggregation(Expr& reference, ErrTag not_aggregation = ErrTag::D_PRINTA_AGGARG,
                                         ErrTag undefined = ErrTag::D_PRINTA_AGGBAD) = 0;
  // Checks the format at call.operands[format_index] against the arguments after it, or, for
  // printa, against the keys and value of `printa_target`.
  virtual void format(Expr& call, size_t format_index, const Aggregation* printa_target) = 0;
};

}  // namespace dsched::lang
