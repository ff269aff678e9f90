// The string subroutines of D:
//   strlen(s)                  the length of s
//   strjoin(a, b)              a followed by b
//   substr(s, i [, n])         n bytes of s from index i (negative i and n count from the end)
//   strchr(s, c), strrchr(s, c)  s from the first (last) c on, or ""
//   strstr(s, t)               s from the first occurrence of t on, or ""
//   index(s, t [, start])      the first index of t in s from start on, or -1
//   rindex(s, t [, start])     the last index of t in s at or before start, or -1
//   toupper(s), tolower(s)     s with its ASCII letters in upper (lower) case
//   strtoll(s [, base])        the integer s starts with, in base 2 to 36 (10 by default)
#include "lang/codegen/strings.h"

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/records.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

Value text_arg(Lowering& l, const Expr& call, size_t i) { return l.strings.from(l.exprs.eval(*call.operand(i))); }

// The text of `s` from index `at` on, or DTrace's NULL string when `at` is -1 (not found), so that
// `strstr(s, t) != NULL` tests whether t is found.
Value suffix_from(Lowering& l, const Value& s, llvm::Value* at) {
  auto& b = l.ir.b();
  llvm::Value* end = l.ir.const64(static_cast<int64_t>(s.capacity));
  llvm::Value* missing = b.CreateICmpSLT(at, l.ir.const64(0));
  Value suffix = l.strings.copy_range(s, b.CreateSelect(missing, end, at), end);
  l.ir.when(missing, [&] { l.strings.mark_null(suffix); });
  return suffix;
}

// A subroutine whose arguments are strings and integers, in the order `shape` gives ('s', 'i');
// `integers` names the integer arguments in messages. Its value is a string unless
// result_type() says otherwise.
class StringFunction : public Subroutine {
 public:
  StringFunction(std::string_view name, Arity arity, const char* shape, std::vector<const char*> integers = {})
      : Subroutine(name, arity), shape_(shape), integers_(std::move(integers)) {}

  void check(Checker& c, ExprPtr& call) const override {
    size_t next_integer = 0;
    for (size_t i = 0; i < call->operands.size(); ++i) {
      if (shape_[i] == 's')
        check_string_arg(c, *call, i);
      else
        check_integer_arg(c, *call, i, integers_[next_integer++]);
    }
    call->type = result_type(c, call->loc);
  }

 protected:
  virtual const Type* result_type(Checker& c, SourceRange) const { return c.types().string_type(); }

 private:
  const char* shape_;
  std::vector<const char*> integers_;
};

class Strlen : public StringFunction {
 public:
  Strlen() : StringFunction("strlen", {1, 1}, "s") {}
  const Type* result_type(Checker& c, SourceRange where) const override { return c.type("size_t", where); }
  Value lower(Lowering& l, const Expr& call) const override {
    return {l.strings.length(text_arg(l, call, 0)), call.type};
  }
};

class Strjoin : public StringFunction {
 public:
  Strjoin() : StringFunction("strjoin", {2, 2}, "ss") {}
  Value lower(Lowering& l, const Expr& call) const override {
    return l.strings.join(text_arg(l, call, 0), text_arg(l, call, 1));
  }
};

class Substr : public StringFunction {
 public:
  Substr() : StringFunction("substr", {2, 3}, "sii", {"the start index", "the length"}) {}
  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value s = text_arg(l, call, 0);
    llvm::Value* length = l.strings.length(s);
    llvm::Value* index = l.exprs.eval_int(*call.operand(1));
    llvm::Value* zero = ir.const64(0);
    auto less = [&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpSLT(a, c); };
    // DTrace's rules: a negative index counts from the end; one still before the start takes
    // what it lacks off the length (when that leaves any); a start past the end gives ""; a
    // negative length leaves that many bytes off the end. Without a length, the rest.
    llvm::Value* count = call.operands.size() > 2 ? l.exprs.eval_int(*call.operand(2))
                                                  : ir.const64(int64_t(l.program.options.strsize()));
    llvm::Value* negative = less(index, zero);
    index = b.CreateSelect(negative, b.CreateAdd(index, length), index);
    llvm::Value* before_start =
        b.CreateAnd(b.CreateAnd(negative, less(index, zero)), less(zero, b.CreateAdd(index, count)));
    count = b.CreateSelect(before_start, b.CreateAdd(count, index), count);
    index = b.CreateSelect(before_start, zero, index);
    llvm::Value* empty = b.CreateOr(less(index, zero), b.CreateNot(less(index, length)));
    count = b.CreateSelect(less(count, zero), b.CreateSub(b.CreateAdd(count, length), index), count);
    count = b.CreateSelect(b.CreateOr(empty, less(count, zero)), zero, count);
    llvm::Value* start = b.CreateSelect(empty, zero, index);
    llvm::Value* wanted = b.CreateAdd(start, count);
    llvm::Value* end = b.CreateSelect(less(wanted, length), wanted, length);
    return l.strings.copy_range(s, start, end);
  }
};

