// D strings in BPF: fixed-capacity, NUL-terminated buffers that are always zero-padded after their
// NUL, so they can be copied whole, compared bytewise and used as map keys. Also the pieces the
// string functions are built from.
#pragma once

#include <linux/bpf.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <string>
#include <vector>

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
  static constexpr uint64_t kCommBytes = 16;  // a task's name (task_struct's comm), its NUL included
  Value current_comm();
  // What a D string takes: strsize characters and the NUL (its capacity), in whole words.
  uint64_t capacity_of_strings() const { return l_.program.options.string_capacity(); }
  uint64_t bytes_of_strings() const { return l_.program.options.string_bytes(); }
  // A fresh, zeroed string buffer in scratch.
  Value fresh();
  // DTrace's NULL string (strtok() with no token left): an empty text whose byte after the NUL
  // is kNullMark, so that it survives copies into variables. Printing it is a fault.
  static constexpr uint8_t kNullMark = 0xff;
  void mark_null(const Value& s);
  llvm::Value* is_null(const Value& s);  // i1
  // A read-only NULL string: what a string in a dynamic variable (self->, an associative array)
  // reads as before it is assigned or after it is freed, as in DTrace.
  llvm::GlobalVariable* null_text();

  llvm::Value* compare(const Value& a, const Value& b);  // i64 <0, 0, >0
  llvm::Value* length(const Value& s);
  // a followed by b, cut at strsize bytes.
  Value join(const Value& a, const Value& b);
  // Text built in pieces that may run past strsize goes into a zeroed buffer of two strings'
  // bytes; cut_wide() ends it at strsize and gives the string.
  llvm::Value* wide_buffer();
  Value cut_wide(llvm::Value* buffer);
  // Copies src into dst, a D string's storage, cutting longer text at strsize; `pad` zero-fills
  // the rest (keys and variables compare whole buffers).
  void copy(llvm::Value* dst, const Value& src, bool pad = true);
  // The same into `room` bytes that hold text of dst_capacity - 1 bytes and its NUL.
  void copy(llvm::Value* dst, uint64_t dst_capacity, uint64_t room, const Value& src, bool pad = true);
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
    ++callback_depth_;
    ir.in_subprogram(callback,
                     [&] { b.CreateRet(body(b.CreatePtrToInt(callback->getArg(0), ir.i64()), callback->getArg(1))); });
    --callback_depth_;
    ir.helper(BPF_FUNC_loop, {ir.const64(static_cast<int64_t>(n)), callback, context, ir.const64(0)});
  }
  // What a scan's body works on: the caller's pointers, and i64 words it reads and writes through
  // their slots. In a bpf_loop() callback both live in the callback's context, so the body must
  // reach the caller's values through these alone.
  struct ScanView {
    std::vector<llvm::Value*> pointers;
    std::vector<llvm::Value*> words;  // slots of i64
    bool in_callback = false;
  };
  // A scan's index i into a buffer of `capacity` bytes. Written out, it is a constant per step; in
  // a callback it is clamped so that the verifier sees it in bounds.
  llvm::Value* scan_index(const ScanView& view, llvm::Value* i, uint64_t capacity) {
    return view.in_callback ? l_.ir.bounded(i, capacity) : i;
  }
  // Byte i (below `capacity`) of the buffer at view.pointers[k], as i64.
  llvm::Value* scan_byte(const ScanView& view, unsigned k, llvm::Value* i, uint64_t capacity) {
    return load_byte(view.pointers[k], scan_index(view, i, capacity));
  }
  // Runs body(i, view) for i = 0, 1 ... n - 1 until it returns an i1 true, and gives the words'
  // final values. Scans of up to `written_out` bytes are written out in the program, which is
  // fastest; longer ones (and a scan whose body scans again) run in a bpf_loop() callback, checked
  // once by the verifier where a written-out loop costs it a state per byte (a few scans of a
  // large strsize pass its limits).
  static constexpr uint64_t kWrittenOutScan = 65;  // execname, probefunc, short literals: 64 bytes and a NUL
  template <typename Body>
  std::vector<llvm::Value*> scan(uint64_t n, const char* name, const std::vector<llvm::Value*>& pointers,
                                 const std::vector<llvm::Value*>& words, Body body,
                                 uint64_t written_out = kWrittenOutScan) {
    Ir& ir = l_.ir;
    auto& b = ir.b();
    ScanView view{pointers, {}};
    if (n <= written_out && take_written_out_scan()) {
      for (llvm::Value* initial : words) {
        view.words.push_back(ir.stack_slot());
        b.CreateStore(initial, view.words.back());
      }
      // One step per byte, each with its index a constant (a byte of a literal then compares as an
      // immediate): LLVM would merge a loop's early exit with its end and keep it a loop.
      llvm::BasicBlock* done = ir.new_block(std::string(name) + ".done");
      for (uint64_t i = 0; i < n; ++i) {
        llvm::BasicBlock* more = ir.new_block(std::string(name) + ".more");
        b.CreateCondBr(body(ir.const64(static_cast<int64_t>(i)), view), done, more);
        b.SetInsertPoint(more);
      }
      b.CreateBr(done);
      b.SetInsertPoint(done);
      return load_words(view.words);
    }
    std::vector<llvm::Type*> fields(pointers.size(), ir.ptr());
    fields.resize(pointers.size() + words.size(), ir.i64());
    auto* type = llvm::StructType::get(b.getContext(), fields);
    llvm::Value* context = ir.entry_alloca(type);
    b.CreateLifetimeStart(context);  // calls in one program share its stack space
    // Inside the callback the pointers are read from their fields; outside, the fields are where
    // they are stored.
    auto views = [&](llvm::Value* base, bool inside) {
      ScanView v{{}, {}, inside};
      for (unsigned k = 0; k < fields.size(); ++k) {
        llvm::Value* field = b.CreateStructGEP(type, base, k);
        if (k >= pointers.size())
          v.words.push_back(field);
        else
          v.pointers.push_back(inside ? b.CreateLoad(ir.ptr(), field) : field);
      }
      return v;
    };
    ScanView outside = views(context, false);
    for (size_t k = 0; k < pointers.size(); ++k) b.CreateStore(pointers[k], outside.pointers[k]);
    for (size_t k = 0; k < words.size(); ++k) b.CreateStore(words[k], outside.words[k]);
    callback_loop(n, context, name, [&](llvm::Value* i, llvm::Value* c) { return ir.widen(body(i, views(c, true))); });
    std::vector<llvm::Value*> results = load_words(outside.words);
    b.CreateLifetimeEnd(context);
    return results;
  }
  // Inside a loop's body: when `cond` holds, stores `value` into `slot` and leaves for `exit`.
  void leave_when(llvm::Value* cond, llvm::Value* slot, llvm::Value* value, llvm::BasicBlock* exit);

 private:
  // Whether the function being emitted may write out one more scan. Each step of a written-out
  // scan can leave it with other values, and the verifier follows every combination through the
  // rest of the program: a few such scans in one clause pass its limits, where a callback's
  // results meet in one state. A predicate and its clause keep their first two written out; a
  // callback, which the verifier walks again until its states settle, writes out none.
  bool take_written_out_scan();
  static constexpr int kWrittenOutScans = 2;
  llvm::Function* written_out_in_ = nullptr;
  int written_out_left_ = 0;
  int callback_depth_ = 0;
  llvm::GlobalVariable* null_text_ = nullptr;
  // Ends the text in a buffer of `capacity` at capacity - 1 bytes: zeroes from there to the end
  // of its `room`.
  void cut(llvm::Value* buffer, uint64_t capacity, uint64_t room);
  std::vector<llvm::Value*> load_words(const std::vector<llvm::Value*>& slots);
  llvm::Value* load_byte(llvm::Value* buffer, llvm::Value* index);  // as i64
  Lowering& l_;
};

}  // namespace dsched::codegen
