#include "runtime/early_maps.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>

namespace dsched {

EarlyMaps::~EarlyMaps() {
  if (worker_.joinable()) worker_.join();
  for (int fd : fds_)
    if (fd >= 0) close(fd);
}

void EarlyMaps::create(const std::vector<abi::MapShape>& shapes) {
  if (worker_.joinable() || shapes.empty()) return;
  shapes_ = shapes;
  worker_ = std::thread([this] {
    for (const abi::MapShape& shape : shapes_) {
      LIBBPF_OPTS(bpf_map_create_opts, options, .map_flags = shape.flags);
      fds_.push_back(bpf_map_create(static_cast<bpf_map_type>(shape.type), shape.name.c_str(), shape.key_size,
                                    shape.value_size, shape.max_entries, &options));
    }
  });
}

void EarlyMaps::hand_over(bpf_object* object) {
  if (worker_.joinable()) worker_.join();
  for (size_t i = 0; i < fds_.size(); ++i) {
    const abi::MapShape& shape = shapes_[i];
    bpf_map* map = bpf_object__find_map_by_name(object, shape.name.c_str());
    if (fds_[i] < 0 || !map) continue;
    // libbpf takes a map given this way as it is, without comparing: only an identical one will do.
    if (bpf_map__type(map) != shape.type || bpf_map__key_size(map) != shape.key_size ||
        bpf_map__value_size(map) != shape.value_size || bpf_map__max_entries(map) != shape.max_entries ||
        bpf_map__map_flags(map) != shape.flags)
      continue;
    bpf_map__reuse_fd(map, fds_[i]);
  }
}

}  // namespace dsched
