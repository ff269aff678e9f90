#include "lang/codegen/generator.h"

#include <algorithm>
#include <linux/bpf.h>

namespace dsched::codegen {
namespace {

uint64_t round8(uint64_t n) { return (n + 7) & ~uint64_t(7); }

// Bytes a D value occupies in variable storage: integers and pointers take a 64-bit word.
uint64_t storage_size(const lang::Type* type) {
  return type->is_string() ? round8(type->size) : 8;
}

uint64_t key_size(const std::vector<const lang::Type*>& types) {
  uint64_t size = 0;
  for (const lang::Type* t : types) size += storage_size(t);
  return size;
}

// The ring buffer must be a power-of-two multiple of the page size.
constexpr uint32_t kRingRecordOverhead = 8;  // the kernel's header in front of each record

uint32_t ring_size(int64_t requested) {
  uint64_t size = 4096;
  while (size < static_cast<uint64_t>(requested) && size < (1ull << 30)) size <<= 1;
  return static_cast<uint32_t>(size);
}

std::string program_name(const probes::Probe& probe, size_t index) {
  std::string name = "ds" + std::to_string(index) + "_";  // "ds" marks dsched's programs in the kernel
  for (char c : probe.name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

bool is_action_call(const lang::Expr& e) { return e.kind == lang::ExprKind::Call && e.type && e.type->is_void(); }

// Actions whose data goes into the clause's record.
bool records_data(const lang::Stmt& stmt) {
  if (stmt.kind != lang::StmtKind::Expr || !is_action_call(*stmt.expr)) return false;
  return stmt.expr->func != lang::Func::Speculate && stmt.expr->func != lang::Func::Raise;
}

}  // namespace

Unsupported::Unsupported(const lang::SourceRange& where, const std::string& what)
    : std::runtime_error(what), where(where) {}

Generator::Generator(const lang::Program& program)
    : program_(program), mod_("dsched"), records_(out_.records) {}

llvm::Value* Generator::offset_ptr(llvm::Value* base, uint64_t offset) {
  if (offset == 0) return base;
  return b().CreateInBoundsGEP(i8(), base, b().getInt64(offset));
}

llvm::BasicBlock* Generator::new_block(const std::string& name) {
  return llvm::BasicBlock::Create(mod_.context(), name, fn_);
}

void Generator::when(llvm::Value* condition, const std::function<void()>& body) {
  llvm::BasicBlock* then = new_block("then");
  llvm::BasicBlock* done = new_block("then.done");
  b().CreateCondBr(condition, then, done);
  b().SetInsertPoint(then);
  body();
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

llvm::Value* Generator::normalize(llvm::Value* v, const lang::Type* type) {
  if (!type->is_integer() || type->size >= 8) return v;
  llvm::Type* narrow = b().getIntNTy(static_cast<unsigned>(type->size * 8));
  llvm::Value* truncated = b().CreateTrunc(v, narrow);
  return type->is_signed ? b().CreateSExt(truncated, i64()) : b().CreateZExt(truncated, i64());
}

llvm::Value* Generator::truth(llvm::Value* v) {
  if (v->getType()->isIntegerTy(1)) return v;
  return b().CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
}

llvm::Value* Generator::scratch(uint64_t size, uint64_t* offset_out) {
  uint64_t offset = scratch_used_;
  scratch_used_ += round8(size);
  scratch_max_ = std::max(scratch_max_, scratch_used_);
  if (offset_out) *offset_out = offset;
  return offset_ptr(scratch_base(), offset);
}

llvm::Value* Generator::entry_map_value(llvm::GlobalVariable* map) {
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  b().SetInsertPoint(entry_check_);
  llvm::Value* key = b().CreateAlloca(b().getInt32Ty());
  b().CreateStore(b().getInt32(0), key);
  llvm::Value* value = mod_.call_helper(BPF_FUNC_map_lookup_elem, {map, key});
  entry_check_->setCondition(b().CreateAnd(entry_check_->getCondition(), b().CreateICmpNE(value, const64(0))));
  return b().CreateIntToPtr(value, ptr());
}

llvm::Value* Generator::scratch_base() {
  if (!scratch_base_) scratch_base_ = entry_map_value(scratch_map_);
  return scratch_base_;
}

llvm::Value* Generator::globals_base() {
  if (!globals_base_) globals_base_ = entry_map_value(globals_);
  return globals_base_;
}

llvm::Value* Generator::stack_slot() {
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  b().SetInsertPoint(&fn_->getEntryBlock(), fn_->getEntryBlock().getFirstInsertionPt());
  return b().CreateAlloca(i64());
}

void Generator::bump_drop(DropCounter counter) {
  llvm::Value* key = scratch(4);
  b().CreateStore(b().getInt32(static_cast<uint32_t>(counter)), key);
  llvm::Value* slot = mod_.call_helper(BPF_FUNC_map_lookup_elem, {drops_, key});
  llvm::BasicBlock* bump = new_block("drop");
  llvm::BasicBlock* done = new_block("drop.done");
  b().CreateCondBr(b().CreateICmpNE(slot, const64(0)), bump, done);
  b().SetInsertPoint(bump);
  llvm::Value* p = b().CreateIntToPtr(slot, ptr());
  b().CreateStore(b().CreateAdd(b().CreateLoad(i64(), p), const64(1)), p);
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

llvm::Value* Generator::thread_locals() {
  if (thread_locals_) return thread_locals_;
  llvm::Value* null = llvm::ConstantPointerNull::get(ptr());
  if (!thread_locals_cacheable_)
    return mod_.call_helper(BPF_FUNC_task_storage_get,
                            {self_, b().CreateIntToPtr(context_task(), ptr()), null, const64(0)});
  // One lookup per firing serves every read, made where the context task is.
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  b().SetInsertPoint(fire_entry_->getTerminator());
  thread_locals_ = mod_.call_helper(BPF_FUNC_task_storage_get,
                                    {self_, b().CreateIntToPtr(context_task(), ptr()), null, const64(0)});
  return thread_locals_;
}

void Generator::forget_thread_locals() {
  thread_locals_ = nullptr;
  thread_locals_cacheable_ = false;
}

llvm::Value* Generator::context_task() {
  if (!context_task_) {
    // Computed once, before the firing's guard, so that every clause of the firing can use it.
    llvm::IRBuilderBase::InsertPointGuard guard(b());
    if (llvm::Instruction* terminator = fire_entry_->getTerminator())
      b().SetInsertPoint(terminator);
    else
      b().SetInsertPoint(fire_entry_);
    context_task_ = hook_->context_task(*this);
  }
  return context_task_;
}

uint32_t Generator::record_field(uint32_t size) {
  RecordLayout& layout = record();
  uint32_t offset = layout.size;
  layout.size = static_cast<uint32_t>(round8(layout.size + size));
  return offset;
}

llvm::Value* Generator::record_ptr(uint32_t offset) { return offset_ptr(record_, offset); }

RecordField Generator::record_integer(llvm::Value* v, const lang::Type* type) {
  RecordField field;
  field.kind = RecordField::Kind::Integer;
  field.offset = record_field(8);
  field.size = static_cast<uint32_t>(type->is_integer() ? type->size : 8);
  field.is_signed = type->is_integer() && type->is_signed;
  b().CreateStore(v, record_ptr(field.offset));
  return field;
}

RecordField Generator::record_string(const Value& text) {
  RecordField field;
  field.kind = RecordField::Kind::String;
  field.size = static_cast<uint32_t>(strsize());
  field.offset = record_field(field.size);
  llvm::Value* dst = record_ptr(field.offset);
  // User space reads a record's text up to its NUL: no padding needed, and kernel text is read
  // straight into the record.
  if (text.in_kernel || text.type->is_pointer()) {
    uint64_t capacity = text.in_kernel ? std::min(text.type->size, strsize()) : strsize();
    mod_.call_helper(BPF_FUNC_probe_read_kernel_str, {dst, const64(static_cast<int64_t>(capacity)),
                                                      b().CreateIntToPtr(text.v, ptr())});
    return field;
  }
  copy_string(dst, strsize(), text, /*pad=*/false);
  return field;
}

void Generator::set_speculation(llvm::Value* id) {
  if (!record_) return;  // a clause that records nothing has nothing to speculate
  b().CreateStore(b().CreateTrunc(id, b().getInt32Ty()), record_ptr(offsetof(RecordHeader, spec)));
  b().CreateStore(b().getInt32(1), record_ptr(offsetof(RecordHeader, speculative)));
}

void Generator::layout_variables() {
  auto place = [](const std::vector<lang::Variable>& vars, std::vector<uint64_t>& offsets, uint64_t& total,
                  bool skip_assoc) {
    offsets.assign(vars.size(), 0);
    total = 0;
    for (const lang::Variable& var : vars) {
      if (skip_assoc && !var.key_types.empty()) continue;
      offsets[var.id] = total;
      total += storage_size(var.type);
    }
    total = std::max<uint64_t>(total, 8);
  };
  place(program_.globals, global_offsets_, globals_size_, true);
  place(program_.thread_locals, self_offsets_, self_size_, false);
  place(program_.clause_locals, this_offsets_, this_size_, false);
  assoc_key_sizes_.assign(program_.globals.size(), 0);
  for (const lang::Variable& var : program_.globals)
    if (!var.key_types.empty()) assoc_key_sizes_[var.id] = key_size(var.key_types);
}

void Generator::define_maps() {
  const lang::Options& options = program_.options;
  ring_bytes_ = ring_size(options.number("bufsize", 4 << 20));
  events_ = mod_.define_map({"events", BPF_MAP_TYPE_RINGBUF, ring_bytes_, 0, 0, 0, false});
  drops_ = mod_.define_map({"drops", BPF_MAP_TYPE_PERCPU_ARRAY, static_cast<uint32_t>(DropCounter::Count), 4, 8,
                            0, false});
  globals_ = mod_.define_map({"globals", BPF_MAP_TYPE_ARRAY, 1, 4, static_cast<uint32_t>(globals_size_), 0, false});
  if (!program_.thread_locals.empty())
    self_ = mod_.define_map({"self_vars", BPF_MAP_TYPE_TASK_STORAGE, 0, 4, static_cast<uint32_t>(self_size_),
                             BPF_F_NO_PREALLOC, true});
  uint64_t dynvarsize = static_cast<uint64_t>(options.number("dynvarsize", 1 << 20));
  for (const lang::Variable& var : program_.globals) {
    if (var.key_types.empty()) continue;
    uint64_t entry = assoc_key_sizes_[var.id] + storage_size(var.type);
    uint32_t entries = static_cast<uint32_t>(std::clamp<uint64_t>(dynvarsize / (entry + 64), 1, 1 << 20));
    assoc_maps_[var.id] = mod_.define_map({"var_" + var.name, BPF_MAP_TYPE_HASH, entries,
                                           static_cast<uint32_t>(assoc_key_sizes_[var.id]),
                                           static_cast<uint32_t>(storage_size(var.type)), BPF_F_NO_PREALLOC, false});
    zeroes_size_ = std::max(zeroes_size_, storage_size(var.type));
  }
  if (program_.uses_speculation)
    spec_map_ = mod_.define_map({"spec_busy", BPF_MAP_TYPE_ARRAY, static_cast<uint32_t>(options.nspec() + 1), 4, 8,
                                 0, false});
  zeroes_size_ = std::max(zeroes_size_, strsize());  // an absent string variable reads from them
  // The sizes of the scratch map and of the zeroes are known only after lowering: placeholders
  // stand in until then.
  scratch_map_ = new llvm::GlobalVariable(mod_.module(), i8(), false, llvm::GlobalValue::ExternalLinkage,
                                          b().getInt8(0), "scratch_placeholder");
  zeroes_ = new llvm::GlobalVariable(mod_.module(), i8(), true, llvm::GlobalValue::InternalLinkage,
                                     b().getInt8(0), "zeroes_placeholder");
  define_aggregation_maps();
}

llvm::GlobalVariable* Generator::hook_map(const MapSpec& spec) {
  auto [it, inserted] = hook_maps_.try_emplace(spec.name, nullptr);
  if (inserted) it->second = mod_.define_map(spec);
  return it->second;
}

void Generator::finish_maps() {
  auto* scratch = mod_.define_map({"scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 1, 4,
                                   static_cast<uint32_t>(std::max<uint64_t>(scratch_max_, 8)), 0, false});
  scratch_map_->replaceAllUsesWith(scratch);
  scratch_map_->eraseFromParent();
  scratch_map_ = scratch;
  auto* zero_type = llvm::ArrayType::get(i8(), zeroes_size_);
  auto* zeroes = new llvm::GlobalVariable(mod_.module(), zero_type, true, llvm::GlobalValue::InternalLinkage,
                                          llvm::ConstantAggregateZero::get(zero_type), "zeroes");
  zeroes->setSection(".rodata");
  zeroes->setAlignment(llvm::Align(8));
  zeroes_->replaceAllUsesWith(zeroes);
  zeroes_->eraseFromParent();
  zeroes_ = zeroes;
}

// Groups the probes the clauses use into sites: one BPF program each. Probes on one tracepoint
// share its program (in the hooks' firing order); timers and on-demand probes get their own.
std::vector<Generator::Site> Generator::plan() {
  std::vector<Site> sites;
  for (const lang::Clause& clause : program_.clauses) {
    for (const probes::Probe* probe : clause.probes) {
      auto& clauses = clauses_by_probe_[probe];
      if (!clauses.empty()) {
        clauses.push_back(&clause);
        continue;
      }
      clauses.push_back(&clause);
      std::string error;
      const Hook* hook = hook_for(*probe, error);
      if (!hook) throw Unsupported(clause.loc, error);
      for (const std::string& section : hook->sections(*probe)) {
        bool shared = hook->attach_kind() == AttachPoint::Kind::BtfTracepoint;
        std::string key = shared ? section : section + "#" + std::to_string(probe->id);
        auto site = std::find_if(sites.begin(), sites.end(), [&](const Site& s) { return s.key == key; });
        if (site == sites.end()) site = sites.insert(sites.end(), Site{key, section, hook, {}});
        auto group = std::find_if(site->groups.begin(), site->groups.end(),
                                  [&](const HookGroup& g) { return g.hook == hook; });
        if (group == site->groups.end()) group = site->groups.insert(site->groups.end(), HookGroup{hook, {}});
        group->probes.push_back(probe);
      }
    }
  }
  for (Site& site : sites) {
    std::stable_sort(site.groups.begin(), site.groups.end(), [](const HookGroup& a, const HookGroup& b) {
      return a.hook->attach_order(*a.probes.front()) < b.hook->attach_order(*b.probes.front());
    });
  }
  return sites;
}

// A clause records when it has a data-recording action; an empty clause takes DTrace's default
// action, a per-fire line (not in quiet mode).
bool Generator::clause_records(const lang::Clause& clause) const {
  if (clause.statements.empty()) return !program_.options.quiet();
  return std::any_of(clause.statements.begin(), clause.statements.end(),
                     [](const lang::StmtPtr& s) { return records_data(*s); });
}

void Generator::emit_program(const Site& site, size_t index) {
  const probes::Probe& first = *site.groups.front().probes.front();
  std::string name = program_name(first, index);
  fn_ = mod_.begin_program(name, site.section);
  fn_->addFnAttr(llvm::Attribute::NoUnwind);
  ctx_ = fn_->getArg(0);
  read_slot_ = nullptr;
  scratch_used_ = 0;
  fault_sites_ = 0;

  // Entry: the per-CPU scratch and the globals are looked up here when the program first needs
  // them (see entry_map_value), and the program ends if either is missing.
  llvm::BasicBlock* fail = new_block("no.maps");
  llvm::BasicBlock* start = new_block("start");
  entry_check_ = b().CreateCondBr(b().getTrue(), start, fail);
  b().SetInsertPoint(fail);
  b().CreateRet(const64(0));
  b().SetInsertPoint(start);
  scratch_base_ = nullptr;
  globals_base_ = nullptr;
  // this-> variables live for one firing, shared by the clauses of the probe.
  this_base_ = 0;
  if (!program_.clause_locals.empty()) scratch(this_size_, &this_base_);
  program_scratch_ = scratch_used_;

  std::string label;
  for (const HookGroup& group : site.groups) {
    hook_ = group.hook;
    hook_->emit(*this, site.section, group.probes);
    for (const probes::Probe* probe : group.probes) label += (label.empty() ? "" : ", ") + probe->full_name();
  }
  b().CreateRet(const64(0));

  AttachPoint point;
  point.kind = site.hook->attach_kind();
  point.program = name;
  point.clause = label;
  point.period_ns = site.hook->period_ns(first);
  point.every_cpu = site.hook->every_cpu(first);
  out_.attach_points.push_back(point);
  if (first.provider == "dtrace" && first.name == "BEGIN") out_.begin_programs.push_back(name);
  if (first.provider == "dtrace" && first.name == "END") out_.end_programs.push_back(name);
  if (first.provider == "dtrace" && first.name == "ERROR") out_.error_programs.push_back(name);
}

void Generator::fire(const probes::Probe& probe, const Binding& binding) {
  probe_ = &probe;
  binding_ = binding;
  llvm::BasicBlock* done = new_block("fire.done");
  // The context task is computed, when first needed, in this firing's entry block.
  fire_entry_ = new_block("fire.entry");
  context_task_ = nullptr;
  thread_locals_ = nullptr;
  thread_locals_cacheable_ = true;
  b().CreateBr(fire_entry_);
  b().SetInsertPoint(fire_entry_);
  llvm::BasicBlock* body = new_block("fire.body");
  if (llvm::Value* guard = hook_->guard(*this))
    b().CreateCondBr(guard, body, done);
  else
    b().CreateBr(body);
  b().SetInsertPoint(body);
  if (!program_.clause_locals.empty())
    zero_bytes(offset_ptr(scratch_base(), this_base_), this_size_);
  for (const lang::Clause* clause : clauses_by_probe_.at(&probe)) {
    scratch_used_ = program_scratch_;
    emit_clause(*clause);
  }
  b().CreateBr(done);
  b().SetInsertPoint(done);
}

void Generator::emit_clause(const lang::Clause& clause) {
  llvm::BasicBlock* next = new_block("clause.next");
  // Every clause for a probe is an enabled probe with its own id, recording or not.
  epid_ = static_cast<uint32_t>(records_.size());
  RecordLayout layout;
  layout.probe_id = probe_->id;
  layout.probe_function = probe_->function;
  layout.probe_name = probe_->name;
  layout.probe_description = probe_->full_name();
  records_.push_back(layout);
  record_ = nullptr;
  reserve_call_ = nullptr;
  abort_ = next;  // a fault in the predicate just skips the clause
  action_ = 0;
  if (clause.predicate) {
    llvm::BasicBlock* body = new_block("clause.body");
    b().CreateCondBr(condition(*clause.predicate), body, next);
    b().SetInsertPoint(body);
  }

  if (clause_records(clause)) {
    reserve_call_ = llvm::cast<llvm::CallInst>(
        mod_.call_helper(BPF_FUNC_ringbuf_reserve, {events_, const64(sizeof(RecordHeader)), const64(0)}));
    llvm::BasicBlock* reserved = new_block("reserved");
    llvm::BasicBlock* full = new_block("buffer.full");
    b().CreateCondBr(b().CreateICmpNE(reserve_call_, const64(0)), reserved, full);
    b().SetInsertPoint(full);
    bump_drop(DropCounter::RingBufferFull);
    b().CreateBr(next);
    b().SetInsertPoint(reserved);
    record_ = b().CreateIntToPtr(reserve_call_, ptr());
    llvm::Value* cpu = mod_.call_helper(BPF_FUNC_get_smp_processor_id, {});
    b().CreateStore(b().getInt32(epid_), record_ptr(offsetof(RecordHeader, epid)));
    b().CreateStore(b().CreateTrunc(cpu, b().getInt32Ty()), record_ptr(offsetof(RecordHeader, cpu)));
    b().CreateStore(b().getInt64(0), record_ptr(offsetof(RecordHeader, spec)));
    // A fault after the reservation discards the record.
    abort_ = new_block("clause.abort");
    llvm::IRBuilderBase::InsertPointGuard guard(b());
    b().SetInsertPoint(abort_);
    mod_.call_helper(BPF_FUNC_ringbuf_discard, {record_, const64(0)});
    b().CreateBr(next);
  }

  for (const lang::StmtPtr& stmt : clause.statements) {
    ++action_;
    if (stmt->kind == lang::StmtKind::Aggregate) {
      aggregate(*stmt);
    } else if (is_action_call(*stmt->expr)) {
      action(*stmt->expr);
    } else {
      eval(*stmt->expr);
    }
  }

  if (record_) {
    // A record the buffer can never hold would skip the clause forever: refuse it now.
    if (record().size + kRingRecordOverhead > ring_bytes_)
      throw Unsupported(clause.loc, "the clause for " + probe_->full_name() + " records " +
                                        std::to_string(record().size) + " bytes, more than the output buffer holds (bufsize=" +
                                        std::to_string(ring_bytes_) + "); raise bufsize");
    reserve_call_->setArgOperand(1, const64(record().size));
    mod_.call_helper(BPF_FUNC_ringbuf_submit, {record_, const64(0)});
  }
  b().CreateBr(next);
  b().SetInsertPoint(next);
  abort_ = nullptr;
}

CodegenResult Generator::run() {
  CodegenResult result;
  try {
    layout_variables();
    define_maps();
    std::vector<Site> sites = plan();
    for (size_t i = 0; i < sites.size(); ++i) emit_program(sites[i], i);
    finish_maps();
    out_.object = mod_.emit_object();
  } catch (const Unsupported& unsupported) {
    const lang::SourcePos& pos = unsupported.where.begin;
    result.error = "line " + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + unsupported.what();
    return result;
  } catch (const std::runtime_error& internal) {  // the back end failed: say so, never crash
    result.error = internal.what();
    return result;
  }
  out_.ring_buffer_map = "events";
  out_.drops_map = "drops";
  result.program = std::move(out_);
  return result;
}

void Generator::check_fault(llvm::Value* failed, FaultKind kind, llvm::Value* address) {
  if (!abort_) return;  // outside a clause (a hook's own reads): a failed read gives 0
  llvm::BasicBlock* fault = new_block("fault");
  llvm::BasicBlock* fine = new_block("fault.none");
  b().CreateCondBr(failed, fault, fine);
  b().SetInsertPoint(fault);
  llvm::Value* reserved =
      mod_.call_helper(BPF_FUNC_ringbuf_reserve, {events_, const64(sizeof(FaultRecord)), const64(0)});
  when(b().CreateICmpNE(reserved, const64(0)), [&] {
    llvm::Value* r = b().CreateIntToPtr(reserved, ptr());
    llvm::Value* cpu = mod_.call_helper(BPF_FUNC_get_smp_processor_id, {});
    auto store32 = [&](size_t offset, llvm::Value* v) {
      b().CreateStore(b().CreateTrunc(v, b().getInt32Ty()), offset_ptr(r, offset));
    };
    store32(offsetof(RecordHeader, epid), const64(kFaultEpid));
    store32(offsetof(RecordHeader, cpu), cpu);
    b().CreateStore(const64(0), offset_ptr(r, offsetof(RecordHeader, spec)));
    store32(offsetof(FaultRecord, clause_epid), const64(epid_));
    store32(offsetof(FaultRecord, kind), const64(static_cast<int64_t>(kind)));
    store32(offsetof(FaultRecord, action), const64(action_));
    store32(offsetof(FaultRecord, site), const64(++fault_sites_));
    b().CreateStore(address ? address : const64(0), offset_ptr(r, offsetof(FaultRecord, address)));
    mod_.call_helper(BPF_FUNC_ringbuf_submit, {r, const64(0)});
  });
  b().CreateBr(abort_);
  b().SetInsertPoint(fine);
}

CodegenResult generate(const lang::Program& program) { return Generator(program).run(); }

}  // namespace dsched::codegen
