#include "zstd_stream.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dsched::ctprof {

ZstdReadBuf::ZstdReadBuf(int fd, std::string name, std::size_t cap, std::size_t max_ratio)
    : fd_(fd),
      name_(std::move(name)),
      cap_(cap),
      max_ratio_(max_ratio),
      ctx_(ZSTD_createDCtx(), ZSTD_freeDCtx),
      in_(ZSTD_DStreamInSize()),
      out_(ZSTD_DStreamOutSize()) {
  if (!refill_input()) throw SnapshotError(name_ + ": empty file");
  std::uint32_t magic = 0;
  if (in_buf_.size >= 4) std::memcpy(&magic, in_.data(), 4);
  if (magic != ZSTD_MAGICNUMBER)
    throw SnapshotError(name_ + ": not a zstd-compressed snapshot (bad magic number)");
  frame_left_ = 1;
  setg(out_.data(), out_.data(), out_.data());
}

bool ZstdReadBuf::refill_input() {
  for (;;) {
    const ssize_t n = read(fd_, in_.data(), in_.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SnapshotError(name_ + ": read failed: " + std::strerror(errno));
    in_buf_ = {in_.data(), static_cast<std::size_t>(n), 0};
    compressed_ += static_cast<std::size_t>(n);
    eof_ = n == 0;
    return n > 0;
  }
}

ZstdReadBuf::int_type ZstdReadBuf::underflow() {
  while (gptr() == egptr()) {
    if (in_buf_.pos == in_buf_.size && !refill_input()) {
      // Input ended: fine between frames, a truncated stream inside one.
      if (frame_left_ != 0) throw SnapshotError(name_ + ": truncated zstd stream");
      return traits_type::eof();
    }
    ZSTD_outBuffer out{out_.data(), out_.size(), 0};
    frame_left_ = ZSTD_decompressStream(ctx_.get(), &out, &in_buf_);
    if (ZSTD_isError(frame_left_))
      throw SnapshotError(name_ + ": corrupt zstd data (" + ZSTD_getErrorName(frame_left_) + ")");
    total_ += out.pos;
    check_limits();
    setg(out_.data(), out_.data(), out_.data() + out.pos);
  }
  return traits_type::to_int_type(*gptr());
}

void ZstdReadBuf::check_limits() const {
  if (total_ > cap_)
    throw SnapshotError(name_ + ": decompressed size exceeds the " + std::to_string(cap_ >> 20) +
                        " MiB cap");
  if (max_ratio_ && total_ > kRatioSlack && total_ / max_ratio_ > compressed_)
    throw SnapshotError(name_ + ": not a plausible ctprof snapshot: " +
                        std::to_string(total_ >> 20) + " MiB of text from " +
                        std::to_string(compressed_ >> 10) + " KiB of zstd data (more than " +
                        std::to_string(max_ratio_) + " times)");
}

std::string compress(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  if (ZSTD_isError(n)) throw SnapshotError(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

}  // namespace dsched::ctprof
