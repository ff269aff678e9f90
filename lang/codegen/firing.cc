#include "lang/codegen/firing.h"

#include <linux/bpf.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <algorithm>
#include <functional>

#include "lang/codegen/exprs.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/strings.h"
#include "lang/kernel_symbols.h"

namespace dsched::codegen {

void Firing::begin_program(llvm::Function* function, const std::string& section,
                           const std::function<llvm::Value*()>& filter) {
  section_ = section;
  start_function(function, filter, 0);
}

void Firing::begin_fault_handler(llvm::Function* function) {
  // It runs inside the faulting program, whose this-> and temporaries it must leave alone: its own
  // scratch comes after every program's.
  section_.clear();
  start_function(function, [] { return nullptr; }, scratch_max_);
  fault_args_ = function->getArg(1);
}

void Firing::start_function(llvm::Function* function, const std::function<llvm::Value*()>& filter,
                            uint64_t first_scratch) {
  Ir& ir = l_.ir;
  context_ = function->getArg(0);
  fault_args_ = nullptr;
  scratch_used_ = first_scratch;
  scratch_base_ = nullptr;
  depth_word_ = depth_ = nullptr;
  globals_base_ = nullptr;
  event_timestamp_ = nullptr;
  llvm::BasicBlock* fail = ir.new_block("no.maps");
  llvm::BasicBlock* start = ir.new_block("start");
  if (llvm::Value* wanted = filter()) {
    llvm::BasicBlock* checks = ir.new_block("wanted");
    ir.b().CreateCondBr(wanted, checks, fail);
    ir.b().SetInsertPoint(checks);
  }
  entry_check_ = ir.b().CreateCondBr(ir.b().getTrue(), start, fail);
  start_ = start;
  ir.b().SetInsertPoint(fail);
  ir.b().CreateRet(ir.const64(0));
  ir.b().SetInsertPoint(start);
  // this-> variables live for one firing, shared by the clauses of the probe.
  this_base_ = 0;
  if (l_.maps.clause_locals_size()) scratch(l_.maps.clause_locals_size(), &this_base_);
  program_scratch_ = scratch_used_;
  this_slots_.assign(l_.program.clause_locals.size(), nullptr);
  for (const lang::Variable& var : l_.program.clause_locals)
    if (l_.maps.clause_local_on_stack(var.id)) this_slots_[size_t(var.id)] = ir.entry_alloca(ir.i64());
}

void Firing::zero_clause_locals() {
  Ir& ir = l_.ir;
  if (l_.maps.clause_locals_size())
    ir.zero_bytes(ir.offset_ptr(scratch_base(), this_base_), l_.maps.clause_locals_size());
  for (llvm::Value* slot : this_slots_)
    if (slot) ir.b().CreateStore(ir.const64(0), slot);
}

void Firing::begin_firing(const lang::Probe& probe, const Hook& hook, const Binding& binding, llvm::BasicBlock* entry,
                          const std::vector<const lang::Probe*>& alike, llvm::Value* index) {
  probe_ = &probe;
  alike_ = alike;
  alike_index_ = index;
  hook_ = &hook;
  binding_ = binding;
  entry_ = entry;
  scratch_used_ = scratch_asked_end_ = program_scratch_;
  context_task_ = nullptr;
  context_tid_ = nullptr;
  thread_locals_ = nullptr;
  thread_locals_cacheable_ = true;
}

llvm::Value* Firing::per_probe(const std::function<int64_t(const lang::Probe&)>& value) {
  std::vector<uint64_t> values;
  for (const lang::Probe* probe : alike_) values.push_back(uint64_t(value(*probe)));
  if (std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) == values.end())
    return l_.ir.const64(value(*probe_));
  auto* table = l_.ir.rodata(llvm::ConstantDataArray::get(l_.ir.module().context(), values), "probe_values");
  auto& b = l_.ir.b();
  return b.CreateLoad(l_.ir.i64(), b.CreateGEP(l_.ir.i64(), table, alike_index_));
}

