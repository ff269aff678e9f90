#include "lang/codegen/user_registers.h"

#include <linux/bpf.h>

#include <array>

#include "lang/codegen/exprs.h"
#include "lang/codegen/firing.h"
#include "lang/codegen/ir.h"

namespace dsched::codegen {
namespace {

// pt_regs' words in order, each with the names the assembler gives its 64- and 32-bit forms.
struct RegisterNames {
  const char* pt_regs;
  const char* wide;
  const char* narrow;
};
constexpr std::array<RegisterNames, kUserRegisterWords> kRegisters{{
    {"r15", "r15", "r15d"}, {"r14", "r14", "r14d"}, {"r13", "r13", "r13d"}, {"r12", "r12", "r12d"},
    {"bp", "rbp", "ebp"},   {"bx", "rbx", "ebx"},   {"r11", "r11", "r11d"}, {"r10", "r10", "r10d"},
    {"r9", "r9", "r9d"},    {"r8", "r8", "r8d"},    {"ax", "rax", "eax"},   {"cx", "rcx", "ecx"},
    {"dx", "rdx", "edx"},   {"si", "rsi", "esi"},   {"di", "rdi", "edi"},   {"orig_ax", "orig_rax", ""},
    {"ip", "rip", "eip"},   {"cs", "cs", ""},       {"flags", "rflags", "eflags"}, {"sp", "rsp", "esp"},
    {"ss", "ss", ""},
}};

// 8- and 16-bit names of the registers that have them ("al", "r8w").
int short_register_word(std::string_view name) {
  static const std::pair<const char*, int> names[] = {
      {"al", 10}, {"ax", 10}, {"bl", 5},  {"cl", 11}, {"cx", 11}, {"dl", 12}, {"dx", 12}, {"sil", 13}, {"si", 13},
      {"dil", 14}, {"di", 14}, {"bpl", 4}, {"bp", 4},  {"spl", 19}, {"sp", 19}, {"bx", 5}};
  for (auto [n, word] : names)
    if (name == n) return word;
  if (name.size() >= 3 && name[0] == 'r' && (name.back() == 'w' || name.back() == 'b'))
    return user_register_word(name.substr(0, name.size() - 1));
  return -1;
}

llvm::Value* read_word(Lowering& l, llvm::Value* address) {
  return l.exprs.read_kernel(address, 8, l.program.types->integer(8, false));
}

// The running thread's saved user registers (struct pt_regs *), as an i64 address.
llvm::Value* thread_registers(Lowering& l) {
  llvm::Value* task = l.ir.helper(BPF_FUNC_get_current_task_btf, {});
  return l.ir.helper(BPF_FUNC_task_pt_regs, {l.ir.b().CreateIntToPtr(task, l.ir.ptr())});
}

}  // namespace

int user_register_word(std::string_view name) {
  for (int word = 0; word < kUserRegisterWords; ++word) {
    const RegisterNames& r = kRegisters[size_t(word)];
    if (name == r.pt_regs || name == r.wide || (*r.narrow && name == r.narrow)) return word;
  }
  return short_register_word(name);
}

int argument_register_word(int n) {
  static constexpr int words[] = {14, 13, 12, 11, 9, 8};
  return n >= 0 && n < 6 ? words[n] : -1;
}

llvm::Value* user_register(Lowering& l, int word) {
  Ir& ir = l.ir;
  if (l.firing.hook().context_is_user_registers())
    return ir.b().CreateLoad(ir.i64(), ir.offset_ptr(l.firing.context(), uint64_t(word) * 8), /*isVolatile=*/true);
  return read_word(l, ir.b().CreateAdd(thread_registers(l), ir.const64(word * 8)));
}

}  // namespace dsched::codegen
