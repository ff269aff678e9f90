// Instruction building for the BPF program being emitted: blocks and conditions, stack slots,
// helper calls, integer normalisation and memory copies the BPF back end accepts.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>
#include <string>

#include "lang/codegen/bpf_module.h"
#include "lang/types.h"

namespace dsched::codegen {

// Buffers take whole 8-byte words.
constexpr uint64_t round8(uint64_t n) { return (n + 7) & ~uint64_t(7); }

class Ir {
 public:
  explicit Ir(BpfModule& module) : module_(module) {}

  llvm::IRBuilder<>& b() { return module_.builder(); }
  BpfModule& module() { return module_; }
  llvm::Type* i64() { return b().getInt64Ty(); }
  llvm::Type* i8() { return b().getInt8Ty(); }
  llvm::PointerType* ptr() { return b().getPtrTy(); }
  llvm::Value* const64(int64_t v) { return b().getInt64(static_cast<uint64_t>(v)); }
  llvm::Value* null() { return llvm::ConstantPointerNull::get(ptr()); }
  llvm::Value* offset_ptr(llvm::Value* base, uint64_t offset);
  // Calls BPF helper `id` (BPF_FUNC_*); returns its i64 result.
  llvm::Value* helper(int id, llvm::ArrayRef<llvm::Value*> args) { return module_.call_helper(id, args); }

  // Starts a program function and positions the builder at its entry.
  llvm::Function* begin_function(const std::string& name, const std::string& section);
  // Starts the body of a function declared with BpfModule::declare_subprogram().
  void begin_subprogram(llvm::Function* fn);
  // Emits body() as the body of subprogram `fn` (a bpf_loop() callback), then goes on where the
  // builder was in the function being emitted.
  void in_subprogram(llvm::Function* fn, const std::function<void()>& body);
  llvm::Function* function() const { return function_; }
  llvm::BasicBlock* new_block(const std::string& name);
  // Emits body() under `condition` (i1), then continues after it; `name` names the blocks.
  void when(llvm::Value* condition, const std::function<void()>& body, const std::string& name = "then");
  // A read-only global holding `init`, 8-byte aligned (the programs' .rodata map).
  llvm::GlobalVariable* rodata(llvm::Constant* init, const std::string& name);
  // A 64-bit stack slot allocated in the entry block (so LLVM can keep it in a register).
  llvm::Value* stack_slot() { return entry_alloca(i64()); }
  // Stack space in the entry block: BPF has no stack allocation anywhere else.
  llvm::Value* entry_alloca(llvm::Type* type);

  // Truncates and re-extends v to the D integer type `type`.
  llvm::Value* normalize(llvm::Value* v, const lang::Type* type);
  // The `bits`-wide bit-field at bit `shift` of `word` (i64), sign-extended when `is_signed`.
  llvm::Value* bitfield(llvm::Value* word, uint64_t shift, uint64_t bits, bool is_signed);
  // i1 -> i64 0/1, and i64 -> i1 truth.
  llvm::Value* truth(llvm::Value* v);
  llvm::Value* widen(llvm::Value* flag) { return b().CreateZExt(flag, i64()); }
  // `v` (i64) hidden from the optimiser: values that meet in a phi go through it so that LLVM does
  // not merge the loads that made them into one load from a phi of addresses, which the verifier
  // refuses when the addresses are of different kinds (context, map value, stack).
  llvm::Value* opaque(llvm::Value* v);
  // index, with a bound check below `limit` that survives optimisation (out of range: limit - 1).
  llvm::Value* bounded(llvm::Value* index, uint64_t limit);

  // memcpy/memset of any size: written out as stores up to kWrittenOutBytes, larger ones by a
  // helper's copy (thousands of stores cost LLVM seconds and the verifier as many instructions).
  void copy_bytes(llvm::Value* dst, llvm::Value* src, uint64_t n);
  void zero_bytes(llvm::Value* dst, uint64_t n);
  // Read-only zeroes at least `bytes` long (new map values start from them); finish_zeroes()
  // gives them their size once every use is known.
  llvm::GlobalVariable* zeroes(uint64_t bytes);
  void finish_zeroes();

 private:
  // Buffers are 8-byte aligned and strings take whole words: copies move 8-byte words.
  static llvm::Align alignment() { return llvm::Align(8); }
  static constexpr uint64_t kChunkBytes = 64 * 8;
  static constexpr uint64_t kWrittenOutBytes = 512;

  BpfModule& module_;
  llvm::Function* function_ = nullptr;
  llvm::Value* bounded_slot_ = nullptr;     // bounded()'s stack word in function_
  llvm::GlobalVariable* zeroes_ = nullptr;  // a placeholder until finish_zeroes()
  uint64_t zeroes_size_ = 8;
};

}  // namespace dsched::codegen
