#include "lang/codegen/strings.h"

#include <linux/bpf.h>

#include <algorithm>

#include "lang/codegen/firing.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {

Value Strings::literal(const std::string& text) {
  uint64_t capacity = text.size() + 1;
  std::string padded = text;
  padded.resize((capacity + 7) & ~uint64_t(7), '\0');
  auto* init = llvm::ConstantDataArray::getString(l_.ir.module().context(), padded, false);
  return {l_.ir.rodata(init, "str"), l_.program.types->string_type(), capacity};
}

Value Strings::from_kernel(llvm::Value* address, uint64_t capacity) {
  Ir& ir = l_.ir;
  capacity = std::min(capacity, strsize());
  llvm::Value* text = l_.firing.scratch(capacity);
  ir.zero_bytes(text, (capacity + 7) & ~uint64_t(7));
  ir.helper(BPF_FUNC_probe_read_kernel_str,
            {text, ir.const64(static_cast<int64_t>(capacity)), ir.b().CreateIntToPtr(address, ir.ptr())});
  return {text, l_.program.types->string_type(), capacity};
}

Value Strings::current_comm() {
  constexpr uint64_t kCommSize = 16;
  llvm::Value* text = l_.firing.scratch(kCommSize);
  l_.ir.helper(BPF_FUNC_get_current_comm, {text, l_.ir.const64(kCommSize)});
  return {text, l_.program.types->string_type(), kCommSize};
}

Value Strings::fresh() {
  llvm::Value* text = l_.firing.scratch(strsize());
  l_.ir.zero_bytes(text, strsize());
  return {text, l_.program.types->string_type(), strsize()};
}

void Strings::mark_null(const Value& s) {
  l_.ir.b().CreateStore(l_.ir.b().getInt8(kNullMark), l_.ir.offset_ptr(s.v, 1));
}

llvm::Value* Strings::is_null(const Value& s) {
  auto& b = l_.ir.b();
  if (s.capacity < 2 || s.in_kernel || !s.type->is_string()) return b.getFalse();
  llvm::Value* empty = b.CreateICmpEQ(b.CreateLoad(l_.ir.i8(), s.v), b.getInt8(0));
  llvm::Value* marked = b.CreateICmpEQ(b.CreateLoad(l_.ir.i8(), l_.ir.offset_ptr(s.v, 1)), b.getInt8(kNullMark));
  return b.CreateAnd(empty, marked);
}

Value Strings::from(const Value& value) {
  if (value.type->is_string()) return value;
  if (value.in_kernel && value.type->is_array()) return from_kernel(value.v, value.type->size);
  if (value.type->is_array()) {  // a char array in a D variable: it need not end in a NUL
    Value text = fresh();
    l_.ir.copy_bytes(text.v, value.v, std::min(value.type->size, strsize() - 1));
    return text;
  }
  if (value.type->is_pointer()) return from_kernel(value.v, strsize());
  lang::fail({}, lang::ErrTag::D_UNKNOWN, "a value of type " + lang::type_name(value.type) + " used as a string");
}

void Strings::copy(llvm::Value* dst, uint64_t dst_size, const Value& src, bool pad) {
  Ir& ir = l_.ir;
  uint64_t n = std::min(src.capacity, dst_size);
  // Whole words: a source buffer's capacity rounds up within its allocation.
  uint64_t whole = std::min((n + 7) & ~uint64_t(7), dst_size);
  ir.copy_bytes(dst, src.v, ir.word_aligned() ? whole : n);
  if (n == dst_size)
    ir.b().CreateStore(ir.b().getInt8(0), ir.offset_ptr(dst, dst_size - 1));  // a full buffer still ends in NUL
  else if (pad && whole < dst_size)
    ir.zero_bytes(ir.offset_ptr(dst, whole), dst_size - whole);
}

llvm::Value* Strings::compare(const Value& left, const Value& right) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  // Compare the common capacity; a longer buffer's next byte decides whether it holds more text.
  uint64_t n = std::min(left.capacity, right.capacity);
  enum Word { kDifference, kDecided };
  std::vector<llvm::Value*> words =
      scan(n, "strcmp", {left.v, right.v}, {ir.const64(0), ir.const64(0)}, [&](llvm::Value* i, const ScanView& v) {
        llvm::Value* a = scan_byte(v, 0, i, left.capacity);
        llvm::Value* c = scan_byte(v, 1, i, right.capacity);
        llvm::Value* decided = b.CreateOr(b.CreateICmpNE(a, c), b.CreateICmpEQ(a, ir.const64(0)));
        b.CreateStore(b.CreateSub(a, c), v.words[kDifference]);
        b.CreateStore(ir.widen(decided), v.words[kDecided]);
        return decided;
      });
  if (left.capacity == right.capacity) return words[kDifference];
  const Value& longer = left.capacity > right.capacity ? left : right;
  llvm::Value* next = b.CreateZExt(b.CreateLoad(ir.i8(), ir.offset_ptr(longer.v, n)), ir.i64());
  return b.CreateSelect(ir.truth(words[kDecided]), words[kDifference],
                        left.capacity > right.capacity ? next : b.CreateNeg(next));
}

