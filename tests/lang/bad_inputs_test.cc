// tests/lang/bad/NAME.d must fail to compile with exactly NAME.err (what dsched prints on stderr).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.h"

using namespace dsched::lang;

namespace {
std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_SUITE("bad") {

TEST_CASE("every bad input fails with its expected message") {
  std::filesystem::path dir = std::filesystem::path(DSCHED_SOURCE_DIR) / "tests" / "lang" / "bad";
  std::vector<std::filesystem::path> scripts;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".d") scripts.push_back(entry.path());
  std::sort(scripts.begin(), scripts.end());
  CHECK(scripts.size() >= 40);
  for (const auto& script : scripts) {
    std::string name = script.filename().string();
    CAPTURE(name);
    std::filesystem::path expected_path = script;
    expected_path.replace_extension(".err");
    REQUIRE(std::filesystem::exists(expected_path));
    CheckResult r = dsched::lang::test::compile_text(read_file(script), name);
    CHECK(r.program == nullptr);
    CHECK(r.error + "\n" == read_file(expected_path));
  }
}

}  // TEST_SUITE
