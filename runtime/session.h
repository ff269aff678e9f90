// One run of a compiled program: load, BEGIN, attach, the event loop, END, the final aggregation
// dump and drop reports; everything is out of the kernel when it returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "abi/compiled_program.h"
#include "abi/output.h"
#include "abi/symbols.h"
#include "runtime/early_maps.h"

namespace dsched {

class LoopCompanion;
class TargetProcess;

// A "matched N probes" line, for one -s, -n or -P.
struct Matched {
  std::string what;
  bool is_script = false;
  uint64_t probes = 0;
  std::string stability_report;  // -v: printed after the line
};

struct SessionConfig {
  std::vector<Matched> matched;     // printed once the probes are enabled
  TargetProcess* target = nullptr;  // -c / -p: the run ends when it exits
  bool verbose = false;             // -v: the whole verifier log when the kernel refuses a program
  LoopCompanion* companion = nullptr;  // dsched timeline -s: the recorder, read in the same loop
  abi::Symbolizer* symbols = nullptr;  // keeps the mappings of processes the programs announce
  EarlyMaps* early_maps = nullptr;     // maps created while the code was generated
};

// Runs `program`, sending everything it prints to `output`. `options` start as the program's and
// change with setopt(); the output reads them. Returns the process exit status.
int run_session(const abi::CompiledProgram& program, abi::Output& output, abi::Options& options,
                const SessionConfig& config);

}  // namespace dsched