Value Firing::per_probe(std::string lang::Probe::*field) {
  auto differs = [&](const lang::Probe* p) { return p->*field != probe_->*field; };
  if (std::none_of(alike_.begin(), alike_.end(), differs)) return l_.strings.literal(probe_->*field);
  // Each text padded to the longest, and to 8 bytes, one after the other.
  uint64_t capacity = 0;
  for (const lang::Probe* probe : alike_) capacity = std::max<uint64_t>(capacity, (probe->*field).size() + 1);
  uint64_t stride = round8(capacity);
  std::string texts;
  for (const lang::Probe* probe : alike_) {
    texts += probe->*field;
    texts.resize(texts.size() + stride - (probe->*field).size(), '\0');
  }
  auto* table = l_.ir.rodata(llvm::ConstantDataArray::getString(l_.ir.module().context(), texts, false), "probe_texts");
  auto& b = l_.ir.b();
  llvm::Value* text = b.CreateGEP(l_.ir.i8(), table, b.CreateMul(alike_index_, l_.ir.const64(int64_t(stride))));
  return {text, l_.program.types->string_type(), capacity};
}

void Firing::begin_clause() {
  // A this-> pointer may carry what one clause copied in (copyin(), alloca()) to the next clause
  // of the firing, as scripts written for DTrace expect: the scratch then stays taken until the
  // firing ends. Otherwise each clause reuses the same scratch.
  const bool pointers_cross_clauses =
      std::ranges::any_of(l_.program.clause_locals, [](const lang::Variable& v) { return v.type->is_pointer(); });
  if (!pointers_cross_clauses) scratch_used_ = scratch_asked_end_ = program_scratch_;
  clause_timestamp_ = nullptr;
  llvm::BasicBlock* clause = l_.ir.new_block("clause");
  clause_entry_ = l_.ir.b().CreateBr(clause);
  l_.ir.b().SetInsertPoint(clause);
}

llvm::Value* Firing::clause_timestamp() {
  if (clause_timestamp_) return clause_timestamp_;
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::IRBuilderBase::InsertPointGuard guard(b);
  if (!event_timestamp_) {
    event_timestamp_ = ir.stack_slot();
    b.SetInsertPoint(llvm::cast<llvm::Instruction>(event_timestamp_)->getNextNode());
    b.CreateStore(ir.const64(0), event_timestamp_);
  }
  // At the clause's start: the event's value, or the clock when no clause read it yet.
  b.SetInsertPoint(clause_entry_);
  llvm::Value* known = b.CreateLoad(ir.i64(), event_timestamp_);
  llvm::Instruction* read = llvm::SplitBlockAndInsertIfThen(b.CreateICmpEQ(known, ir.const64(0)), clause_entry_, false);
  b.SetInsertPoint(read);
  llvm::Value* now = ir.helper(BPF_FUNC_ktime_get_ns, {});
  b.CreateStore(now, event_timestamp_);
  llvm::BasicBlock* clause = clause_entry_->getParent();
  b.SetInsertPoint(clause, clause->begin());
  llvm::PHINode* value = b.CreatePHI(ir.i64(), 2);
  value->addIncoming(known, llvm::cast<llvm::Instruction>(known)->getParent());
  value->addIncoming(now, read->getParent());
  clause_timestamp_ = value;
  return clause_timestamp_;
}

llvm::Value* Firing::scratch(uint64_t size, uint64_t* offset_out) {
  uint64_t offset = scratch_used_;
  scratch_asked_end_ = offset + size;
  scratch_used_ += round8(size);
  scratch_max_ = std::max(scratch_max_, scratch_used_);
  if (offset_out) *offset_out = offset;
  return l_.ir.offset_ptr(scratch_base(), offset);
}

llvm::Value* Firing::entry_map_value(llvm::GlobalVariable* map, llvm::StoreInst** key_store, llvm::Value* key_value) {
  Ir& ir = l_.ir;
  llvm::IRBuilderBase::InsertPointGuard guard(ir.b());
  ir.b().SetInsertPoint(entry_check_);
  llvm::Value* key = ir.entry_alloca(ir.b().getInt32Ty());  // the checks may come after a filter
  llvm::StoreInst* store = ir.b().CreateStore(key_value ? key_value : ir.b().getInt32(0), key);
  if (key_store) *key_store = store;
  llvm::Value* value = ir.helper(BPF_FUNC_map_lookup_elem, {map, key});
  entry_check_->setCondition(ir.b().CreateAnd(entry_check_->getCondition(), ir.b().CreateICmpNE(value, ir.const64(0))));
  return ir.b().CreateIntToPtr(value, ir.ptr());
}

llvm::Value* Firing::per_cpu_value(llvm::GlobalVariable* map) {
  llvm::StoreInst* key_store = nullptr;
  llvm::Value* value = entry_map_value(map, &key_store);
  l_.maps.note_per_cpu_key(map, key_store);
  return value;
}

