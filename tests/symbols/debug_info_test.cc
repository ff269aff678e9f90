// Stripped shared objects: their local functions are named from separate debug info, found by
// .gnu_debuglink or by build-id.
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "runtime/symbols/elf_symbols.h"
#include "runtime/symbols/symbolizer.h"

using dsched::abi::Symbol;
namespace fs = std::filesystem;

namespace {

const std::string kLibs = DSCHED_STRIPPED_LIBS;

// The symbol of the stripped library's local function, looked up with debug info under `debug_root`.
Symbol local_function(const std::string& library, const std::string& debug_root) {
  void* handle = dlopen((kLibs + "/" + library).c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(handle);
  auto address_of = reinterpret_cast<void* (*)()>(dlsym(handle, "debug_info_local_function_address"));
  REQUIRE(reinterpret_cast<void*>(address_of) != nullptr);
  uint64_t address = reinterpret_cast<uint64_t>(address_of()) + 1;
  dsched::symbols::SymbolSources sources;
  sources.debug_root = debug_root;
  dsched::symbols::Symbolizer symbolizer([](const std::string& w) { FAIL(w); }, sources);
  Symbol symbol = symbolizer.user(getpid(), address);
  dlclose(handle);
  return symbol;
}

}  // namespace

TEST_CASE("a stripped library's local function is named from the debug file its debuglink names") {
  Symbol symbol = local_function("libdebuglink.so", "/nonexistent");
  CHECK(symbol.module == "libdebuglink.so");
  CHECK(symbol.function == "debug_info_local_function");
}

TEST_CASE("a stripped library's local function is named from the debug file of its build-id") {
  auto symbols = dsched::symbols::ElfSymbols::read_file(kLibs + "/libbuildid.so", kLibs + "/libbuildid.so", "");
  REQUIRE(symbols);
  std::string id = symbols->build_id();
  REQUIRE(id.size() > 2);
  fs::path root = fs::temp_directory_path() / ("dsched-symbols-debug-" + std::to_string(getpid()));
  fs::create_directories(root / ".build-id" / id.substr(0, 2));
  fs::copy_file(kLibs + "/.debug/libdebuglink.so.debug", root / ".build-id" / id.substr(0, 2) / (id.substr(2) + ".debug"));

  Symbol without = local_function("libbuildid.so", "/nonexistent");
  Symbol with = local_function("libbuildid.so", root.string());
  fs::remove_all(root);
  CHECK(without.module == "libbuildid.so");
  CHECK(without.function.empty());  // .dynsym does not list local functions
  CHECK(with.function == "debug_info_local_function");
}

TEST_CASE("a library loaded after the process's mappings were read resolves once they are read again") {
  dsched::symbols::Symbolizer symbolizer([](const std::string& w) { FAIL(w); });
  symbolizer.remember_process(getpid());
  void* handle = dlopen((kLibs + "/libdebuglink.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(handle != nullptr);
  void* exported = dlsym(handle, "debug_info_call");
  REQUIRE(exported != nullptr);
  // The mappings are read again at most once a second, on an address outside all of them.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  Symbol symbol = symbolizer.user(getpid(), reinterpret_cast<uint64_t>(exported));
  dlclose(handle);
  CHECK(symbol.module == "libdebuglink.so");
  CHECK(symbol.function == "debug_info_call");
}
