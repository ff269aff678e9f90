// The mappings of a process, from /proc/PID/maps.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dsched::symbols {

struct Mapping {
  enum class Kind { file, deleted_file, vdso, anonymous };
  uint64_t start = 0, end = 0, offset = 0;
  uint64_t device = 0, inode = 0;
  Kind kind = Kind::anonymous;
  bool executable = false;
  std::string path;  // the mapped file without " (deleted)"; "[vdso]" for the vDSO
};

// Every mapping of the text, in address order. Special mappings other than the vDSO ([heap],
// [stack], [vvar], named anonymous memory) are anonymous.
std::vector<Mapping> parse_maps(std::string_view text);

// The whole text of a file under /proc; empty when it cannot be read.
std::string read_text(const std::string& path);

// What DTrace prints as a user module: the file's name after its last '/'.
std::string module_name(const Mapping& mapping);

}  // namespace dsched::symbols
