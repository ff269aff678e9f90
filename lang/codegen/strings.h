// D strings in BPF: fixed-capacity, NUL-terminated buffers that are always zero-padded after their
// NUL, so they can be copied whole, compared bytewise and used as map keys. Also the pieces the
// string functions are built from.
#pragma once

#include <cstdint>
#include <string>

#include <linux/bpf.h>
#include <llvm/IR/Instructions.h>

#include "lang/codegen/ir.h"
#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::codegen {

class Strings {
 public:
  explicit Strings(Lowering& lowering) : l_(lowering) {}

  Value literal(const std::string& text);
  Value from_kernel(llvm::Value* address, uint64_t capacity);
  // A D string from a string, a kernel char array or a char pointer.
  Value from(const Value& value);
  Value current_comm();
  // A fresh, zeroed buffer of strsize bytes in scratch.
  Value fresh();
  // DTrace's NULL string (strtok() with no token left): an empty text whose byte after the NUL
  // is kNullMark, so that it survives copies into variables. Printing it is a fault.
  static constexpr uint8_t kNullMark = 0xff;
  void mark_null(const Value& s);
  llvm::Value* is_null(const Value& s);  // i1

  llvm::Value* compare(const Value& a, const Value& b);  // i64 <0, 0, >0
  llvm::Value* length(const Value& s);
  // a followed by b, cut at strsize - 1 bytes.
  Value join(const Value& a, const Value& b);
  // Copies src into dst; `pad` zero-fills the rest (keys and variables compare whole buffers).
  void copy(llvm::Value* dst, uint64_t dst_size, const Value& src, bool pad = true);
  // s[index] as i64; index is clamped so the verifier sees it within the buffer.
  llvm::Value* byte_at(const Value& s, llvm::Value* index);
  // src[from, to) as a new string (clamped to its capacity, NUL-terminated).
  Value copy_range(const Value& src, llvm::Value* from, llvm::Value* to);
  // Index of the first (or last) byte equal to c before the NUL, or -1.
  llvm::Value* find_byte(const Value& s, llvm::Value* c, bool last);

  // A bounded byte loop: for i in [0, n) runs body(i), which may leave the loop by branching
  // elsewhere; when the loop runs to its end it branches to `exit`, where code continues.
  template <typename Body>
  void loop(uint64_t n, llvm::BasicBlock* exit, Body body) {
    Ir& ir = l_.ir;
    auto& b = ir.b();
    llvm::BasicBlock* from = b.GetInsertBlock();
    llvm::BasicBlock* head = ir.new_block("loop");
    llvm::BasicBlock* next = ir.new_block("loop.next");
    b.CreateBr(head);
    b.SetInsertPoint(head);
    llvm::PHINode* i = b.CreatePHI(ir.i64(), 2);
    i->addIncoming(ir.const64(0), from);
    body(static_cast<llvm::Value*>(i));
    b.CreateBr(next);
    b.SetInsertPoint(next);
    llvm::Value* i_next = b.CreateAdd(i, ir.const64(1));
    i->addIncoming(i_next, next);
    b.CreateCondBr(b.CreateICmpULT(i_next, ir.const64(static_cast<int64_t>(n))), head, exit);
    b.SetInsertPoint(exit);
  }
  // Runs body(i, context) for i = 0, 1 ... n - 1 in a bpf_loop() callback, until it returns 1
  // (an i64); `context` is a struct on the caller's stack, which the callback reaches through its
  // pointer (the second). The verifier checks a callback's body once, where a loop written out
  // in the program costs it a state per iteration: scans of long strings need it.
  template <typename Body>
  void callback_loop(uint64_t n, llvm::Value* context, const char* name, Body body) {
    Ir& ir = l_.ir;
    auto& b = ir.b();
    llvm::Function* callback = ir.module().declare_callback(name);
    ir.in_subprogram(callback, [&] {
      b.CreateRet(body(b.CreatePtrToInt(callback->getArg(0), ir.i64()), callback->getArg(1)));
    });
    ir.helper(BPF_FUNC_loop, {ir.const64(static_cast<int64_t>(n)), callback, context, ir.const64(0)});
  }
  // Inside a loop's body: when `cond` holds, stores `value` into `slot` and leaves for `exit`.
  void leave_when(llvm::Value* cond, llvm::Value* slot, llvm::Value* value, llvm::BasicBlock* exit);

 private:
  uint64_t strsize() const { return l_.program.options.strsize(); }
  Lowering& l_;
};

}  // namespace dsched::codegen