llvm::Value* Firing::scratch_base() {
  if (scratch_base_) return scratch_base_;
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::Value* depth_word = per_cpu_value(
      l_.maps.hook_map({"scratch_depth", BPF_MAP_TYPE_PERCPU_ARRAY, 1, 4, 8, 0, false}));
  llvm::Value* depth = nullptr;
  llvm::Value* level = nullptr;
  {
    llvm::IRBuilderBase::InsertPointGuard guard(b);
    b.SetInsertPoint(entry_check_);
    // Volatile: runs that interrupt this one read and restore the word between these accesses.
    depth = b.CreateLoad(ir.i64(), depth_word, /*isVolatile=*/true);
    // The fault handler runs within the program that faulted, at its level.
    const bool fault_handler = fault_args_ != nullptr;
    level = fault_handler ? b.CreateSub(depth, ir.const64(1)) : depth;
    entry_check_->setCondition(
        b.CreateAnd(entry_check_->getCondition(), b.CreateICmpULT(level, ir.const64(Maps::kScratchLevels))));
    level = b.CreateTrunc(level, b.getInt32Ty());
    if (!fault_handler) {
      b.SetInsertPoint(start_, start_->getFirstInsertionPt());
      b.CreateStore(b.CreateAdd(depth, ir.const64(1)), depth_word, /*isVolatile=*/true);
      depth_word_ = depth_word;
      depth_ = depth;
    }
  }
  llvm::StoreInst* key_store = nullptr;
  scratch_base_ = entry_map_value(l_.maps.scratch(), &key_store, level);
  l_.maps.note_per_cpu_key(l_.maps.scratch(), key_store);
  return scratch_base_;
}

void Firing::end_program() {
  if (depth_word_) l_.ir.b().CreateStore(depth_, depth_word_, /*isVolatile=*/true);
}

llvm::Value* Firing::globals_base() {
  if (!globals_base_) globals_base_ = entry_map_value(l_.maps.globals());
  return globals_base_;
}

llvm::Value* Firing::context_task() {
  if (!context_task_) {
    // Computed once, before the firing's guard, so that every clause of the firing can use it.
    llvm::IRBuilderBase::InsertPointGuard guard(l_.ir.b());
    if (llvm::Instruction* terminator = entry_->getTerminator())
      l_.ir.b().SetInsertPoint(terminator);
    else
      l_.ir.b().SetInsertPoint(entry_);
    context_task_ = hook_->context_task(l_);
  }
  return context_task_;
}

const Firing::AddressRanges& Firing::tracepoint_relays() {
  auto [known, added] = relays_.try_emplace(section_);
  const size_t slash = section_.find('/');
  if (added && slash != std::string::npos) {
    const std::string tracepoint = section_.substr(slash + 1);
    std::string error;
    for (const std::optional<lang::KernelSymbol>& symbol :
         lang::kernel_symbols({"__traceiter_" + tracepoint, "__bpf_trace_" + tracepoint}, &error))
      if (symbol && symbol->end > symbol->address) known->second.emplace_back(symbol->address, symbol->end);
  }
  return known->second;
}

