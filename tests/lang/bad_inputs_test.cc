// tests/lang/bad/NAME.d must fail to compile with exactly NAME.err (what dsched prints on stderr
// with -x errtags: DTrace's tag of each error is part of what is checked).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.h"

using namespace dsched::lang;
using dsched::lang::test::read_file;

TEST_SUITE("bad") {

TEST_CASE("every bad input fails with its expected message") {
  std::filesystem::path dir = std::filesystem::path(DSCHED_SOURCE_DIR) / "tests" / "lang" / "bad";
  std::vector<std::filesystem::path> scripts;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".d") scripts.push_back(entry.path());
  std::sort(scripts.begin(), scripts.end());
  CHECK(scripts.size() >= 40);
  FrontendOptions with_tags;
  dsched::abi::OptionValue on;
  on.number = 1;
  with_tags.cli_options.set("errtags", on);
  for (const auto& script : scripts) {
    std::string name = script.filename().string();
    CAPTURE(name);
    std::filesystem::path expected_path = script;
    expected_path.replace_extension(".err");
    REQUIRE(std::filesystem::exists(expected_path));
    CheckResult r = dsched::lang::test::compile_text(read_file(script), name, with_tags);
    CHECK(r.program == nullptr);
    CHECK(r.error + "\n" == read_file(expected_path));
  }
}

}  // TEST_SUITE
