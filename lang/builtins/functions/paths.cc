// basename(s), dirname(s) and cleanpath(s), as DTrace defines them:
//   basename: the last component, trailing slashes dropped ("/a/b/" -> "b");
//   dirname:  what precedes it, its trailing slashes dropped ("/a//b" -> "/a", "a" -> ".", "/a" -> "/");
//   both give "." for "" and "/" for a path of slashes only;
//   cleanpath: "//" and "/./" removed and "/x/.." taken back, by the text alone (links not followed).
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

class PathFunction : public Subroutine {
 public:
  using Subroutine::Subroutine;

  void check(Checker& c, ExprPtr& call) const override {
    check_string_arg(c, *call, 0);
    call->type = c.types().string_type();
  }
};

// The last index below `limit` whose byte is (or, `slash` false, is not) '/', or -1. The scan
// runs in a bpf_loop() callback: written out, each byte's branch would double the verifier's
// states, and a string variable's 256 bytes would exceed its limit.
llvm::Value* last_index(Lowering& l, const Value& s, llvm::Value* limit, bool slash) {
  codegen::Ir& ir = l.ir;
  auto& b = ir.b();
  enum Field : unsigned { kText, kLimit, kFound };
  llvm::Type* i64 = ir.i64();
  auto* type = llvm::StructType::get(b.getContext(), {ir.ptr(), i64, i64});
  llvm::Value* context = ir.entry_alloca(type);
  b.CreateLifetimeStart(context);
  auto field = [&](llvm::Value* base, Field f) { return b.CreateStructGEP(type, base, f); };
  b.CreateStore(s.v, field(context, kText));
  b.CreateStore(limit, field(context, kLimit));
  b.CreateStore(ir.const64(-1), field(context, kFound));
  l.strings.callback_loop(s.capacity, context, slash ? "last_slash" : "last_not_slash", [&](llvm::Value* i, llvm::Value* c) {
    Value text{b.CreateLoad(ir.ptr(), field(c, kText)), s.type, s.capacity};
    llvm::Value* is_slash = b.CreateICmpEQ(l.strings.byte_at(text, i), ir.const64('/'));
    llvm::Value* match = b.CreateAnd(b.CreateICmpSLT(i, b.CreateLoad(i64, field(c, kLimit))),
                                     slash ? is_slash : b.CreateNot(is_slash));
    ir.when(match, [&] { b.CreateStore(i, field(c, kFound)); });
    return ir.const64(0);
  });
  llvm::Value* found = b.CreateLoad(i64, field(context, kFound));
  b.CreateLifetimeEnd(context);
  return found;
}

class SplitPath : public PathFunction {
 public:
  SplitPath(std::string_view name, bool base) : PathFunction(name, {1, 1}), base_(base) {}

  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value s = l.strings.from(l.exprs.eval(*call.operand(0)));
    llvm::Value* none = ir.const64(-1);
    llvm::Value* one = ir.const64(1);
    llvm::Value* length = l.strings.length(s);
    llvm::Value* last_base = last_index(l, s, length, false);  // the basename's last byte
    llvm::Value* slash = last_index(l, s, last_base, true);    // the slash before the basename
    llvm::Value* only_slashes = b.CreateICmpEQ(last_base, none);
    llvm::Value* dot = b.CreateICmpEQ(length, ir.const64(0));
    llvm::Value* start = ir.const64(0);
    llvm::Value* end;
    if (base_) {
      start = b.CreateSelect(only_slashes, start, b.CreateAdd(slash, one));
      end = b.CreateSelect(only_slashes, one, b.CreateAdd(last_base, one));
    } else {
      llvm::Value* last_dir = last_index(l, s, slash, false);
      llvm::Value* no_dir = b.CreateICmpEQ(slash, none);
      end = b.CreateSelect(b.CreateOr(only_slashes, b.CreateICmpEQ(last_dir, none)), one,
                           b.CreateAdd(last_dir, one));
      end = b.CreateSelect(b.CreateAnd(no_dir, b.CreateNot(only_slashes)), ir.const64(0), end);
      dot = b.CreateOr(dot, b.CreateAnd(b.CreateNot(only_slashes), no_dir));
    }
    Value out = l.strings.copy_range(s, start, end);
    ir.when(dot, [&] { b.CreateStore(b.getInt8('.'), out.v); });
    return out;
  }

 private:
  bool base_;
};

// cleanpath reads the path once, byte by byte, remembering what it has seen of a component that
// starts with a slash; output positions of the slashes it wrote are kept so that ".." can go back.
class Cleanpath : public PathFunction {
 public:
  Cleanpath() : PathFunction("cleanpath", {1, 1}) {}

