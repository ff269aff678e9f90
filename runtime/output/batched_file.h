// A run's data, written to its file in batches: what is pending goes out at each flush, and the
// first failed write is reported once; later data is dropped, as there is nowhere to put it.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace dsched::output {

class BatchedFile {
 public:
  BatchedFile(FILE* file, std::string name) : file_(file), first_(file), name_(name), first_name_(std::move(name)) {}
  ~BatchedFile();
  BatchedFile(const BatchedFile&) = delete;
  BatchedFile& operator=(const BatchedFile&) = delete;

  void append(std::string_view text) { pending_ += text; }
  // Writes what is pending. Returns the message of the first write that fails ("write error
  // on NAME: reason"), and nothing after it.
  std::optional<std::string> flush();
  bool failed() const { return failed_; }
  // ftruncate(): writes what is pending, then empties the file and starts it again (the standard
  // output is only rewound). freopen(path): writes what is pending, then appends to `path`, or
  // for "" goes back to the first file. Each returns the message of a failure.
  std::optional<std::string> truncate();
  std::optional<std::string> reopen(const std::string& path);

 private:
  void close_opened();

  FILE* file_;
  FILE* first_;              // the run's output
  FILE* opened_ = nullptr;   // the file freopen() opened, while it is the one written
  std::string name_, first_name_;
  std::string pending_;
  bool failed_ = false;
};

}  // namespace dsched::output
