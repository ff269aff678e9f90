// The command line of the benchmarks that time calls in turns: [--runs R] [--calls N].
#pragma once

namespace dsched::bench {

struct RunsAndCalls {
  int runs = 5;
  long calls = 1000000;
};

// Reads the flags into `parsed`; on a bad command line prints the usage of `program` and returns
// false.
bool parse_runs_and_calls(int argc, char** argv, const char* program, RunsAndCalls& parsed);

}  // namespace dsched::bench
