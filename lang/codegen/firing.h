// The program and the probe firing being emitted: the program's context argument and per-CPU
// scratch area, the probe and its hook, the context task and its thread-local storage, and the
// probe's arguments.
#pragma once

#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lang/codegen/hook.h"
#include "lang/codegen/lowering.h"
#include "lang/codegen/value.h"

namespace dsched::codegen {

// The fault handler's second argument, words on the faulting program's stack: ERROR's arg0..arg5,
// then the context task of the firing that faulted (ERROR's curthread, pid, self->).
constexpr int kFaultArgWords = 6;
constexpr int kFaultTaskWord = 6;

class Firing {
 public:
  explicit Firing(Lowering& lowering) : l_(lowering) {}

  // A new program: its context argument, and an entry that ends the program when a per-CPU map
  // it looks up (scratch, globals) is missing. this-> variables take the start of the scratch.
  // `filter`, when it gives a condition, is tested first: false ends the program before anything
  // else is done.
  void begin_program(llvm::Function* function, const std::string& section, const std::function<llvm::Value*()>& filter);
  // The fault handler (the ERROR clauses), a function of the context and the fault's arguments
  // (six 64-bit words) that programs call where a fault stops a clause.
  void begin_fault_handler(llvm::Function* function);
  // Where a program returns: gives back the scratch level it took.
  void end_program();
  // A firing of `probe` through `hook`; `entry` is where values shared by its clauses are computed.
  // A firing shared by `alike` probes (Hook::fires_alike) is that of alike[index], `index` an i64
  // below alike.size(); `probe` is then alike's first.
  void begin_firing(const lang::Probe& probe, const Hook& hook, const Binding& binding, llvm::BasicBlock* entry,
                    const std::vector<const lang::Probe*>& alike = {}, llvm::Value* index = nullptr);
  // Each clause starts with the scratch after the program's own (this->) free again, unless a
  // this-> pointer can carry scratch memory from one clause to the next.
  void begin_clause();
  // `timestamp`: the same value throughout a clause, read at the start of the first clause of the
  // event (one run of the program) that uses it; later clauses of the event reuse it (the probes
  // of one tracepoint hit fire at one instant, and a clock read costs as much as a map update).
  llvm::Value* clause_timestamp();

  // `size` bytes of per-CPU scratch, at an offset fixed at compile time. A program may interrupt
  // another on the same CPU (a perf event's during a system call's, a wakeup's in an interrupt):
  // each run takes the scratch of its nesting depth on the CPU, so that none overwrites the
  // temporaries of a run it interrupted; a run nested deeper than kScratchLevels does not run.
  llvm::Value* scratch(uint64_t size, uint64_t* offset_out = nullptr);
  llvm::Value* scratch_base();
  llvm::Value* globals_base();
  // The single value of per-CPU array `map` (a hook map); the program ends early without it.
  llvm::Value* per_cpu_value(llvm::GlobalVariable* map);
  uint64_t scratch_high_water() const { return scratch_max_; }
  // The scratch the clause being emitted has taken so far: [start, end) offsets, the end being
  // that of the bytes last asked for (before rounding).
  uint64_t clause_scratch_start() const { return program_scratch_; }
  uint64_t clause_scratch_end() const { return scratch_asked_end_; }
  uint64_t clause_locals_base() const { return this_base_; }
  // A this-> scalar's stack slot (Maps::clause_local_on_stack) in the program being emitted.
  llvm::Value* clause_local_slot(int id) const { return this_slots_.at(size_t(id)); }
  // Every this-> variable reads 0 until a clause of the firing assigns it.
  void zero_clause_locals();
  // Where the scratch taken so far ends; releasing a mark frees what was taken after it.
  struct ScratchMark {
    uint64_t used, asked_end;
  };
  ScratchMark scratch_mark() const { return {scratch_used_, scratch_asked_end_}; }
  void release_scratch(ScratchMark mark) { scratch_used_ = mark.used, scratch_asked_end_ = mark.asked_end; }

