// Snapshot files made to test the reader's limits: a valid snapshot, and a decompression bomb
// (a valid head, then one small thread record repeated), written in bounded memory.
#pragma once

#include <doctest/doctest.h>
#include <zstd.h>

#include <memory>
#include <string>

#include "metrics.h"
#include "snapshot_builder.h"
#include "snapshot_io.h"

namespace ctprof_test {

// A snapshot of one thread, as dsched writes it (uncompressed).
inline std::string valid_json() {
  dsched::ctprof::Snapshot s = empty_snapshot();
  add_thread(s, 7, "app", "app", {{dsched::ctprof::kRunTimeNs, 5}}, {{dsched::ctprof::kState, "S"}});
  return dsched::ctprof::to_json(s);
}

// A zstd frame of `head` then `unit` repeated to about `bytes`, produced in bounded memory.
inline std::string repeating_frame(const std::string& head, const std::string& unit, std::size_t bytes) {
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  std::string block = head;
  while (block.size() < (1 << 20)) block += unit;
  std::string out, chunk(ZSTD_CStreamOutSize(), '\0');
  for (std::size_t fed = 0; fed < bytes; fed += block.size()) {
    ZSTD_inBuffer in{block.data(), block.size(), 0};
    const bool last = fed + block.size() >= bytes;
    std::size_t left;
    do {
      ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
      left = ZSTD_compressStream2(cctx.get(), &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
      REQUIRE_FALSE(ZSTD_isError(left));
      out.append(chunk.data(), o.pos);
    } while (last ? left != 0 : in.pos < in.size);
    if (fed == 0) {  // the head only once
      block.erase(0, head.size());
      while (block.size() < (1 << 20)) block += unit;
    }
  }
  return out;
}

// A zstd frame of about `bytes` of snapshot text: a valid head, then records that each cost
// memory for a few bytes of text. The frame is tiny (under 1 MiB for hundreds of MiB).
inline std::string snapshot_bomb(std::size_t bytes) {
  using namespace dsched::ctprof;
  std::string head = valid_json();
  head.resize(head.rfind("{\"tid\""));
  std::string record =
      "{\"tid\":1,\"tgid\":1,\"comm\":\"\",\"pcomm\":\"\",\"cgroup\":\"\",\"values\":[";
  for (std::size_t id = 0; id < kStoredMetricCount; ++id)
    record += std::string(id ? "," : "") + (metric(id).unit == Unit::Text ? "\"\"" : "0");
  record += "]},";
  return repeating_frame(head, record, bytes);
}

}  // namespace ctprof_test
