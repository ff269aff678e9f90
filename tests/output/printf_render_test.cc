#include <doctest/doctest.h>

#include <stdexcept>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "output/printf_render.h"

using namespace dsched::output;
using dsched::printf_spec::parse_format;

namespace {

std::string render(std::string_view fmt, std::vector<Value> args, const RenderContext& ctx = {}) {
  const auto parsed = parse_format(fmt);
  REQUIRE(parsed.ok());
  return render_format(parsed.format, args, ctx);
}

template <typename... Args>
std::string c_printf(const char* fmt, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

}  // namespace

TEST_CASE("integers print at their D size, as C prints the matching type") {
  CHECK(render("%d", {Value::integer(-5, 4)}) == c_printf("%d", -5));
  CHECK(render("%d", {Value::integer(int64_t(1) << 40, 8)}) == c_printf("%lld", 1LL << 40));
  CHECK(render("%i|%+d|%05d", {Value::integer(7, 4), Value::integer(5, 4), Value::integer(-42, 4)}) == "7|+5|-0042");
  CHECK(render("%x", {Value::integer(-1, 4)}) == "ffffffff");
  CHECK(render("%x", {Value::integer(-1, 1)}) == "ff");
  CHECK(render("%X", {Value::integer(-1, 8)}) == "FFFFFFFFFFFFFFFF");
  CHECK(render("%#o", {Value::integer(8, 4)}) == c_printf("%#o", 8));
  CHECK(render("%u", {Value::integer(-1, 2)}) == "65535");
  CHECK(render("%8.3d|%-6d|", {Value::integer(42, 4), Value::integer(42, 4)}) == c_printf("%8.3d|%-6d|", 42, 42));
}

TEST_CASE("%d of an unsigned type prints as %u") {
  CHECK(render("%d", {Value::integer(-1, 4, false)}) == "4294967295");
  CHECK(render("%d", {Value::integer(-1, 8, false)}) == "18446744073709551615");
  CHECK(render("%d", {Value::integer(200, 1, false)}) == "200");
}

TEST_CASE("explicit length modifiers have C semantics") {
  CHECK(render("%hd", {Value::integer(70000, 4)}) == "4464");
  CHECK(render("%hu", {Value::integer(-1, 4)}) == "65535");
  CHECK(render("%lu", {Value::integer(-1, 8)}) == "18446744073709551615");
  CHECK(render("%lld|%llx", {Value::integer(-3, 8), Value::integer(255, 8)}) == "-3|ff");
}

TEST_CASE("a zero precision is ignored, as DTrace ignores it") {
  CHECK(render("%.0d", {Value::integer(0, 4)}) == "0");
  CHECK(render("%.0s", {Value::string("abc")}) == "abc");
  CHECK(render("%.2s", {Value::string("abc")}) == "ab");
}

TEST_CASE("star widths and precisions come from the arguments; a negative width left-justifies") {
  CHECK(render("%*d|", {Value::integer(6, 4), Value::integer(42, 4)}) == "    42|");
  CHECK(render("%*d|", {Value::integer(-6, 4), Value::integer(42, 4)}) == "42    |");
  CHECK(render("%*.*s|", {Value::integer(5, 4), Value::integer(2, 4), Value::string("abcdef")}) == "   ab|");
}

TEST_CASE("strings, characters, percent") {
  CHECK(render("[%s] [%10s] [%-10s]", {Value::string("abc"), Value::string("abc"), Value::string("abc")}) ==
        c_printf("[%s] [%10s] [%-10s]", "abc", "abc", "abc"));
  CHECK(render("%c%c", {Value::integer(65, 1), Value::integer('z', 4)}) == "Az");
  CHECK(render("100%% done", {}) == "100% done");
}

TEST_CASE("%p prints the address in hex without 0x") {
  CHECK(render("%p", {Value::integer(0x1000, 8, false)}) == "1000");
  CHECK(render("%#p", {Value::integer(0xff, 8, false)}) == "0xff");
  CHECK(render("%p", {Value::integer(-1, 8)}) == "ffffffffffffffff");
}

TEST_CASE("%S escapes what is not printable, the terminating NUL included") {
  CHECK(render("%S", {Value::string("a\tb\"c\\ d\n")}) == "a\\tb\\\"c\\\\ d\\n\\0");
  CHECK(render("%S", {Value::string(std::string("\x01\xff", 2))}) == "\\001\\377\\0");
  CHECK(render("[%6S]", {Value::string("x")}) == "[   x\\0]");
  CHECK(escape_string("\a\b\f\r\v") == "\\a\\b\\f\\r\\v");
}

TEST_CASE("%Y prints a walltimestamp in local time") {
  setenv("TZ", "UTC", 1);
  tzset();
  CHECK(render("%Y", {Value::integer(0, 8, false)}) == "1970 Jan  1 00:00:00");
  CHECK(render("[%Y]", {Value::integer(1700000000LL * 1000000000LL + 999, 8, false)}) == "[2023 Nov 14 22:13:20]");
  CHECK(render("%25Y", {Value::integer(0, 8, false)}) == "     1970 Jan  1 00:00:00");
}

TEST_CASE("%T prints a walltimestamp in RFC 822's form, in local time") {
  setenv("TZ", "UTC", 1);
  tzset();
  CHECK(render("%T", {Value::integer(0, 8, false)}) == "Thu, 01 Jan 1970 00:00:00 UTC");
  CHECK(render("[%-32T]", {Value::integer(1700000000LL * 1000000000LL, 8, false)}) ==
        "[Tue, 14 Nov 2023 22:13:20 UTC   ]");
  // The year is the ISO week's, as DTrace prints it: 31 December 2024 is in week 1 of 2025.
  CHECK(render("%T", {Value::integer(1735603200LL * 1000000000LL, 8, false)}) == "Tue, 31 Dec 2025 00:00:00 UTC");
  setenv("TZ", "XST-3", 1);  // a POSIX zone: three hours east, whatever zones the machine has
  tzset();
  CHECK(render("%T", {Value::integer(0, 8, false)}) == "Thu, 01 Jan 1970 03:00:00 XST");
  setenv("TZ", "UTC", 1);
  tzset();
}

TEST_CASE("floating-point conversions") {
  CHECK(render("%f %e %g %G", {Value::floating(1.5), Value::floating(1.5), Value::floating(0.0001),
                               Value::floating(1e20)}) == c_printf("%f %e %g %G", 1.5, 1.5, 0.0001, 1e20));
  CHECK(render("%.2Lf", {Value::floating(2.25L)}) == "2.25");
}

// Every kernel address below 0x100 is in function f<address / 16 * 16> of vmlinux.
class FakeSymbols : public dsched::abi::Symbolizer {
 public:
  dsched::abi::Symbol kernel(uint64_t pc) override {
    if (pc >= 0x100) return {};
    return {"vmlinux", "f" + std::to_string(pc / 16 * 16), pc / 16 * 16};
  }
  dsched::abi::Symbol user(uint32_t pid, uint64_t pc) override { return {"a.out", "u" + std::to_string(pid), pc}; }
  void remember_process(uint32_t) override {}
};

TEST_CASE("symbols and stacks go through the symbolizer") {
  FakeSymbols symbols;
  RenderContext ctx{&symbols};
  CHECK(render("%a", {Value::integer(16, 8, false)}, ctx) == "vmlinux`f16");
  CHECK(render("%a", {Value::integer(18, 8, false)}, ctx) == "vmlinux`f16+0x2");
  CHECK(render("%a", {Value::integer(0x200, 8, false)}, ctx) == "0x200");
  CHECK(render("%a", {Value::integer(0xabc, 8, false)}) == "0xabc");
  CHECK(render("%A", {Value::integer(0x10, 8, false)}) == "0x10");
  const Value stack = Value::stack({1, 2, 0, 3});
  CHECK(render("%k", {stack}, ctx) == "\nvmlinux`f0+0x1\nvmlinux`f0+0x2\n");
  CHECK(render("%-16k", {stack}, ctx) == "\n                vmlinux`f0+0x1\n                vmlinux`f0+0x2\n");
  CHECK(render("%16k", {stack}, ctx) == "\n  vmlinux`f0+0x1\n  vmlinux`f0+0x2\n");
}

TEST_CASE("values that do not fit the format are refused") {
  CHECK_THROWS_AS(render("%d", {Value::string("x")}), std::invalid_argument);
  CHECK_THROWS_AS(render("%s %s", {Value::string("x")}), std::invalid_argument);
  const auto agg = parse_format("%@d");
  CHECK_THROWS_AS(render_format(agg.format, {}), std::invalid_argument);
}
