// What the user-space providers (pid, USDT) know of a process: the files it maps, their functions
// and their statically defined probes. The compiler sees processes only through this interface;
// the runtime implements it from /proc and the ELF files (runtime/symbols/process_images.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dsched::lang {

// One executable file a process maps: its executable or a shared object.
struct ProcessModule {
  std::string name;  // as DTrace names it: the path after its last '/' ("libc.so.6")
  std::string path;  // where the file is opened and uprobes attach
  bool executable = false;  // the process's program, which "a.out" also names
};

// A function of a module's symbol table.
struct UserFunction {
  std::string name;
  uint64_t address = 0;      // link-time address (st_value)
  uint64_t file_offset = 0;  // where its first instruction is in the file (uprobes attach by offset)
  uint64_t size = 0;         // bytes; 0 when the symbol does not say
  bool ifunc = false;        // an IFUNC: the code is the resolver that picks the implementation
};

// One operand of a SystemTap SDT note ("-4@%edi", "8@-16(%rbp)", "-4@$5"), as the note describes
// where the probe's argument is when the probe's instruction runs.
struct SdtArgument {
  enum class Kind { Constant, Register, Memory };
  Kind kind = Kind::Constant;
  int size = 8;            // bytes, 1..8
  bool is_signed = false;
  std::string base;        // the register (Register) or base register (Memory), as the note or pt_regs
                           // names it ("edi", "di", "rip"); empty: none
  std::string index;       // Memory: the index register, empty when none
  int scale = 1;           // Memory: the index's scale
  int64_t value = 0;       // Constant: the value; Memory: the displacement
  std::string text;        // as the note writes it
  std::string unreadable;  // non-empty: why the operand cannot be read correctly (using it is an error)
};

// A statically defined probe (.note.stapsdt).
struct SdtProbe {
  std::string provider, name;
  uint64_t file_offset = 0;       // the probe's instruction, as a file offset
  uint64_t semaphore_offset = 0;  // the is-enabled counter's file offset (uprobe ref_ctr); 0: none
  std::vector<SdtArgument> args;
  std::string unsupported;  // non-empty: why the probe cannot be traced (its site is not in the file...)
};

class ProcessImages {
 public:
  virtual ~ProcessImages() = default;
  // The executable files process `pid` maps, the program first. For a command that -c started
  // and holds, what it maps once its program and libraries are loaded. Empty with `error` set
  // when the process cannot be read.
  virtual std::vector<ProcessModule> modules(long pid, std::string& error) = 0;
  // Every process that now maps an executable file (for descriptions whose provider is a
  // pattern, "myprov*").
  virtual std::vector<long> processes() = 0;
  // The functions of a module's symbol table (separate debug info included), by address.
  virtual const std::vector<UserFunction>& functions(const ProcessModule& module) = 0;
  // The bytes of a function (for the offsets of its instructions); empty when unreadable.
  virtual std::string code(const ProcessModule& module, const UserFunction& function) = 0;
  // The SDT probes of a module.
  virtual const std::vector<SdtProbe>& sdt_probes(const ProcessModule& module) = 0;
};

}  // namespace dsched::lang
