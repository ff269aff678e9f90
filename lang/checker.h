// What semantic analysis offers the built-ins' checks: checking sub-expressions, the program's
// types and tables. Sema implements it.
#pragma once

#include <cstdint>
#include <string_view>

#include "lang/ast.h"

namespace dsched::lang {

struct Aggregation;
struct Program;

class Checker {
 public:
  virtual ~Checker() = default;

  virtual Program& program() = 0;
  virtual TypeUniverse& types() = 0;
  // A type named as C writes it: "size_t", "int", "struct task_struct *".
  virtual const Type* type(std::string_view text, SourceRange where) = 0;

  // An expression that must produce a value.
  virtual void value(ExprPtr& e) = 0;
  // A value that is an integer or a pointer; `context` names it in messages.
  virtual void scalar(ExprPtr& e, std::string_view context) = 0;
  // A string, or text (char arrays, char pointers) converted to one.
  virtual void string(ExprPtr& e, std::string_view context) = 0;
  // Converts a char array or pointer value to a D string.
  virtual void to_string(ExprPtr& e) = 0;
  // An integer constant expression; its value.
  virtual int64_t constant(ExprPtr& e, std::string_view what) = 0;
  // An @aggregation argument (printa, clear...): resolves it and returns its table entry.
  virtual const Aggregation& aggregation(Expr& reference) = 0;
  // Checks the format at call.operands[format_index] against the arguments after it, or, for
  // printa, against the keys and value of `printa_target`.
  virtual void format(Expr& call, size_t format_index, const Aggregation* printa_target) = 0;
};

}  // namespace dsched::lang
