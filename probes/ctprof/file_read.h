// Small file helpers shared by the capture sources: an owned descriptor and whole-file reads of
// /proc, /sys and cgroup files.
#pragma once

#include <string>
#include <utility>

namespace dsched::ctprof {

// An owned file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

// Reads the whole file `name` relative to directory `dir` into `buf` (reused between calls, so
// no allocation in the steady state). Returns 0 or the errno of the failure.
// A seq_file read returns at most one internal page, so a short read means the end only for a
// file that always fits in a page: `fits_in_page` saves the final read() for such files.
int read_at(int dir, const char* name, std::string& buf, bool fits_in_page = false);

// Opens a directory (O_PATH when `path_only`); the Fd is not ok() when it cannot be opened.
Fd open_dir(int at, const char* path, bool path_only = false);

// "text\n" -> "text": trailing whitespace removed.
std::string trimmed(const std::string& s);

}  // namespace dsched::ctprof
