// Reads BPF ring buffers (BPF_MAP_TYPE_RINGBUF) as libbpf's ring_buffer does, with one difference:
// each buffer's data is mapped once. libbpf maps it twice in a row so that a record running past
// the end reads as one piece, and every page of the second copy counts again in the reader's
// resident memory (4 MB with the default bufsize). Here the rare record that runs past the end is
// copied into one piece instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace dsched {

class RingReader {
 public:
  // Called with each record; a negative return stops the read and is returned by it.
  using Callback = int (*)(void* context, void* data, size_t size);

  RingReader();
  ~RingReader();
  RingReader(const RingReader&) = delete;
  RingReader& operator=(const RingReader&) = delete;

  // Adds the ring buffer map `map_fd`; 0, or a negative errno when it cannot be mapped.
  int add(int map_fd, Callback callback, void* context);
  // Waits up to `timeout_ms` for a buffer to wake the reader, then reads the buffers that did.
  // Returns the records read, or a negative errno (-EINTR when a signal ended the wait).
  int poll(int timeout_ms);
  // Reads every buffer without waiting; the records read, or a negative errno.
  int consume();

 private:
  struct Ring;
  int read(Ring& ring);

  int epoll_fd_;
  std::vector<std::unique_ptr<Ring>> rings_;
  std::vector<unsigned char> wrapped_;  // a record that ran past the end of the data, in one piece
};

}  // namespace dsched
