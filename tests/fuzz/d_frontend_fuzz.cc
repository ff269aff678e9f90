// libFuzzer entry point: any bytes must be compiled through the checks and code generation (parsed,
// type-checked, every built-in's parameters checked, lowered to LLVM IR) or produce an error,
// never crash, abort or hang. Lowering is included since some checks only run there (record
// layouts against the buffer, aggregation parameters that size maps).
#include <cstddef>
#include <cstdint>
#include <string>

#include "lang/frontend.h"
#include "lang/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static dsched::lang::ProbeCatalog catalog;
  dsched::lang::FrontendOptions options;
  options.macro_args = {"fuzz.d", "1", "two"};
  options.destructive = true;  // destructive actions are checked and lowered like the rest
  std::string text(reinterpret_cast<const char*>(data), size);
  dsched::lang::Compilation result =
      dsched::lang::compile({{"fuzz.d", text, false}}, options, catalog, dsched::lang::Stage::Lower);
  if (!result.error.empty() && result.error.rfind("dsched: ", 0) != 0) __builtin_trap();
  return 0;
}
