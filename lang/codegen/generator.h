// The code generator's state while it lowers one program. The lowering is split by concern
// across files: generator.cc (maps, programs, clauses, records), expressions.cc, storage.cc
// (D variables), actions.cc (actions and subroutines), aggregations.cc, strings.cc.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lang/codegen/bpf_module.h"
#include "lang/codegen/codegen.h"
#include "lang/codegen/hooks.h"
#include "lang/program.h"

namespace dsched::codegen {

// Raised while lowering a construct the code generator does not support; the message names it.
struct Unsupported : std::runtime_error {
  Unsupported(const lang::SourceRange& where, const std::string& what);
  lang::SourceRange where;
};

// An evaluated expression. Integers and pointers are i64 values already normalised to their D
// type (sign- or zero-extended from its size). Strings are pointers to NUL-terminated text of at
// most `capacity` bytes. Kernel arrays and structs are i64 kernel addresses (`in_kernel`).
struct Value {
  llvm::Value* v = nullptr;
  const lang::Type* type = nullptr;
  uint64_t capacity = 0;  // strings
  bool in_kernel = false;
  // A kernel address the verifier knows as a BTF-typed pointer (tp_btf arguments, the current task,
  // pointers loaded through those): its fields are read with plain loads instead of a helper call.
  bool btf = false;
};

class Generator {
 public:
  explicit Generator(const lang::Program& program);
  CodegenResult run();

  // ---- shared by the lowering files ----
  llvm::IRBuilder<>& b() { return mod_.builder(); }
  BpfModule& mod() { return mod_; }
  const lang::Program& program() const { return program_; }
  llvm::Type* i64() { return b().getInt64Ty(); }
  llvm::Type* i8() { return b().getInt8Ty(); }
  llvm::PointerType* ptr() { return b().getPtrTy(); }
  llvm::Value* const64(int64_t v) { return b().getInt64(static_cast<uint64_t>(v)); }
  llvm::Value* offset_ptr(llvm::Value* base, uint64_t offset);
  llvm::BasicBlock* new_block(const std::string& name);
  // Emits body() under `condition` (i1), then continues after it.
  void when(llvm::Value* condition, const std::function<void()>& body);
  // Truncates and re-extends v to the D integer type `type`.
  llvm::Value* normalize(llvm::Value* v, const lang::Type* type);
  // i1 -> i64 0/1, and i64 -> i1 truth.
  llvm::Value* truth(llvm::Value* v);
  llvm::Value* widen(llvm::Value* flag) { return b().CreateZExt(flag, i64()); }

  // Scratch memory (per-CPU) for strings and keys; offsets are fixed at compile time.
  llvm::Value* scratch(uint64_t size, uint64_t* offset_out = nullptr);
  // A 64-bit stack slot allocated in the entry block (so LLVM can keep it in a register).
  llvm::Value* stack_slot();
  void bump_drop(DropCounter counter);
  // Reports a run-time fault when `failed` (i1) holds and stops the clause, as DTrace does.
  void check_fault(llvm::Value* failed, FaultKind kind, llvm::Value* address = nullptr);

  // Expressions (expressions.cc).
  Value eval(const lang::Expr& e);
  llvm::Value* eval_int(const lang::Expr& e);  // integers and pointers as i64
  llvm::Value* condition(const lang::Expr& e);  // i1
  llvm::Value* read_kernel(llvm::Value* address, uint64_t size, const lang::Type* type);
  // A field of a BTF-typed object, loaded directly (a faulting address reads as 0).
  llvm::Value* load_btf_field(llvm::Value* address, uint64_t size, const lang::Type* type);
  // Reads record_name's member `path` (following pointers between steps) from the kernel object
  // at `address`, e.g. task_struct {"real_parent", "tgid"}. `address` must be a BTF-typed pointer
  // (a tp_btf argument or the current task).
  llvm::Value* kernel_field(llvm::Value* address, const char* record_name, std::initializer_list<const char*> path,
                            const lang::SourceRange& loc = {});
  // A map that a hook needs (created on first request; the same name returns the same map).
  llvm::GlobalVariable* hook_map(const MapSpec& spec);

  // D variables (storage.cc).
  Value load_variable(const lang::Expr& var);
  void store_variable(const lang::Expr& var, const Value& value);
  llvm::Value* build_key(const std::vector<const lang::Expr*>& keys, const std::vector<const lang::Type*>& types,
                         uint64_t* size_out);

  // Strings (strings.cc).
  Value string_literal(const std::string& text);
  Value string_from_kernel(llvm::Value* address, uint64_t capacity);
  Value to_string(const Value& value);
  llvm::Value* string_compare(const Value& a, const Value& b);  // i64 <0, 0, >0
  // memcpy/memset of any size (the back end refuses large ones in one piece).
  void copy_bytes(llvm::Value* dst, llvm::Value* src, uint64_t n);
  void zero_bytes(llvm::Value* dst, uint64_t n);
  // Copies src into dst; `pad` zero-fills the rest (keys and variables compare whole buffers).
  void copy_string(llvm::Value* dst, uint64_t dst_size, const Value& src, bool pad = true);
  Value current_comm();
  llvm::Value* string_length(const Value& s);
  // strjoin, substr, strchr, strrchr, strstr, basename, dirname, lltostr.
  Value string_subroutine(const lang::Expr& call);
  // s[index] as i64; index is clamped so the verifier sees it within the buffer.
  llvm::Value* byte_at(const Value& s, llvm::Value* index);
  // index, with a bound check below `limit` that survives optimisation (out of range: limit - 1).
  llvm::Value* bounded(llvm::Value* index, uint64_t limit);

