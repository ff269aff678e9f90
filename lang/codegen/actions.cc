// Actions (data-recording statements, written into the clause's ring-buffer record and carried
// out in user space in order) and subroutines (values computed in the program).
#include <linux/bpf.h>

#include "lang/codegen/generator.h"

namespace dsched::codegen {
namespace {

using lang::Func;

bool is_text(const Value& v) { return v.type->is_string() || (v.in_kernel && v.type->is_array()); }

}  // namespace

static RecordField record_value(Generator& g, const lang::Expr& e) {
  // stringof(kernel text) goes into the record straight from the kernel.
  const lang::Expr* source = &e;
  while (source->kind == lang::ExprKind::Call && source->func == lang::Func::Stringof &&
         source->operand(0)->type->is_array())
    source = source->operand(0);
  Value v = g.eval(*source);
  if (is_text(v)) return g.record_string(v);
  return g.record_integer(v.v, v.type);
}

// The aggregation ids named by @ arguments, in order.
static std::vector<uint32_t> aggregation_ids(const lang::Expr& call) {
  std::vector<uint32_t> ids;
  for (const auto& arg : call.operands)
    if (arg->kind == lang::ExprKind::AggRef) ids.push_back(static_cast<uint32_t>(arg->id));
  return ids;
}

void Generator::action(const lang::Expr& call) {
  using Kind = RecordedAction::Kind;
  const auto& args = call.operands;
  // Fields are written first, then the action that reads them is added to the layout.
  auto recorded = [&](Kind kind) -> RecordedAction& {
    record().actions.push_back(RecordedAction{kind, {}, {}, {}, false});
    return record().actions.back();
  };
  auto record_from = [&](size_t first) {
    std::vector<RecordField> fields;
    for (size_t i = first; i < args.size(); ++i) fields.push_back(record_value(*this, *args[i]));
    return fields;
  };
  switch (call.func) {
    case Func::Trace: {
      RecordField field = record_value(*this, *args[0]);
      recorded(Kind::Trace).fields.push_back(field);
      return;
    }
    case Func::Printf:
    case Func::System: {
      std::vector<RecordField> fields = record_from(1);
      RecordedAction& action = recorded(call.func == Func::Printf ? Kind::Printf : Kind::System);
      action.format = args[0]->text;
      action.fields = fields;
      return;
    }
    case Func::Printa: {
      RecordedAction& action = recorded(Kind::Printa);
      if (args[0]->kind == lang::ExprKind::StringLiteral) action.format = args[0]->text;
      action.aggregations = aggregation_ids(call);
      return;
    }
    case Func::Exit: {
      RecordField field = record_integer(eval_int(*args[0]), args[0]->type);
      recorded(Kind::Exit).fields.push_back(field);
      return;
    }
    case Func::Clear:
    case Func::Denormalize: {
      recorded(call.func == Func::Clear ? Kind::Clear : Kind::Denormalize).aggregations = aggregation_ids(call);
      return;
    }
    case Func::Trunc:
    case Func::Normalize: {
      bool has_count = args.size() > 1;
      std::vector<RecordField> fields;
      if (has_count) fields.push_back(record_integer(eval_int(*args[1]), args[1]->type));
      RecordedAction& action = recorded(call.func == Func::Trunc ? Kind::Trunc : Kind::Normalize);
      action.aggregations = aggregation_ids(call);
      action.fields = fields;
      action.has_count = has_count;
      return;
    }
    case Func::Speculate:
      set_speculation(eval_int(*args[0]));
      return;
    case Func::Commit:
    case Func::Discard: {
      llvm::Value* id = eval_int(*args[0]);
      RecordField field = record_integer(id, args[0]->type);
      recorded(call.func == Func::Commit ? Kind::Commit : Kind::Discard).fields.push_back(field);
      release_speculation(id);
      return;
    }
    case Func::Setopt: {
      std::vector<RecordField> fields = record_from(1);
      RecordedAction& action = recorded(Kind::Setopt);
      action.format = args[0]->text;
      action.fields = fields;
      return;
    }
    case Func::CtprofSnapshot:
    case Func::CtprofCompare: {
      std::vector<RecordField> fields = record_from(0);
      recorded(call.func == Func::CtprofSnapshot ? Kind::CtprofSnapshot : Kind::CtprofCompare).fields = fields;
      return;
    }
    case Func::Raise:
      mod_.call_helper(BPF_FUNC_send_signal, {b().CreateTrunc(eval_int(*args[0]), b().getInt32Ty())});
      return;
    default:
      throw Unsupported(call.loc, std::string(lang::func_name(call.func)) + "() is not supported yet");
  }
}

Value Generator::call(const lang::Expr& call) {
  const auto& args = call.operands;
  switch (call.func) {
    case Func::Stringof:
      return to_string(eval(*args[0]));
    case Func::Strlen:
      return {string_length(to_string(eval(*args[0]))), call.type};
    case Func::Speculation:
      return {allocate_speculation(), call.type};
    case Func::Rand:
      return {mod_.call_helper(BPF_FUNC_get_prandom_u32, {}), call.type};
    case Func::Copyinstr: {
      llvm::Value* text = scratch(strsize());
      zero_bytes(text, strsize());
      mod_.call_helper(BPF_FUNC_probe_read_user_str,
                       {text, const64(static_cast<int64_t>(strsize())), b().CreateIntToPtr(eval_int(*args[0]), ptr())});
      return {text, call.type, strsize()};
    }
    case Func::Strjoin:
    case Func::Substr:
    case Func::Strchr:
    case Func::Strrchr:
    case Func::Strstr:
    case Func::Basename:
    case Func::Dirname:
    case Func::Lltostr:
      return string_subroutine(call);
    case Func::Copyin: {
      // The user bytes land in scratch; the result points at them (reads of it go through the
      // kernel-read path like any other pointer). The size must be a constant to bound the copy.
      const lang::Expr& size_expr = *args[1];
      if (size_expr.kind != lang::ExprKind::IntLiteral)
        throw Unsupported(size_expr.loc, "copyin() needs a constant size here");
      uint64_t size = std::min<uint64_t>(size_expr.value, strsize());
      llvm::Value* buffer = scratch(size + 1);
      zero_bytes(buffer, (size + 8) & ~uint64_t(7));
      llvm::Value* result = mod_.call_helper(
          BPF_FUNC_probe_read_user, {buffer, const64(static_cast<int64_t>(size)), b().CreateIntToPtr(eval_int(*args[0]), ptr())});
      check_fault(b().CreateICmpSLT(result, const64(0)), FaultKind::InvalidAddress, eval_int(*args[0]));
      return {b().CreatePtrToInt(buffer, i64()), call.type};
    }
    default:
      throw Unsupported(call.loc, std::string(lang::func_name(call.func)) + "() is not supported yet");
  }
}

// speculation(): claims the first free buffer id (1..nspec) with a compare-and-swap.
llvm::Value* Generator::allocate_speculation() {
  llvm::Value* result = stack_slot();
  b().CreateStore(const64(0), result);
  llvm::BasicBlock* done = new_block("spec.done");
  int64_t nspec = program_.options.nspec();
  for (int64_t id = 1; id <= nspec; ++id) {
    llvm::Value* key = scratch(4);
    b().CreateStore(b().getInt32(static_cast<uint32_t>(id)), key);
    llvm::Value* slot = mod_.call_helper(BPF_FUNC_map_lookup_elem, {spec_map_, key});
    llvm::BasicBlock* found = new_block("spec.slot");
    llvm::BasicBlock* next = new_block("spec.next");
    b().CreateCondBr(b().CreateICmpNE(slot, const64(0)), found, next);
    b().SetInsertPoint(found);
    auto* swap = b().CreateAtomicCmpXchg(b().CreateIntToPtr(slot, ptr()), const64(0), const64(1), llvm::MaybeAlign(8),
                                         llvm::AtomicOrdering::SequentiallyConsistent,
                                         llvm::AtomicOrdering::SequentiallyConsistent);
    llvm::BasicBlock* claimed = new_block("spec.claimed");
    b().CreateCondBr(b().CreateExtractValue(swap, 1), claimed, next);
    b().SetInsertPoint(claimed);
    b().CreateStore(const64(id), result);
    b().CreateBr(done);
    b().SetInsertPoint(next);
  }
  bump_drop(DropCounter::SpeculationUnavailable);
  b().CreateBr(done);
  b().SetInsertPoint(done);
  return b().CreateLoad(i64(), result);
}

// commit()/discard(): the id is free again; user space has the order of records to finish it.
void Generator::release_speculation(llvm::Value* id) {
  llvm::Value* key = scratch(4);
  b().CreateStore(b().CreateTrunc(id, b().getInt32Ty()), key);
  llvm::Value* slot = mod_.call_helper(BPF_FUNC_map_lookup_elem, {spec_map_, key});
  llvm::BasicBlock* release = new_block("spec.release");
  llvm::BasicBlock* done = new_block("spec.released");
  b().CreateCondBr(b().CreateICmpNE(slot, const64(0)), release, done);
  b().SetInsertPoint(release);
  b().CreateStore(const64(0), b().CreateIntToPtr(slot, ptr()));
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

}  // namespace dsched::codegen
