// print() of kernel structs from BTF, and strtok() over kernel text.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "support.h"

using namespace dsched::test;

TEST_CASE("print(*curthread) lays the current task_struct out member by member") {
  RunResult r = run_dsched({"-qn", "BEGIN { print(*curthread); printf(\"\\npid %x\\n\", pid); exit(0); }"});
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("struct task_struct {\n", 0) == 0);
  // Members one level deep, four spaces in; BEGIN runs in dsched itself.
  CHECK(r.out.find("\n    char [16] comm = [ \"dsched\" ]\n") != std::string::npos);
  size_t pid_line = r.out.rfind("\npid ");
  REQUIRE(pid_line != std::string::npos);
  std::string pid_hex = r.out.substr(pid_line + 5, r.out.find('\n', pid_line + 1) - pid_line - 5);
  CHECK(r.out.find("\n    pid_t pid = 0x" + pid_hex + "\n") != std::string::npos);
  // Nested structs open a level and close it at their own depth.
  CHECK(r.out.find("\n    struct thread_info thread_info = {\n        ") != std::string::npos);
  CHECK(r.out.find("\n}\npid ") != std::string::npos);  // the outermost brace has no newline of its own
  CHECK(leftover_programs().empty());
}

TEST_CASE("print() of a kernel struct through a bad pointer is a fault, and the run goes on") {
  RunResult r = run_dsched({"-qn", "BEGIN { print(*(struct file *)16); } BEGIN { printf(\"goes on\\n\"); exit(0); }"});
  CHECK(r.status == 0);
  CHECK(r.err.find("invalid address (0x10) in action #1") != std::string::npos);
  CHECK(r.out == "goes on\n\n");
}

TEST_CASE("strtok() splits kernel text and goes on with NULL, keeping its place per CPU") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"%s|\", strtok(curthread->comm, \"s\")); } "
                                   "BEGIN { printf(\"%s|\", strtok(NULL, \"s\")); } "
                                   "BEGIN { printf(\"%d\\n\", strtok(NULL, \"s\") == NULL); exit(0); }"});
  CHECK(r.status == 0);
  CHECK(r.out == "d|ched|1\n\n");
}

TEST_CASE("twelve strtok() calls in one clause load and give every token") {
  std::string script = "BEGIN { printf(\"%s\", strtok(\"a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q\", \",\"));";
  for (int i = 1; i < 12; ++i) script += " printf(\"%s\", strtok(NULL, \",\"));";
  script += " printf(\"\\n\"); exit(0); }";
  RunResult r = run_dsched({"-qn", script});
  CHECK(r.status == 0);
  CHECK(r.out == "abcdefghijkl\n\n");
  CHECK(leftover_programs().empty());
}
