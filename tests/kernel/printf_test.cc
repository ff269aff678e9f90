// printf() in the kernel and back: every conversion, flag, width and precision prints what C's printf
// prints for the same value. The values come from the script; the expected text is computed here with
// snprintf, with the C length modifier that matches the D type of the argument.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "support.h"

using namespace dsched::test;

namespace {

struct Case {
  std::string d_format;   // the format in the script
  std::string d_args;     // the script's argument list (after the format)
  std::string expected;   // what C prints
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
template <typename... Args>
std::string c_printf(const std::string& format, Args... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format.c_str(), args...);
  return buffer;
}
#pragma GCC diagnostic pop

// A case whose D format is also the C format.
template <typename... Args>
Case same(const std::string& format, const std::string& d_args, Args... values) {
  return {format, d_args, c_printf(format, values...)};
}

// Runs every case in one script, one printf per line, each line framed by [ ] so padding shows.
void check_cases(const std::vector<Case>& cases) {
  std::string script = "BEGIN {\n";
  std::string expected;
  for (const Case& c : cases) {
    script += "  printf(\"[" + c.d_format + "]\\n\"" + (c.d_args.empty() ? "" : ", " + c.d_args) + ");\n";
    expected += "[" + c.expected + "]\n";
  }
  script += "  exit(0);\n}\n";
  TempScript file(script);
  RunResult r = run_dsched({"-qs", file.path()});
  INFO("script:\n" << script << "stderr: " << r.err);
  REQUIRE(r.status == 0);
  // Line by line, so a failure names the conversion.
  std::istringstream got(r.out), want(expected + "\n");
  std::string got_line, want_line;
  for (const Case& c : cases) {
    CAPTURE(c.d_format);
    CAPTURE(c.d_args);
    std::getline(got, got_line);
    std::getline(want, want_line);
    CHECK(got_line == want_line);
  }
  CHECK(r.out == expected + "\n");
}

}  // namespace

TEST_CASE("signed decimal conversions with flags, widths and precisions") {
  check_cases({
      same("%d", "42", 42),
      same("%i", "-42", -42),
      same("%5d", "42", 42),
      same("%-5d", "42", 42),
      same("%05d", "-42", -42),
      same("%+d", "42", 42),
      same("% d", "42", 42),
      same("%+5d", "-7", -7),
      same("%.3d", "5", 5),
      same("%8.3d", "-5", -5),
      same("%-+8.4d", "12", 12),
      same("%d", "2147483647", 2147483647),
      same("%d", "-2147483647 - 1", INT32_MIN),
      same("%ld", "1LL << 40", 1LL << 40),
      same("%lld", "-5LL", -5LL),
      same("%20ld", "-9223372036854775807LL", -9223372036854775807LL),
  });
}

TEST_CASE("unsigned, hexadecimal and octal conversions, including negative values") {
  check_cases({
      same("%u", "42", 42u),
      same("%u", "-1", static_cast<unsigned>(-1)),  // an int -1 is 4 bytes wide
      same("%lu", "(unsigned long)-1L", static_cast<unsigned long>(-1L)),
      same("%x", "255", 255u),
      same("%X", "48879", 48879u),
      same("%#x", "255", 255u),
      same("%#X", "255", 255u),
      same("%#x", "0", 0u),
      same("%08x", "3054", 3054u),
      same("%-8X|", "3054", 3054u),
      same("%8.3x", "255", 255u),
      same("%x", "-1", static_cast<unsigned>(-1)),
      same("%lx", "-1L", static_cast<unsigned long>(-1L)),
      same("%o", "8", 8u),
      same("%#o", "8", 8u),
      same("%-#10o|", "8", 8u),
      same("%llu", "18446744073709551615ULL", 18446744073709551615ULL),
  });
}

TEST_CASE("length modifiers print the C type they name") {
  check_cases({
      same("%hd", "(short)70000", static_cast<short>(70000)),
      same("%hu", "(unsigned short)-1", static_cast<unsigned short>(-1)),
      same("%hx", "(short)-1", static_cast<short>(-1)),
      same("%hX|%hx", "(uint16_t)48879, (int16_t)4095", static_cast<uint16_t>(48879), static_cast<int16_t>(4095)),
  });
}

TEST_CASE("1-, 2-, 4- and 8-byte casts keep their size and sign") {
  check_cases({
      same("%d", "(char)-1", static_cast<int>(static_cast<signed char>(-1))),
      same("%d", "(int8_t)200", static_cast<int>(static_cast<int8_t>(200))),
      same("%u", "(uint8_t)300", static_cast<unsigned>(static_cast<uint8_t>(300))),
      same("%d", "(short)40000", static_cast<int>(static_cast<int16_t>(40000))),
      same("%u", "(uint16_t)-1", static_cast<unsigned>(static_cast<uint16_t>(-1))),
      same("%d", "(int)0x123456789LL", static_cast<int32_t>(0x123456789LL)),
      same("%u", "(uint32_t)-1", static_cast<uint32_t>(-1)),
      same("%ld", "(long)-1", -1L),
      same("%lu", "(uint64_t)-1", UINT64_MAX),
      same("%d %d %d %d", "sizeof((char)1), sizeof((short)1), sizeof((int)1), sizeof((long)1)", 1, 2, 4, 8),
  });
}

TEST_CASE("characters, strings and %%") {
  check_cases({
      same("%c", "65", 'A'),
      same("%c%c", "0x7a, 48", 'z', '0'),
      same("%5c", "66", 'B'),
      same("%-3c|", "67", 'C'),
      same("%s", "\"abc\"", "abc"),
      same("%s", "execname", "dsched"),
      same("%10s", "\"abc\"", "abc"),
      same("%-10s|", "\"abc\"", "abc"),
      same("%.2s", "\"abcdef\"", "abcdef"),
      same("%10.4s", "\"abcdefg\"", "abcdefg"),
      same("%s and %s", "\"one\", \"two\"", "one", "two"),
      same("%s", "\"\"", ""),
      same("%%", ""),
      same("100%% of %d", "3", 3),
      same("%%d", ""),
  });
}

TEST_CASE("* takes the width (and precision) from an argument") {
  check_cases({
      same("%*d", "6, 7", 6, 7),
      same("%-*d|", "6, 7", 6, 7),
      same("%*s", "8, \"pad\"", 8, "pad"),
      same("%*x", "10, 255", 10, 255u),
      same("%.*d", "4, 7", 4, 7),
      same("%*.*d", "8, 4, 7", 8, 4, 7),
  });
}

TEST_CASE("arguments computed at run time print like constants") {
  // Values from variables and built-ins rather than constants folded by the compiler.
  std::string script =
      "BEGIN { a = 1000; b = -a; s = \"xyz\"; "
      "printf(\"[%d][%5d][%x][%s][%-6s|][%c]\\n\", a, b, a, s, s, a - 935); exit(0); }";
  RunResult r = run_dsched({"-qn", script});
  CHECK(r.out == c_printf("[%d][%5d][%x][%s][%-6s|][%c]\n", 1000, -1000, 1000, "xyz", "xyz", 65) + "\n");
}

// DTrace applies a precision only when it is above 0, so "%.0d" of 0 prints "0" where C prints "".
TEST_CASE("a zero precision is ignored, as in DTrace") {
  RunResult r = run_dsched({"-qn", "BEGIN { printf(\"[%.0d][%5.0d][%.0x]\\n\", 0, 0, 0); exit(0); }"});
  CHECK(r.out == "[0][    0][0]\n\n");
}
