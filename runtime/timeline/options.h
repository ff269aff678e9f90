// The command line of `dsched timeline`.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "runtime/timeline/recorder.h"

namespace dsched::timeline {

struct TimelineOptions {
  std::string output;                                // -o
  std::optional<std::chrono::nanoseconds> duration;  // -d
  std::string command;                               // -c
  pid_t pid = 0;                                     // -p
  RecorderConfig recorder;                           // --cpus, --filter, --buffer-size
  bool help = false;
  // A script that runs while recording: -s, -n, -q, -w and -x as the main command reads them, in
  // the order given, then the script's arguments ($1, $2, ...).
  std::vector<std::string> script_words;
  std::vector<std::string> script_args;
  bool has_script = false;  // an -s or -n was given
};

struct ParsedOptions {
  std::optional<TimelineOptions> options;
  std::string error;  // set when options is not
};

// `args` are the words after `timeline`; CPUs named by --cpus must be below `possible_cpus`.
ParsedOptions parse_options(const std::vector<std::string>& args, int possible_cpus);

std::string usage_text();

}  // namespace dsched::timeline
