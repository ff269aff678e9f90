// Flags of `ctprof capture`; the flags string of ctprof_snapshot() goes through the same parser.
#pragma once

#include <string>
#include <vector>

#include "capture.h"

namespace dsched::ctprof {

struct CaptureRequest {
  CaptureOptions options;
  std::string output;  // -o / --output
};

// Parses capture flags ("--flag value" and "--flag=value"). `allow_output` is false for the D
// function, whose path is its first argument. Throws UsageError.
CaptureRequest parse_capture_flags(const std::vector<std::string>& args, bool allow_output);

}  // namespace dsched::ctprof