  enum State : int64_t { kText, kSlash, kSlashDot, kSlashDotDot };

  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value text = l.strings.from(l.exprs.eval(*call.operand(0)));
    Value result = l.strings.fresh();
    uint64_t size = result.capacity;
    uint64_t slashes_size = size / 2 + 1;
    // Its words live in scratch: several calls in one clause would not fit on the BPF stack.
    llvm::Value* scratch_words = l.firing.scratch((slashes_size + 3) * 8);
    for (uint64_t w = 0; w < 3; ++w) b.CreateStore(ir.const64(0), ir.offset_ptr(scratch_words, w * 8));
    // The path is read in a bpf_loop() callback, which reaches the text, the output and the
    // words through a context on the stack.
    auto* type = llvm::StructType::get(b.getContext(), {ir.ptr(), ir.ptr(), ir.ptr()});
    llvm::Value* context = ir.entry_alloca(type);
    b.CreateLifetimeStart(context);
    b.CreateStore(text.v, b.CreateStructGEP(type, context, 0));
    b.CreateStore(result.v, b.CreateStructGEP(type, context, 1));
    b.CreateStore(scratch_words, b.CreateStructGEP(type, context, 2));
    l.strings.callback_loop(text.capacity, context, "cleanpath", [&](llvm::Value* i, llvm::Value* shared) {
      Value s{b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, shared, 0)), text.type, text.capacity};
      Value out{b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, shared, 1)), result.type, result.capacity};
      llvm::Value* words = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, shared, 2));
      llvm::Value* state = words;
      llvm::Value* j = ir.offset_ptr(words, 8);     // next output position
      llvm::Value* top = ir.offset_ptr(words, 16);  // slashes written and not taken back
      llvm::Value* slashes = ir.offset_ptr(words, 24);
      auto load = [&](llvm::Value* slot) { return b.CreateLoad(ir.i64(), slot); };
      auto is = [&](llvm::Value* v, int64_t x) { return b.CreateICmpEQ(v, ir.const64(x)); };
      auto set_state = [&](State x) { b.CreateStore(ir.const64(x), state); };
      auto emit = [&](llvm::Value* ch) {
        llvm::Value* at = load(j);
        b.CreateStore(b.CreateTrunc(ch, ir.i8()), b.CreateInBoundsGEP(ir.i8(), out.v, ir.bounded(at, size)));
        b.CreateStore(b.CreateAdd(at, ir.const64(1)), j);
      };
      auto emit_slash = [&] {
        llvm::Value* t = load(top);
        b.CreateStore(load(j), b.CreateInBoundsGEP(ir.i64(), slashes, ir.bounded(t, slashes_size)));
        b.CreateStore(b.CreateAdd(t, ir.const64(1)), top);
        emit(ir.const64('/'));
      };
      // Writes the component start seen so far ("/", "/.", "/..") and `c`, and goes back to text.
      auto emit_pending = [&](int dots, llvm::Value* c) {
        emit_slash();
        for (int i = 0; i < dots; ++i) emit(ir.const64('.'));
        emit(c);
        set_state(kText);
      };
      // Room for "/..c" and the NUL within strsize, as DTrace leaves: with less, the scan stops.
      llvm::BasicBlock* room = ir.new_block("cleanpath.room");
      llvm::BasicBlock* full = ir.new_block("cleanpath.full");
      b.CreateCondBr(b.CreateICmpUGE(b.CreateAdd(load(j), ir.const64(5)), ir.const64(size - 1)), full, room);
      b.SetInsertPoint(full);
      b.CreateRet(ir.const64(1));
      b.SetInsertPoint(room);
      llvm::Value* c = l.strings.byte_at(s, i);
      llvm::Value* now = load(state);
      llvm::Value* slash = is(c, '/');
      llvm::Value* dot = is(c, '.');
      ir.when(is(now, kText), [&] {
        ir.when(slash, [&] { set_state(kSlash); });
        ir.when(b.CreateNot(slash), [&] { emit(c); });
      });
      ir.when(is(now, kSlash), [&] {
        ir.when(dot, [&] { set_state(kSlashDot); });
        ir.when(b.CreateNot(b.CreateOr(slash, dot)), [&] { emit_pending(0, c); });
      });
      ir.when(is(now, kSlashDot), [&] {
        ir.when(slash, [&] { set_state(kSlash); });
        ir.when(dot, [&] { set_state(kSlashDotDot); });
        ir.when(b.CreateNot(b.CreateOr(slash, dot)), [&] { emit_pending(1, c); });
      });
      ir.when(is(now, kSlashDotDot), [&] {
        llvm::Value* ends = b.CreateOr(slash, is(c, 0));
        ir.when(b.CreateNot(ends), [&] { emit_pending(2, c); });
        ir.when(ends, [&] {
          // "/.." takes the output back to the slash before the last component.
          llvm::Value* t = load(top);
          llvm::Value* any = b.CreateICmpNE(t, ir.const64(0));
          llvm::Value* previous = b.CreateSub(t, b.CreateZExt(any, ir.i64()));
          llvm::Value* back = b.CreateLoad(ir.i64(), b.CreateInBoundsGEP(ir.i64(), slashes, ir.bounded(previous, slashes_size)));
          b.CreateStore(previous, top);
          llvm::Value* to = b.CreateSelect(any, back, ir.const64(0));
          // At the end the slash stays: "/a/.." is "/", and "/.." too.
          b.CreateStore(b.CreateSelect(slash, to, b.CreateAdd(to, ir.const64(1))), j);
          llvm::Value* nothing = b.CreateICmpEQ(b.CreateLoad(ir.i8(), out.v), b.getInt8(0));
          ir.when(b.CreateAnd(b.CreateNot(slash), nothing), [&] { b.CreateStore(b.getInt8('/'), out.v); });
          set_state(kSlash);
        });
      });
      return ir.widen(is(c, 0));  // the NUL ends the path
    });
    // The output may have been taken back: clear everything from its end (word 1) on.
    l.strings.callback_loop(size, context, "cleanpath_clear", [&](llvm::Value* k, llvm::Value* shared) {
      llvm::Value* out = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, shared, 1));
      llvm::Value* words = b.CreateLoad(ir.ptr(), b.CreateStructGEP(type, shared, 2));
      llvm::Value* end = b.CreateLoad(ir.i64(), ir.offset_ptr(words, 8));
      ir.when(b.CreateICmpUGE(k, end),
              [&] { b.CreateStore(b.getInt8(0), b.CreateInBoundsGEP(ir.i8(), out, ir.bounded(k, size))); });
      return ir.const64(0);
    });
    b.CreateLifetimeEnd(context);
    return result;
  }
};

const Registered<SplitPath> basename_function("basename", true);
const Registered<SplitPath> dirname_function("dirname", false);
const Registered<Cleanpath> cleanpath_function;

}  // namespace
}  // namespace dsched::lang
