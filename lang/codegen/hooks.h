// How each probe reaches the kernel: the hook it attaches to, whose task is "current" for it,
// and how its arguments are produced. One implementation per provider in providers/.
#pragma once

#include <string>
#include <vector>

#include <llvm/IR/Value.h>

#include "lang/codegen/compiled_program.h"
#include "probes/registry.h"

namespace dsched::codegen {

class Generator;

// Values a hook hands to a firing of a derived probe (enqueue/dequeue: the task and the CPU).
struct Binding {
  llvm::Value* task = nullptr;
  llvm::Value* cpu = nullptr;
};

class Hook {
 public:
  virtual ~Hook() = default;
  // libbpf section name of the program ("tp_btf/sched_switch", "perf_event", "raw_tp").
  virtual std::string section(const probes::Probe& probe) const = 0;
  // Every section the probe needs a program in (derived probes need several).
  virtual std::vector<std::string> sections(const probes::Probe& probe) const { return {section(probe)}; }
  // Emits this hook's part of the program for `section`: by default each probe fires once.
  virtual void emit(Generator& g, const std::string& section, const std::vector<const probes::Probe*>& probes) const;
  virtual AttachPoint::Kind attach_kind() const { return AttachPoint::Kind::BtfTracepoint; }
  // Perf timers: the interval and whether they fire on every CPU.
  virtual uint64_t period_ns(const probes::Probe& probe) const { return probe.period_ns; }
  virtual bool every_cpu(const probes::Probe& probe) const { return probe.every_cpu; }
  // Lower numbers attach first: of two probes on one tracepoint, the one attached first fires
  // first (off-cpu before on-cpu, as in DTrace).
  virtual int attach_order(const probes::Probe& probe) const { return 0; }
  // False when the probe's context task is not the task running the program (on-cpu: next).
  virtual bool context_is_current(const probes::Probe& probe) const { return true; }
  // The context task as an i64 address, when it is not current.
  virtual llvm::Value* context_task(Generator& g) const;
  // The native value of an argument (the translator input of args[N]).
  virtual llvm::Value* arg(Generator& g, probes::ArgSource source) const;
  // Whether the native value of a pointer argument is a BTF-typed pointer for the verifier
  // (tracepoint arguments of tp_btf programs are).
  virtual bool arg_is_btf(probes::ArgSource source) const { return attach_kind() == AttachPoint::Kind::BtfTracepoint; }
  // arg0..arg9.
  virtual llvm::Value* raw_arg(Generator& g, int n) const;
  // i1 condition the probe fires under (preempt/sleep on sched_switch), or null: always.
  virtual llvm::Value* guard(Generator& g) const { return nullptr; }
};

// The hook for a probe, or null with `error` set (an unsupported probe).
const Hook* hook_for(const probes::Probe& probe, std::string& error);

// Provider hooks, one per file in providers/.
const Hook* dtrace_hook(const probes::Probe& probe, std::string& error);
const Hook* profile_hook(const probes::Probe& probe, std::string& error);
const Hook* sched_hook(const probes::Probe& probe, std::string& error);
const Hook* proc_hook(const probes::Probe& probe, std::string& error);

// Loads word `index` of a tracepoint's context (tp_btf arguments are 64-bit slots).
llvm::Value* tracepoint_arg(Generator& g, int index);

}  // namespace dsched::codegen