class Strchr : public StringFunction {
 public:
  Strchr(std::string_view name, bool last) : StringFunction(name, {2, 2}, "si", {"the character"}), last_(last) {}
  Value lower(Lowering& l, const Expr& call) const override {
    Value s = text_arg(l, call, 0);
    return suffix_from(l, s, l.strings.find_byte(s, l.exprs.eval_int(*call.operand(1)), last_));
  }

 private:
  bool last_;
};

// An i64 0/1: whether s holds the `needle_length` bytes of `needle` from byte `start` on, compared
// in a scan of their own that stops at the needle's end or at the first difference.
llvm::Value* matches_at(Lowering& l, const Value& s, const Value& needle, llvm::Value* needle_length,
                        llvm::Value* start) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  enum Word { kNeedleLength, kStart, kMatched };
  return l.strings.scan(needle.capacity, "match_at", {s.v, needle.v}, {needle_length, start, ir.const64(1)},
                        [&](llvm::Value* j, const codegen::Strings::ScanView& v) {
                          llvm::Value* at = b.CreateAdd(b.CreateLoad(ir.i64(), v.words[kStart]), j);
                          llvm::Value* differs =
                              b.CreateICmpNE(l.strings.byte_at({v.pointers[0], s.type, s.capacity}, at),
                                             l.strings.scan_byte(v, 1, j, needle.capacity));
                          llvm::Value* past_needle = b.CreateICmpUGE(j, b.CreateLoad(ir.i64(), v.words[kNeedleLength]));
                          llvm::Value* mismatch = b.CreateAnd(b.CreateNot(past_needle), differs);
                          ir.when(mismatch, [&] { b.CreateStore(ir.const64(0), v.words[kMatched]); });
                          return b.CreateOr(past_needle, mismatch);
                        })[kMatched];
}

// The first (or, `last`, the last) index i in [from, to] where `needle` occurs in s, or -1.
llvm::Value* find_text(Lowering& l, const Value& s, const Value& needle, llvm::Value* from, llvm::Value* to,
                       bool last) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  llvm::Value* length = l.strings.length(s);
  llvm::Value* needle_length = l.strings.length(needle);
  llvm::Value* last_fit = b.CreateSub(length, needle_length);
  enum Word { kNeedleLength, kFrom, kTo, kFound };
  return l.strings.scan(
      s.capacity, last ? "find_last" : "find_first", {s.v, needle.v},
      {needle_length, from, b.CreateSelect(b.CreateICmpSLT(to, last_fit), to, last_fit), ir.const64(-1)},
      [&](llvm::Value* start, const codegen::Strings::ScanView& v) {
        llvm::Value* in_range = b.CreateAnd(b.CreateICmpSGE(start, b.CreateLoad(ir.i64(), v.words[kFrom])),
                                            b.CreateICmpSLE(start, b.CreateLoad(ir.i64(), v.words[kTo])));
        llvm::Value* stop = ir.stack_slot();
        b.CreateStore(ir.const64(0), stop);
        ir.when(in_range, [&] {
          llvm::Value* matched =
              matches_at(l, {v.pointers[0], s.type, s.capacity}, {v.pointers[1], needle.type, needle.capacity},
                         b.CreateLoad(ir.i64(), v.words[kNeedleLength]), start);
          ir.when(ir.truth(matched), [&] {
            b.CreateStore(start, v.words[kFound]);
            if (!last) b.CreateStore(ir.const64(1), stop);  // the first match ends the scan
          });
        });
        return ir.truth(b.CreateLoad(ir.i64(), stop));
      },
      /*written_out=*/0)[kFound];  // each step scans the needle: written out, the two would multiply
}

class Strstr : public StringFunction {
 public:
  Strstr() : StringFunction("strstr", {2, 2}, "ss") {}
  Value lower(Lowering& l, const Expr& call) const override {
    Value s = text_arg(l, call, 0), needle = text_arg(l, call, 1);
    return suffix_from(l, s, find_text(l, s, needle, l.ir.const64(0), l.strings.length(s), false));
  }
};

