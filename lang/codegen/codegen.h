// Lowers a checked D program to a BPF object plus the layouts the runtime needs to read it.
#pragma once

#include <string>

#include "lang/codegen/compiled_program.h"
#include "lang/program.h"

namespace dsched::codegen {

struct CodegenResult {
  CompiledProgram program;
  std::string error;  // non-empty: the program cannot be lowered (message names the clause)
};

CodegenResult generate(const lang::Program& program);

}  // namespace dsched::codegen
