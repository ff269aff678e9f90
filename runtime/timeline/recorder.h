// The BPF side of a recording: loads the embedded dstl_* programs with the recording's filter,
// CPUs and buffer size, attaches them to the scheduler's BTF tracepoints, and hands each ring
// buffer record to a callback. Destroying it (or stop()) takes every program out of the kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/support/ring_reader.h"
#include "runtime/timeline/bpf/timeline_records.h"

struct timeline_bpf;

namespace dsched::timeline {

struct RecorderConfig {
  dstl_filter_kind filter = DSTL_FILTER_NONE;
  std::string filter_comm;  // DSTL_FILTER_COMM
  int filter_tgid = 0;      // DSTL_FILTER_TGID
  std::vector<int> cpus;    // empty: every CPU
  uint64_t buffer_bytes = 8 << 20;  // a power of two, at least a page
};

class Recorder {
 public:
  using RecordHandler = std::function<void(const void* data, size_t size)>;

  // Loads and attaches; null with `error` set when the kernel refuses (with the verifier's
  // last line when it has one).
  static std::unique_ptr<Recorder> start(const RecorderConfig& config, RecordHandler handler, std::string& error);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Waits up to `timeout_ms` for the buffer to fill past its wake-up mark, then reads every
  // waiting record. Returns false when reading failed (other than by a signal).
  bool poll(int timeout_ms);
  // Adds the ring buffer to another reader's `ring`, whose waits and reads then serve it too.
  bool join(RingReader& ring, std::string& error);
  // Detaches every program, so no event is recorded after this, then reads what is left.
  void stop();
  // Events dropped because the ring buffer was full, per CPU (index = CPU).
  std::vector<uint64_t> lost_per_cpu() const;

 private:
  Recorder(timeline_bpf* skeleton, RecordHandler handler);
  timeline_bpf* skeleton_;
  RingReader buffer_;
  RecordHandler handler_;
};

}  // namespace dsched::timeline
