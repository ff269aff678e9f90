// One run of a compiled program: load, BEGIN, attach, the event loop, END, the final
// aggregation dump and drop reports; everything is out of the kernel when it returns.
#pragma once

#include <cstdio>
#include <string>

#include "lang/codegen/compiled_program.h"
#include "runtime/record_consumer.h"

namespace dsched {

class TargetProcess;

struct SessionConfig {
  ConsumerOptions consumer;
  std::string matched;           // the "matched N probes" lines, printed once the probes are enabled
  FILE* out = stdout;
  TargetProcess* target = nullptr;  // -c / -p: the run ends when it exits
  bool verbose = false;             // -v: the whole verifier log when the kernel refuses a program
};

// Returns the process exit status.
int run_session(const CompiledProgram& program, const SessionConfig& config);

}  // namespace dsched
