// Lowering of D expressions, and reads of kernel memory.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::codegen {

class Exprs {
 public:
  explicit Exprs(Lowering& lowering) : l_(lowering) {}

  Value eval(const lang::Expr& e);
  llvm::Value* eval_int(const lang::Expr& e);   // integers and pointers as i64
  llvm::Value* condition(const lang::Expr& e);  // i1

  // Reads `size` bytes of kernel (user) memory at `address` as `type`; a bad address is a fault.
  llvm::Value* read_kernel(llvm::Value* address, uint64_t size, const lang::Type* type);
  llvm::Value* read_user(llvm::Value* address, uint64_t size, const lang::Type* type);
  // A field of a BTF-typed object, loaded directly (a faulting address reads as 0).
  llvm::Value* load_btf_field(llvm::Value* address, uint64_t size, const lang::Type* type);
  // Reads record_name's member `path` (following pointers between steps) from the kernel object
  // at `address`, e.g. task_struct {"real_parent", "tgid"}. `address` must be a BTF-typed pointer
  // (a tp_btf argument or the current task).
  llvm::Value* kernel_field(llvm::Value* address, const char* record_name, const std::vector<const char*>& path,
                            const lang::SourceRange& loc = {});
  // The kernel object an expression names (a member, an element, a dereference) as a value.
  Value kernel_object(const lang::Expr& e);
  // Its address.
  llvm::Value* address_of(const lang::Expr& e);
  // Where `size` bytes (at most `most`) at `address`, a number, lie in the scratch the clause
  // has allocated (alloca), as a pointer the verifier accepts. Any other address is a bad-address
  // fault, as DTrace has it for stores; null when the clause has allocated nothing.
  llvm::Value* clause_scratch_at(llvm::Value* address, llvm::Value* size, uint64_t most);

 private:
  Value unary(const lang::Expr& e);
  Value binary(const lang::Expr& e);
  Value string_step(const lang::Expr& e);
  Value assign(const lang::Expr& e);
  Value incdec(const lang::Expr& e);
  // An assignment's target: a D variable or a part of one, or memory reached through a pointer.
  // `operand` is evaluated once the target's value is read, as DTrace evaluates x += x++.
  std::pair<Value, Value> update(const lang::Expr& target, lang::BinaryOp op, const std::function<Value()>& operand);
  void store(const lang::Expr& target, const Value& value);
  Value ternary(const lang::Expr& e);
  Value cast(const lang::Expr& e);
  Value translated(const lang::Expr& e);
  llvm::Value* logical(const lang::Expr& e);
  llvm::Value* read_slot();
  llvm::Value* read_memory(int helper, llvm::Value* address, uint64_t size, const lang::Type* type);

  Lowering& l_;
  llvm::Value* read_slot_ = nullptr;      // one stack word per program serves every kernel read
  llvm::Function* read_slot_of_ = nullptr;
};

}  // namespace dsched::codegen
