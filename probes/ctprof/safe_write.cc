#include "safe_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "file_read.h"
#include "snapshot_error.h"

namespace dsched::ctprof {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw SnapshotError(path + ": " + why);
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A new file next to `path`, created exclusively with the usual 0666 & ~umask mode.
std::pair<Fd, std::string> create_temporary(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const std::string dir = directory_of(path);
  const std::string base = path.substr(path.rfind('/') + 1);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = dir + "/." + base + "." + std::to_string(getpid()) + "." +
                             std::to_string(counter++) + ".tmp";
    Fd fd(open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
    if (fd.ok()) return {std::move(fd), name};
    if (errno != EEXIST) fail(path, std::string("cannot create: ") + std::strerror(errno));
  }
  fail(path, "cannot create a temporary file next to it");
}

// Checks what is at `path` now; true when a file is there (and may be replaced).
bool check_existing(const std::string& path, const std::function<bool(int)>& replaceable,
                    const std::string& kind) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;
    fail(path, std::string("cannot inspect: ") + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) fail(path, "is a symbolic link; refusing to write through it");
  if (!S_ISREG(st.st_mode)) fail(path, "exists and is not a regular file; refusing to replace it");
  Fd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd.ok()) fail(path, std::string("cannot open the existing file: ") + std::strerror(errno));
  if (!replaceable(fd.get()))
    fail(path, "exists and is not a " + kind + "; refusing to replace it");
  return true;
}

}  // namespace

void write_atomically(const std::string& path, const std::string& bytes,
                      const std::function<bool(int fd)>& replaceable, const std::string& kind) {
  const bool exists = check_existing(path, replaceable, kind);
  auto [fd, temp] = create_temporary(path);
  struct Cleanup {
    const std::string& name;
    bool armed = true;
    ~Cleanup() {
      if (armed) unlink(name.c_str());
    }
  } cleanup{temp};
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, std::string("write failed: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd.get()) != 0) fail(path, std::string("write failed: ") + std::strerror(errno));
  // A path that was free must still be free: never replace what appeared meanwhile.
  const unsigned flags = exists ? 0 : RENAME_NOREPLACE;
  if (renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), flags) != 0)
    fail(path, errno == EEXIST ? "appeared while the snapshot was written; not replaced"
                               : std::string("cannot rename into place: ") + std::strerror(errno));
  cleanup.armed = false;
}

}  // namespace dsched::ctprof
