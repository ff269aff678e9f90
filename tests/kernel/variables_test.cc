// Variables of every kind, run in the kernel with exact expected output: global scalars, declared
// variables, associative arrays, thread-locals, clause-locals, strings and macro arguments.
#include <doctest/doctest.h>

#include <string>

#include "support.h"
#include "workloads.h"

using namespace dsched::test;

namespace {

// Runs a quiet one-liner that must succeed; returns its standard output.
std::string quiet_output(const std::string& program, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"-n", program});
  RunResult r = run_dsched(args, std::chrono::seconds(20));
  INFO("stderr: " << r.err);
  CHECK(r.status == 0);
  CHECK_FALSE(r.timed_out);
  return r.out;
}

}  // namespace

TEST_CASE("global scalars hold integers and strings; undeclared and declared ones start empty") {
  CHECK(quiet_output("BEGIN { g = 5; gs = \"abc\"; g = g * 3; printf(\"%d %s\\n\", g, gs); exit(0); }") ==
        "15 abc\n\n");
  CHECK(quiet_output("int x; string s; BEGIN { printf(\"%d [%s] %d\\n\", x, s, strlen(s)); x = 7; s = \"decl\"; "
                     "printf(\"%d %s\\n\", x, s); exit(0); }") == "0 [] 0\n7 decl\n\n");
}

TEST_CASE("globals keep their values from one firing to the next") {
  CHECK(quiet_output("int total; tick-10ms { n++; total += n; last = probename; } "
                     "tick-10ms /n == 4/ { printf(\"%d %d %s\\n\", n, total, last); exit(0); }") ==
        "4 10 tick-10ms\n\n");
}

TEST_CASE("associative arrays take tuple keys of integers and strings; assigning 0 deletes") {
  CHECK(quiet_output("BEGIN { a[1, \"one\"] = 11; a[2, \"two\"] = 22; b[\"x\", 3, \"y\"] = 33; "
                     "printf(\"%d %d %d %d %d\\n\", a[1, \"one\"], a[2, \"two\"], b[\"x\", 3, \"y\"], a[1, \"two\"], "
                     "b[\"x\", 4, \"y\"]); a[1, \"one\"] = 0; printf(\"%d %d\\n\", a[1, \"one\"], a[2, \"two\"]); "
                     "exit(0); }") == "11 22 33 0 0\n0 22\n\n");
  // Values of string type, keyed by a built-in.
  CHECK(quiet_output("BEGIN { names[pid] = execname; printf(\"%s\\n\", names[pid]); exit(0); }") ==
        "dsched\n\n");
}

TEST_CASE("a store, ++, -- or compound assignment of 0 frees the element: short-lived keys fit in a tiny space") {
  // 400 distinct keys, each deleted in the clause that made it (by storing 0, or by -= bringing
  // it back to 0): nothing accumulates, so no drops.
  struct Case {
    const char* churn;  // makes, reads and frees a[n]
    const char* sum;
    const char* keep;  // makes a[n] and keeps it
  };
  for (const Case& c : {Case{"a[n] = n + 1; sum += a[n]; a[n] = 0;", "80200", "a[n] = n + 1;"},
                        Case{"a[n]++; a[n] += 2; sum += a[n]; a[n] -= 3;", "1200", "a[n]++;"}}) {
    CAPTURE(c.churn);
    const std::string churn = std::string("int n, sum; tick-1ms { ") + c.churn + " n++; } " +
                              "tick-1ms /n == 400/ { printf(\"%d %d\\n\", sum, a[5]); exit(0); }";
    RunResult freed = run_dsched({"-q", "-x", "dynvarsize=1k", "-n", churn}, std::chrono::seconds(20));
    CHECK(freed.status == 0);
    CHECK(freed.out == std::string(c.sum) + " 0\n\n");
    CHECK(freed.err.find("dynamic variable drop") == std::string::npos);
    // The same keys kept alive overflow that space: the control shows the size was really tiny
    // and that what cannot be created is counted as a drop.
    const std::string kept = std::string("int n; tick-1ms { ") + c.keep + " n++; } tick-1ms /n == 400/ { exit(0); }";
    RunResult full = run_dsched({"-q", "-x", "dynvarsize=1k", "-n", kept}, std::chrono::seconds(20));
    CHECK(full.status == 0);
    CHECK(full.err.find("dynamic variable drop") != std::string::npos);
  }
}

TEST_CASE("self-> is shared by the clauses of one firing and kept across firings of one thread") {
  PinnedHogs hog(1, 0, "dsched-self");
  pid_t tid = hog.tids()[0];
  std::string t = std::to_string(tid);
  // profile fires on every CPU; only the hog's own firings count, so its self->n counts 1, 2, 3...
  CHECK(quiet_output("profile-997 /tid == " + t + "/ { self->n++; } "
                     "profile-997 /tid == " + t + "/ { printf(\"%d\\n\", self->n); } "
                     "profile-997 /self->n == 4/ { exit(0); }") == "1\n2\n3\n4\n\n");
  // Assigning 0 frees a thread-local: the next read gives 0.
  CHECK(quiet_output("BEGIN { self->x = 3; } BEGIN { printf(\"%d\\n\", self->x); self->x = 0; } "
                     "BEGIN { printf(\"%d\\n\", self->x); exit(0); }") == "3\n0\n\n");
}

