// Kernel symbols with a backquote: a function's address is the one /proc/kallsyms gives, with or
// without the module; a data symbol reads through the type an extern declaration gives it.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "aggregation_text.h"
#include "support.h"

using namespace dsched::test;

namespace {

// The address /proc/kallsyms gives `name` (0 if it is not listed), and its type letter.
std::pair<uint64_t, char> kallsyms(const std::string& name) {
  std::ifstream in("/proc/kallsyms");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string address, type, symbol;
    fields >> address >> type >> symbol;
    if (symbol == name) return {std::stoull(address, nullptr, 16), type[0]};
  }
  return {0, ' '};
}

}  // namespace

TEST_CASE("&`schedule and &vmlinux`schedule are the address kallsyms lists") {
  auto [address, type] = kallsyms("schedule");
  REQUIRE(address != 0);
  RunResult run = run_dsched({"-qn", "BEGIN { printf(\"%x %x\\n\", (uint64_t)&`schedule, (uint64_t)&vmlinux`schedule); exit(0); }"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  std::ostringstream hex;
  hex << std::hex << address;
  CHECK(lines_of(run.out).at(0) == hex.str() + " " + hex.str());
}

TEST_CASE("a data symbol needs an extern for its type, and then reads as that variable") {
  auto [address, type] = kallsyms("__start_rodata");
  REQUIRE(address != 0);
  RunResult untyped = run_dsched({"-e", "-n", "BEGIN { trace(`__start_rodata); }"});
  CHECK(untyped.status == 1);
  CHECK(untyped.err.find("no type information is available for kernel symbol `__start_rodata") != std::string::npos);
  RunResult typed = run_dsched({"-qn", "extern char __start_rodata; BEGIN { printf(\"%d %d\\n\","
                                       " &`__start_rodata == &__start_rodata, `__start_rodata == __start_rodata); exit(0); }"});
  INFO(typed.err);
  REQUIRE(typed.status == 0);
  CHECK(lines_of(typed.out).at(0) == "1 1");
}
