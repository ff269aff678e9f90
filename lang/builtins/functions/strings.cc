// The string subroutines of D:
//   strlen(s)                  the length of s
//   strjoin(a, b)              a followed by b
//   substr(s, i [, n])         n bytes of s from index i (negative i and n count from the end)
//   strchr(s, c), strrchr(s, c)  s from the first (last) c on, or ""
//   strstr(s, t)               s from the first occurrence of t on, or ""
#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/strings.h"

namespace dsched::lang {
namespace {

using codegen::Lowering;
using codegen::Value;

Value text_arg(Lowering& l, const Expr& call, size_t i) { return l.strings.from(l.exprs.eval(*call.operand(i))); }

// The text of `s` from index `at` on, or "" when `at` is -1 (not found).
Value suffix_from(Lowering& l, const Value& s, llvm::Value* at) {
  auto& b = l.ir.b();
  llvm::Value* end = l.ir.const64(static_cast<int64_t>(s.capacity));
  llvm::Value* start = b.CreateSelect(b.CreateICmpSLT(at, l.ir.const64(0)), end, at);
  return l.strings.copy_range(s, start, end);
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
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value a = text_arg(l, call, 0), c = text_arg(l, call, 1);
    llvm::Value* length = l.strings.length(a);
    Value out = l.strings.copy_range(a, ir.const64(0), length);
    uint64_t n = l.program.options.strsize() - 1;
    l.strings.loop(std::min(c.capacity, n), ir.new_block("join.end"), [&](llvm::Value* i) {
      llvm::Value* at = b.CreateAdd(length, i);
      ir.when(b.CreateICmpULT(at, ir.const64(static_cast<int64_t>(n))), [&] {
        b.CreateStore(b.CreateTrunc(l.strings.byte_at(c, i), ir.i8()),
                      b.CreateInBoundsGEP(ir.i8(), out.v, ir.bounded(at, n)));
      });
    });
    return out;
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
    // A negative index counts from the end; a start past the end gives "".
    llvm::Value* from_end = b.CreateAdd(length, index);
    llvm::Value* start =
        b.CreateSelect(b.CreateICmpSLT(index, ir.const64(0)),
                       b.CreateSelect(b.CreateICmpSLT(from_end, ir.const64(0)), ir.const64(0), from_end), index);
    llvm::Value* end = length;
    if (call.operands.size() > 2) {
      llvm::Value* count = l.exprs.eval_int(*call.operand(2));
      llvm::Value* wanted = b.CreateSelect(b.CreateICmpSLT(count, ir.const64(0)), b.CreateAdd(length, count),
                                           b.CreateAdd(start, count));
      end = b.CreateSelect(b.CreateICmpSLT(wanted, length), wanted, length);
    }
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

class Strstr : public StringFunction {
 public:
  Strstr() : StringFunction("strstr", {2, 2}, "ss") {}
  Value lower(Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    Value s = text_arg(l, call, 0), needle = text_arg(l, call, 1);
    llvm::Value* needle_length = l.strings.length(needle);
    llvm::Value* found = ir.stack_slot();
    b.CreateStore(ir.const64(-1), found);
    llvm::BasicBlock* done = ir.new_block("strstr.done");
    l.strings.loop(s.capacity, done, [&](llvm::Value* start) {
      llvm::Value* mismatch = ir.stack_slot();
      b.CreateStore(ir.const64(0), mismatch);
      l.strings.loop(needle.capacity, ir.new_block("strstr.inner"), [&](llvm::Value* j) {
        ir.when(b.CreateICmpULT(j, needle_length), [&] {
          llvm::Value* differs = b.CreateICmpNE(l.strings.byte_at(s, b.CreateAdd(start, j)), l.strings.byte_at(needle, j));
          ir.when(differs, [&] { b.CreateStore(ir.const64(1), mismatch); });
        });
      });
      llvm::Value* fits =
          b.CreateICmpULE(b.CreateAdd(start, needle_length), ir.const64(static_cast<int64_t>(s.capacity)));
      llvm::Value* hit = b.CreateAnd(fits, b.CreateICmpEQ(b.CreateLoad(ir.i64(), mismatch), ir.const64(0)));
      l.strings.leave_when(hit, found, start, done);
    });
    b.SetInsertPoint(done);
    return suffix_from(l, s, b.CreateLoad(ir.i64(), found));
  }
};

const Registered<Strlen> strlen_function;
const Registered<Strjoin> strjoin;
const Registered<Substr> substr;
const Registered<Strchr> strchr_function("strchr", false);
const Registered<Strchr> strrchr_function("strrchr", true);
const Registered<Strstr> strstr_function;

}  // namespace
}  // namespace dsched::lang
