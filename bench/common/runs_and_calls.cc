#include "runs_and_calls.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace dsched::bench {

bool parse_runs_and_calls(int argc, char** argv, const char* program, RunsAndCalls& parsed) {
  bool ok = argc % 2 == 1;
  for (int i = 1; ok && i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--runs") parsed.runs = std::max(1, std::atoi(argv[i + 1]));
    else if (flag == "--calls") parsed.calls = std::max(1L, std::atol(argv[i + 1]));
    else ok = false;
  }
  if (!ok) std::fprintf(stderr, "usage: %s [--runs R] [--calls N]\n", program);
  return ok;
}

}  // namespace dsched::bench
