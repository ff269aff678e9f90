// Maps created while the compiler is still generating code. A preallocated per-CPU hash of 16k
// entries takes the kernel 5-20 ms to create, about as long as generating a script's code, and the
// two overlap on another CPU; the loader then hands the maps to libbpf, which creates the rest.
#pragma once

#include <thread>
#include <vector>

#include "abi/compiled_program.h"

struct bpf_object;

namespace dsched {

class EarlyMaps {
 public:
  EarlyMaps() = default;
  ~EarlyMaps();  // waits for the thread and closes the maps (libbpf holds its own descriptors)
  EarlyMaps(const EarlyMaps&) = delete;
  EarlyMaps& operator=(const EarlyMaps&) = delete;

  // Starts creating `shapes` on a thread of its own.
  void create(const std::vector<abi::MapShape>& shapes);
  // Waits for the thread, then gives `object` (opened, not loaded) every created map whose shape
  // its map of that name still has (bufresize may have lowered it since); libbpf creates the others
  // and reports their failures as usual.
  void hand_over(bpf_object* object);

 private:
  std::thread worker_;
  std::vector<abi::MapShape> shapes_;
  std::vector<int> fds_;  // by shape; -1 where the kernel refused
};

}  // namespace dsched
