// A Perfetto trace file being written: packets appended one by one as the Trace message's
// repeated field 1, so the file is a valid trace after every packet.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "runtime/timeline/perfetto_trace.pb.h"

namespace dsched::timeline {

class TraceFile {
 public:
  // Creates (truncates) `path`; ok() is false and error() says why when it cannot.
  explicit TraceFile(const std::string& path);
  ~TraceFile();
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  void write(const perfetto::protos::TracePacket& packet);
  // Flushes and closes; false (with error()) when any write failed.
  bool close();

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  uint64_t bytes_written() const { return bytes_; }
  const std::string& path() const { return path_; }

 private:
  void fail(const char* what);
  std::string path_;
  FILE* file_ = nullptr;
  std::string buffer_;  // reused for each packet's encoding
  uint64_t bytes_ = 0;
  std::string error_;
};

}  // namespace dsched::timeline