llvm::Value* Strings::length(const Value& s) {
  // The helper that copies kernel text stops at the NUL and returns the bytes it copied: the length
  // without a loop, which would cost the verifier a state per byte. Every D string has its NUL
  // within its capacity; the copy goes to a buffer nothing reads.
  Ir& ir = l_.ir;
  llvm::Value* copied = ir.helper(BPF_FUNC_probe_read_kernel_str,
                                  {l_.firing.scratch(s.capacity), ir.const64(static_cast<int64_t>(s.capacity)), s.v});
  return ir.bounded(ir.b().CreateSub(copied, ir.const64(1)), s.capacity);
}

Value Strings::join(const Value& a, const Value& b) {
  // a, then b over a's NUL, each copied up to its NUL by the helper; b may run past strsize into a
  // second buffer's worth of room, and the text is cut at strsize - 1.
  Ir& ir = l_.ir;
  uint64_t n = strsize();
  llvm::Value* out = l_.firing.scratch(2 * n);
  ir.zero_bytes(out, 2 * n);
  uint64_t first = std::min(a.capacity, n);
  llvm::Value* copied = ir.helper(BPF_FUNC_probe_read_kernel_str, {out, ir.const64(static_cast<int64_t>(first)), a.v});
  llvm::Value* at = ir.bounded(ir.b().CreateSub(copied, ir.const64(1)), n);
  ir.helper(BPF_FUNC_probe_read_kernel_str, {ir.b().CreateInBoundsGEP(ir.i8(), out, at),
                                             ir.const64(static_cast<int64_t>(std::min(b.capacity, n))), b.v});
  ir.b().CreateStore(ir.b().getInt8(0), ir.offset_ptr(out, n - 1));
  ir.zero_bytes(ir.offset_ptr(out, n), n);  // what ran past the cut is not part of the text
  return {out, l_.program.types->string_type(), n};
}

llvm::Value* Strings::byte_at(const Value& s, llvm::Value* index) {
  return load_byte(s.v, l_.ir.bounded(index, s.capacity));
}

llvm::Value* Strings::load_byte(llvm::Value* buffer, llvm::Value* index) {
  Ir& ir = l_.ir;
  return ir.b().CreateZExt(ir.b().CreateLoad(ir.i8(), ir.b().CreateInBoundsGEP(ir.i8(), buffer, index)), ir.i64());
}

Value Strings::copy_range(const Value& src, llvm::Value* from, llvm::Value* to) {
  // One helper call copies the bytes up to `to` or the NUL, whichever comes first (a loop would
  // cost the verifier a state per byte). Past the text a D string holds zeroes.
  Ir& ir = l_.ir;
  auto& b = ir.b();
  Value out = fresh();
  uint64_t n = std::min(src.capacity, strsize() - 1);
  llvm::Value* zero = ir.const64(0);
  llvm::Value* start = ir.bounded(b.CreateSelect(b.CreateICmpSLT(from, zero), zero, from), src.capacity);
  llvm::Value* count = b.CreateSub(to, start);
  count = b.CreateSelect(b.CreateICmpSLT(count, zero), zero, count);
  llvm::Value* size = ir.bounded(b.CreateAdd(count, ir.const64(1)), n + 2);  // the text and its NUL
  ir.helper(BPF_FUNC_probe_read_kernel_str, {out.v, size, b.CreateInBoundsGEP(ir.i8(), src.v, start)});
  return out;
}

llvm::Value* Strings::find_byte(const Value& s, llvm::Value* c, bool last) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  enum Word { kFound, kByte };
  llvm::Value* wanted = b.CreateAnd(c, ir.const64(0xff));
  return scan(s.capacity, last ? "find_last_byte" : "find_byte", {s.v}, {ir.const64(-1), wanted},
              [&](llvm::Value* i, const ScanView& v) {
                llvm::Value* byte = scan_byte(v, 0, i, s.capacity);
                llvm::Value* end = b.CreateICmpEQ(byte, ir.const64(0));
                llvm::Value* match =
                    b.CreateAnd(b.CreateNot(end), b.CreateICmpEQ(byte, b.CreateLoad(ir.i64(), v.words[kByte])));
                ir.when(match, [&] { b.CreateStore(i, v.words[kFound]); });
                return last ? end : b.CreateOr(end, match);
              })[kFound];
}

bool Strings::take_written_out_scan() {
  if (callback_depth_ > 0) return false;
  if (written_out_in_ != l_.ir.function()) {
    written_out_in_ = l_.ir.function();
    written_out_left_ = kWrittenOutScans;
  }
  return written_out_left_-- > 0;
}

std::vector<llvm::Value*> Strings::load_words(const std::vector<llvm::Value*>& slots) {
  std::vector<llvm::Value*> values;
  for (llvm::Value* slot : slots) values.push_back(l_.ir.b().CreateLoad(l_.ir.i64(), slot));
  return values;
}

void Strings::leave_when(llvm::Value* cond, llvm::Value* slot, llvm::Value* value, llvm::BasicBlock* exit) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::BasicBlock* next = ir.new_block("leave.no");
  llvm::BasicBlock* leave = ir.new_block("leave.yes");
  b.CreateCondBr(cond, leave, next);
  b.SetInsertPoint(leave);
  b.CreateStore(value, slot);
  b.CreateBr(exit);
  b.SetInsertPoint(next);
}

}  // namespace dsched::codegen
