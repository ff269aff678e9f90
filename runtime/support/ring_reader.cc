#include "runtime/support/ring_reader.h"

#include <bpf/bpf.h>
#include <linux/bpf.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace dsched {

// The kernel's layout: a consumer page the reader may write, a producer page, then the data, a
// power of two of pages. Each record has an 8-byte header whose first word is its length with a
// busy and a discard bit; records start at multiples of 8, so a header never runs past the end.
struct RingReader::Ring {
  Callback callback;
  void* context;
  size_t page;
  size_t size;  // bytes of data
  void* consumer_page = MAP_FAILED;
  void* producer_page = MAP_FAILED;  // followed by the data

  std::atomic_ref<uint64_t> consumer_pos() const { return std::atomic_ref(*static_cast<uint64_t*>(consumer_page)); }
  std::atomic_ref<uint64_t> producer_pos() const { return std::atomic_ref(*static_cast<uint64_t*>(producer_page)); }
  unsigned char* data() const { return static_cast<unsigned char*>(producer_page) + page; }

  ~Ring() {
    if (consumer_page != MAP_FAILED) munmap(consumer_page, page);
    if (producer_page != MAP_FAILED) munmap(producer_page, page + size);
  }
};

RingReader::RingReader() : epoll_fd_(epoll_create1(EPOLL_CLOEXEC)) {}

RingReader::~RingReader() {
  if (epoll_fd_ >= 0) close(epoll_fd_);
}

int RingReader::add(int map_fd, Callback callback, void* context) {
  if (epoll_fd_ < 0) return -EMFILE;
  bpf_map_info info{};
  uint32_t info_size = sizeof(info);
  if (bpf_obj_get_info_by_fd(map_fd, &info, &info_size) != 0) return -errno;
  if (info.type != BPF_MAP_TYPE_RINGBUF) return -EINVAL;
  auto ring = std::make_unique<Ring>(Ring{callback, context, size_t(sysconf(_SC_PAGESIZE)), info.max_entries});
  ring->consumer_page = mmap(nullptr, ring->page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
  if (ring->consumer_page == MAP_FAILED) return -errno;
  ring->producer_page = mmap(nullptr, ring->page + ring->size, PROT_READ, MAP_SHARED, map_fd, off_t(ring->page));
  if (ring->producer_page == MAP_FAILED) return -errno;
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u32 = uint32_t(rings_.size());
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, map_fd, &event) != 0) return -errno;
  rings_.push_back(std::move(ring));
  return 0;
}

int RingReader::read(Ring& ring) {
  constexpr uint32_t busy = 1u << 31, discarded = 1u << 30, header = 8;
  const uint64_t mask = ring.size - 1;
  uint64_t consumer = ring.consumer_pos().load(std::memory_order_acquire);
  int records = 0;
  for (;;) {
    uint64_t producer = ring.producer_pos().load(std::memory_order_acquire);
    if (consumer >= producer) return records;
    while (consumer < producer) {
      size_t offset = consumer & mask;
      uint32_t word =
          std::atomic_ref(*reinterpret_cast<uint32_t*>(ring.data() + offset)).load(std::memory_order_acquire);
      if (word & busy) return records;  // still being written: read it next time
      uint32_t length = word & ~(busy | discarded);
      uint64_t next = consumer + ((length + header + 7) & ~uint64_t{7});
      if (!(word & discarded)) {
        unsigned char* record = ring.data() + offset + header;
        size_t before_end = ring.size - (offset + header);
        if (length > before_end) {
          wrapped_.resize(length);
          std::memcpy(wrapped_.data(), record, before_end);
          std::memcpy(wrapped_.data() + before_end, ring.data(), length - before_end);
          record = wrapped_.data();
        }
        int result = ring.callback(ring.context, record, length);
        if (result < 0) {
          ring.consumer_pos().store(next, std::memory_order_release);
          return result;
        }
        ++records;
      }
      consumer = next;
      ring.consumer_pos().store(consumer, std::memory_order_release);
    }
  }
}

int RingReader::poll(int timeout_ms) {
  epoll_event events[8];
  int ready = epoll_wait(epoll_fd_, events, int(std::size(events)), timeout_ms);
  if (ready < 0) return -errno;
  int records = 0;
  for (int i = 0; i < ready; ++i) {
    int read_now = read(*rings_[events[i].data.u32]);
    if (read_now < 0) return read_now;
    records += read_now;
  }
  return records;
}

int RingReader::consume() {
  int records = 0;
  for (auto& ring : rings_) {
    int read_now = read(*ring);
    if (read_now < 0) return read_now;
    records += read_now;
  }
  return records;
}

}  // namespace dsched
