// Speculative tracing: speculation() claims a buffer id, speculate(id) makes the clause's record
// speculative, commit(id) prints the buffered records, discard(id) drops them. Buffers are free
// again once commit() or discard() has been seen.
#include <linux/bpf.h>

#include "lang/builtins/support.h"
#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/records.h"
#include "lang/program.h"

namespace dsched::lang {
namespace {

// The busy flag of speculation buffer `id` in the spec_busy map, or 0 (i64).
llvm::Value* busy_flag(codegen::Lowering& l, llvm::Value* id32) {
  llvm::Value* key = l.firing.scratch(4);
  l.ir.b().CreateStore(id32, key);
  return l.ir.helper(BPF_FUNC_map_lookup_elem, {l.maps.speculations(), key});
}

class NewSpeculation : public Subroutine {
 public:
  NewSpeculation() : Subroutine("speculation", {0, 0}) {}

  void check(Checker& c, ExprPtr& call) const override {
    c.program().uses_speculation = true;
    call->type = c.types().integer(4, true);
  }

  // Claims the first free buffer id (1..nspec) with a compare-and-swap; 0 when none is free.
  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    auto& b = ir.b();
    llvm::Value* result = ir.stack_slot();
    b.CreateStore(ir.const64(0), result);
    llvm::BasicBlock* done = ir.new_block("spec.done");
    for (int64_t id = 1; id <= l.program.options.nspec(); ++id) {
      llvm::Value* slot = busy_flag(l, b.getInt32(static_cast<uint32_t>(id)));
      llvm::BasicBlock* found = ir.new_block("spec.slot");
      llvm::BasicBlock* next = ir.new_block("spec.next");
      b.CreateCondBr(b.CreateICmpNE(slot, ir.const64(0)), found, next);
      b.SetInsertPoint(found);
      auto* swap = b.CreateAtomicCmpXchg(b.CreateIntToPtr(slot, ir.ptr()), ir.const64(0), ir.const64(1),
                                         llvm::MaybeAlign(8), llvm::AtomicOrdering::SequentiallyConsistent,
                                         llvm::AtomicOrdering::SequentiallyConsistent);
      llvm::BasicBlock* claimed = ir.new_block("spec.claimed");
      b.CreateCondBr(b.CreateExtractValue(swap, 1), claimed, next);
      b.SetInsertPoint(claimed);
      b.CreateStore(ir.const64(id), result);
      b.CreateBr(done);
      b.SetInsertPoint(next);
    }
    l.maps.count_drop(abi::DropCounter::SpeculationUnavailable);
    b.CreateBr(done);
    b.SetInsertPoint(done);
    return {b.CreateLoad(ir.i64(), result), call.type};
  }
};

class Speculate : public NamedFunction {
 public:
  Speculate() : NamedFunction("speculate", {1, 1}) {}
  Speculation speculation() const override { return Speculation::Speculate; }
  bool records() const override { return false; }

  void check(Checker& c, ExprPtr& call) const override {
    c.program().uses_speculation = true;
    check_integer_arg(c, *call, 0, "the speculation id");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    l.records.speculate(l.exprs.eval_int(*call.operand(0)));
    return no_value(call);
  }
};

// commit() and discard(): the id is recorded for user space, and its buffer is free again.
class Finish : public Action {
 public:
  Finish(std::string_view name, Speculation role) : Action(name, {1, 1}), role_(role) {}
  Speculation speculation() const override { return role_; }

  void check(Checker& c, ExprPtr& call) const override {
    c.program().uses_speculation = true;
    check_integer_arg(c, *call, 0, "the speculation id");
    set_void(c, *call);
  }

  codegen::Value lower(codegen::Lowering& l, const Expr& call) const override {
    codegen::Ir& ir = l.ir;
    llvm::Value* id = l.exprs.eval_int(*call.operand(0));
    // An id that names no buffer (negative, or above nspec) is an illegal operation, as in DTrace;
    // 0 (speculation() found no buffer) does nothing.
    l.records.check_fault(ir.b().CreateICmpUGT(id, ir.const64(l.program.options.nspec())),
                          abi::FaultKind::IllegalOperation);
    abi::RecordField field = l.records.integer(id, call.operand(0)->type);
    l.records.action(*this).fields.push_back(field);
    llvm::Value* slot = busy_flag(l, ir.b().CreateTrunc(id, ir.b().getInt32Ty()));
    ir.when(ir.b().CreateICmpNE(slot, ir.const64(0)),
            [&] { ir.b().CreateStore(ir.const64(0), ir.b().CreateIntToPtr(slot, ir.ptr())); }, "spec.release");
    return no_value(call);
  }

 protected:
  static uint32_t id(const abi::RecordedAction& action, const abi::RecordView& record) {
    return static_cast<uint32_t>(record.field(action.fields[0]).as_unsigned());
  }

 private:
  Speculation role_;
};

class Commit : public Finish {
 public:
  Commit() : Finish("commit", Speculation::Commit) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.commit(id(action, record));
  }
};

class Discard : public Finish {
 public:
  Discard() : Finish("discard", Speculation::Discard) {}
  void run(const abi::RecordedAction& action, const abi::RecordView& record, abi::RunContext& run) const override {
    run.discard(id(action, record));
  }
};

const Registered<NewSpeculation> speculation;
const Registered<Speculate> speculate;
const Registered<Commit> commit;
const Registered<Discard> discard;

}  // namespace
}  // namespace dsched::lang