TEST_CASE("each thread has its own self-> variables") {
  PinnedHogs first(1, 0, "dsched-self1");
  PinnedHogs second(1, 1, "dsched-self2");
  std::string a = std::to_string(first.tids()[0]), b = std::to_string(second.tids()[0]);
  // Each hog reaches 20 samples on its own counter and reports it once; a shared counter would
  // reach 20 only once.
  std::string out = quiet_output(
      "profile-997 /tid == " + a + " || tid == " + b + "/ { self->n++; } "
      "profile-997 /self->n == 20/ { printf(\"%s %d\\n\", tid == " + a + " ? \"first\" : \"second\", self->n); "
      "self->n++; seen++; } "
      "profile-997 /seen == 2/ { exit(0); }");
  CHECK((out == "first 20\nsecond 20\n\n" || out == "second 20\nfirst 20\n\n"));
}

TEST_CASE("each thread has its own elements of a self-> associative array, and its own struct") {
  PinnedHogs first(1, 0, "dsched-selfa1");
  PinnedHogs second(1, 1, "dsched-selfa2");
  std::string a = std::to_string(first.tids()[0]), b = std::to_string(second.tids()[0]);
  // Both hogs count under the same key; a shared element would reach 20 only once. The struct
  // member counts along with the element.
  std::string out = quiet_output(
      "struct counts { int samples; }; self struct counts c; "
      "profile-997 /tid == " + a + " || tid == " + b + "/ { self->n[\"k\"]++; self->c.samples++; } "
      "profile-997 /self->n[\"k\"] == 20/ { printf(\"%s %d %d\\n\", tid == " + a +
      " ? \"first\" : \"second\", self->n[\"k\"], self->c.samples); self->n[\"k\"]++; seen++; } "
      "profile-997 /seen == 2/ { exit(0); }");
  CHECK((out == "first 20 20\nsecond 20 20\n\n" || out == "second 20 20\nfirst 20 20\n\n"));
}

TEST_CASE("this-> is shared by the clauses of one firing and starts at 0 in every firing") {
  CHECK(quiet_output("this int v; tick-10ms { this->v++; n++; } "
                     "tick-10ms { this->v++; printf(\"%d %d\\n\", n, this->v); } "
                     "tick-10ms /n == 3/ { exit(0); }") == "1 2\n2 2\n3 2\n\n");
  CHECK(quiet_output("BEGIN { this->s = \"local\"; this->n = 41; } "
                     "BEGIN { printf(\"%s %d\\n\", this->s, this->n + 1); exit(0); }") == "local 42\n\n");
}

TEST_CASE("strings compare, measure and convert") {
  CHECK(quiet_output("BEGIN { s = \"hello\"; t = \"help\"; "
                     "printf(\"%d %d %d %d %d %d\\n\", s == \"hello\", s != t, s < t, s > t, s <= s, t >= s); "
                     "printf(\"%d %d %d\\n\", strlen(s), strlen(\"\"), strlen(execname)); "
                     "printf(\"[%s]\\n\", stringof(s)); exit(0); }") ==
        "1 1 1 0 1 1\n5 0 6\n[hello]\n\n");
}

TEST_CASE("strsize bounds strings, from the command line or a pragma") {
  // A string holds strsize characters, as in DTrace.
  CHECK(quiet_output("BEGIN { s = \"hello world\"; printf(\"%s|%d\\n\", s, strlen(s)); exit(0); }",
                     {"-x", "strsize=4"}) == "hell|4\n\n");
  CHECK(quiet_output("#pragma D option strsize=6\n"
                     "BEGIN { s = \"hello world\"; printf(\"%s|%d\\n\", s, strlen(s)); exit(0); }") ==
        "hello |6\n\n");
}

TEST_CASE("macro arguments: $1 as a number, $$2 as a string, $pid, and the script name in $0") {
  TempScript script("BEGIN { printf(\"%d %s %s %d\\n\", $1 + 1, $$2, $$3, $pid == pid); exit(0); }\n");
  RunResult r = run_dsched({"-qs", script.path(), "41", "word", "two words"});
  CHECK(r.status == 0);
  CHECK(r.out == "42 word two words 1\n\n");
  TempScript named("BEGIN { printf(\"%s\\n\", $$0); exit(0); }\n");
  RunResult zero = run_dsched({"-qs", named.path()});
  CHECK(zero.out == named.path() + "\n\n");
}

TEST_CASE("$target is the pid of the -c command") {
  // Before its exec the command is still a copy of dsched; after it, pid == $target runs "sleep".
  RunResult r = run_dsched({"-qn",
                            "sched:::on-cpu /pid == $target && execname == \"sleep\"/ { "
                            "printf(\"%s %d\\n\", execname, $target > 0); exit(0); }",
                            "-c", "sleep 0.3"});
  CHECK(r.status == 0);
  CHECK(r.out == "sleep 1\n\n");
}
