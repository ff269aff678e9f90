// The user registers of the thread a probe fires in, as x86-64's struct pt_regs keeps them. The
// user-space providers' arguments, USDT operands and uregs[] read them.
#pragma once

#include <string_view>

#include <llvm/IR/Value.h>

#include "lang/codegen/lowering.h"

namespace dsched::codegen {

// Words of struct pt_regs: r15 (0) ... ss (20). DTrace for Linux numbers uregs[] the same way.
inline constexpr int kUserRegisterWords = 21;
inline constexpr int kRegisterIp = 16;
inline constexpr int kRegisterSp = 19;
inline constexpr int kRegisterAx = 10;

// The word of a register named as the assembler or pt_regs names it ("rdi", "edi", "di", "r8d",
// "rip"); -1 when pt_regs does not hold it.
int user_register_word(std::string_view name);
// The word holding the N-th integer argument of a function call (System V ABI): di, si, dx, cx,
// r8, r9; -1 past the sixth.
int argument_register_word(int n);

// The user register at `word` as an i64: in a uprobe's program from its context, elsewhere from
// the running thread's saved user registers.
llvm::Value* user_register(Lowering& l, int word);

}  // namespace dsched::codegen
