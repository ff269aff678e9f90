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
  zero_bytes(text, (capacity + 7) & ~uint64_t(7));
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

// The BPF back end expands memcpy/memset inline as at most 128 stores and refuses larger ones:
// work in chunks of 64 stores. Every string buffer starts 8-byte aligned when strsize is a
// multiple of 8 (the usual case), so the stores are whole words then. Chunks of a large copy are
// volatile so that LLVM does not merge them back into one.
static llvm::MaybeAlign string_align(const Generator& g) {
  return llvm::MaybeAlign(g.strsize() % 8 == 0 ? 8 : 1);
}

static uint64_t chunk_size(const Generator& g) { return 64 * string_align(g)->value(); }

void Generator::copy_bytes(llvm::Value* dst, llvm::Value* src, uint64_t n) {
  uint64_t chunk = chunk_size(*this);
  for (uint64_t done = 0; done < n; done += chunk)
    b().CreateMemCpy(offset_ptr(dst, done), string_align(*this), offset_ptr(src, done), string_align(*this),
                     std::min(chunk, n - done), /*isVolatile=*/n > chunk);
}

void Generator::zero_bytes(llvm::Value* dst, uint64_t n) {
  uint64_t chunk = chunk_size(*this);
  for (uint64_t done = 0; done < n; done += chunk)
    b().CreateMemSet(offset_ptr(dst, done), b().getInt8(0), std::min(chunk, n - done), string_align(*this),
                     /*isVolatile=*/n > chunk);
}

void Generator::copy_string(llvm::Value* dst, uint64_t dst_size, const Value& src, bool pad) {
  uint64_t n = std::min(src.capacity, dst_size);
  // Whole words: a source buffer's capacity rounds up within its allocation.
  uint64_t whole = std::min((n + 7) & ~uint64_t(7), dst_size);
  copy_bytes(dst, src.v, strsize() % 8 == 0 ? whole : n);
  if (n == dst_size)
    b().CreateStore(b().getInt8(0), offset_ptr(dst, dst_size - 1));  // a full buffer still ends in NUL
  else if (pad && whole < dst_size)
    zero_bytes(offset_ptr(dst, whole), dst_size - whole);
}

// A bounded byte loop: for i in [0, n) runs body(i, exit), which may leave the loop by branching
// elsewhere; when the loop runs to its end it branches to `exit`, where code continues.
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
  b.SetInsertPoint(exit);
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

