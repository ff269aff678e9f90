// abi::Symbolizer for this machine: the kernel from /proc/kallsyms, user space from each process's
// mappings and the ELF symbols of the mapped files. Everything is read on first need and kept for
// the run: kallsyms once, each file once (shared by every process that maps it), each process's
// mappings once (and again only when an address falls outside all of them), so lookups are binary
// searches. Used from one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "abi/symbols.h"
#include "runtime/symbols/elf_symbols.h"
#include "runtime/symbols/kernel_symbols.h"
#include "runtime/symbols/process_maps.h"

namespace dsched::symbols {

// Where the kernel's and processes' descriptions are read (tests substitute their own).
struct SymbolSources {
  std::string kallsyms = "/proc/kallsyms";
  std::string modules = "/proc/modules";
  std::string proc = "/proc";
  std::string debug_root = "/usr/lib/debug";  // separate debug info: .build-id/xx/yyyy.debug, paths
};

class Symbolizer final : public abi::Symbolizer {
 public:
  // Told once when kernel addresses cannot be resolved (hidden by kernel.kptr_restrict, or
  // /proc/kallsyms unreadable); the frames then print as addresses. Empty: told on stderr.
  using Warn = std::function<void(const std::string&)>;
  explicit Symbolizer(Warn warn, SymbolSources sources = SymbolSources());

  abi::Symbol kernel(uint64_t address) override;
  abi::Symbol user(uint32_t pid, uint64_t address) override;
  void remember_process(uint32_t pid) override;
  void refresh_process(uint32_t pid) override;
  uint32_t target_process() const override { return target_; }
  void set_target_process(uint32_t pid) { target_ = pid; }

 private:
  using FileKey = std::pair<uint64_t, uint64_t>;  // (device, inode); the vDSO's by its bytes
  struct KeptMapping {
    Mapping mapping;
    std::string module;
    bool symbols_looked_up = false;
    std::shared_ptr<const ElfSymbols> symbols;  // null: none can be read
  };
  struct Process {
    std::vector<KeptMapping> mappings;  // address order
    std::chrono::steady_clock::time_point read_at;
    std::chrono::steady_clock::time_point first_read_at;
    std::pair<uint64_t, uint64_t> executable{0, 0};  // (device, inode) of /proc/PID/exe when read
  };
  // The (device, inode) of the program `pid` runs now; (0, 0) when it cannot be told.
  std::pair<uint64_t, uint64_t> executable(uint32_t pid) const;

  Process& process(uint32_t pid);
  void read_mappings(uint32_t pid, Process& process);
  KeptMapping* find_mapping(Process& process, uint64_t address);
  const ElfSymbols* file_symbols(uint32_t pid, KeptMapping& kept);
  std::shared_ptr<const ElfSymbols> vdso_symbols(uint32_t pid, const Mapping& mapping);

  Warn warn_;
  SymbolSources sources_;
  std::optional<KernelSymbols> kernel_;
  std::unordered_map<uint32_t, Process> processes_;
  std::map<FileKey, std::shared_ptr<const ElfSymbols>> files_;
  uint32_t target_ = 0;  // -c or -p
};

}  // namespace dsched::symbols
