#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// The conformance cases run end to end elsewhere; here we check that the data set is whole:
// every script has its expected output and uses only the deterministic probes.
TEST_CASE("every conformance script has an expected output and uses only BEGIN, tick, END and ERROR") {
  const fs::path dir = DSCHED_CONFORMANCE_DIR;
  int scripts = 0;
  const std::regex probe(R"(^\s*(dtrace|profile):::([A-Za-z0-9_-]+))");
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".d") continue;
    ++scripts;
    fs::path out = entry.path();
    out.replace_extension(".out");
    INFO(entry.path().string());
    CHECK(fs::exists(out));
    std::istringstream lines(slurp(entry.path()));
    std::string line;
    while (std::getline(lines, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, probe)) continue;
      const std::string name = m[2];
      CHECK((name == "BEGIN" || name == "END" || name == "ERROR" || name.rfind("tick-", 0) == 0));
    }
  }
  CHECK(scripts >= 30);
}
