// Lowers a checked D program to a BPF object plus the layouts the runtime needs to read it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "abi/compiled_program.h"
#include "lang/program.h"

namespace dsched::codegen {

// Where to put the module's IR, as generated and as optimised (null: not wanted).
struct Dumps {
  std::string* lowered_ir = nullptr;
  std::string* optimized_ir = nullptr;
};

// Throws lang::CompileError (located at the construct) when the program cannot be lowered.
// `maps_laid_out`, when set, receives the maps worth creating early before code is generated.
abi::CompiledProgram generate(const lang::Program& program, const Dumps& dumps = {},
                              const std::function<void(const std::vector<abi::MapShape>&)>& maps_laid_out = {});

}  // namespace dsched::codegen