  const lang::Probe& probe() const { return *probe_; }
  // The probes a shared firing serves (empty for a firing of one probe).
  const std::vector<const lang::Probe*>& alike() const { return alike_; }
  // What the probe that fired has as `value` (an i64), or as its text `field`: a constant, unless
  // the firing is shared by probes for which it differs; then it is read from a table.
  llvm::Value* per_probe(const std::function<int64_t(const lang::Probe&)>& value);
  Value per_probe(std::string lang::Probe::*field);
  const Hook& hook() const { return *hook_; }
  const Binding& binding() const { return binding_; }
  llvm::Value* context() const { return context_; }
  // In the fault handler: the fault's arguments (arg0..arg5); null elsewhere.
  llvm::Value* fault_args() const { return fault_args_; }
  // The task `curthread`, `pid`, `self->` refer to: i64 task address.
  llvm::Value* context_task();
  bool context_is_current() const { return hook_->context_is_current(*probe_); }
  bool context_is_running() const { return hook_->context_is_running(*probe_); }
  // The context task's thread id (i64), computed once per firing.
  llvm::Value* context_tid();
  // The context task's thread-local storage, or null (i64). Reads share one lookup per firing
  // until a store creates the storage; forget_thread_locals() marks that point. `shared` false
  // uses that lookup when reads already made it and otherwise looks up here, on this path only
  // (a store of 0 must not cost a lookup on every firing).
  llvm::Value* thread_locals(bool shared = true);
  void forget_thread_locals();
  // `frames` program counters of the kernel or the user stack where the probe fired, in scratch,
  // zeroed where the stack does not fill them, and the bytes the stack filled (negative: none).
  // Kernel stacks start at the probe's site, past the tracer's own frames; where the probe's
  // thread is not the running one, they are the stack it saved when it left the CPU. The caller
  // refuses user stacks there: user space can read only the running thread's.
  struct Stack {
    llvm::Value* frames;
    llvm::Value* bytes;
  };
  Stack stack(uint32_t frames, bool user);
  // args[index] as a value of `type`, and argN.
  Value arg(int index, const lang::Type* type);
  llvm::Value* raw_arg(int n) { return hook_->raw_arg(l_, n); }

 private:
  void start_function(llvm::Function* function, const std::function<llvm::Value*()>& filter, uint64_t first_scratch);
  // Looks up `map`'s element `key` (i32; null: 0) in the entry's checks: the program does not run
  // without it.
  llvm::Value* entry_map_value(llvm::GlobalVariable* map, llvm::StoreInst** key_store = nullptr,
                               llvm::Value* key = nullptr);
  // The address ranges of the kernel functions between this program's tracepoint and
  // bpf_trace_run<N>(): __traceiter_<name>() and __bpf_trace_<name>(), those kallsyms lists.
  using AddressRanges = std::vector<std::pair<uint64_t, uint64_t>>;
  const AddressRanges& tracepoint_relays();

  Lowering& l_;
  std::string section_;                          // the program's section ("tp_btf/sched_switch")
  std::map<std::string, AddressRanges> relays_;  // by section
  // Per program.
  llvm::Value* context_ = nullptr;
  llvm::Value* fault_args_ = nullptr;
  llvm::BranchInst* entry_check_ = nullptr;  // the entry's "every map value found" branch
  llvm::BasicBlock* start_ = nullptr;        // where the program goes once the checks pass
  llvm::Value* scratch_base_ = nullptr;
  // A program using scratch: the CPU's nesting depth word, and the depth it found, put back at its
  // end.
  llvm::Value* depth_word_ = nullptr;
  llvm::Value* depth_ = nullptr;
  llvm::Value* globals_base_ = nullptr;
  uint64_t scratch_used_ = 0, scratch_max_ = 0, program_scratch_ = 0, this_base_ = 0, scratch_asked_end_ = 0;
  llvm::Value* event_timestamp_ = nullptr;  // stack slot: 0 until a clause reads the clock
  std::vector<llvm::Value*> this_slots_;     // by clause-local id: stack slots, null for those in scratch
  // Per firing.
  const lang::Probe* probe_ = nullptr;
  std::vector<const lang::Probe*> alike_;
  llvm::Value* alike_index_ = nullptr;
  const Hook* hook_ = nullptr;
  Binding binding_;
  llvm::BasicBlock* entry_ = nullptr;
  llvm::Value* context_task_ = nullptr;
  llvm::Value* context_tid_ = nullptr;
  llvm::Value* thread_locals_ = nullptr;
  bool thread_locals_cacheable_ = true;
  // Per clause.
  llvm::Instruction* clause_entry_ = nullptr;  // values read once per clause go before it
  llvm::Value* clause_timestamp_ = nullptr;
};

}  // namespace dsched::codegen
