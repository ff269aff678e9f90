// Addresses as DTrace prints them: stack frames, sym()/mod() and their user-space twins, %a and
// %A. The runtime's symbolizer (runtime/symbols/) finds what holds an address; the text DTrace
// makes of it is written here, once, for every output format.
#pragma once

#include <cstdint>
#include <string>

namespace dsched::abi {

// What holds an address: the module (kernel image "vmlinux", a kernel module, or the basename of a
// user-space file) and, when known, the function and where it starts.
struct Symbol {
  std::string module;    // empty: no mapping or module holds the address
  std::string function;  // empty: no symbol covers it
  uint64_t start = 0;    // the function's first address (valid when `function` is set)
};

// Kernel addresses resolve against the running kernel; user addresses against the mappings of a
// process, which stay resolvable after it exits once remember_process() saw it alive.
class Symbolizer {
 public:
  virtual ~Symbolizer() = default;
  virtual Symbol kernel(uint64_t address) = 0;
  virtual Symbol user(uint32_t pid, uint64_t address) = 0;
  // Reads `pid`'s mappings now and keeps them, unless they were read since it last exec'd. The
  // programs announce a process when they first record one of its addresses and again after an
  // exec, and the runtime calls it for every record that holds user addresses, before it names
  // anything: naming may take long enough (reading kallsyms) for a short process to be gone.
  virtual void remember_process(uint32_t pid) = 0;
  // Reads `pid`'s mappings again unless they were read a moment ago: the runtime calls it as a -c
  // or -p target runs, so that the libraries it maps after its exec still have names once it has
  // exited (an aggregation's stacks are named only then).
  virtual void refresh_process(uint32_t pid) { (void)pid; }
  // The process a user address recorded without one belongs to (%A of an integer), as DTrace
  // takes $target's: the -c or -p process, or 0 for none.
  virtual uint32_t target_process() const { return 0; }
};

// A frame and %a: "module`function+0xoffset", "module`function" at its first byte,
// "module`0xaddress" inside a module without a symbol, "0xaddress" otherwise.
std::string frame_text(const Symbol& symbol, uint64_t address);
// sym()/func() and usym()/ufunc(): "module`function", or as frame_text() when no symbol covers it.
std::string function_text(const Symbol& symbol, uint64_t address);
// mod() and umod(): "module", or "0xaddress" when no module holds it.
std::string module_text(const Symbol& symbol, uint64_t address);

}  // namespace dsched::abi
