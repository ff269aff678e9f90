// Loads a compiled BPF object with libbpf, attaches its programs to their hooks, runs the
// BEGIN/END style programs on demand, and takes everything out of the kernel when destroyed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "abi/compiled_program.h"
#include "runtime/buffer_resize.h"
#include "runtime/early_maps.h"

struct bpf_object;
struct bpf_link;
struct bpf_program;

namespace dsched {

class LoadedObject {
 public:
  // Opens and loads the object; on failure returns null and fills error with a message that
  // names the failing clause and a short reason, followed by the verifier's last lines (all of
  // them when verbose). A buffer the kernel cannot allocate is halved and the load tried again
  // while `resizer` allows (bufresize=auto). Maps already in `early` are used rather than created.
  static std::unique_ptr<LoadedObject> load(const std::vector<char>& elf, const std::vector<abi::AttachPoint>& points,
                                            bool verbose, BufferResizer& resizer, std::string& error,
                                            EarlyMaps* early = nullptr);
  ~LoadedObject();
  LoadedObject(const LoadedObject&) = delete;
  LoadedObject& operator=(const LoadedObject&) = delete;

  // Attaches every point that is not OnDemand. On failure detaches what was attached.
  bool attach(std::string& error);
  // What the user should know of the attach: probes the kernel cannot place.
  const std::vector<std::string>& notes() const { return notes_; }
  // Detaches every attached hook (programs and maps stay loaded until destruction).
  void detach();
  // Runs an OnDemand program once; false if it does not exist or the kernel refused.
  bool run(const std::string& program, std::string& error);

  int map_fd(const std::string& name) const;
  // Firings the kernel skipped so far, over all programs: it runs no BPF program on a CPU where
  // one is already running (bpf_prog_info.recursion_misses).
  uint64_t skipped_firings() const;
  bpf_object* object() const { return object_; }
  size_t attached_count() const { return links_.size() + uprobe_links_.size(); }

 private:
  LoadedObject(bpf_object* object, std::vector<abi::AttachPoint> points);
  bool attach_perf_timer(const abi::AttachPoint& point, std::string& error);
  // The link's file descriptor, or -1 with errno set.
  static int attach_uprobe(bpf_program* program, const abi::AttachPoint& point);

  bpf_object* object_;
  std::vector<abi::AttachPoint> points_;
  std::vector<bpf_link*> links_;
  std::vector<int> perf_fds_;
  std::vector<int> uprobe_links_;
  std::vector<std::string> notes_;
};

}  // namespace dsched
