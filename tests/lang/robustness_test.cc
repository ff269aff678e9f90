// Whatever the input, the front end answers with a program or an error: no crash, no hang.
#include <doctest/doctest.h>

#include <random>

#include "test_support.h"

using namespace dsched::lang;
using namespace dsched::lang::test;

namespace {
// A compile either succeeds or reports a DTrace-shaped error.
void check_answers(const std::string& text) {
  CheckResult r = compile_text(text);
  if (!r.program) CHECK(r.error.starts_with("dsched: failed to compile script test.d: "));
}
}  // namespace

TEST_SUITE("robustness") {

TEST_CASE("every byte value, alone and inside a clause") {
  for (int c = 0; c < 256; ++c) {
    check_answers(std::string(1, char(c)));
    check_answers("BEGIN { x = 1 " + std::string(1, char(c)) + " 2; }");
    check_answers("BEGIN { x = \"" + std::string(1, char(c)) + "\"; }");
  }
}

TEST_CASE("NUL bytes are characters, not the end of the input") {
  std::string text = std::string("BEGIN { x = 1; }") + '\0' + "garbage";
  CheckResult r = compile_text(text);
  CHECK(r.error.starts_with("dsched: failed to compile script test.d: line 1: invalid character \\x00"));
}

TEST_CASE("very deep nesting is refused without exhausting the stack") {
  for (const char* open : {"(", "-", "!", "~", "++", "*", "(int)", "sizeof "}) {
    std::string text = "BEGIN { x = ";
    for (int i = 0; i < 100000; ++i) text += open;
    text += "1; }";
    CheckResult r = compile_text(text);
    CHECK(r.program == nullptr);
    CHECK(r.error.find("nested too deeply") != std::string::npos);
  }
  std::string chain = "BEGIN { x = 1";
  for (int i = 0; i < 100000; ++i) chain += " + 1";
  CHECK(compile_text(chain + "; }").error.find("nested too deeply") != std::string::npos);
  std::string braces = "struct s ";
  for (int i = 0; i < 100000; ++i) braces += "{ struct t ";
  CHECK(compile_text(braces).program == nullptr);
  std::string stars = "int ";
  for (int i = 0; i < 100000; ++i) stars += "*";
  CHECK(error_of(stars + "p;") ==
        "dsched: failed to compile script test.d: line 1: too many levels of pointers (at most 16)");
}

TEST_CASE("large valid input") {
  std::string text = "BEGIN {\n";
  for (int i = 0; i < 20000; ++i) text += "  x" + std::to_string(i % 100) + " = " + std::to_string(i) + ";\n";
  text += "}\n";
  for (int i = 0; i < 2000; ++i) text += "sched:::on-cpu /pid == " + std::to_string(i) + "/ { @[cpu] = count(); }\n";
  CheckResult r = compile_text(text);
  INFO(r.error);
  REQUIRE(r.program);
  CHECK(r.program->clauses.size() == 2001);
  CHECK(r.program->globals.size() == 100);
}

TEST_CASE("random token soup never crashes") {
  static const char* const pieces[] = {
      "BEGIN", "sched:::on-cpu", "{", "}", "(", ")", "[", "]", "/", ";", ",", "=", "+", "-", "*",
      "->", "++", "?", ":", "x", "self->a", "this->b", "@", "@a", "count()", "quantize(", "1",
      "0x10", "'a'", "\"s\"", "args", "args[0]", "curpsinfo", "stringof", "sizeof", "xlate<",
      "psinfo_t", ">", "int", "struct", "typedef", "inline", "translator", "#pragma D option quiet\n",
      "\n", " ", "$1", "$$1", "printf(", "trace(", "exit(0)", "\\", "\"", "/*", "*/", "&&", "<<="};
  std::mt19937 rng(12345);
  std::uniform_int_distribution<size_t> pick(0, std::size(pieces) - 1);
  std::uniform_int_distribution<int> length(1, 40);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string text;
    for (int i = length(rng); i > 0; --i) text += std::string(pieces[pick(rng)]) + " ";
    check_answers(text);
  }
}

}  // TEST_SUITE
