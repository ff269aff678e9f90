// libFuzzer entry point: any bytes must compile or produce an error, never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dsched::lang::FrontendOptions options;
  options.macro_args = {"fuzz.d", "1", "two"};
  std::string text(reinterpret_cast<const char*>(data), size);
  dsched::lang::CompileResult result = dsched::lang::compile({{"fuzz.d", text, false}}, options);
  if (!result.program && result.error.rfind("dsched: ", 0) != 0) __builtin_trap();
  return 0;
}
