#include "file_read.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace dsched::ctprof {

Fd::~Fd() {
  if (fd_ >= 0) close(fd_);
}

int read_at(int dir, const char* name, std::string& buf, bool fits_in_page) {
  Fd fd(openat(dir, name, O_RDONLY | O_CLOEXEC));
  if (!fd.ok()) return errno;
  if (buf.size() < 4096) buf.resize(4096);
  std::size_t used = 0;
  for (;;) {
    if (used == buf.size()) buf.resize(buf.size() * 2);
    const ssize_t n = read(fd.get(), buf.data() + used, buf.size() - used);
    if (n < 0) return errno;
    used += static_cast<std::size_t>(n);
    if (n == 0 || (fits_in_page && used < buf.size())) break;
  }
  buf.resize(used);
  return 0;
}

Fd open_dir(int at, const char* path, bool path_only) {
  return Fd(openat(at, path, (path_only ? O_PATH : O_RDONLY) | O_DIRECTORY | O_CLOEXEC));
}

std::string trimmed(const std::string& s) {
  const auto end = s.find_last_not_of(" \t\n");
  return end == std::string::npos ? std::string() : s.substr(0, end + 1);
}

}  // namespace dsched::ctprof
