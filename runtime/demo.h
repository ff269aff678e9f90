// `dsched --demo`: the seed script where.d against a short built-in workload (two threads that
// hand a token back and forth), so a fresh install shows real output in about a second.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace dsched {

// Runs the demo through `run` (the command-line entry point); its banner goes to `out`, a failure
// to prepare it to `err`.
int run_demo(const std::function<int(const std::vector<std::string>&)>& run, std::ostream& out, std::ostream& err);

// The workload process (`dsched --demo-workload`): ping-pong between two threads for ~1 s.
int run_demo_workload();

}  // namespace dsched
