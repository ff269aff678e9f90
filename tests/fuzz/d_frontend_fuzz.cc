// libFuzzer entry point: any bytes must be checked (parsed and type-checked) or produce an error,
// never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lang/frontend.h"
#include "lang/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static dsched::lang::ProbeCatalog catalog;
  dsched::lang::FrontendOptions options;
  options.macro_args = {"fuzz.d", "1", "two"};
  std::string text(reinterpret_cast<const char*>(data), size);
  dsched::lang::CheckResult result = dsched::lang::check({{"fuzz.d", text, false}}, options, catalog);
  if (!result.program && result.error.rfind("dsched: ", 0) != 0) __builtin_trap();
  return 0;
}
