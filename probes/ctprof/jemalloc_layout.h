// Where a given libjemalloc keeps a thread's allocated/deallocated counters inside its
// thread-local storage block. Distribution packages carry no debug information, so the layout
// is asked of jemalloc itself: a small helper program is started with the library preloaded and
// reports the offsets of thread.allocatedp / thread.deallocatedp (mallctl). The offsets depend
// only on the library file, so they are cached by file identity.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace dsched::ctprof {

struct JemallocLayout {
  std::uint64_t allocated_offset = 0, deallocated_offset = 0;  // bytes into the TLS block
};

// `library` is an open descriptor of the libjemalloc file. The helper runs the library's code,
// so only a regular file owned by root and writable by nobody else is loaded, and the helper
// drops to the nobody user (when started by root) under a CPU limit and a 3 s deadline. On
// failure returns nullopt and sets `error`.
std::optional<JemallocLayout> jemalloc_layout(int library, std::string& error);

// The helper program's ELF image (generated from jemalloc_layout_helper.c at build time).
std::span<const unsigned char> jemalloc_layout_helper_image();

}  // namespace dsched::ctprof
