// D variables: global scalars (one array map), associative arrays (a hash map each; storing 0
// deletes, as in DTrace), thread-locals (task local storage of the context task) and clause-locals
// (per-CPU scratch, shared by the clauses of one firing).
#pragma once

#include <cstdint>
#include <vector>

#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::codegen {

class Variables {
 public:
  explicit Variables(Lowering& lowering) : l_(lowering) {}

  Value load(const lang::Expr& variable);
  void store(const lang::Expr& variable, const Value& value);
  // A packed key in scratch: each integer as 8 bytes, each string as strsize bytes.
  llvm::Value* key(const std::vector<const lang::Expr*>& keys, const std::vector<const lang::Type*>& types);

 private:
  // Where a variable lives: `base` + `offset`. For associative-array elements and thread-locals
  // the base may be null (no element, no storage): callers test it before adding the offset,
  // since the verifier forbids arithmetic on a pointer that may be null.
  struct Slot {
    llvm::Value* base;
    uint64_t offset = 0;
    bool may_be_null = false;
  };
  Slot slot(const lang::Expr& e, bool create);
  llvm::Value* element_key(const lang::Expr& e);
  // Emits present(pointer) when the slot exists and absent() otherwise; returns to a join block.
  template <typename Present, typename Absent>
  void with_slot(const Slot& slot, Present present, Absent absent);
  void store_into(llvm::Value* slot, const lang::Variable& var, const Value& value);

  Lowering& l_;
};

}  // namespace dsched::codegen
