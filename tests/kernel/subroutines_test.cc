// Subroutines that read user memory: copyin() and copyinstr().
#include <doctest/doctest.h>

#include <cstring>

#include "support.h"

using namespace dsched::test;

TEST_CASE("copyin() reads the traced process's memory: the bytes at its user program counter") {
  // A sampled user PC points at code of the command (a shell loop), which is resident while it runs.
  // One byte only: eight could cross into a next page that was never faulted in.
  TempScript loop("i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done\n");
  RunResult r = run_dsched({"-qn",
                            "profile-997 /pid == $target && arg1/ { this->p = copyin(arg1, 1); "
                            "printf(\"read %d\\n\", *(unsigned char *)this->p >= 0); exit(0); }",
                            "-c", "sh " + loop.path()});
  CHECK(r.status == 0);
  CHECK(r.out == "read 1\n\n");
  CHECK(r.err.find("error on enabled probe") == std::string::npos);
}

TEST_CASE("copyin() and copyinstr() of an unmapped address fault and the run goes on") {
  RunResult r = run_dsched({"-qn", "BEGIN { p = copyin(16, 4); printf(\"never\\n\"); } "
                                   "BEGIN { s = copyinstr(16); printf(\"[%s]\\n\", s); } "
                                   "BEGIN { printf(\"goes on\\n\"); exit(0); }"});
  CHECK(r.status == 0);
  CHECK(r.err.find("dsched: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x10) in action #1") !=
        std::string::npos);
  CHECK(r.out.find("never") == std::string::npos);
  CHECK(r.out.find("goes on\n") != std::string::npos);
  CHECK(leftover_programs().empty());
}
