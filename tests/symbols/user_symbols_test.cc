// User-space symbols: this test's own functions, libc's, the vDSO's, a child that has exited, and
// what gives no symbol.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "abi/symbols.h"
#include "runtime/symbols/symbolizer.h"

using dsched::abi::frame_text;
using dsched::abi::Symbol;

extern "C" [[gnu::noinline]] int symbols_test_marker(int x) {
  asm volatile("" ::: "memory");
  return x * 3 + 1;
}

// A symbol without a size, as _init and hand-written stubs have.
asm(".text\n.globl symbols_test_unsized\nsymbols_test_unsized:\n nop\n nop\n nop\n ret\n");
extern "C" void symbols_test_unsized();

namespace {

std::string own_basename() {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  REQUIRE(n > 0);
  std::string text(path, size_t(n));
  return text.substr(text.rfind('/') + 1);
}

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

dsched::symbols::Symbolizer quiet_symbolizer() {
  return dsched::symbols::Symbolizer([](const std::string& w) { FAIL("unexpected warning: " << w); });
}

}  // namespace

TEST_CASE("a function of the test binary resolves to its name, with the binary's name as module") {
  auto symbolizer = quiet_symbolizer();
  uint64_t marker = address_of(reinterpret_cast<const void*>(&symbols_test_marker));
  Symbol symbol = symbolizer.user(getpid(), marker + 4);
  CHECK(symbol.module == own_basename());
  CHECK(symbol.function == "symbols_test_marker");
  CHECK(symbol.start == marker);
  CHECK(frame_text(symbol, marker + 4) == own_basename() + "`symbols_test_marker+0x4");
}

TEST_CASE("a symbol of size 0 names nothing, as in DTrace: the address prints in its module") {
  auto symbolizer = quiet_symbolizer();
  uint64_t unsized = address_of(reinterpret_cast<const void*>(&symbols_test_unsized));
  Symbol symbol = symbolizer.user(getpid(), unsized + 2);
  CHECK(symbol.module == own_basename());
  CHECK(symbol.function.empty());
}

TEST_CASE("a libc function resolves to libc.so.6`getpid (or its alias)") {
  auto symbolizer = quiet_symbolizer();
  void* getpid_address = dlsym(RTLD_DEFAULT, "getpid");
  REQUIRE(getpid_address);
  Symbol symbol = symbolizer.user(getpid(), address_of(getpid_address));
  CHECK(symbol.module == "libc.so.6");
  CHECK(symbol.function.find("getpid") != std::string::npos);
  CHECK(symbol.start == address_of(getpid_address));
}

TEST_CASE("the vDSO's functions resolve under [vdso]") {
  auto symbolizer = quiet_symbolizer();
  uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
  REQUIRE(vdso != 0);
  CHECK(symbolizer.user(getpid(), vdso).module == "[vdso]");
  bool found = false;
  for (uint64_t address = vdso; !found; address += 4) {
    Symbol symbol = symbolizer.user(getpid(), address);
    if (symbol.module != "[vdso]") break;
    found = symbol.function.find("clock_gettime") != std::string::npos && symbol.start <= address;
  }
  CHECK(found);
}

TEST_CASE("a child that was remembered resolves after it exited and was reaped") {
  auto symbolizer = quiet_symbolizer();
  int ready[2], release[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(release) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    char byte = 1;
    close(release[1]);
    if (write(ready[1], &byte, 1) != 1 || read(release[0], &byte, 1) < 0) _exit(1);
    _exit(symbols_test_marker(0) == 1 ? 0 : 1);
  }
  close(ready[1]);
  close(release[0]);
  char byte;
  REQUIRE(read(ready[0], &byte, 1) == 1);
  symbolizer.remember_process(uint32_t(child));
  close(release[1]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  REQUIRE(access(("/proc/" + std::to_string(child)).c_str(), F_OK) != 0);

  uint64_t marker = address_of(reinterpret_cast<const void*>(&symbols_test_marker));
  Symbol symbol = symbolizer.user(uint32_t(child), marker + 1);
  CHECK(symbol.module == own_basename());
  CHECK(symbol.function == "symbols_test_marker");
  void* getpid_address = dlsym(RTLD_DEFAULT, "getpid");
  CHECK(symbolizer.user(uint32_t(child), address_of(getpid_address)).module == "libc.so.6");
  close(ready[0]);
}

TEST_CASE("garbage addresses print as 0x...") {
  auto symbolizer = quiet_symbolizer();
  CHECK(frame_text(symbolizer.user(getpid(), 0x10), 0x10) == "0x10");
  CHECK(frame_text(symbolizer.user(getpid(), ~uint64_t{0} - 15), ~uint64_t{0} - 15) == "0xfffffffffffffff0");
  CHECK(frame_text(symbolizer.kernel(0x10), 0x10) == "0x10");
}

TEST_CASE("a pid that does not exist gives an empty symbol") {
  auto symbolizer = quiet_symbolizer();
  uint64_t marker = address_of(reinterpret_cast<const void*>(&symbols_test_marker));
  Symbol symbol;
  CHECK_NOTHROW(symbol = symbolizer.user(INT_MAX, marker));
  CHECK(symbol.module.empty());
  CHECK(symbol.function.empty());
  CHECK_NOTHROW(symbolizer.remember_process(INT_MAX));
}

TEST_CASE("anonymous executable memory (JIT code) gives an empty symbol") {
  auto symbolizer = quiet_symbolizer();
  void* code = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(code != MAP_FAILED);
  Symbol symbol = symbolizer.user(getpid(), address_of(code) + 8);
  CHECK(symbol.module.empty());
  CHECK(frame_text(symbol, address_of(code) + 8).starts_with("0x"));
  munmap(code, 4096);
}

TEST_CASE("a deleted file gives its name as module and no function") {
  auto symbolizer = quiet_symbolizer();
  std::string path = "/tmp/dsched-symbols-deleted-" + std::to_string(getpid()) + ".bin";
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  REQUIRE(ftruncate(fd, 4096) == 0);
  void* mapped = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  unlink(path.c_str());
  REQUIRE(mapped != MAP_FAILED);
  Symbol symbol = symbolizer.user(getpid(), address_of(mapped) + 16);
  CHECK(symbol.module == path.substr(path.rfind('/') + 1));
  CHECK(symbol.function.empty());
  munmap(mapped, 4096);
}
