#include "probes/user/instructions.h"

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#include <mutex>

namespace dsched::probes {

std::vector<uint64_t> instruction_offsets(std::string_view code, uint64_t address) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86Disassembler();
  });
  std::vector<uint64_t> offsets;
  LLVMDisasmContextRef disassembler = LLVMCreateDisasm("x86_64-pc-linux-gnu", nullptr, 0, nullptr, nullptr);
  if (!disassembler) return offsets;
  auto* bytes = reinterpret_cast<uint8_t*>(const_cast<char*>(code.data()));
  char text[128];
  for (uint64_t at = 0; at < code.size();) {
    size_t size = LLVMDisasmInstruction(disassembler, bytes + at, code.size() - at, address + at, text, sizeof text);
    if (size == 0) break;
    offsets.push_back(at);
    at += size;
  }
  LLVMDisasmDispose(disassembler);
  return offsets;
}

}  // namespace dsched::probes
