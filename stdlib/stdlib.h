// The D standard library (procfs.d, sched.d, io.d, lockstat.d), compiled ahead of every script.
#pragma once
#include <span>
#include <string_view>

namespace dsched::stdlib {

struct Source {
  std::string_view name;  // file name, used in diagnostics ("procfs.d")
  std::string_view text;
};

// In the order they must be compiled: later files may use what earlier ones declare.
std::span<const Source> sources();

}  // namespace dsched::stdlib
