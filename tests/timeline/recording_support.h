// What the kernel tests of `dsched timeline` share: a trace file's path, the decoded trace, and
// the recorder's programs still in the kernel.
#pragma once

#include <string>
#include <vector>

#include "decoded_trace.h"

namespace dsched::test {

// A fresh path for a trace file, removed with the object.
class TracePath {
 public:
  TracePath();
  ~TracePath();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The trace at `path` decoded (the test fails when protoc cannot decode it).
Field decoded_fields(const std::string& path);
inline SchedTrace decoded(const std::string& path) { return read_sched(decoded_fields(path)); }

// Names of loaded BPF programs of dsched timeline (dstl_*), after the kernel's deferred freeing
// of an exited process's programs had a few seconds to finish.
std::vector<std::string> timeline_programs();

}  // namespace dsched::test
