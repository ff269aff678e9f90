// Runs `ctprof <args>` through the library's command line, as `dsched ctprof <args>` will.
#include <iostream>

#include "ctprof.h"

int main(int argc, char** argv) {
  return dsched::ctprof::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                 std::cerr);
}
