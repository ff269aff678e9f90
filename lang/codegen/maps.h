// The object's maps: the ring buffer and drop counters, global variables, thread-locals, one hash
// map per associative array and per keyed aggregation, the per-CPU scratch area, and the maps
// hooks ask for. Also where each D variable lives in them.
#pragma once

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "abi/aggregation.h"
#include "abi/compiled_program.h"
#include "abi/records.h"
#include "lang/codegen/bpf_module.h"
#include "lang/codegen/lowering.h"

namespace dsched::codegen {

class Maps {
 public:
  explicit Maps(Lowering& lowering) : l_(lowering) {}

  // Lays out the variables and declares every map the program needs.
  void define();
  // Declares the scratch map (sized now that every program's use is known) and the zeroes.
  void finish(uint64_t scratch_bytes);
  // Where a program stores the key (0) of a per-CPU array's element: an array whose values are too
  // large for per-CPU storage is found by the CPU's number instead (for scratch, known at finish()).
  void note_per_cpu_key(llvm::GlobalVariable* map, llvm::StoreInst* key_store);
  // A map a hook needs (created on first request; the same name returns the same map).
  llvm::GlobalVariable* hook_map(const MapSpec& spec);
  // The address (an i64) of the word exit() sets: once it is set, DTrace's draining state, no
  // clause runs but END's and ERROR's. 0 only to the verifier: an array's element is always there.
  llvm::Value* exit_flag();
  // Counts a drop in the per-CPU drop counters.
  void count_drop(abi::DropCounter counter);
  // A 4-byte key holding `index`, on the stack of the function being emitted (one place per
  // function, good until the next call): the key of an array map's element.
  llvm::Value* index_key(uint32_t index);

  // Bytes a D value occupies in variable storage: integers and pointers take a 64-bit word,
  // strings, structs and arrays their size rounded up to words.
  static uint64_t storage_size(const lang::Type* type);
  // Bytes of a packed key: integer_key_width() per integer or pointer, strsize per string.
  uint64_t key_size(const std::vector<const lang::Type*>& types) const;
  // Bytes an integer or pointer takes in a packed key: 4 when every component is an integer of at
  // most 4 bytes (the hash then covers half the bytes), else 8.
  static uint64_t integer_key_width(const std::vector<const lang::Type*>& types);

  llvm::GlobalVariable* events() const { return events_; }
  llvm::GlobalVariable* globals() const { return globals_; }
  llvm::GlobalVariable* thread_locals() const { return self_; }
  llvm::GlobalVariable* scratch() const { return scratch_; }
  llvm::GlobalVariable* speculations() const { return speculations_; }
  // The hash map of an associative array; a thread-local one's keys start with the thread's id.
  llvm::GlobalVariable* associative_array(const lang::Variable& var) const { return assoc_.at({var.scope, var.id}); }
  static constexpr uint64_t kThreadKeyBytes = 8;
  // Scratch areas per CPU, one per nesting depth of programs on it: a task's, a softirq's, a hard
  // interrupt's and an NMI's.
  static constexpr int64_t kScratchLevels = 4;
  llvm::GlobalVariable* aggregation(int id) const { return aggregations_.at(size_t(id)); }
  const std::vector<abi::AggregationSpec>& aggregation_specs() const { return specs_; }
  // The maps worth creating while code is generated (the output ring, the keyed aggregations'),
  // as the kernel creates them.
  const std::vector<abi::MapShape>& early_shapes() const { return shapes_; }

  uint64_t global_offset(int id) const { return global_offsets_.at(size_t(id)); }
  uint64_t thread_local_offset(int id) const { return self_offsets_.at(size_t(id)); }
  // this-> scalars live on the program's stack, where the optimiser keeps them in registers (a
  // hand-written program's locals); the others, and scalars past the first few, in scratch.
  static constexpr size_t kStackClauseLocals = 16;
  bool clause_local_on_stack(int id) const { return this_on_stack_.at(size_t(id)); }
  uint64_t clause_local_offset(int id) const { return this_offsets_.at(size_t(id)); }
  uint64_t clause_locals_size() const { return this_size_; }  // in scratch

 private:
  // A per-CPU array's spec, or, for values over the kernel's 32 KiB limit, an array with an
  // element per CPU, which serves the same way.
  static MapSpec per_cpu_array(MapSpec spec);
  void key_by_cpu(llvm::StoreInst* key_store);
  void layout_variables();
  void define_aggregations();

  Lowering& l_;
  llvm::GlobalVariable* events_ = nullptr;
  llvm::GlobalVariable* drops_ = nullptr;
  llvm::GlobalVariable* globals_ = nullptr;
  llvm::GlobalVariable* self_ = nullptr;
  llvm::GlobalVariable* speculations_ = nullptr;
  // The scratch map is sized after lowering: a placeholder stands in until then.
  llvm::GlobalVariable* scratch_ = nullptr;
  std::vector<llvm::StoreInst*> scratch_keys_;
  std::set<llvm::GlobalVariable*> cpu_indexed_;                            // hook maps keyed by the CPU's number
  std::map<std::pair<lang::VarScope, int>, llvm::GlobalVariable*> assoc_;  // by scope and variable id
  std::vector<llvm::GlobalVariable*> aggregations_;                        // by aggregation id
  std::vector<abi::AggregationSpec> specs_;
  std::vector<abi::MapShape> shapes_;
  std::map<std::string, llvm::GlobalVariable*> hook_maps_;
  llvm::Value* index_key_ = nullptr;
  llvm::Function* index_key_of_ = nullptr;
  std::vector<uint64_t> global_offsets_, self_offsets_, this_offsets_;  // by variable id
  std::vector<bool> this_on_stack_;                                      // by variable id
  uint64_t globals_size_ = 8, self_size_ = 8, this_size_ = 0;
};

}  // namespace dsched::codegen
