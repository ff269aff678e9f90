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
  BatchedFile(FILE* file, std::string name) : file_(file), name_(std::move(name)) {}

  void append(std::string_view text) { pending_ += text; }
  // Writes what is pending. Returns the message of the first write that fails ("write error
  // on NAME: reason"), and nothing after it.
  std::optional<std::string> flush();
  bool failed() const { return failed_; }

 private:
  FILE* file_;
  std::string name_;
  std::string pending_;
  bool failed_ = false;
};

}  // namespace dsched::output