Firing::Stack Firing::stack(uint32_t frames, bool user) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  // A tracepoint's program runs under bpf_trace_run<N>(): both frames are the tracer's. Between it
  // and the tracepoint's site the kernel may pass through __bpf_trace_<name>() and, while several
  // programs are attached to the tracepoint, __traceiter_<name>(): up to two more frames are
  // recorded and those of these relays dropped. A perf event's program sees the interrupted
  // registers: nothing to skip.
  constexpr uint64_t kTracerFrames = 2;
  if (!user && !context_is_current()) {
    // The probe's thread is not the one running (on-cpu: it is about to): its kernel stack is the
    // one it saved when it left the CPU, where it blocked, as DTrace shows it there.
    llvm::Value* buffer = scratch(8 * uint64_t(frames));
    llvm::Value* bytes = ir.helper(BPF_FUNC_get_task_stack, {b.CreateIntToPtr(context_task(), ir.ptr()), buffer,
                                                             ir.const64(8 * int64_t(frames)), ir.const64(0)});
    return {buffer, bytes};
  }
  const bool tracepoint = !user && hook_->attach_kind() == abi::AttachPoint::Kind::Tracepoint;
  const AddressRanges none;
  const AddressRanges& relays = tracepoint ? tracepoint_relays() : none;
  const uint32_t extra = relays.empty() ? 0 : 2;
  llvm::Value* buffer = scratch(8 * uint64_t(frames + extra));
  const uint64_t flags = user ? uint64_t(BPF_F_USER_STACK) : tracepoint ? kTracerFrames : 0;
  llvm::Value* bytes = ir.helper(
      BPF_FUNC_get_stack, {context_, buffer, ir.const64(8 * int64_t(frames + extra)), ir.const64(int64_t(flags))});
  if (relays.empty()) return {buffer, bytes};
  auto is_relay = [&](uint64_t word) {
    llvm::Value* pc = b.CreateLoad(ir.i64(), ir.offset_ptr(buffer, 8 * word));
    llvm::Value* any = b.getFalse();
    for (const auto& [start, end] : relays)
      any = b.CreateOr(any, b.CreateAnd(b.CreateICmpUGE(pc, ir.const64(int64_t(start))),
                                        b.CreateICmpULT(pc, ir.const64(int64_t(end)))));
    return any;
  };
  llvm::Value* first = is_relay(0);
  llvm::Value* both = b.CreateAnd(first, is_relay(1));
  llvm::Value* skipped = b.CreateSelect(both, ir.const64(16), b.CreateSelect(first, ir.const64(8), ir.const64(0)));
  llvm::Value* at =
      b.CreateSelect(both, ir.offset_ptr(buffer, 16), b.CreateSelect(first, ir.offset_ptr(buffer, 8), buffer));
  // What the stack filled of the `frames` words from `at`.
  llvm::Value* filled = b.CreateSub(bytes, skipped);
  filled =
      b.CreateSelect(b.CreateICmpSGT(filled, ir.const64(8 * int64_t(frames))), ir.const64(8 * int64_t(frames)), filled);
  filled = b.CreateSelect(b.CreateICmpSLT(bytes, ir.const64(0)), bytes, filled);
  return {at, filled};
}

llvm::Value* Firing::context_tid() {
  if (!context_tid_) {
    Ir& ir = l_.ir;
    llvm::Value* task = context_task();  // first: it may be placed in the firing's entry
    llvm::IRBuilderBase::InsertPointGuard guard(ir.b());
    if (llvm::Instruction* terminator = entry_->getTerminator())
      ir.b().SetInsertPoint(terminator);
    else
      ir.b().SetInsertPoint(entry_);
    context_tid_ = context_is_current()
                       ? ir.b().CreateAnd(ir.helper(BPF_FUNC_get_current_pid_tgid, {}), ir.const64(0xffffffff))
                       : l_.exprs.kernel_field(task, "task_struct", {"pid"});
  }
  return context_tid_;
}

llvm::Value* Firing::thread_locals(bool shared) {
  if (thread_locals_) return thread_locals_;
  Ir& ir = l_.ir;
  auto lookup = [&] {
    return ir.helper(
        BPF_FUNC_task_storage_get,
        {l_.maps.thread_locals(), ir.b().CreateIntToPtr(context_task(), ir.ptr()), ir.null(), ir.const64(0)});
  };
  if (!shared || !thread_locals_cacheable_) return lookup();
  // One lookup per firing serves every read, made where the context task is.
  llvm::IRBuilderBase::InsertPointGuard guard(ir.b());
  ir.b().SetInsertPoint(entry_->getTerminator());
  thread_locals_ = lookup();
  return thread_locals_;
}

void Firing::forget_thread_locals() {
  thread_locals_ = nullptr;
  thread_locals_cacheable_ = false;
}

Value Firing::arg(int index, const lang::Type* type) {
  if (type->is_string()) {
    // A probe's text (proc:::exec's path) is passed as its address in user memory, which is read
    // as copyinstr() reads it; unreadable, it is "".
    Value text = l_.strings.fresh();
    l_.ir.helper(BPF_FUNC_probe_read_user_str, {text.v, l_.ir.const64(int64_t(text.capacity)),
                                                l_.ir.b().CreateIntToPtr(hook_->arg(l_, index), l_.ir.ptr())});
    return {text.v, type, text.capacity};
  }
  Value value{l_.ir.normalize(hook_->arg(l_, index), type), type};
  value.btf = type->is_pointer() && hook_->arg_is_btf(index);
  return value;
}

}  // namespace dsched::codegen
