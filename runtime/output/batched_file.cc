#include "batched_file.h"

#include <unistd.h>

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

BatchedFile::~BatchedFile() { close_opened(); }

void BatchedFile::close_opened() {
  if (opened_) std::fclose(opened_);
  opened_ = nullptr;
}

std::optional<std::string> BatchedFile::truncate() {
  if (std::optional<std::string> failure = flush()) return failure;
  if (file_ != stdout && ftruncate(fileno(file_), 0) != 0)
    return "ftruncate() of " + name_ + ": " + std::strerror(errno);
  fseeko(file_, 0, SEEK_SET);  // a terminal or a pipe cannot be rewound: nothing happens
  return std::nullopt;
}

std::optional<std::string> BatchedFile::reopen(const std::string& path) {
  std::optional<std::string> failure = flush();
  if (path.empty()) {
    close_opened();
    file_ = first_;
    name_ = first_name_;
    return failure;
  }
  FILE* next = std::fopen(path.c_str(), "a");
  if (!next) return "freopen() of " + path + ": " + std::strerror(errno) + "; the output stays " + name_;
  close_opened();
  file_ = opened_ = next;
  name_ = path;
  return failure;
}

}  // namespace dsched::output
