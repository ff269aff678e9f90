#include "lang/codegen/bpf_module.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>

#include <linux/bpf.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/StructuralHash.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/DeadStoreElimination.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/FunctionComparator.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

extern "C" {
void LLVMInitializeBPFTargetInfo();
void LLVMInitializeBPFTarget();
void LLVMInitializeBPFTargetMC();
void LLVMInitializeBPFAsmPrinter();
}

namespace dsched::codegen {
namespace {

constexpr const char* kTriple = "bpfel";

const llvm::Target& bpf_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeBPFTargetInfo();
    LLVMInitializeBPFTarget();
    LLVMInitializeBPFTargetMC();
    LLVMInitializeBPFAsmPrinter();
  });
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target) throw std::runtime_error("LLVM has no BPF target: " + error);
  return *target;
}

// LLVM's own handler prints errors to stderr and exits: collect them for dsched's message instead.
class CollectErrors : public llvm::DiagnosticHandler {
 public:
  explicit CollectErrors(std::string& errors) : errors_(errors) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    if (info.getSeverity() != llvm::DS_Error) return true;
    std::string message;
    llvm::raw_string_ostream out(message);
    llvm::DiagnosticPrinterRawOStream printer(out);
    info.print(printer);
    // Its advice (an LLVM option) is no use to a script's author: say what is too large instead.
    if (message.find("stack limit is exceeded") != std::string::npos)
      message = "a program needs more than BPF's 512 bytes of stack: the clauses of one probe (or of system calls' "
                "entries or returns) share a program, and these hold too many temporaries (strtok(), string "
                "functions) at once; split the work over probes or fewer temporaries";
    // The back end repeats a message for each instruction it concerns: each is said once.
    if (errors_.find(message) != std::string::npos) return true;
    if (!errors_.empty()) errors_ += "; ";
    errors_ += message;
    return true;
  }

 private:
  std::string& errors_;
};

}  // namespace

BpfModule::BpfModule(const std::string& name)
    : machine_(bpf_target().createTargetMachine(kTriple, "v4", "", llvm::TargetOptions(), llvm::Reloc::PIC_,
                                                std::nullopt, llvm::CodeGenOptLevel::Aggressive)),
      context_(std::make_unique<llvm::LLVMContext>()),
      module_(std::make_unique<llvm::Module>(name, *context_)),
      builder_(std::make_unique<llvm::IRBuilder<>>(*context_)),
      di_(std::make_unique<llvm::DIBuilder>(*module_)) {
  context_->setDiagnosticHandler(std::make_unique<CollectErrors>(backend_errors_));
  // The data layout must be set before any IR is built: the builder takes alignments from it.
  module_->setTargetTriple(kTriple);
  module_->setDataLayout(machine_->createDataLayout());
  module_->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
  module_->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 4);
  file_ = di_->createFile(name, ".");
  compile_unit_ = di_->createCompileUnit(llvm::dwarf::DW_LANG_C99, file_, "dsched", true, "", 0);

  auto* license_init = llvm::ConstantDataArray::getString(*context_, "GPL");
  auto* license = new llvm::GlobalVariable(*module_, license_init->getType(), true,
                                           llvm::GlobalValue::ExternalLinkage, license_init, "_license");
  license->setSection("license");
}

BpfModule::~BpfModule() = default;

llvm::DIType* BpfModule::di_int(unsigned bits, bool is_signed) {
  std::string name = (is_signed ? "int" : "unsigned int");
  if (bits == 64) name = is_signed ? "long long" : "unsigned long long";
  return di_->createBasicType(name, bits,
                              is_signed ? llvm::dwarf::DW_ATE_signed : llvm::dwarf::DW_ATE_unsigned);
}

// libbpf reads `__uint(field, N)` as a pointer to an int array of N elements.
llvm::DIType* BpfModule::map_field_int_array(uint64_t count) {
  auto* subrange = di_->getOrCreateSubrange(0, static_cast<int64_t>(count));
  auto* array = di_->createArrayType(count * 32, 32, di_int(32, true), di_->getOrCreateArray({subrange}));
  return di_->createPointerType(array, 64);
}

