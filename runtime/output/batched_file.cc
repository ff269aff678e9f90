#include "batched_file.h"

#include <cerrno>
#include <cstring>

namespace dsched::output {

std::optional<std::string> BatchedFile::flush() {
  if (pending_.empty() || failed_) {
    pending_.clear();
    return std::nullopt;
  }
  bool written = std::fwrite(pending_.data(), 1, pending_.size(), file_) == pending_.size();
  written = std::fflush(file_) == 0 && written;
  pending_.clear();
  if (written) return std::nullopt;
  failed_ = true;
  std::string message = "write error on " + name_ + ": " + std::strerror(errno);
  std::clearerr(file_);  // reported here, once: nothing is written to the file after this
  return message;
}

}  // namespace dsched::output
