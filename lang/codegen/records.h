// A clause's ring-buffer record: reserved once when the predicate passes, its fields written by the
// actions at offsets fixed at compile time, submitted at the end. Also run-time faults: a fault
// discards the record, reports itself in a fault record and leaves the clause.
#pragma once

#include <cstdint>
#include <vector>

#include <llvm/IR/Instructions.h>

#include "abi/compiled_program.h"
#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::codegen {

class Records {
 public:
  explicit Records(Lowering& lowering) : l_(lowering) {}

  // A clause for `probe`: the enabled probe `epid` (numbered as DTrace does, clause by clause and
  // probe by probe), which the records carry as `epid_value` (i64: a constant, or in a firing
  // shared by several probes the epid of the one that fired). `leave` is where the clause ends.
  void begin_clause(const lang::Probe& probe, uint32_t epid, llvm::Value* epid_value, llvm::BasicBlock* leave);
  // The record layout of enabled probe `epid`, for enabled probe `other` of the same clause fired
  // alike on `probe`.
  void share_layout(uint32_t epid, uint32_t other, const lang::Probe& probe);
  // Reserves the record (the clause records data); a full buffer counts a drop and leaves.
  void reserve();
  // The next statement of the clause (numbered from 1 in fault reports).
  void next_action() { ++action_; }
  // Submits the record, refusing a record the buffer could never hold.
  void end_clause(const lang::Clause& clause);
  llvm::Value* epid() const { return epid_value_; }

  // Fields: an integer, text (a D string, a kernel char array or a char pointer), or the value of
  // an expression (kernel text goes into the record straight from the kernel).
  abi::RecordField integer(llvm::Value* v, const lang::Type* type);
  abi::RecordField string(const Value& text);
  // A stack or a symbolic address: the bytes its value points to, as its type lays them out.
  abi::RecordField addresses(const Value& v);
  abi::RecordField value(const lang::Expr& e);
  // Stores the current process's id in the word at `slot` (user-space addresses lead with it) and,
  // the first time the program sees the process, sends a ProcessRecord.
  void lead_with_process(llvm::Value* slot);
  // `size` bytes of kernel memory at `address`, as they are (tracemem()): user space reads them
  // from the record's bytes at the field's offset. A bad address is a fault.
  abi::RecordField memory(llvm::Value* address, uint32_t size);
  // The values of call.operands[first...].
  std::vector<abi::RecordField> values(const lang::Expr& call, size_t first);
  // Adds an action whose handler user space runs on the record; its fields are recorded first.
  abi::RecordedAction& action(const abi::ActionHandler& handler);
  // Marks the record speculative (speculate()).
  void speculate(llvm::Value* id);

  // Reports a run-time fault when `failed` (i1) holds and stops the clause, as DTrace does: the
  // record is discarded, a fault record reports it and the fault handler (ERROR) runs.
  void check_fault(llvm::Value* failed, abi::FaultKind kind, llvm::Value* address = nullptr);
  // The function faults call, when the program has ERROR clauses.
  void set_fault_handler(llvm::Function* handler) { handler_ = handler; }

  std::vector<abi::RecordLayout> take_layouts() { return std::move(layouts_); }

 private:
  abi::RecordLayout& layout() { return layouts_[epid_]; }
  // Writes the record's RecordStamp (programs compiled for dsched timeline).
  void stamp();
  uint32_t field(uint32_t size);
  llvm::Value* at(uint32_t offset);

  Lowering& l_;
  std::vector<abi::RecordLayout> layouts_;
  uint32_t epid_ = 0;
  llvm::Value* epid_value_ = nullptr;
  uint32_t action_ = 0;
  // Whether faults here call the handler (not in the handler itself).
  bool calls_handler() const;
  // The handler's arguments: six words on this function's stack.
  llvm::Value* fault_args();
  // Where a fault leaves the clause: the record discarded (once reserved), the handler run.
  llvm::BasicBlock* fault_exit();

  uint32_t fault_sites_ = 0;
  bool in_clause_ = false;
  llvm::BasicBlock* fault_exit_ = nullptr;    // before the record is reserved
  llvm::BasicBlock* discard_exit_ = nullptr;  // after
  llvm::BasicBlock* leave_ = nullptr;
  llvm::Function* handler_ = nullptr;
  llvm::Value* fault_args_ = nullptr;
  llvm::Value* record_ = nullptr;
  llvm::CallInst* reserve_call_ = nullptr;
  llvm::Function* function_ = nullptr;  // fault sites are numbered per program
};

}  // namespace dsched::codegen