llvm::GlobalVariable* BpfModule::define_map(const MapSpec& spec) {
  std::vector<std::pair<std::string, llvm::DIType*>> fields;
  fields.emplace_back("type", map_field_int_array(spec.type));
  if (spec.max_entries) fields.emplace_back("max_entries", map_field_int_array(spec.max_entries));
  if (spec.typed_key_value) {
    fields.emplace_back("key", di_->createPointerType(di_int(32, true), 64));
    uint64_t words = (spec.value_size + 7) / 8;
    auto* subrange = di_->getOrCreateSubrange(0, static_cast<int64_t>(words));
    auto* value = di_->createArrayType(words * 64, 64, di_int(64, false), di_->getOrCreateArray({subrange}));
    fields.emplace_back("value", di_->createPointerType(value, 64));
  } else {
    if (spec.key_size) fields.emplace_back("key_size", map_field_int_array(spec.key_size));
    if (spec.value_size) fields.emplace_back("value_size", map_field_int_array(spec.value_size));
  }
  if (spec.flags) fields.emplace_back("map_flags", map_field_int_array(spec.flags));

  std::vector<llvm::Metadata*> members;
  uint64_t offset = 0;
  for (auto& [field_name, type] : fields) {
    members.push_back(di_->createMemberType(compile_unit_, field_name, file_, 0, 64, 64, offset,
                                            llvm::DINode::FlagZero, type));
    offset += 64;
  }
  auto* struct_type = di_->createStructType(compile_unit_, "", file_, 0, offset, 64, llvm::DINode::FlagZero,
                                            nullptr, di_->getOrCreateArray(members));

  auto* ptr = llvm::PointerType::get(*context_, 0);
  auto* ir_type = llvm::StructType::get(*context_, std::vector<llvm::Type*>(fields.size(), ptr));
  auto* map = new llvm::GlobalVariable(*module_, ir_type, false, llvm::GlobalValue::ExternalLinkage,
                                       llvm::ConstantAggregateZero::get(ir_type), spec.name);
  map->setSection(".maps");
  map->setAlignment(llvm::Align(8));
  auto* expr = di_->createGlobalVariableExpression(compile_unit_, spec.name, spec.name, file_, 0, struct_type,
                                                   false);
  map->addDebugInfo(expr);
  return map;
}

llvm::Function* BpfModule::begin_program(const std::string& name, const std::string& section) {
  auto* ptr = llvm::PointerType::get(*context_, 0);
  auto* type = llvm::FunctionType::get(builder_->getInt64Ty(), {ptr}, false);
  auto* fn = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, *module_);
  fn->setSection(section);
  builder_->SetInsertPoint(llvm::BasicBlock::Create(*context_, "entry", fn));
  return fn;
}

llvm::Function* BpfModule::declare_subprogram(const std::string& name) {
  auto* ptr = llvm::PointerType::get(*context_, 0);
  auto* type = llvm::FunctionType::get(builder_->getInt64Ty(), {ptr, ptr}, false);
  auto* fn = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, *module_);
  fn->setSection(".text");
  fn->addFnAttr(llvm::Attribute::NoInline);
  return fn;
}

llvm::Function* BpfModule::declare_callback(const std::string& name) {
  has_callbacks_ = true;
  return declare_subprogram(name);
}

// Each function gets a debug-info subprogram, which the back end turns into BTF func_info, with
// named parameters (the kernel refuses a function's BTF without them), and the calls in it a
// location, which the IR verifier asks of calls between described functions.
void BpfModule::describe_functions() {
  llvm::DIType* word = di_int(64, true);
  llvm::DIType* pointer = di_->createPointerType(nullptr, 64);
  for (llvm::Function& fn : *module_) {
    if (fn.isDeclaration()) continue;
    std::vector<llvm::Metadata*> types{word};
    for (llvm::Argument& arg : fn.args()) types.push_back(arg.getType()->isPointerTy() ? pointer : word);
    llvm::DISubprogram* subprogram = di_->createFunction(
        compile_unit_, fn.getName(), fn.getName(), file_, 0, di_->createSubroutineType(di_->getOrCreateTypeArray(types)),
        0, llvm::DINode::FlagPrototyped,
        llvm::DISubprogram::SPFlagDefinition |
            (fn.hasLocalLinkage() ? llvm::DISubprogram::SPFlagLocalToUnit : llvm::DISubprogram::SPFlagZero));
    fn.setSubprogram(subprogram);
    for (llvm::Argument& arg : fn.args())
      di_->createParameterVariable(subprogram, "arg" + std::to_string(arg.getArgNo()), arg.getArgNo() + 1, file_, 0,
                                   arg.getType()->isPointerTy() ? pointer : word, /*AlwaysPreserve=*/true);
    auto* location = llvm::DILocation::get(*context_, 0, 0, subprogram);
    for (llvm::BasicBlock& block : fn)
      for (llvm::Instruction& instruction : block)
        if (llvm::isa<llvm::CallInst>(instruction)) instruction.setDebugLoc(location);
  }
}

