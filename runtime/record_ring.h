// bufpolicy=ring, as DTrace defines it: each CPU's buffer keeps the most recent records, up to
// bufsize bytes, and nothing prints while tracing; what is kept prints when the run ends.
// Records are kept raw, so that what they print (printa()'s aggregations, system(), setopt())
// happens when they print, as in DTrace's consumer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dsched {

// Bytes a record of `size` bytes takes in a trace buffer: rounded up to 8, plus an 8-byte header,
// as in the kernel's ring buffer. bufpolicy=fill and ring count records by it.
inline uint64_t buffer_footprint(size_t size) { return ((size + 7) & ~size_t{7}) + 8; }

class RecordRing {
 public:
  explicit RecordRing(uint64_t bytes_per_cpu) : bytes_per_cpu_(bytes_per_cpu) {}

  // Keeps a record traced on `cpu`, dropping that CPU's oldest records until it fits. A record
  // larger than the whole buffer is not kept (nothing is dropped for it) and counts as a drop.
  void keep(uint32_t cpu, std::string_view record);
  // Records not kept since the last call, by CPU.
  std::map<uint32_t, uint64_t> take_drops() { return std::exchange(drops_, {}); }
  // BEGIN runs from now on, on `cpu` unless BEGIN's records say otherwise; then tracing, then END
  // (on `cpu`, or where END's records say).
  void begin(uint32_t cpu);
  void begin_done();
  void begin_end(uint32_t cpu);

  // Hands every kept record to `print` in the order DTrace's consumer reads its buffers
  // (dt_consume.c), then empties the buffers: the CPU that ran BEGIN first (only BEGIN's records
  // when it also ran END), then each CPU's buffer oldest first, CPU by CPU, the CPU that ran END
  // last.
  void drain(const std::function<void(std::string_view record)>& print);

 private:
  // One CPU's buffer: records laid end to end in a circular array of at most `capacity` bytes, each
  // as an 8-byte length and its bytes padded to 8 (buffer_footprint), so that what is held is what
  // bufsize counts. The array grows as records come until it reaches `capacity`; only then do
  // the oldest records make room.
  class CpuBuffer {
   public:
    explicit CpuBuffer(uint64_t capacity) : capacity_(capacity) {}
    bool empty() const { return records_ == 0; }
    size_t size() const { return records_; }
    void push_back(std::string_view record);  // the record must fit in `capacity`
    std::string pop_front();

    size_t begin_records = 0;  // how many of the oldest records are BEGIN's

   private:
    void copy_in(uint64_t at, const void* from, size_t size);
    void copy_out(uint64_t at, void* to, size_t size) const;
    uint64_t front_size() const;

    uint64_t capacity_;
    std::vector<char> bytes_;
    uint64_t head_ = 0;  // where the oldest record starts
    uint64_t used_ = 0;
    size_t records_ = 0;
  };

  uint64_t bytes_per_cpu_;
  std::map<uint32_t, CpuBuffer> cpus_;
  std::map<uint32_t, uint64_t> drops_;
  enum class Phase { Begin, Tracing, End };
  Phase phase_ = Phase::Tracing;
  uint32_t begin_cpu_ = 0;
  uint32_t end_cpu_ = 0;
};

}  // namespace dsched
