#include "lang/codegen/records.h"

#include <linux/bpf.h>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"
#include "lang/codegen/maps.h"
#include "lang/codegen/strings.h"
#include "lang/diagnostics.h"

namespace dsched::codegen {
namespace {

constexpr uint32_t kRingRecordOverhead = 8;  // the kernel's header in front of each record

}  // namespace

// The layout's description of the probe whose records it lays out.
static void describe_probe(abi::RecordLayout& layout, const lang::Probe& probe) {
  layout.probe_id = probe.id;
  layout.probe_provider = probe.provider;
  layout.probe_module = probe.module;
  layout.probe_function = probe.function;
  layout.probe_name = probe.name;
  layout.probe_description = probe.full_name();
}

void Records::begin_clause(const lang::Probe& probe, uint32_t epid, llvm::Value* epid_value, llvm::BasicBlock* leave) {
  if (function_ != l_.ir.function()) {
    function_ = l_.ir.function();
    fault_sites_ = 0;
    fault_args_ = nullptr;
  }
  // A probe fired from several places writes the same record from each: its layout is built anew.
  epid_ = epid;
  epid_value_ = epid_value;
  if (layouts_.size() <= epid) layouts_.resize(epid + 1);
  abi::RecordLayout layout;
  describe_probe(layout, probe);
  if (l_.program.stamp_records) layout.size += sizeof(abi::RecordStamp);
  layouts_[epid] = std::move(layout);
  record_ = nullptr;
  reserve_call_ = nullptr;
  leave_ = leave;
  in_clause_ = true;
  fault_exit_ = nullptr;
  discard_exit_ = nullptr;
  action_ = 0;
}

void Records::share_layout(uint32_t epid, uint32_t other, const lang::Probe& probe) {
  if (layouts_.size() <= other) layouts_.resize(other + 1);
  layouts_[other] = layouts_[epid];
  describe_probe(layouts_[other], probe);
}

void Records::reserve() {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  reserve_call_ = llvm::cast<llvm::CallInst>(ir.helper(
      BPF_FUNC_ringbuf_reserve, {l_.maps.events(), ir.const64(sizeof(abi::RecordHeader)), ir.const64(0)}));
  llvm::BasicBlock* reserved = ir.new_block("reserved");
  llvm::BasicBlock* full = ir.new_block("buffer.full");
  b.CreateCondBr(b.CreateICmpNE(reserve_call_, ir.const64(0)), reserved, full);
  b.SetInsertPoint(full);
  l_.maps.count_drop(abi::DropCounter::RingBufferFull);
  b.CreateBr(leave_);
  b.SetInsertPoint(reserved);
  record_ = b.CreateIntToPtr(reserve_call_, ir.ptr());
  llvm::Value* cpu = ir.helper(BPF_FUNC_get_smp_processor_id, {});
  b.CreateStore(b.CreateTrunc(epid_value_, b.getInt32Ty()), at(offsetof(abi::RecordHeader, epid)));
  b.CreateStore(b.CreateTrunc(cpu, b.getInt32Ty()), at(offsetof(abi::RecordHeader, cpu)));
  b.CreateStore(b.getInt64(0), at(offsetof(abi::RecordHeader, spec)));
  if (l_.program.stamp_records) stamp();
}

void Records::end_clause(const lang::Clause& clause) {
  if (record_) {
    // As in DTrace, the buffer asked for must hold every record an enabling makes: a record it
    // cannot hold would skip the clause forever.
    int64_t bufsize = l_.program.options.number("bufsize");
    if (int64_t(layout().size + kRingRecordOverhead) > bufsize)
      lang::fail(clause.loc, lang::ErrTag::None,
                 "invalid value for option bufsize: " + std::to_string(bufsize) + " (the clause for " +
                     layout().probe_description + " records " + std::to_string(layout().size) +
                     " bytes and the buffer adds " + std::to_string(kRingRecordOverhead) + " to each record)");
    reserve_call_->setArgOperand(1, l_.ir.const64(layout().size));
    l_.ir.helper(BPF_FUNC_ringbuf_submit, {record_, l_.ir.const64(0)});
  }
  in_clause_ = false;
}

void Records::stamp() {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::Value *tid, *tgid;
  if (l_.firing.context_is_current()) {
    llvm::Value* both = ir.helper(BPF_FUNC_get_current_pid_tgid, {});
    tid = b.CreateTrunc(both, b.getInt32Ty());
    tgid = b.CreateTrunc(b.CreateLShr(both, 32), b.getInt32Ty());
  } else {
    llvm::Value* task = l_.firing.context_task();
    tid = b.CreateZExtOrTrunc(l_.exprs.kernel_field(task, "task_struct", {"pid"}), b.getInt32Ty());
    tgid = b.CreateZExtOrTrunc(l_.exprs.kernel_field(task, "task_struct", {"tgid"}), b.getInt32Ty());
  }
  constexpr uint32_t kStamp = sizeof(abi::RecordHeader);
  b.CreateStore(ir.helper(BPF_FUNC_ktime_get_boot_ns, {}), at(kStamp + offsetof(abi::RecordStamp, boot_ns)));
  b.CreateStore(tid, at(kStamp + offsetof(abi::RecordStamp, tid)));
  b.CreateStore(tgid, at(kStamp + offsetof(abi::RecordStamp, tgid)));
}

uint32_t Records::field(uint32_t size) {
  uint32_t offset = layout().size;
  layout().size = static_cast<uint32_t>(round8(layout().size + size));
  return offset;
}

llvm::Value* Records::at(uint32_t offset) { return l_.ir.offset_ptr(record_, offset); }

abi::RecordField Records::integer(llvm::Value* v, const lang::Type* type) {
  abi::RecordField f;
  f.kind = abi::RecordField::Kind::Integer;
  f.offset = field(8);
  f.size = static_cast<uint32_t>(type->is_integer() ? type->size : 8);
  f.is_signed = type->is_integer() && type->is_signed;
  l_.ir.b().CreateStore(v, at(f.offset));
  return f;
}

abi::RecordField Records::string(const Value& text) {
  uint64_t capacity = l_.strings.capacity_of_strings();
  abi::RecordField f;
  f.kind = abi::RecordField::Kind::String;
  f.size = static_cast<uint32_t>(capacity - 1);  // strsize, as DTrace records a string
  f.offset = field(static_cast<uint32_t>(l_.strings.bytes_of_strings()));
  llvm::Value* dst = at(f.offset);
  // User space reads a record's text up to its NUL: no padding needed, and kernel text is read
  // straight into the record.
  if (text.in_kernel || text.type->is_pointer()) {
    if (text.in_kernel) capacity = std::min(text.type->size, capacity);
    llvm::Value* copied = l_.ir.helper(BPF_FUNC_probe_read_kernel_str, {dst, l_.ir.const64(static_cast<int64_t>(capacity)),
                                                                        l_.ir.b().CreateIntToPtr(text.v, l_.ir.ptr())});
    check_fault(l_.ir.b().CreateICmpSLT(copied, l_.ir.const64(0)), abi::FaultKind::InvalidAddress, text.v);
    return f;
  }
  // DTrace faults on a NULL string's address.
  check_fault(l_.strings.is_null(text), abi::FaultKind::InvalidAddress, l_.ir.const64(0));
  l_.strings.copy(dst, text, /*pad=*/false);
  return f;
}

abi::RecordField Records::addresses(const Value& v) {
  abi::RecordField f;
  f.kind = v.type->kind == lang::TypeKind::Stack ? abi::RecordField::Kind::Stack : abi::RecordField::Kind::Symbol;
  f.addresses = v.type->addresses;
  f.size = f.addresses.byte_size();
  f.offset = field(f.size);
  l_.ir.copy_bytes(at(f.offset), v.v, f.size);
  return f;
}

void Records::lead_with_process(llvm::Value* slot) {
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::Value* pid = b.CreateLShr(ir.helper(BPF_FUNC_get_current_pid_tgid, {}), 32);
  b.CreateStore(pid, slot);
  // A process is new to user space when first seen and again after an exec (a new address space):
  // the key is the process and its mm. At most this many are kept; the least recently seen go.
  constexpr uint32_t kProcessesKept = 16384;
  llvm::GlobalVariable* seen =
      l_.maps.hook_map({"seen_processes", BPF_MAP_TYPE_LRU_HASH, kProcessesKept, 16, 8, 0, false});
  llvm::Value* key = l_.firing.scratch(16);
  b.CreateStore(pid, key);
  llvm::Value* task = ir.helper(BPF_FUNC_get_current_task_btf, {});
  b.CreateStore(l_.exprs.kernel_field(task, "task_struct", {"mm"}), ir.offset_ptr(key, 8));
  // A lookup first: an LRU map's update takes a free element before it looks for the key, which
  // every event of a known process would pay for.
  llvm::Value* known = b.CreateICmpNE(ir.helper(BPF_FUNC_map_lookup_elem, {seen, key}), ir.const64(0));
  ir.when(b.CreateNot(known), [&] {
    llvm::Value* first = b.CreateICmpEQ(
        ir.helper(BPF_FUNC_map_update_elem, {seen, key, l_.ir.zeroes(8), ir.const64(BPF_NOEXIST)}), ir.const64(0));
    ir.when(first, [&] {
      llvm::Value* announce = l_.firing.scratch(sizeof(abi::ProcessRecord));
      b.CreateStore(b.getInt32(abi::kProcessEpid), ir.offset_ptr(announce, offsetof(abi::RecordHeader, epid)));
      b.CreateStore(b.getInt32(0), ir.offset_ptr(announce, offsetof(abi::RecordHeader, cpu)));
      b.CreateStore(ir.const64(0), ir.offset_ptr(announce, offsetof(abi::RecordHeader, spec)));
      b.CreateStore(pid, ir.offset_ptr(announce, offsetof(abi::ProcessRecord, pid)));
      ir.helper(BPF_FUNC_ringbuf_output,
                {l_.maps.events(), announce, ir.const64(sizeof(abi::ProcessRecord)), ir.const64(0)});
    });
  });
}

abi::RecordField Records::memory(llvm::Value* address, uint32_t size) {
  abi::RecordField f;
  f.kind = abi::RecordField::Kind::Bytes;
  f.size = size;
  f.offset = field(size);
  llvm::Value* result = l_.ir.helper(BPF_FUNC_probe_read_kernel, {at(f.offset), l_.ir.const64(size),
                                                                  l_.ir.b().CreateIntToPtr(address, l_.ir.ptr())});
  check_fault(l_.ir.b().CreateICmpSLT(result, l_.ir.const64(0)), abi::FaultKind::InvalidAddress, address);
  return f;
}

abi::RecordField Records::value(const lang::Expr& e) {
  // A kernel char array converted to a string goes into the record straight from the kernel.
  const lang::Expr* source = &e;
  while (source->kind == lang::ExprKind::Cast && source->type->is_string() && source->operand(0)->type->is_array())
    source = source->operand(0);
  Value v = l_.exprs.eval(*source);
  if (v.type->is_array() && !v.in_kernel) v = l_.strings.from(v);  // a char array in a D variable
  if (v.type->is_string() || (v.in_kernel && v.type->is_array())) return string(v);
  if (v.type->is_address()) return addresses(v);
  return integer(v.v, v.type);
}

std::vector<abi::RecordField> Records::values(const lang::Expr& call, size_t first) {
  std::vector<abi::RecordField> fields;
  for (size_t i = first; i < call.operands.size(); ++i) fields.push_back(value(*call.operands[i]));
  return fields;
}

abi::RecordedAction& Records::action(const abi::ActionHandler& handler) {
  layout().actions.push_back(abi::RecordedAction{&handler, std::nullopt, {}, {}, {}, {}});
  return layout().actions.back();
}

void Records::speculate(llvm::Value* id) {
  if (!record_) return;  // a clause that records nothing has nothing to speculate
  auto& b = l_.ir.b();
  b.CreateStore(b.CreateTrunc(id, b.getInt32Ty()), at(offsetof(abi::RecordHeader, spec)));
  b.CreateStore(b.getInt32(1), at(offsetof(abi::RecordHeader, speculative)));
}

bool Records::calls_handler() const { return handler_ && l_.ir.function() != handler_; }

llvm::Value* Records::fault_args() {
  if (!fault_args_) fault_args_ = l_.ir.entry_alloca(llvm::ArrayType::get(l_.ir.i64(), kFaultTaskWord + 1));
  return fault_args_;
}

llvm::BasicBlock* Records::fault_exit() {
  llvm::BasicBlock*& exit = record_ ? discard_exit_ : fault_exit_;
  if (exit) return exit;
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::IRBuilderBase::InsertPointGuard guard(b);
  exit = ir.new_block(record_ ? "clause.discard" : "clause.fault");
  b.SetInsertPoint(exit);
  if (record_) ir.helper(BPF_FUNC_ringbuf_discard, {record_, ir.const64(0)});
  // ERROR fires inside the faulting probe, before the probe's later clauses, as in DTrace. A fault
  // in ERROR itself does not fire it again.
  if (calls_handler()) b.CreateCall(handler_, {l_.firing.context(), fault_args()});
  b.CreateBr(leave_);
  return exit;
}

void Records::check_fault(llvm::Value* failed, abi::FaultKind kind, llvm::Value* address) {
  if (!in_clause_) return;  // outside a clause (a hook's own reads): a failed read gives 0
  Ir& ir = l_.ir;
  auto& b = ir.b();
  llvm::BasicBlock* fault = ir.new_block("fault");
  llvm::BasicBlock* fine = ir.new_block("fault.none");
  b.CreateCondBr(failed, fault, fine);
  b.SetInsertPoint(fault);
  const uint32_t site = ++fault_sites_;
  if (!address) address = ir.const64(0);
  llvm::Value* reserved =
      ir.helper(BPF_FUNC_ringbuf_reserve, {l_.maps.events(), ir.const64(sizeof(abi::FaultRecord)), ir.const64(0)});
  ir.when(b.CreateICmpNE(reserved, ir.const64(0)), [&] {
    llvm::Value* r = b.CreateIntToPtr(reserved, ir.ptr());
    llvm::Value* cpu = ir.helper(BPF_FUNC_get_smp_processor_id, {});
    auto store32 = [&](size_t offset, llvm::Value* v) {
      b.CreateStore(b.CreateTrunc(v, b.getInt32Ty()), ir.offset_ptr(r, offset));
    };
    store32(offsetof(abi::RecordHeader, epid), ir.const64(abi::kFaultEpid));
    store32(offsetof(abi::RecordHeader, cpu), cpu);
    b.CreateStore(ir.const64(0), ir.offset_ptr(r, offsetof(abi::RecordHeader, spec)));
    store32(offsetof(abi::FaultRecord, clause_epid), epid_value_);
    store32(offsetof(abi::FaultRecord, kind), ir.const64(static_cast<int64_t>(kind)));
    store32(offsetof(abi::FaultRecord, action), ir.const64(action_));
    store32(offsetof(abi::FaultRecord, site), ir.const64(site));
    b.CreateStore(address, ir.offset_ptr(r, offsetof(abi::FaultRecord, address)));
    ir.helper(BPF_FUNC_ringbuf_submit, {r, ir.const64(0)});
  });
  if (calls_handler()) {
    // ERROR's arg1..arg5: the enabled probe, the action, the fault site, the DTRACEFLT_* kind and
    // the address.
    llvm::Value* args[] = {ir.const64(0),    b.CreateAdd(epid_value_, ir.const64(1)), ir.const64(action_),
                           ir.const64(site), ir.const64(static_cast<int64_t>(kind)), address};
    static_assert(std::size(args) == kFaultArgWords);
    for (size_t i = 0; i < std::size(args); ++i) b.CreateStore(args[i], ir.offset_ptr(fault_args(), 8 * i));
    b.CreateStore(l_.firing.context_task(), ir.offset_ptr(fault_args(), 8 * kFaultTaskWord));
  }
  b.CreateBr(fault_exit());
  b.SetInsertPoint(fine);
}

}  // namespace dsched::codegen
