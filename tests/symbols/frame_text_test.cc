// The text DTrace makes of an address: frames and %a, sym()/func(), mod().
#include <doctest/doctest.h>

#include "abi/symbols.h"

using dsched::abi::Symbol;
using dsched::abi::frame_text;
using dsched::abi::function_text;
using dsched::abi::module_text;

TEST_CASE("a frame is module`function+0xoffset, without the offset at the first byte") {
  Symbol schedule{"vmlinux", "schedule", 0xffffffff81000100};
  CHECK(frame_text(schedule, 0xffffffff81000110) == "vmlinux`schedule+0x10");
  CHECK(frame_text(schedule, 0xffffffff81000100) == "vmlinux`schedule");
  CHECK(frame_text(Symbol{"libc.so.6", "read", 0x7f0000001000}, 0x7f0000001a2b) == "libc.so.6`read+0xa2b");
}

TEST_CASE("a frame without a symbol is module`0xaddress, without a module 0xaddress") {
  CHECK(frame_text(Symbol{"a.out", "", 0}, 0x401000) == "a.out`0x401000");
  CHECK(frame_text(Symbol{}, 0xdeadbeef) == "0xdeadbeef");
  CHECK(frame_text(Symbol{}, 0) == "0x0");
}

TEST_CASE("sym() and func() drop the offset; without a symbol they print as a frame") {
  Symbol schedule{"vmlinux", "schedule", 0x1000};
  CHECK(function_text(schedule, 0x1010) == "vmlinux`schedule");
  CHECK(function_text(schedule, 0x1000) == "vmlinux`schedule");
  CHECK(function_text(Symbol{"a.out", "", 0}, 0x401000) == "a.out`0x401000");
  CHECK(function_text(Symbol{}, 0x10) == "0x10");
}

TEST_CASE("mod() is the module, or the address when no module holds it") {
  CHECK(module_text(Symbol{"ext4", "ext4_file_read_iter", 0x1000}, 0x1004) == "ext4");
  CHECK(module_text(Symbol{"libc.so.6", "", 0}, 0x7f0000000000) == "libc.so.6");
  CHECK(module_text(Symbol{}, 0xffff) == "0xffff");
}
