// How a probe reaches the kernel, as its provider implements it: the sections its programs go in,
// whose task is the context, how args[] and argN are produced, and for derived probes the state
// they keep. The code generator calls these; providers (probes/) implement them.
#pragma once

#include <string>
#include <vector>

#include <llvm/IR/Value.h>

#include "abi/compiled_program.h"
#include "lang/codegen/lowering.h"
#include "lang/provider.h"

namespace dsched::codegen {

// Values a hook hands to a firing of a derived probe (enqueue/dequeue: the task and the CPU;
// lockstat: the lock, the time waited and what else its arguments say).
struct Binding {
  llvm::Value* task = nullptr;
  llvm::Value* cpu = nullptr;
  std::vector<llvm::Value*> args;
};

class Hook {
 public:
  virtual ~Hook() = default;
  // libbpf section names of the programs the probe needs ("tp_btf/sched_switch", "perf_event",
  // "raw_tp"); derived probes need several.
  virtual std::vector<std::string> sections(const lang::Probe& probe) const = 0;
  // Which program on a shared section the probe goes in: probes with the same key share one.
  // Providers with hundreds of probes on one tracepoint split them, keeping each program within
  // the BPF back end's branch range.
  virtual std::string program_key(const lang::Probe& probe, const std::string& section) const { return section; }
  // Whether its probes differ only in their names and ids (the same context, arguments and
  // guard), so that probes with the same clauses can fire through one copy of them
  // (Programs::fire_alike): `syscall:::entry` is then one clause, not one per system call.
  virtual bool fires_alike() const { return false; }
  // An i1 the program tests before anything else when only this hook's `probes` use it: false
  // ends the program at once (events none of them wants cost one test). Null: no such test.
  virtual llvm::Value* program_filter(Lowering& l, const std::string& section,
                                      const std::vector<const lang::Probe*>& probes) const {
    return nullptr;
  }
  // Emits this hook's part of the program for `section`: by default each probe fires once
  // (Programs::fire).
  virtual void emit(Lowering& l, const std::string& section, const std::vector<const lang::Probe*>& probes) const;
  virtual abi::AttachPoint::Kind attach_kind() const { return abi::AttachPoint::Kind::Tracepoint; }
  // Where a probe of this hook's own program attaches, beyond its kind (uprobes: file, offset,
  // process).
  virtual void place(const lang::Probe& probe, abi::AttachPoint& point) const {}
  // On-demand programs: when the run runs them.
  virtual abi::AttachPoint::Phase phase(const lang::Probe& probe) const { return abi::AttachPoint::Phase::Begin; }
  // A probe that fires where a run-time fault stops a clause (dtrace:::ERROR): its clauses form
  // the fault handler that every program calls, and it has no program of its own.
  virtual bool fires_on_fault(const lang::Probe& probe) const { return false; }
  // Perf timers: the interval and whether they fire on every CPU.
  virtual uint64_t period_ns(const lang::Probe& probe) const { return 0; }
  virtual bool every_cpu(const lang::Probe& probe) const { return false; }
  // Lower numbers attach first: of two probes on one tracepoint, the one attached first fires
  // first (off-cpu before on-cpu, as in DTrace).
  virtual int attach_order(const lang::Probe& probe) const { return 0; }
  // False when the probe's context task is not the task running the program (on-cpu: next).
  virtual bool context_is_current(const lang::Probe& probe) const { return true; }
  // Whether the context task is on this CPU from the probe on (off-cpu: it leaves; on-cpu: it
  // arrives).
  virtual bool context_is_running(const lang::Probe& probe) const { return context_is_current(probe); }
  // Whether the program's context is the user registers of the thread it fires in (uprobes).
  virtual bool context_is_user_registers() const { return false; }
  // The context task as an i64 address.
  virtual llvm::Value* context_task(Lowering& l) const;
  // The native value of args[index] (the translator input of a translated argument): an integer
  // or an address; for a `string` argument, the text's address in user memory.
  virtual llvm::Value* arg(Lowering& l, int index) const;
  // Whether the native value of a pointer argument is a BTF-typed pointer for the verifier
  // (tracepoint arguments of tp_btf programs are).
  virtual bool arg_is_btf(int index) const { return attach_kind() == abi::AttachPoint::Kind::Tracepoint; }
  // argN: by default args[N]'s native value as an integer, 0 past the probe's arguments.
  virtual llvm::Value* raw_arg(Lowering& l, int n) const;
  // The value of the D variable errno: 0 but where a system call returns.
  virtual llvm::Value* errno_value(Lowering& l) const;
  // i1 condition the probe fires under (preempt/sleep on sched_switch), or null: always.
  virtual llvm::Value* guard(Lowering& l) const { return nullptr; }
};

// Loads word `index` of a tracepoint's context (tp_btf arguments are 64-bit slots).
llvm::Value* tracepoint_arg(Lowering& l, int index);

}  // namespace dsched::codegen
