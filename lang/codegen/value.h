// An evaluated expression.
#pragma once

#include <cstdint>

#include <llvm/IR/Value.h>

#include "lang/types.h"

namespace dsched::codegen {

// Integers and pointers are i64 values already normalised to their D type (sign- or zero-extended
// from its size). Strings are pointers to NUL-terminated text of at most `capacity` bytes. Kernel
// arrays and structs are i64 kernel addresses (`in_kernel`).
struct Value {
  llvm::Value* v = nullptr;
  const lang::Type* type = nullptr;
  uint64_t capacity = 0;  // strings
  bool in_kernel = false;
  // A kernel address the verifier knows as a BTF-typed pointer (tp_btf arguments, the current task,
  // pointers loaded through those): its fields are read with plain loads instead of a helper call.
  bool btf = false;
};

}  // namespace dsched::codegen
