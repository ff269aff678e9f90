#include "lang/codegen/strings.h"

#include <linux/bpf.h>

#include <algorithm>

#include "lang/codegen/firing.h"
#include "lang/codegen/records.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {

Value Strings::literal(const std::string& text) {
  uint64_t capacity = text.size() + 1;
  std::string padded = text;
  padded.resize(round8(capacity), '\0');
  auto* init = llvm::ConstantDataArray::getString(l_.ir.module().context(), padded, false);
  return {l_.ir.rodata(init, "str"), l_.program.types->string_type(), capacity};
}

Value Strings::from_kernel(llvm::Value* address, uint64_t capacity) {
  Ir& ir = l_.ir;
  capacity = std::min(capacity, capacity_of_strings());
  llvm::Value* text = l_.firing.scratch(capacity);
  ir.zero_bytes(text, round8(capacity));
  llvm::Value* copied = ir.helper(BPF_FUNC_probe_read_kernel_str, {text, ir.const64(static_cast<int64_t>(capacity)),
                                                                   ir.b().CreateIntToPtr(address, ir.ptr())});
  // Text at an address that cannot be read is a fault, as in DTrace, not an empty string.
  l_.records.check_fault(ir.b().CreateICmpSLT(copied, ir.const64(0)), abi::FaultKind::InvalidAddress, address);
  return {text, l_.program.types->string_type(), capacity};
}

Value Strings::current_comm() {
  llvm::Value* text = l_.firing.scratch(kCommBytes);
  l_.ir.helper(BPF_FUNC_get_current_comm, {text, l_.ir.const64(kCommBytes)});
  return {text, l_.program.types->string_type(), kCommBytes};
}

Value Strings::fresh() {
  llvm::Value* text = l_.firing.scratch(bytes_of_strings());
  l_.ir.zero_bytes(text, bytes_of_strings());
  return {text, l_.program.types->string_type(), capacity_of_strings()};
}

void Strings::mark_null(const Value& s) {
  l_.ir.b().CreateStore(l_.ir.b().getInt8(kNullMark), l_.ir.offset_ptr(s.v, 1));
}

llvm::GlobalVariable* Strings::null_text() {
  if (!null_text_) {
    std::string text(bytes_of_strings(), '\0');
    text[1] = static_cast<char>(kNullMark);
    null_text_ = l_.ir.rodata(llvm::ConstantDataArray::getString(l_.ir.module().context(), text, false), "null_string");
  }
  return null_text_;
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
    l_.ir.copy_bytes(text.v, value.v, std::min(value.type->size, capacity_of_strings() - 1));
    return text;
  }
  if (value.type->is_pointer()) return from_kernel(value.v, capacity_of_strings());
  lang::fail({}, lang::ErrTag::D_UNKNOWN, "a value of type " + lang::type_name(value.type) + " used as a string");
}

void Strings::copy(llvm::Value* dst, const Value& src, bool pad) {
  copy(dst, capacity_of_strings(), bytes_of_strings(), src, pad);
}

void Strings::copy(llvm::Value* dst, uint64_t dst_capacity, uint64_t room, const Value& src, bool pad) {
  Ir& ir = l_.ir;
  // Whole words: a buffer's capacity rounds up within its allocation.
  uint64_t whole = std::min(round8(src.capacity), room);
  ir.copy_bytes(dst, src.v, whole);
  if (src.capacity > dst_capacity)
    cut(dst, dst_capacity, room);
  else if (pad && whole < room)
    ir.zero_bytes(ir.offset_ptr(dst, whole), room - whole);
}

llvm::Value* Strings::compare(const Value& left, const Value& right) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  // Compare the common capacity; a longer buffer's next byte decides whether it holds more text.
  // As in DTrace, no more than strsize characters count.
  uint64_t strsize = capacity_of_strings() - 1;
  uint64_t n = std::min({left.capacity, right.capacity, strsize});
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
  if (left.capacity == right.capacity || n == strsize) return words[kDifference];
  const Value& longer = left.capacity > right.capacity ? left : right;
  llvm::Value* next = b.CreateZExt(b.CreateLoad(ir.i8(), ir.offset_ptr(longer.v, n)), ir.i64());
  return b.CreateSelect(ir.truth(words[kDecided]), words[kDifference],
                        left.capacity > right.capacity ? next : b.CreateNeg(next));
}

llvm::Value* Strings::length(const Value& s) {
  // The helper that copies kernel text stops at the NUL and returns the bytes it copied: the length
  // without a loop, which would cost the verifier a state per byte. Every D string has its NUL
  // within its capacity; the copy goes to a buffer nothing reads.
  // No more than strsize characters count.
  Ir& ir = l_.ir;
  uint64_t capacity = std::min(s.capacity, capacity_of_strings());
  llvm::Value* copied = ir.helper(BPF_FUNC_probe_read_kernel_str,
                                  {l_.firing.scratch(capacity), ir.const64(static_cast<int64_t>(capacity)), s.v});
  return ir.bounded(ir.b().CreateSub(copied, ir.const64(1)), capacity);
}

Value Strings::join(const Value& a, const Value& b) {
  // a, then b over a's NUL, each copied up to its NUL by the helper; b may run past strsize into a
  // second buffer's worth of room, and the text is cut at strsize.
  Ir& ir = l_.ir;
  uint64_t n = capacity_of_strings();
  llvm::Value* out = wide_buffer();
  uint64_t first = std::min(a.capacity, n);
  llvm::Value* copied = ir.helper(BPF_FUNC_probe_read_kernel_str, {out, ir.const64(static_cast<int64_t>(first)), a.v});
  llvm::Value* at = ir.bounded(ir.b().CreateSub(copied, ir.const64(1)), n);
  ir.helper(BPF_FUNC_probe_read_kernel_str, {ir.b().CreateInBoundsGEP(ir.i8(), out, at),
                                             ir.const64(static_cast<int64_t>(std::min(b.capacity, n))), b.v});
  return cut_wide(out);
}

llvm::Value* Strings::wide_buffer() {
  llvm::Value* out = l_.firing.scratch(2 * bytes_of_strings());
  l_.ir.zero_bytes(out, 2 * bytes_of_strings());
  return out;
}

Value Strings::cut_wide(llvm::Value* buffer) {
  // What ran past the cut is not part of the text.
  cut(buffer, capacity_of_strings(), bytes_of_strings());
  l_.ir.zero_bytes(l_.ir.offset_ptr(buffer, bytes_of_strings()), bytes_of_strings());
  return {buffer, l_.program.types->string_type(), capacity_of_strings()};
}

void Strings::cut(llvm::Value* buffer, uint64_t capacity, uint64_t room) {
  for (uint64_t i = capacity - 1; i < room; ++i)
    l_.ir.b().CreateStore(l_.ir.b().getInt8(0), l_.ir.offset_ptr(buffer, i));
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
  uint64_t n = std::min(src.capacity, capacity_of_strings()) - 1;
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
