// Kernel symbols: the table built from kallsyms text, and the running kernel's.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "abi/symbols.h"
#include "runtime/symbols/kernel_symbols.h"
#include "runtime/symbols/symbolizer.h"

using dsched::abi::frame_text;
using dsched::symbols::KernelSymbols;

namespace {

const char kKallsyms[] =
    "ffffffff81000000 T _stext\n"
    "ffffffff81000000 T _text\n"
    "ffffffff81000000 T startup_64\n"
    "ffffffff81000100 t __schedule\n"
    "ffffffff81000100 T schedule_entry\n"
    "ffffffff81000180 t a_local_alias\n"
    "ffffffff81000180 T global_alias\n"
    "ffffffff81000200 T schedule\n"
    "ffffffff81000280 W weak_text\n"
    "ffffffff81000300 T last_function\n"
    "ffffffff81000400 T _etext\n"
    "ffffffff81000500 t after_etext\n"
    "ffffffff82000000 D some_data\n"
    "ffffffff82000010 W weak_data\n"
    "ffffffffc0000000 t ext4_read\t[ext4]\n"
    "ffffffffc0000100 T ext4_write\t[ext4]\n"
    "ffffffffc1000000 t bpf_prog_1234_handler\t[bpf]\n";
const char kModules[] = "ext4 8192 1 - Live 0xffffffffc0000000\n";

struct Row {
  uint64_t address;
  const char* text;  // as a frame prints
};

// Each row's address, resolved against kKallsyms and kModules, prints as the row says.
void check_rows(std::initializer_list<Row> rows) {
  static const KernelSymbols symbols(kKallsyms, kModules);
  CHECK_FALSE(symbols.addresses_hidden());
  for (const Row& row : rows) {
    INFO("address 0x" << std::hex << row.address);
    CHECK(frame_text(symbols.find(row.address), row.address) == row.text);
  }
}

}  // namespace

TEST_CASE("kernel text addresses resolve to vmlinux`function+offset") {
  check_rows({
      {0xffffffff81000200, "vmlinux`schedule"},
      {0xffffffff81000210, "vmlinux`schedule+0x10"},
      {0xffffffff810002f0, "vmlinux`weak_text+0x70"},
      {0xffffffff810003ff, "vmlinux`last_function+0xff"},
  });
}

TEST_CASE("of aliases at one address, the name with the fewest underscores is printed, global before local") {
  check_rows({
      {0xffffffff81000000, "vmlinux`startup_64"},
      {0xffffffff81000104, "vmlinux`schedule_entry+0x4"},
      {0xffffffff81000180, "vmlinux`global_alias"},
  });
}

TEST_CASE("past the kernel's text, before it, and outside every module there is no symbol") {
  check_rows({
      {0xffffffff81000400, "0xffffffff81000400"},
      {0xffffffff81000500, "0xffffffff81000500"},
      {0xffffffff80ffffff, "0xffffffff80ffffff"},
      {0xffffffff82000010, "0xffffffff82000010"},
      {0xffffffffc0002000, "0xffffffffc0002000"}, // past ext4's 8192 bytes
      {0x10, "0x10"},
  });
}

TEST_CASE("module functions carry the module's name") {
  check_rows({
      {0xffffffffc0000010, "ext4`ext4_read+0x10"},
      {0xffffffffc0001fff, "ext4`ext4_write+0x1eff"},
      {0xffffffffc1000008, "bpf`bpf_prog_1234_handler+0x8"},
  });
}

TEST_CASE("zero addresses (kernel.kptr_restrict) resolve nothing and are reported once") {
  KernelSymbols hidden("0000000000000000 T _stext\n0000000000000000 T schedule\n", "");
  CHECK(hidden.addresses_hidden());
  CHECK(hidden.find(0).module.empty());

  std::string path = "/tmp/dsched-symbols-test-kallsyms-" + std::to_string(getpid());
  std::ofstream(path) << "0000000000000000 T _stext\n0000000000000000 T schedule\n";
  std::vector<std::string> warnings;
  dsched::symbols::Symbolizer symbolizer([&](const std::string& w) { warnings.push_back(w); },
                                         {path, "/nonexistent", "/proc"});
  CHECK(frame_text(symbolizer.kernel(0xffffffff81000000), 0xffffffff81000000) == "0xffffffff81000000");
  CHECK(symbolizer.kernel(0).function.empty());
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("kptr_restrict") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("the running kernel's schedule resolves to vmlinux`schedule") {
  uint64_t schedule = 0;
  std::ifstream kallsyms("/proc/kallsyms");
  for (std::string address, type, name; kallsyms >> address >> type >> name;) {
    if (name == "schedule" && (type == "T" || type == "t")) schedule = std::stoull(address, nullptr, 16);
    kallsyms.ignore(1 << 10, '\n');
  }
  std::vector<std::string> warnings;
  dsched::symbols::Symbolizer symbolizer([&](const std::string& w) { warnings.push_back(w); });
  if (schedule == 0) {  // not root: the addresses are hidden, which must have been said
    CHECK(symbolizer.kernel(0xffffffff81000000).function.empty());
    CHECK(warnings.size() == 1);
    return;
  }
  CHECK(frame_text(symbolizer.kernel(schedule), schedule) == "vmlinux`schedule");
  CHECK(frame_text(symbolizer.kernel(schedule + 0x10), schedule + 0x10) == "vmlinux`schedule+0x10");
  CHECK(warnings.empty());
}
