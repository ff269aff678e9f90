// Statically defined probes (SystemTap's <sys/sdt.h>, as PostgreSQL, Python, Node, the JVM and
// glibc use them): the .note.stapsdt notes of an ELF file, with each probe's location and
// semaphore as file offsets (what uprobes take) and its operands parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsched::symbols {

// One operand of a probe as its note describes it, x86-64 AT&T syntax: "-4@%edi" (a register),
// "8@-16(%rbp)", "8@(%rax,%rdx,8)" (memory), "4@$5" (a constant).
struct SdtOperand {
  enum class Kind { kRegister, kMemory, kConstant };
  Kind kind = Kind::kConstant;
  unsigned size = 8;       // bytes of the value: 1, 2, 4 or 8
  bool is_signed = false;  // "-4@": sign-extended from `size` bytes
  std::string base;        // kRegister: the register; kMemory: the base register, "" for none
  std::string index;       // kMemory: the index register, "" for none
  unsigned scale = 1;      // kMemory: what the index is multiplied by
  int64_t value = 0;       // kConstant: the constant; kMemory: the displacement
  std::string symbol;      // kMemory: a symbol the displacement is relative to ("counter(%rip)")
  std::string text;        // as written
};

// Parses one operand; nullopt with the reason in `error` when the text is not an operand.
std::optional<SdtOperand> parse_sdt_operand(std::string_view text, std::string& error);

struct SdtNote {
  std::string provider, name;
  uint64_t address = 0;           // link-time address of the probe, adjusted as SystemTap does
  uint64_t file_offset = 0;       // of the probe's instruction
  uint64_t semaphore_offset = 0;  // file offset of the is-enabled counter; 0: none
  std::string arguments;          // the note's operand string
  // Memory operands relative to %rip are rewritten relative to the probe's address ("counter(%rip)"
  // becomes (counter - address)(%rip)): %rip holds that address when the probe fires.
  std::vector<SdtOperand> operands;
  // Non-empty: why this probe cannot be traced correctly (an operand or a semaphore dsched cannot
  // serve). Reported when a probe using it is enabled; listing it is fine.
  std::string unsupported;
};

// The notes of the ELF file at `path`, in file order; empty when it has none or is not ELF.
std::vector<SdtNote> read_sdt_notes(const std::string& path);

}  // namespace dsched::symbols
