// File helpers of the ctprof tests: a temporary directory that cleans up after itself, and
// reading a whole file.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ctprof_test {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/ctprof-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `bytes` to `name` in the directory; returns its path.
  std::string file(const std::string& name, const std::string& bytes) const {
    const auto p = path / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }

  std::filesystem::path path;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace ctprof_test
