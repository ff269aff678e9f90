// Prints the names of the D options dsched implements, one a line, from abi/options.cc's table;
// the build writes them into the bash completion so that it never lists a refused option.
#include <cstdio>

#include "abi/options.h"

int main() {
  for (const dsched::abi::OptionSpec& spec : dsched::abi::option_table())
    if (spec.supported) std::printf("%s\n", spec.name);
  return 0;
}
