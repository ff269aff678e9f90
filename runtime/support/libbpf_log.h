// libbpf's messages (the verifier log among them) kept out of stderr and captured on demand.
#pragma once

#include <string>

namespace dsched {

// While one exists, libbpf's messages are collected; otherwise they are dropped (libbpf's chatter
// is not dsched's output).
class LibbpfLogCapture {
 public:
  LibbpfLogCapture();
  ~LibbpfLogCapture();
  LibbpfLogCapture(const LibbpfLogCapture&) = delete;
  LibbpfLogCapture& operator=(const LibbpfLogCapture&) = delete;
  std::string take();
};

}  // namespace dsched
