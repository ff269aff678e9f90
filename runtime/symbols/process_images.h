// lang::ProcessImages for this machine: a process's modules from /proc/PID/maps, their functions
// from the ELF symbol tables (separate debug info included), each file read once per run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lang/process_images.h"

namespace dsched::symbols {

class ProcessImages final : public lang::ProcessImages {
 public:
  // Called before the modules of a process are first read, with its pid; returns an error message
  // or "". The -c command, held before exec, runs there until its libraries are loaded.
  using Prepare = std::function<std::string(long pid)>;
  explicit ProcessImages(Prepare prepare = {}, std::string proc = "/proc", std::string debug_root = "/usr/lib/debug");

  std::vector<lang::ProcessModule> modules(long pid, std::string& error) override;
  std::vector<long> processes() override;
  const std::vector<lang::UserFunction>& functions(const lang::ProcessModule& module) override;
  std::string code(const lang::ProcessModule& module, const lang::UserFunction& function) override;
  const std::vector<lang::SdtProbe>& sdt_probes(const lang::ProcessModule& module) override;

 private:
  Prepare prepare_;
  std::string proc_, debug_root_;
  std::map<std::string, std::vector<lang::UserFunction>> functions_;  // by path
  std::map<std::string, std::vector<lang::SdtProbe>> sdt_probes_;     // by path
};

// The run-time address of function `name` in process `pid`: its program's symbol first, then its
// libraries'; 0 when none has it.
uint64_t function_address(long pid, const std::string& name, const std::string& proc = "/proc",
                          const std::string& debug_root = "/usr/lib/debug");

}  // namespace dsched::symbols