// index() searches forwards from start (0 by default, clamped into the string); rindex() backwards
// from start (the end by default): before the string only "" is found, at 0.
class Index : public StringFunction {
 public:
  Index(std::string_view name, bool last) : StringFunction(name, {2, 3}, "ssi", {"the start index"}), last_(last) {}
  const Type* result_type(Checker& c, SourceRange) const override { return c.types().integer(4, true); }
  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value s = text_arg(l, call, 0), needle = text_arg(l, call, 1);
    llvm::Value* length = l.strings.length(s);
    llvm::Value* zero = ir.const64(0);
    llvm::Value* from = zero;
    llvm::Value* to = length;
    if (call.operands.size() > 2) {
      llvm::Value* start = l.exprs.eval_int(*call.operand(2));
      if (last_) {
        llvm::Value* before = b.CreateSelect(b.CreateICmpEQ(l.strings.length(needle), zero), zero, ir.const64(-1));
        to = b.CreateSelect(b.CreateICmpSLT(start, zero), before,
                            b.CreateSelect(b.CreateICmpSLT(start, length), start, length));
      } else {
        from = b.CreateSelect(b.CreateICmpSLT(start, zero), zero,
                              b.CreateSelect(b.CreateICmpSLT(start, length), start, length));
      }
    }
    return {find_text(l, s, needle, from, to, last_), call.type};
  }

 private:
  bool last_;
};

class ChangeCase : public StringFunction {
 public:
  ChangeCase(std::string_view name, char from, char to) : StringFunction(name, {1, 1}, "s"), from_(from), to_(to) {}
  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value s = text_arg(l, call, 0);
    Value out = l.strings.copy_range(s, ir.const64(0), ir.const64(static_cast<int64_t>(s.capacity)));
    l.strings.scan(out.capacity, "change_case", {out.v}, {}, [&](llvm::Value* i, const codegen::Strings::ScanView& v) {
      llvm::Value* at = b.CreateInBoundsGEP(ir.i8(), v.pointers[0], l.strings.scan_index(v, i, out.capacity));
      llvm::Value* ch = b.CreateLoad(ir.i8(), at);
      llvm::Value* letter =
          b.CreateAnd(b.CreateICmpUGE(ch, b.getInt8(from_)), b.CreateICmpULE(ch, b.getInt8(from_ + 25)));
      ir.when(letter, [&] { b.CreateStore(b.CreateAdd(ch, b.getInt8(static_cast<int8_t>(to_ - from_))), at); });
      return b.CreateICmpEQ(ch, b.getInt8(0));
    });
    return out;
  }

 private:
  char from_, to_;
};

