// printf(3) into a std::string: the output engine reproduces C formatting byte for byte, so
// it formats through the C library rather than re-implementing conversions.
#pragma once

#include <string>

namespace dsched::output {

std::string cformat(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace dsched::output
