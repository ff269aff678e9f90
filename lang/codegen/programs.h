// Probe program assembly: which BPF programs the clauses' probes need (one per hook site: probes
// on one tracepoint share its program and fire in their hooks' order; timers and on-demand probes
// get their own), and each firing of a probe's clauses inside them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "abi/compiled_program.h"
#include "lang/codegen/hook.h"
#include "lang/codegen/lowering.h"

namespace dsched::codegen {

class Programs {
 public:
  explicit Programs(Lowering& lowering) : l_(lowering) {}

  // Emits every program; returns where each attaches.
  std::vector<abi::AttachPoint> emit_all();
  // Emits the clauses of `probe` here (a hook's emit() calls it, once per firing point); `binding`
  // carries the argument values of derived probes.
  void fire(const lang::Probe& probe, const Binding& binding = {});
  // Emits the clauses of the `alike` probes once (Hook::fires_alike), for the probe alike[index]
  // (i64, checked by the caller to be below alike.size()).
  void fire_alike(const std::vector<const lang::Probe*>& alike, llvm::Value* index);
  // A hook's `probes` in groups with the same clauses, in their first probe's order.
  std::vector<std::vector<const lang::Probe*>> alike_groups(const std::vector<const lang::Probe*>& probes) const;

 private:
  // Probes fired from one hook within a site, in the clauses' order.
  struct HookGroup {
    const Hook* hook;
    std::vector<const lang::Probe*> probes;
  };
  struct Site {
    std::string key;
    std::string section;
    const Hook* hook;  // of the first probe: decides how the program attaches
    std::vector<HookGroup> groups;
  };
  std::vector<Site> plan();
  std::string program_key(const lang::Probe& probe, const Hook& hook, const std::string& section);
  void fire(const lang::Probe& probe, const Binding& binding, const std::vector<const lang::Probe*>& alike,
            llvm::Value* index);
  abi::AttachPoint emit_program(const Site& site, size_t index);
  // The ERROR clauses as one function the programs call on a fault.
  void emit_fault_handler(llvm::Function* handler);
  void emit_clause(const lang::Clause& clause);
  bool clause_records(const lang::Clause& clause) const;
  llvm::Value* on_chosen_cpu();

  Lowering& l_;
  std::map<const lang::Probe*, std::vector<const lang::Clause*>> clauses_by_probe_;
  std::vector<const lang::Probe*> fault_probes_;  // probes that fire on faults, in clause order
  std::map<std::pair<const lang::Clause*, const lang::Probe*>, uint32_t> epids_;
  // Per hook whose probes fire alike: its probes' distinct clause lists, numbered.
  std::map<const Hook*, std::map<std::vector<const lang::Clause*>, size_t>> clause_lists_;
  const Hook* hook_ = nullptr;  // of the group being emitted
};

}  // namespace dsched::codegen
