// The parts of the code generator, as the built-ins' lowering and the providers' hooks reach them.
// Each part has one job:
//   Ir         building instructions: blocks, conditions, stack slots, helper calls, memory copies
//   Maps       the object's maps and where D variables live in them
//   Firing     the program and probe being emitted: per-CPU scratch, the context task, arguments
//   Records    the clause's ring-buffer record: its fields, its actions, run-time faults
//   Exprs      D expressions, kernel memory reads
//   Variables  D variables: globals, associative arrays, self->, this->
//   Strings    D strings: literals, copies, comparisons, the helpers of string functions
//   Programs   which BPF programs the probes need, and firing a probe's clauses in them
#pragma once

#include "lang/program.h"

namespace dsched::codegen {

class Ir;
class Maps;
class Firing;
class Records;
class Exprs;
class Variables;
class Strings;
class Programs;

struct Lowering {
  const lang::Program& program;
  Ir& ir;
  Maps& maps;
  Firing& firing;
  Records& records;
  Exprs& exprs;
  Variables& variables;
  Strings& strings;
  Programs& programs;
};

}  // namespace dsched::codegen