// strtoll() reads as DTrace does: white space, a sign, "0x" or "0X" before a hex digit when the
// base is 16, then digits up to the first that is not one in the base; the value wraps on
// overflow. A base outside 2 to 36 is an illegal-operation fault.
class Strtoll : public StringFunction {
 public:
  Strtoll() : StringFunction("strtoll", {1, 2}, "si", {"the base"}) {}
  const Type* result_type(Checker& c, SourceRange) const override { return c.types().integer(8, true); }

  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value s = text_arg(l, call, 0);
    llvm::Value* base = call.operands.size() > 1 ? l.exprs.eval_int(*call.operand(1)) : ir.const64(10);
    l.records.check_fault(b.CreateOr(b.CreateICmpSLT(base, ir.const64(2)), b.CreateICmpSGT(base, ir.const64(36))),
                          abi::FaultKind::IllegalOperation);
    // The scan's state is in scratch (the verifier would follow a growing value on the stack
    // through every iteration): where the scan is, the value, the sign, the base.
    enum Word : uint64_t { kPhase, kValue, kNegative, kBase, kSkip, kWords };
    enum Phase : int64_t { kSpace, kSign, kPrefix, kDigits };
    llvm::Type* i64 = ir.i64();
    llvm::Value* words = l.firing.scratch(kWords * 8);
    auto word = [&](llvm::Value* base_ptr, Word w) { return ir.offset_ptr(base_ptr, w * 8); };
    for (Word w : {kPhase, kValue, kNegative, kSkip}) b.CreateStore(ir.const64(0), word(words, w));
    b.CreateStore(base, word(words, kBase));
    auto* type = llvm::StructType::get(b.getContext(), {ir.ptr(), ir.ptr()});
    llvm::Value* context = ir.entry_alloca(type);
    b.CreateLifetimeStart(context);
    b.CreateStore(words, b.CreateStructGEP(type, context, 0));
    b.CreateStore(s.v, b.CreateStructGEP(type, context, 1));
    l.strings.callback_loop(s.capacity, context, "strtoll", [&](llvm::Value* i, llvm::Value* c) {
      llvm::Value* w = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, c, 0));
      llvm::Value* text = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, c, 1));
      auto char_at = [&](llvm::Value* at) {
        llvm::Value* inside = b.CreateICmpULT(at, ir.const64(int64_t(s.capacity)));
        llvm::Value* ch = b.CreateLoad(ir.i8(), b.CreateInBoundsGEP(ir.i8(), text, ir.bounded(at, s.capacity)));
        return b.CreateSelect(inside, b.CreateZExt(ch, i64), ir.const64(0));
      };
      auto between = [&](llvm::Value* ch, char low, char high) {
        return b.CreateAnd(b.CreateICmpUGE(ch, ir.const64(low)), b.CreateICmpULE(ch, ir.const64(high)));
      };
      auto is = [&](llvm::Value* ch, char want) { return b.CreateICmpEQ(ch, ir.const64(want)); };
      // A letter's or a digit's value, 36 for anything else.
      auto digit = [&](llvm::Value* ch) {
        llvm::Value* lower = b.CreateOr(ch, ir.const64(0x20));
        return b.CreateSelect(
            between(ch, '0', '9'), b.CreateSub(ch, ir.const64('0')),
            b.CreateSelect(between(lower, 'a', 'z'), b.CreateSub(lower, ir.const64('a' - 10)), ir.const64(36)));
      };
      llvm::Value* ch = char_at(i);
      llvm::Value* radix = b.CreateLoad(i64, word(w, kBase));
      llvm::Value* phase = b.CreateLoad(i64, word(w, kPhase));
      llvm::Value* skip = b.CreateICmpNE(b.CreateLoad(i64, word(w, kSkip)), ir.const64(0));
      llvm::Value* space = b.CreateOr(is(ch, ' '), between(ch, '\t', '\r'));
      llvm::Value* skipping_space = b.CreateAnd(b.CreateICmpEQ(phase, ir.const64(kSpace)), space);
      llvm::Value* sign = b.CreateAnd(b.CreateICmpSLE(phase, ir.const64(kSign)), b.CreateOr(is(ch, '-'), is(ch, '+')));
      llvm::Value* prefix = b.CreateAnd(
          b.CreateAnd(b.CreateICmpSLE(phase, ir.const64(kPrefix)), b.CreateICmpEQ(radix, ir.const64(16))),
          b.CreateAnd(
              b.CreateAnd(is(ch, '0'), is(b.CreateOr(char_at(b.CreateAdd(i, ir.const64(1))), ir.const64(0x20)), 'x')),
              b.CreateICmpULT(digit(char_at(b.CreateAdd(i, ir.const64(2)))), ir.const64(16))));
      llvm::Value* result = ir.stack_slot();
      b.CreateStore(ir.const64(0), result);
      ir.when(skip, [&] { b.CreateStore(ir.const64(0), word(w, kSkip)); });
      ir.when(b.CreateNot(b.CreateOr(skip, skipping_space)), [&] {
        ir.when(sign, [&] {
          b.CreateStore(ir.widen(is(ch, '-')), word(w, kNegative));
          b.CreateStore(ir.const64(kPrefix), word(w, kPhase));
        });
        ir.when(b.CreateAnd(b.CreateNot(sign), prefix), [&] {
          b.CreateStore(ir.const64(1), word(w, kSkip));
          b.CreateStore(ir.const64(kDigits), word(w, kPhase));
        });
        ir.when(b.CreateNot(b.CreateOr(sign, prefix)), [&] {
          llvm::Value* value = digit(ch);
          llvm::Value* ends = b.CreateICmpUGE(value, radix);
          b.CreateStore(ir.widen(ends), result);
          ir.when(b.CreateNot(ends), [&] {
            llvm::Value* sum = b.CreateAdd(b.CreateMul(b.CreateLoad(i64, word(w, kValue)), radix), value);
            b.CreateStore(sum, word(w, kValue));
            b.CreateStore(ir.const64(kDigits), word(w, kPhase));
          });
        });
      });
      return b.CreateLoad(i64, result);
    });
    b.CreateLifetimeEnd(context);
    llvm::Value* value = b.CreateLoad(i64, word(words, kValue));
    llvm::Value* negative = b.CreateICmpNE(b.CreateLoad(i64, word(words, kNegative)), ir.const64(0));
    return {b.CreateSelect(negative, b.CreateNeg(value), value), call.type};
  }
};

const Registered<Strlen> strlen_function;
const Registered<Strjoin> strjoin;
const Registered<Substr> substr;
const Registered<Strchr> strchr_function("strchr", false);
const Registered<Strchr> strrchr_function("strrchr", true);
const Registered<Strstr> strstr_function;
const Registered<Index> index_function("index", false);
const Registered<Index> rindex_function("rindex", true);
const Registered<ChangeCase> toupper_function("toupper", 'a', 'A');
const Registered<ChangeCase> tolower_function("tolower", 'A', 'a');
const Registered<Strtoll> strtoll_function;

}  // namespace
}  // namespace dsched::lang
