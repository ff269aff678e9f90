// The dsched command: parses the command line and runs the requested mode.
#pragma once

#include <string>
#include <vector>

namespace dsched {

// argv without the program name; returns the process exit status.
int run_main(const std::vector<std::string>& args);

}  // namespace dsched