void BpfModule::begin_body(llvm::Function* fn) {
  builder_->SetInsertPoint(llvm::BasicBlock::Create(*context_, "entry", fn));
}

llvm::Value* BpfModule::call_helper(int id, llvm::ArrayRef<llvm::Value*> args) {
  std::vector<llvm::Type*> types;
  for (auto* arg : args) types.push_back(arg->getType());
  auto* type = llvm::FunctionType::get(builder_->getInt64Ty(), types, false);
  auto* callee = builder_->CreateIntToPtr(builder_->getInt64(id), llvm::PointerType::get(*context_, 0));
  return builder_->CreateCall(type, callee, args);
}

// LLVM's O2 pipeline spends most of its time in passes with nothing to do in the programs emitted
// here, which call no functions of their own and whose loops are bounded scans: the inliner, the
// loop and vectorizer passes. This pipeline keeps the passes that shape them (promotion to
// registers, redundancy and dead-code elimination, instruction combining, CFG simplification)
// and runs the BPF target's own passes where O2 would. The programs come out the same size as
// with O2, in 3 ms instead of 7 for a 30-probe script, and smaller ones take less instruction
// selection after it.
void BpfModule::optimize() {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder passes(machine_.get());
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(cgscc);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, cgscc, modules);
  const llvm::OptimizationLevel kLevel = llvm::OptimizationLevel::O2;  // what the BPF passes are told
  llvm::ModulePassManager pipeline;
  passes.invokePipelineStartEPCallbacks(pipeline, kLevel);
  passes.invokePipelineEarlySimplificationEPCallbacks(pipeline, kLevel);
  llvm::FunctionPassManager each;
  each.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  each.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  each.addPass(llvm::SimplifyCFGPass());
  each.addPass(llvm::InstCombinePass());
  passes.invokePeepholeEPCallbacks(each, kLevel);
  each.addPass(llvm::GVNPass());
  each.addPass(llvm::DSEPass());
  each.addPass(llvm::ADCEPass());
  each.addPass(llvm::SimplifyCFGPass(llvm::SimplifyCFGOptions().hoistCommonInsts(true).sinkCommonInsts(true)));
  each.addPass(llvm::InstCombinePass());
  passes.invokeScalarOptimizerLateEPCallbacks(each, kLevel);
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(each)));
  pipeline.addPass(llvm::GlobalDCEPass());  // constants only a removed branch used
  pipeline.run(*module_, modules);
  merge_identical_functions();
}

// Each string scan of a clause has its own bpf_loop() callback, and the kernel lets a program
// have 256 functions: identical ones (the same scan of strings of one size) become one.
void BpfModule::merge_identical_functions() {
  llvm::GlobalNumberState numbers;
  std::multimap<llvm::IRHash, llvm::Function*> kept;
  for (llvm::Function& fn : llvm::make_early_inc_range(*module_)) {
    if (fn.isDeclaration() || !fn.hasLocalLinkage()) continue;
    llvm::IRHash hash = llvm::StructuralHash(fn);
    auto [first, last] = kept.equal_range(hash);
    auto same = std::find_if(first, last, [&](const auto& entry) {
      return llvm::FunctionComparator(&fn, entry.second, &numbers).compare() == 0;
    });
    if (same == last) {
      kept.emplace(hash, &fn);
      continue;
    }
    fn.replaceAllUsesWith(same->second);
    fn.eraseFromParent();
  }
}

std::vector<char> BpfModule::emit_object(std::string* lowered, std::string* optimized) {
  if (has_callbacks_) describe_functions();
  di_->finalize();
  if (lowered) llvm::raw_string_ostream(*lowered) << *module_;
  std::string problems;
  llvm::raw_string_ostream problem_stream(problems);
  if (llvm::verifyModule(*module_, &problem_stream))
    throw std::runtime_error("internal error: the generated IR is invalid: " + problems);
  optimize();

  if (optimized) llvm::raw_string_ostream(*optimized) << *module_;
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  if (machine_->addPassesToEmitFile(codegen, stream, nullptr, llvm::CodeGenFileType::ObjectFile))
    throw std::runtime_error("the BPF back end cannot emit an object file");
  codegen.run(*module_);
  if (!backend_errors_.empty()) throw std::runtime_error("the BPF back end refused the program: " + backend_errors_);
  return std::vector<char>(buffer.begin(), buffer.end());
}

}  // namespace dsched::codegen
