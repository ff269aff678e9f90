// An LLVM module targeting BPF: maps declared with BTF (so libbpf can open the object from memory),
// program functions in libbpf section names, helper calls, and emission of the ELF object.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace dsched::codegen {

struct MapSpec {
  std::string name;
  uint32_t type = 0;         // BPF_MAP_TYPE_*
  uint32_t max_entries = 0;
  uint32_t key_size = 0;     // bytes; 0 for maps without keys (ring buffer)
  uint32_t value_size = 0;   // bytes
  uint32_t flags = 0;        // BPF_F_*
  // Maps whose kernel type demands BTF key/value types (task storage) describe them as
  // an int key and an array of 64-bit words for the value.
  bool typed_key_value = false;
};

class BpfModule {
 public:
  explicit BpfModule(const std::string& name);
  ~BpfModule();
  BpfModule(const BpfModule&) = delete;
  BpfModule& operator=(const BpfModule&) = delete;

  llvm::LLVMContext& context() { return *context_; }
  llvm::Module& module() { return *module_; }
  llvm::IRBuilder<>& builder() { return *builder_; }

  // Declares a map in the ".maps" section; the returned global is what helpers take as `map`.
  llvm::GlobalVariable* define_map(const MapSpec& spec);

  // Starts a program `i64 name(ptr ctx)` in the given libbpf section (e.g. "tp_btf/sched_switch")
  // and positions the builder at its entry block.
  llvm::Function* begin_program(const std::string& name, const std::string& section);
  // Declares a function `i64 name(ptr, ptr)` that programs call (a BPF-to-BPF call): static, in
  // ".text", never inlined. Its body is emitted later with begin_body().
  llvm::Function* declare_subprogram(const std::string& name);
  // Positions the builder at a new entry block of `fn`.
  void begin_body(llvm::Function* fn);
  // Declares a subprogram passed by address to a helper (a bpf_loop() callback), `i64 name(ptr,
  // ptr)`. The verifier takes a function's address only from a program whose BTF describes every
  // function: with one of these, the object carries that description.
  llvm::Function* declare_callback(const std::string& name);

  // Calls BPF helper `id` (BPF_FUNC_*) returning i64.
  llvm::Value* call_helper(int id, llvm::ArrayRef<llvm::Value*> args);

  // Optimises the module and runs the BPF back end; returns the ELF object. The module's
  // IR is printed into `lowered` before optimisation and into `optimized` after, when given.
  std::vector<char> emit_object(std::string* lowered = nullptr, std::string* optimized = nullptr);

 private:
  llvm::DIType* map_field_int_array(uint64_t count);
  llvm::DIType* di_int(unsigned bits, bool is_signed);
  void describe_functions();  // BTF func_info for every function defined
  void optimize();
  void merge_identical_functions();

  std::unique_ptr<llvm::TargetMachine> machine_;
  std::string backend_errors_;  // what LLVM reported as errors while compiling (its diagnostics)
  std::unique_ptr<llvm::LLVMContext> context_;
  std::unique_ptr<llvm::Module> module_;
  std::unique_ptr<llvm::IRBuilder<>> builder_;
  std::unique_ptr<llvm::DIBuilder> di_;
  llvm::DICompileUnit* compile_unit_ = nullptr;
  llvm::DIFile* file_ = nullptr;
  bool has_callbacks_ = false;
};

}  // namespace dsched::codegen
