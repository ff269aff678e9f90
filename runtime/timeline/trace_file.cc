#include "runtime/timeline/trace_file.h"

#include <cerrno>
#include <cstring>

#include <google/protobuf/io/coded_stream.h>

namespace dsched::timeline {
namespace {

// Trace.packet: field 1, length-delimited.
constexpr uint8_t kPacketTag = (1 << 3) | 2;

}  // namespace

TraceFile::TraceFile(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) fail("cannot create");
}

TraceFile::~TraceFile() { close(); }

void TraceFile::fail(const char* what) {
  if (error_.empty()) error_ = std::string(what) + " " + path_ + ": " + std::strerror(errno);
}

void TraceFile::write(const perfetto::protos::TracePacket& packet) {
  if (!file_ || !ok()) return;
  buffer_.clear();
  packet.AppendToString(&buffer_);
  uint8_t prefix[1 + 5];
  prefix[0] = kPacketTag;
  uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint32ToArray(
      static_cast<uint32_t>(buffer_.size()), prefix + 1);
  size_t prefix_size = static_cast<size_t>(end - prefix);
  if (std::fwrite(prefix, 1, prefix_size, file_) != prefix_size ||
      std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    fail("cannot write");
    return;
  }
  bytes_ += prefix_size + buffer_.size();
}

bool TraceFile::close() {
  if (file_) {
    if (std::fclose(file_) != 0) fail("cannot write");
    file_ = nullptr;
  }
  return ok();
}

}  // namespace dsched::timeline
