#include "recording_support.h"

#include <doctest/doctest.h>

#include <cstdlib>

#include <bpf/bpf.h>
#include <unistd.h>

namespace dsched::test {

TracePath::TracePath() {
  char name[] = "/tmp/dsched-timeline-XXXXXX";
  close(mkstemp(name));
  unlink(name);
  path_ = std::string(name) + ".pftrace";
}

TracePath::~TracePath() { unlink(path_.c_str()); }

Field decoded_fields(const std::string& path) {
  Field trace;
  std::string error;
  bool ok = decode_trace(path, trace, error);
  INFO(error);
  REQUIRE(ok);
  return trace;
}

std::vector<std::string> timeline_programs() {
  std::vector<std::string> names;
  for (int attempt = 0; attempt < 250; ++attempt) {
    names.clear();
    uint32_t id = 0;
    while (bpf_prog_get_next_id(id, &id) == 0) {
      int fd = bpf_prog_get_fd_by_id(id);
      if (fd < 0) continue;
      bpf_prog_info info{};
      uint32_t length = sizeof info;
      if (bpf_obj_get_info_by_fd(fd, &info, &length) == 0 && std::string(info.name).rfind("dstl_", 0) == 0)
        names.push_back(info.name);
      close(fd);
    }
    if (names.empty()) break;
    usleep(20000);
  }
  return names;
}

}  // namespace dsched::test
