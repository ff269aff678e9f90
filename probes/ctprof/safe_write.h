// Writing a file so that readers never see half of it and nothing but the intended kind of file
// is ever replaced.
#pragma once

#include <functional>
#include <string>

namespace dsched::ctprof {

// Writes `bytes` to a new file in the directory of `path`, flushes it and renames it to `path`.
// Throws SnapshotError naming `path` when `path` is a symbolic link, exists as anything but a
// regular file, or is a regular file for which `replaceable(fd)` (given a descriptor open on it)
// is false; `kind` names what it should have been ("ctprof snapshot").
void write_atomically(const std::string& path, const std::string& bytes,
                      const std::function<bool(int fd)>& replaceable, const std::string& kind);

}  // namespace dsched::ctprof
