// -C: runs a script through the C preprocessor (cpp -P) before compiling it.
#pragma once
#include <string>
#include <vector>

namespace dsched::lang {

// False with `error` set when cpp cannot be run or fails (its first diagnostic line is kept).
bool run_preprocessor(const std::string& text, const std::vector<std::string>& cpp_args,
                      std::string* output, std::string* error);

}  // namespace dsched::lang
