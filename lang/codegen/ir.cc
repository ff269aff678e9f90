#include "lang/codegen/ir.h"

#include <linux/bpf.h>
#include <llvm/IR/InlineAsm.h>

namespace dsched::codegen {

llvm::Value* Ir::offset_ptr(llvm::Value* base, uint64_t offset) {
  if (offset == 0) return base;
  return b().CreateInBoundsGEP(i8(), base, b().getInt64(offset));
}

llvm::Function* Ir::begin_function(const std::string& name, const std::string& section) {
  function_ = module_.begin_program(name, section);
  function_->addFnAttr(llvm::Attribute::NoUnwind);
  bounded_slot_ = nullptr;
  return function_;
}

void Ir::begin_subprogram(llvm::Function* fn) {
  function_ = fn;
  function_->addFnAttr(llvm::Attribute::NoUnwind);
  module_.begin_body(fn);
}

void Ir::in_subprogram(llvm::Function* fn, const std::function<void()>& body) {
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  llvm::Function* caller = function_;
  llvm::Value* caller_bounded_slot = bounded_slot_;
  begin_subprogram(fn);
  bounded_slot_ = nullptr;
  body();
  function_ = caller;
  bounded_slot_ = caller_bounded_slot;
}

llvm::GlobalVariable* Ir::rodata(llvm::Constant* init, const std::string& name) {
  auto* global =
      new llvm::GlobalVariable(module_.module(), init->getType(), true, llvm::GlobalValue::InternalLinkage, init, name);
  global->setSection(".rodata");
  global->setAlignment(llvm::Align(8));
  return global;
}

llvm::BasicBlock* Ir::new_block(const std::string& name) {
  return llvm::BasicBlock::Create(module_.context(), name, function_);
}

void Ir::when(llvm::Value* condition, const std::function<void()>& body, const std::string& name) {
  llvm::BasicBlock* then = new_block(name);
  llvm::BasicBlock* done = new_block(name + ".done");
  b().CreateCondBr(condition, then, done);
  b().SetInsertPoint(then);
  body();
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

llvm::Value* Ir::entry_alloca(llvm::Type* type) {
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  b().SetInsertPoint(&function_->getEntryBlock(), function_->getEntryBlock().getFirstInsertionPt());
  return b().CreateAlloca(type);
}

llvm::Value* Ir::normalize(llvm::Value* v, const lang::Type* type) {
  if (!type->is_integer() || type->size >= 8) return v;
  llvm::Type* narrow = b().getIntNTy(static_cast<unsigned>(type->size * 8));
  llvm::Value* truncated = b().CreateTrunc(v, narrow);
  return type->is_signed ? b().CreateSExt(truncated, i64()) : b().CreateZExt(truncated, i64());
}

llvm::Value* Ir::bitfield(llvm::Value* word, uint64_t shift, uint64_t bits, bool is_signed) {
  llvm::Value* top = b().CreateShl(word, const64(static_cast<int64_t>(64 - shift - bits)));
  llvm::Value* down = const64(static_cast<int64_t>(64 - bits));
  return is_signed ? b().CreateAShr(top, down) : b().CreateLShr(top, down);
}

llvm::Value* Ir::truth(llvm::Value* v) {
  if (v->getType()->isIntegerTy(1)) return v;
  return b().CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
}

llvm::Value* Ir::opaque(llvm::Value* v) {
  auto* type = llvm::FunctionType::get(i64(), {i64()}, false);
  return b().CreateCall(llvm::InlineAsm::get(type, "", "=r,0", /*hasSideEffects=*/true), {v});
}

llvm::Value* Ir::bounded(llvm::Value* index, uint64_t limit) {
  // A volatile round trip hides from LLVM what it knows of the index, so the explicit check that
  // the verifier needs to see survives optimisation.
  // One slot per program serves every check: each store is loaded right back.
  if (!bounded_slot_) bounded_slot_ = stack_slot();
  llvm::Value* slot = bounded_slot_;
  b().CreateStore(index, slot, /*isVolatile=*/true);
  llvm::Value* opaque = b().CreateLoad(i64(), slot, /*isVolatile=*/true);
  return b().CreateSelect(b().CreateICmpULT(opaque, const64(static_cast<int64_t>(limit))), opaque,
                          const64(static_cast<int64_t>(limit - 1)));
}

// The BPF back end expands memcpy/memset inline as at most 128 stores and refuses larger ones:
// work in chunks of 64 stores. Chunks of a large copy are volatile so that LLVM does not merge them
// back into one.
void Ir::copy_bytes(llvm::Value* dst, llvm::Value* src, uint64_t n) {
  if (n > kWrittenOutBytes) {
    helper(BPF_FUNC_probe_read_kernel, {dst, const64(static_cast<int64_t>(n)), src});
    return;
  }
  for (uint64_t done = 0; done < n; done += kChunkBytes)
    b().CreateMemCpy(offset_ptr(dst, done), alignment(), offset_ptr(src, done), alignment(),
                     std::min(kChunkBytes, n - done), /*isVolatile=*/n > kChunkBytes);
}

void Ir::zero_bytes(llvm::Value* dst, uint64_t n) {
  if (n > kWrittenOutBytes) {
    copy_bytes(dst, zeroes(n), n);
    return;
  }
  for (uint64_t done = 0; done < n; done += kChunkBytes)
    b().CreateMemSet(offset_ptr(dst, done), b().getInt8(0), std::min(kChunkBytes, n - done), alignment(),
                     /*isVolatile=*/n > kChunkBytes);
}

llvm::GlobalVariable* Ir::zeroes(uint64_t bytes) {
  zeroes_size_ = std::max(zeroes_size_, bytes);
  if (!zeroes_)
    zeroes_ = new llvm::GlobalVariable(module_.module(), i8(), true, llvm::GlobalValue::InternalLinkage, b().getInt8(0),
                                       "zeroes_placeholder");
  return zeroes_;
}

void Ir::finish_zeroes() {
  if (!zeroes_) return;
  auto* zeroes = rodata(llvm::ConstantAggregateZero::get(llvm::ArrayType::get(i8(), zeroes_size_)), "zeroes");
  zeroes_->replaceAllUsesWith(zeroes);
  zeroes_->eraseFromParent();
  zeroes_ = zeroes;
}

}  // namespace dsched::codegen