namespace dsched::codegen {

// A fresh, zeroed string buffer in scratch.
static Value new_string(Generator& g) {
  llvm::Value* text = g.scratch(g.strsize());
  g.zero_bytes(text, g.strsize());
  return {text, g.program().types->string_type(), g.strsize()};
}

llvm::Value* Generator::bounded(llvm::Value* index, uint64_t limit) {
  // A volatile round trip hides from LLVM what it knows of the index, so the explicit check that
  // the verifier needs to see survives optimisation.
  llvm::Value* slot = stack_slot();
  b().CreateStore(index, slot, /*isVolatile=*/true);
  llvm::Value* opaque = b().CreateLoad(i64(), slot, /*isVolatile=*/true);
  return b().CreateSelect(b().CreateICmpULT(opaque, const64(static_cast<int64_t>(limit))), opaque,
                          const64(static_cast<int64_t>(limit - 1)));
}

llvm::Value* Generator::byte_at(const Value& s, llvm::Value* index) {
  return b().CreateZExt(b().CreateLoad(i8(), b().CreateInBoundsGEP(i8(), s.v, bounded(index, s.capacity))), i64());
}

// Copies src[from, to) into a new string (clamped to its capacity, NUL-terminated).
static Value copy_range(Generator& g, const Value& src, llvm::Value* from, llvm::Value* to) {
  auto& b = g.b();
  Value out = new_string(g);
  uint64_t n = std::min(src.capacity, g.strsize() - 1);
  byte_loop(g, n, g.new_block("range.end"), [&](llvm::Value* i, llvm::BasicBlock*) {
    llvm::Value* at = b.CreateAdd(from, i);
    g.when(b.CreateICmpSLT(at, to), [&] {
      b.CreateStore(b.CreateTrunc(g.byte_at(src, at), g.i8()), b.CreateInBoundsGEP(g.i8(), out.v, g.bounded(i, n)));
    });
  });
  return out;
}

// Index of the first (or last) byte equal to c before the NUL, or -1.
static llvm::Value* find_byte(Generator& g, const Value& s, llvm::Value* c, bool last) {
  auto& b = g.b();
  llvm::Value* found = g.stack_slot();
  b.CreateStore(g.const64(-1), found);
  llvm::BasicBlock* done = g.new_block("find.done");
  byte_loop(g, s.capacity, done, [&](llvm::Value* i, llvm::BasicBlock*) {
    llvm::Value* byte = g.byte_at(s, i);
    llvm::BasicBlock* more = g.new_block("find.more");
    b.CreateCondBr(b.CreateICmpEQ(byte, g.const64(0)), done, more);
    b.SetInsertPoint(more);
    llvm::Value* match = b.CreateICmpEQ(byte, b.CreateAnd(c, g.const64(0xff)));
    if (last) {
      g.when(match, [&] { b.CreateStore(i, found); });
    } else {
      llvm::BasicBlock* next = g.new_block("find.next");
      llvm::BasicBlock* hit = g.new_block("find.hit");
      b.CreateCondBr(match, hit, next);
      b.SetInsertPoint(hit);
      b.CreateStore(i, found);
      b.CreateBr(done);
      b.SetInsertPoint(next);
    }
  });
  b.SetInsertPoint(done);
  return b.CreateLoad(g.i64(), found);
}

Value Generator::string_subroutine(const lang::Expr& call) {
  const auto& args = call.operands;
  auto text = [&](size_t i) { return to_string(eval(*args[i])); };
  auto suffix_from = [&](const Value& s, llvm::Value* at) {
    // The text from index `at` on, or "" when at is -1 (not found).
    llvm::Value* start = b().CreateSelect(b().CreateICmpSLT(at, const64(0)), const64(static_cast<int64_t>(s.capacity)), at);
    return copy_range(*this, s, start, const64(static_cast<int64_t>(s.capacity)));
  };
  switch (call.func) {
    case lang::Func::Strjoin: {
      Value a = text(0), c = text(1);
      llvm::Value* length = string_length(a);
      Value out = copy_range(*this, a, const64(0), length);
      uint64_t n = strsize() - 1;
      byte_loop(*this, std::min(c.capacity, n), new_block("join.end"), [&](llvm::Value* i, llvm::BasicBlock*) {
        llvm::Value* at = b().CreateAdd(length, i);
        when(b().CreateICmpULT(at, const64(static_cast<int64_t>(n))), [&] {
          b().CreateStore(b().CreateTrunc(byte_at(c, i), i8()), b().CreateInBoundsGEP(i8(), out.v, bounded(at, n)));
        });
      });
      return out;
    }
    case lang::Func::Substr: {
      Value s = text(0);
      llvm::Value* length = string_length(s);
      llvm::Value* index = eval_int(*args[1]);
      // A negative index counts from the end; a start past the end gives "".
      llvm::Value* from_end = b().CreateAdd(length, index);
      llvm::Value* start = b().CreateSelect(b().CreateICmpSLT(index, const64(0)),
                                            b().CreateSelect(b().CreateICmpSLT(from_end, const64(0)), const64(0), from_end),
                                            index);
      llvm::Value* end = length;
      if (args.size() > 2) {
        llvm::Value* count = eval_int(*args[2]);
        llvm::Value* wanted = b().CreateSelect(b().CreateICmpSLT(count, const64(0)), b().CreateAdd(length, count),
                                               b().CreateAdd(start, count));
        end = b().CreateSelect(b().CreateICmpSLT(wanted, length), wanted, length);
      }
      return copy_range(*this, s, start, end);
    }
    case lang::Func::Strchr:
    case lang::Func::Strrchr: {
      Value s = text(0);
      return suffix_from(s, find_byte(*this, s, eval_int(*args[1]), call.func == lang::Func::Strrchr));
    }
    case lang::Func::Strstr: {
      Value s = text(0), needle = text(1);
      llvm::Value* needle_length = string_length(needle);
      llvm::Value* found = stack_slot();
      b().CreateStore(const64(-1), found);
      llvm::BasicBlock* done = new_block("strstr.done");
      byte_loop(*this, s.capacity, done, [&](llvm::Value* start, llvm::BasicBlock*) {
        llvm::Value* mismatch = stack_slot();
        b().CreateStore(const64(0), mismatch);
        byte_loop(*this, needle.capacity, new_block("strstr.inner"), [&](llvm::Value* j, llvm::BasicBlock*) {
          when(b().CreateICmpULT(j, needle_length), [&] {
            llvm::Value* differs = b().CreateICmpNE(byte_at(s, b().CreateAdd(start, j)), byte_at(needle, j));
            when(differs, [&] { b().CreateStore(const64(1), mismatch); });
          });
        });
        llvm::Value* fits = b().CreateICmpULE(b().CreateAdd(start, needle_length), const64(static_cast<int64_t>(s.capacity)));
        llvm::Value* hit = b().CreateAnd(fits, b().CreateICmpEQ(b().CreateLoad(i64(), mismatch), const64(0)));
        llvm::BasicBlock* next = new_block("strstr.next");
        llvm::BasicBlock* record = new_block("strstr.hit");
        b().CreateCondBr(hit, record, next);
        b().SetInsertPoint(record);
        b().CreateStore(start, found);
        b().CreateBr(done);
        b().SetInsertPoint(next);
      });
      b().SetInsertPoint(done);
      return suffix_from(s, b().CreateLoad(i64(), found));
    }
    case lang::Func::Basename:
    case lang::Func::Dirname: {
      // As basename(1)/dirname(1), trailing slashes aside: split at the last '/'.
      Value s = text(0);
      llvm::Value* length = string_length(s);
      llvm::Value* slash = find_byte(*this, s, const64('/'), true);
      llvm::Value* none = b().CreateICmpSLT(slash, const64(0));
      if (call.func == lang::Func::Basename)
        return copy_range(*this, s, b().CreateSelect(none, const64(0), b().CreateAdd(slash, const64(1))), length);
      // dirname: what precedes the last '/', "/" when that is the first byte, "." without one.
      llvm::Value* end = b().CreateSelect(none, const64(0),
                                          b().CreateSelect(b().CreateICmpEQ(slash, const64(0)), const64(1), slash));
      Value out = copy_range(*this, s, const64(0), end);
      when(none, [&] { b().CreateStore(b().getInt8('.'), out.v); });
      return out;
    }
    case lang::Func::Lltostr: {
      llvm::Value* value = eval_int(*args[0]);
      llvm::Value* base = args.size() > 1 ? eval_int(*args[1]) : const64(10);
      base = b().CreateSelect(b().CreateICmpULT(base, const64(2)), const64(10), base);
      // Digits are produced backwards into a scratch buffer, then copied forwards after a sign.
      constexpr uint64_t kDigits = 66;
      llvm::Value* digits = scratch(kDigits);
      llvm::Value* count = stack_slot();
      llvm::Value* rest = stack_slot();
      llvm::Value* negative = b().CreateAnd(b().CreateICmpSLT(value, const64(0)), b().CreateICmpEQ(base, const64(10)));
      b().CreateStore(b().CreateSelect(negative, b().CreateNeg(value), value), rest);
      b().CreateStore(const64(0), count);
      llvm::BasicBlock* produced = new_block("lltostr.produced");
      byte_loop(*this, 64, produced, [&](llvm::Value* i, llvm::BasicBlock*) {
        llvm::Value* r = b().CreateLoad(i64(), rest);
        llvm::Value* digit = b().CreateURem(r, base);
        llvm::Value* ch = b().CreateAdd(digit, b().CreateSelect(b().CreateICmpULT(digit, const64(10)),
                                                                const64('0'), const64('a' - 10)));
        b().CreateStore(b().CreateTrunc(ch, i8()), b().CreateInBoundsGEP(i8(), digits, bounded(i, kDigits)));
        b().CreateStore(b().CreateAdd(i, const64(1)), count);
        llvm::Value* next = b().CreateUDiv(r, base);
        b().CreateStore(next, rest);
        llvm::BasicBlock* more = new_block("lltostr.more");
        b().CreateCondBr(b().CreateICmpEQ(next, const64(0)), produced, more);
        b().SetInsertPoint(more);
      });
      b().SetInsertPoint(produced);
      // DTrace's prefixes: "-" for negative decimals, "0x" in base 16, "0" in base 8 (but not for 0).
      Value out = new_string(*this);
      llvm::Value* n = b().CreateLoad(i64(), count);
      llvm::Value* hex = b().CreateICmpEQ(base, const64(16));
      llvm::Value* octal = b().CreateAnd(b().CreateICmpEQ(base, const64(8)), b().CreateICmpNE(value, const64(0)));
      when(negative, [&] { b().CreateStore(b().getInt8('-'), out.v); });
      when(b().CreateOr(hex, octal), [&] { b().CreateStore(b().getInt8('0'), out.v); });
      when(hex, [&] { b().CreateStore(b().getInt8('x'), offset_ptr(out.v, 1)); });
      llvm::Value* prefix = b().CreateSelect(hex, const64(2), b().CreateZExt(b().CreateOr(negative, octal), i64()));
      byte_loop(*this, 64, new_block("lltostr.copied"), [&](llvm::Value* i, llvm::BasicBlock*) {
        when(b().CreateICmpULT(i, n), [&] {
          llvm::Value* from = b().CreateSub(b().CreateSub(n, i), const64(1));
          llvm::Value* ch = b().CreateLoad(i8(), b().CreateInBoundsGEP(i8(), digits, bounded(from, kDigits)));
          b().CreateStore(ch, b().CreateInBoundsGEP(i8(), out.v, bounded(b().CreateAdd(i, prefix), strsize() - 1)));
        });
      });
      return out;
    }
    default:
      throw Unsupported(call.loc, std::string(lang::func_name(call.func)) + "() is not supported yet");
  }
}

}  // namespace dsched::codegen
