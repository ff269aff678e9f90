// Statically defined probes (SystemTap's <sys/sdt.h>, as PostgreSQL, Python, Node, the JVM and
// glibc use them): the .note.stapsdt notes of an ELF file, with each probe's site and semaphore as
// file offsets (what uprobes take) and its operands parsed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/process_images.h"

namespace dsched::symbols {

// One operand of x86-64 AT&T syntax as a note writes it: "-4@%edi" (a register), "8@-16(%rbp)",
// "8@(%rax,%rdx,8)" (memory), "4@$5" (a constant). `symbol`: the symbol a memory operand's
// displacement is relative to ("counter(%rip)"), which only the file can resolve.
struct SdtOperand {
  lang::SdtArgument argument;
  std::string symbol;
};
// Nullopt with the reason in `error` when the text is not an operand.
std::optional<SdtOperand> parse_sdt_operand(std::string_view text, std::string& error);

// The probes of the ELF file at `path`, in file order; empty when it has none or is not ELF.
// Memory operands relative to %rip are made relative to the probe's own address ("counter(%rip)"
// becomes (counter - site)(%rip)), which %rip holds when the probe's uprobe fires. Operands that
// cannot be read correctly have `unreadable` set; probes that cannot be traced `unsupported`.
std::vector<lang::SdtProbe> read_sdt_probes(const std::string& path);

}  // namespace dsched::symbols