  // Actions and subroutines (actions.cc).
  Value call(const lang::Expr& call);
  void action(const lang::Expr& call);
  llvm::Value* allocate_speculation();
  void release_speculation(llvm::Value* id);

  // Aggregations (aggregations.cc).
  void aggregate(const lang::Stmt& stmt);
  void define_aggregation_maps();

  // Emits the clauses of `probe` here (a hook's emit() calls it, once per firing point); `binding`
  // carries the argument values of derived probes.
  void fire(const probes::Probe& probe, const Binding& binding = {});
  const Binding& binding() const { return binding_; }

  // The probe being lowered.
  const Hook& hook() const { return *hook_; }
  const probes::Probe& probe() const { return *probe_; }
  llvm::Value* context() const { return ctx_; }
  // The task `curthread`, `pid`, `self->` refer to: i64 task address.
  llvm::Value* context_task();
  bool context_is_current() const { return hook_->context_is_current(*probe_); }
  // The context task's thread-local storage, or null (i64). Reads share one lookup per firing
  // until a store creates the storage; forget_thread_locals() marks that point.
  llvm::Value* thread_locals();
  void forget_thread_locals();

  // Record fields of the clause being lowered.
  uint32_t record_field(uint32_t size);
  llvm::Value* record_ptr(uint32_t offset);
  RecordField record_integer(llvm::Value* v, const lang::Type* type);
  // Text: a D string, a kernel char array (in_kernel) or a char pointer.
  RecordField record_string(const Value& text);
  RecordLayout& record() { return records_[epid_]; }
  void set_speculation(llvm::Value* id);

  uint64_t strsize() const { return program_.options.strsize(); }

 private:
  // Probes fired from one hook implementation within a site, in the clauses' order.
  struct HookGroup {
    const Hook* hook;
    std::vector<const probes::Probe*> probes;
  };
  // One BPF program: a hook section and the probes it fires.
  struct Site {
    std::string key;
    std::string section;
    const Hook* hook;  // of the first probe: decides how the program attaches
    std::vector<HookGroup> groups;
  };
  std::vector<Site> plan();
  void define_maps();
  void finish_maps();
  void emit_program(const Site& site, size_t index);
  void emit_clause(const lang::Clause& clause);
  bool clause_records(const lang::Clause& clause) const;
  void layout_variables();

  const lang::Program& program_;
  BpfModule mod_;
  CompiledProgram out_;
  std::vector<RecordLayout>& records_;

  std::map<const probes::Probe*, std::vector<const lang::Clause*>> clauses_by_probe_;
  std::map<std::string, llvm::GlobalVariable*> hook_maps_;

  // Per program.
  const probes::Probe* probe_ = nullptr;
  Binding binding_;
  llvm::BasicBlock* fire_entry_ = nullptr;
  uint64_t program_scratch_ = 0;
  const Hook* hook_ = nullptr;
  llvm::Function* fn_ = nullptr;
  llvm::Value* ctx_ = nullptr;
  llvm::Value* context_task_ = nullptr;
  llvm::Value* thread_locals_ = nullptr;
  bool thread_locals_cacheable_ = true;
  llvm::Value* read_slot_ = nullptr;
  llvm::BranchInst* entry_check_ = nullptr;  // the entry's "every map value found" branch
  llvm::Value* scratch_base_ = nullptr;
  llvm::Value* globals_base_ = nullptr;
  llvm::Value* entry_map_value(llvm::GlobalVariable* map);
  uint64_t scratch_used_ = 0, scratch_max_ = 0;

  uint32_t fault_sites_ = 0;

  // Per clause.
  llvm::BasicBlock* abort_ = nullptr;  // where a fault leaves the clause
  uint32_t action_ = 0;                // 1-based statement being lowered
  llvm::Value* record_ = nullptr;
  llvm::CallInst* reserve_call_ = nullptr;
  uint32_t epid_ = 0;

 public:
  // Maps and storage layouts, read by the lowering files.
  llvm::GlobalVariable* events_ = nullptr;
  llvm::GlobalVariable* drops_ = nullptr;
  llvm::GlobalVariable* globals_ = nullptr;
  llvm::GlobalVariable* self_ = nullptr;
  llvm::GlobalVariable* scratch_map_ = nullptr;  // a placeholder until its size is known
  llvm::GlobalVariable* spec_map_ = nullptr;
  llvm::GlobalVariable* zeroes_ = nullptr;       // read-only zeroes for new map values
  uint64_t zeroes_size_ = 8;
  uint32_t ring_bytes_ = 0;  // the ring buffer's size
  std::map<int, llvm::GlobalVariable*> assoc_maps_;  // by global variable id
  std::vector<llvm::GlobalVariable*> agg_maps_;       // by aggregation id
  std::vector<uint64_t> global_offsets_, self_offsets_, this_offsets_;  // by variable id
  uint64_t globals_size_ = 8, self_size_ = 8, this_size_ = 0;
  std::vector<uint64_t> assoc_key_sizes_;  // by global variable id (0 for scalars)

  // The current program's per-CPU scratch and globals (looked up on first use), and where its
  // this-> variables start in the scratch.
  llvm::Value* scratch_base();
  llvm::Value* globals_base();
  uint64_t this_base_ = 0;
};

}  // namespace dsched::codegen
