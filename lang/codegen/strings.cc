// D strings in BPF: fixed-capacity, NUL-terminated buffers that are always zero-padded after
// their NUL, so they can be copied whole, compared bytewise and used as map keys.
#include <algorithm>
#include <linux/bpf.h>

#include "lang/codegen/generator.h"

namespace dsched::codegen {

Value Generator::string_literal(const std::string& text) {
  uint64_t capacity = text.size() + 1;
  std::string padded = text;
  padded.resize((capacity + 7) & ~uint64_t(7), '\0');
  auto* init = llvm::ConstantDataArray::getString(mod_.context(), padded, false);
  auto* global = new llvm::GlobalVariable(mod_.module(), init->getType(), true, llvm::GlobalValue::InternalLinkage,
                                          init, "str");
  global->setSection(".rodata");
  global->setAlignment(llvm::Align(8));
  return {global, program_.types->string_type(), capacity};
}

Value Generator::string_from_kernel(llvm::Value* address, uint64_t capacity) {
  capacity = std::min(capacity, strsize());
  llvm::Value* text = scratch(capacity);
  b().CreateMemSet(text, b().getInt8(0), (capacity + 7) & ~uint64_t(7), llvm::MaybeAlign(8));
  mod_.call_helper(BPF_FUNC_probe_read_kernel_str, {text, const64(static_cast<int64_t>(capacity)),
                                                    b().CreateIntToPtr(address, ptr())});
  return {text, program_.types->string_type(), capacity};
}

Value Generator::current_comm() {
  constexpr uint64_t kCommSize = 16;
  llvm::Value* text = scratch(kCommSize);
  mod_.call_helper(BPF_FUNC_get_current_comm, {text, const64(kCommSize)});
  return {text, program_.types->string_type(), kCommSize};
}

Value Generator::to_string(const Value& value) {
  if (value.type->is_string()) return value;
  if (value.in_kernel && value.type->is_array()) return string_from_kernel(value.v, value.type->size);
  if (value.type->is_pointer()) return string_from_kernel(value.v, strsize());
  throw Unsupported({}, "a value of type " + lang::type_name(value.type) + " used as a string");
}

void Generator::copy_string(llvm::Value* dst, uint64_t dst_size, const Value& src) {
  uint64_t n = std::min(src.capacity, dst_size);
  b().CreateMemCpy(dst, llvm::MaybeAlign(1), src.v, llvm::MaybeAlign(1), n);
  if (n < dst_size)
    b().CreateMemSet(offset_ptr(dst, n), b().getInt8(0), dst_size - n, llvm::MaybeAlign(1));
  else
    b().CreateStore(b().getInt8(0), offset_ptr(dst, dst_size - 1));  // a full buffer still ends in NUL
}

// A bounded byte loop: for i in [0, n) runs body(i, exit), which may leave the loop by branching
// elsewhere; when the loop runs to its end it branches to `exit`.
template <typename Body>
static void byte_loop(Generator& g, uint64_t n, llvm::BasicBlock* exit, Body body) {
  auto& b = g.b();
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* head = g.new_block("loop");
  llvm::BasicBlock* next = g.new_block("loop.next");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* i = b.CreatePHI(g.i64(), 2);
  i->addIncoming(g.const64(0), from);
  body(i, exit);
  b.CreateBr(next);
  b.SetInsertPoint(next);
  llvm::Value* i_next = b.CreateAdd(i, g.const64(1));
  i->addIncoming(i_next, next);
  b.CreateCondBr(b.CreateICmpULT(i_next, g.const64(static_cast<int64_t>(n))), head, exit);
}

llvm::Value* Generator::string_compare(const Value& l, const Value& r) {
  // Compare the common capacity; a longer buffer's next byte decides whether it holds more text.
  uint64_t n = std::min(l.capacity, r.capacity);
  llvm::Value* result = stack_slot();
  b().CreateStore(const64(0), result);
  llvm::BasicBlock* done = new_block("strcmp.done");
  llvm::BasicBlock* tail = new_block("strcmp.tail");
  byte_loop(*this, n, tail, [&](llvm::Value* i, llvm::BasicBlock*) {
    llvm::Value* a = b().CreateZExt(b().CreateLoad(i8(), b().CreateInBoundsGEP(i8(), l.v, i)), i64());
    llvm::Value* c = b().CreateZExt(b().CreateLoad(i8(), b().CreateInBoundsGEP(i8(), r.v, i)), i64());
    b().CreateStore(b().CreateSub(a, c), result);
    llvm::BasicBlock* same = new_block("strcmp.same");
    llvm::BasicBlock* ended = new_block("strcmp.ended");
    b().CreateCondBr(b().CreateICmpNE(a, c), done, same);
    b().SetInsertPoint(same);
    b().CreateCondBr(b().CreateICmpEQ(a, const64(0)), done, ended);
    b().SetInsertPoint(ended);
  });
  b().SetInsertPoint(tail);
  if (l.capacity != r.capacity) {
    const Value& longer = l.capacity > r.capacity ? l : r;
    llvm::Value* next = b().CreateZExt(b().CreateLoad(i8(), offset_ptr(longer.v, n)), i64());
    b().CreateStore(l.capacity > r.capacity ? next : b().CreateNeg(next), result);
  }
  b().CreateBr(done);
  b().SetInsertPoint(done);
  return b().CreateLoad(i64(), result);
}

llvm::Value* Generator::string_length(const Value& s) {
  llvm::Value* length = stack_slot();
  llvm::BasicBlock* done = new_block("strlen.done");
  llvm::BasicBlock* full = new_block("strlen.full");
  byte_loop(*this, s.capacity, full, [&](llvm::Value* i, llvm::BasicBlock*) {
    llvm::BasicBlock* more = new_block("strlen.more");
    b().CreateStore(i, length);
    b().CreateCondBr(b().CreateICmpEQ(b().CreateLoad(i8(), b().CreateInBoundsGEP(i8(), s.v, i)), b().getInt8(0)),
                     done, more);
    b().SetInsertPoint(more);
  });
  b().SetInsertPoint(full);  // no NUL within the capacity
  b().CreateStore(const64(static_cast<int64_t>(s.capacity)), length);
  b().CreateBr(done);
  b().SetInsertPoint(done);
  return b().CreateLoad(i64(), length);
}

}  // namespace dsched::codegen
