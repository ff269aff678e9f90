#include "snapshot_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <istream>
#include <sstream>

#include "file_read.h"
#include "json_stream.h"
#include "safe_write.h"
#include "snapshot_formats.h"

namespace dsched::ctprof {
namespace {

// Parsed records may hold at most this much memory per byte of text read, plus a constant:
// a file of tiny records (a bomb) is refused before it can claim gigabytes.
constexpr std::size_t kMemoryPerTextByte = 2;
constexpr std::size_t kMemorySlack = std::size_t{32} << 20;

// Hands the records to the reader of the format the first top-level member announces.
class FormatDispatch final : public SnapshotConsumer {
 public:
  FormatDispatch(std::string name, std::function<std::size_t()> text_read)
      : name_(std::move(name)), text_read_(std::move(text_read)) {}
  // The first top-level key says which format this is.
  void begin(const std::string& key) override {
    if (!reader_) reader_ = reader_for(key, name_);
  }
  void member(const std::string& key, nlohmann::json&& v) override {
    reader_->member(key, std::move(v));
  }
  void thread(nlohmann::json&& record) override {
    reader_->thread(std::move(record));
    check_memory();
  }
  void cgroup(const std::string& path, nlohmann::json&& stats) override {
    reader_->cgroup(path, std::move(stats));
    check_memory();
  }
  Snapshot finish() {
    if (!reader_) throw SnapshotError(name_ + ": not a ctprof snapshot: empty object");
    return reader_->finish();
  }

 private:
  void check_memory() const {
    const std::size_t text = text_read_(), held = reader_->memory_estimate();
    if (held > kMemoryPerTextByte * text + kMemorySlack)
      throw SnapshotError(name_ + ": not a plausible ctprof snapshot: its records would take " +
                          std::to_string(held >> 20) + " MiB from " + std::to_string(text >> 20) +
                          " MiB of text");
  }
  std::string name_;
  std::function<std::size_t()> text_read_;
  std::unique_ptr<FormatReader> reader_;
};

Snapshot parse(std::istream& in, const std::string& name, std::function<std::size_t()> text_read) {
  FormatDispatch dispatch(name, std::move(text_read));
  parse_snapshot_stream(in, name, dispatch);
  return dispatch.finish();
}

// The decompressed text of a snapshot starts with the first member of its object.
bool looks_like_snapshot(int fd) {
  try {
    ZstdReadBuf buf(fd, "", 1 << 20);
    std::istream in(&buf);
    std::string head(64, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    const auto start = head.find_first_not_of(" \t\r\n");
    if (start == std::string::npos || head[start] != '{') return false;
    head.erase(0, start + 1);
    return head.starts_with("\"format\":\"" + std::string(kDschedFormat) + "\"") ||
           head.starts_with("\"captured_at_unix_ns\":");
  } catch (const SnapshotError&) {
    return false;
  }
}

}  // namespace

void FormatReader::count(const ThreadRecord& t) {
  record_bytes_ +=
      sizeof(ThreadRecord) + t.comm.capacity() + t.pcomm.capacity() + t.cgroup.capacity();
  for (const auto& [key, v] : t.smaps_kib) record_bytes_ += key.capacity() + 64;  // map node
}

void FormatReader::count(const std::string& cgroup_path, const CgroupStats& stats) {
  record_bytes_ += sizeof(CgroupStats) + cgroup_path.capacity() + 64;
  for (const auto* kv : {&stats.memory_stat, &stats.memory_events})
    for (const auto& [key, v] : *kv) record_bytes_ += key.capacity() + 64;
}

Snapshot from_json(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return parse(in, name, [&] { return text.size(); });
}

void write_snapshot_file(const Snapshot& snap, const std::string& path) {
  write_atomically(path, compress(to_json(snap)), looks_like_snapshot, "ctprof snapshot");
}

Snapshot read_snapshot_file(const std::string& path, std::size_t cap, std::size_t max_ratio) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  Fd fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.ok() || fstat(fd.get(), &st) != 0)
    throw SnapshotError(path + ": cannot open: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw SnapshotError(path + ": not a regular file");
  // A compressed file larger than the decompressed cap cannot be a valid snapshot.
  if (static_cast<std::uint64_t>(st.st_size) > cap)
    throw SnapshotError(path + ": file size exceeds the " + std::to_string(cap >> 20) + " MiB cap");
  ZstdReadBuf buf(fd.get(), path, cap, max_ratio);
  std::istream in(&buf);
  return parse(in, path, [&] { return buf.decompressed(); });
}

}  // namespace dsched::ctprof
