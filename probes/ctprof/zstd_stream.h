// A std::streambuf that decompresses a zstd file while it is read, so a snapshot is parsed
// without ever holding its whole text: memory stays at the zstd window plus one chunk, and the
// decompressed size is capped (a decompression bomb stops at the cap, not at the allocator), and
// so is the compression ratio: a bomb is refused after a few MiB instead of at the cap.
#pragma once

#include <zstd.h>

#include <cstddef>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "snapshot_error.h"

namespace dsched::ctprof {

class ZstdReadBuf : public std::streambuf {
 public:
  // `fd` is an open file (not owned); `name` names it in errors; `cap` limits the decompressed
  // bytes; past the first kRatioSlack bytes, the text may be at most `max_ratio` times the
  // compressed bytes read (0: any). Checks the zstd magic number at once (throws SnapshotError).
  ZstdReadBuf(int fd, std::string name, std::size_t cap, std::size_t max_ratio = 0);
  static constexpr std::size_t kRatioSlack = std::size_t{16} << 20;
  std::size_t decompressed() const { return total_; }

 protected:
  int_type underflow() override;

 private:
  bool refill_input();
  void check_limits() const;
  int fd_;
  std::string name_;
  std::size_t cap_, max_ratio_, total_ = 0, compressed_ = 0;
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> ctx_;
  std::vector<char> in_, out_;
  ZSTD_inBuffer in_buf_{nullptr, 0, 0};
  bool eof_ = false;
  std::size_t frame_left_ = 0;  // ZSTD_decompressStream's hint: 0 once a frame is complete
};

// Compresses `data` into one zstd frame (level 3).
std::string compress(const std::string& data);

}  // namespace dsched::ctprof
