#include "jemalloc_probe.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "elf_symbols.h"
#include "file_read.h"
#include "jemalloc_layout.h"
#include "proc_maps.h"

namespace dsched::ctprof {
namespace {

// Outcomes that are the normal state of most processes or plain races, not failures.
constexpr const char* kNotJemalloc = "jemalloc-not-found";
constexpr const char* kGone = "exited";

constexpr auto kStopWait = std::chrono::milliseconds(250);
constexpr int kMaxLinkMaps = 4096;

struct ProcessProbe {
  std::uint64_t tls_offset = 0;  // the library's TLS block sits this far below the thread pointer
  JemallocLayout layout;
};

bool read_remote(pid_t pid, std::uint64_t addr, void* out, std::size_t size) {
  iovec local{out, size};
  iovec remote{reinterpret_cast<void*>(addr), size};
  return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

// offsetof(struct link_map, l_tls_offset) in this libc.
std::optional<std::uint64_t> libc_tls_offset_field(const std::string& path) {
  std::string error;
  auto elf = ElfFile::open(path, error);
  if (!elf) return std::nullopt;
  // glibc describes struct fields to thread debuggers as {size in bits, count, offset}.
  auto desc_addr = elf->dynamic_symbol("_thread_db_link_map_l_tls_offset");
  if (!desc_addr) return std::nullopt;
  auto desc = elf->read(*desc_addr, 12);
  if (!desc) return std::nullopt;
  std::uint32_t bits, count, offset;
  std::memcpy(&bits, desc->data(), 4);
  std::memcpy(&count, desc->data() + 4, 4);
  std::memcpy(&offset, desc->data() + 8, 4);
  if (bits != 64 || count != 1) return std::nullopt;
  return offset;
}

// Link-time address of the loader's _r_debug.
std::optional<std::uint64_t> loader_r_debug(const std::string& path) {
  std::string error;
  auto elf = ElfFile::open(path, error);
  return elf ? elf->dynamic_symbol("_r_debug") : std::nullopt;
}

// A fact read from a file, cached per (dev, inode): every process of a host shares one libc
// and one loader.
class FileFactCache {
 public:
  using Reader = std::optional<std::uint64_t> (*)(const std::string& path);
  explicit FileFactCache(Reader read) : read_(read) {}
  std::optional<std::uint64_t> get(const MappedFile& file, const std::string& path) {
    std::lock_guard lock(mu_);
    auto [it, inserted] = cache_.try_emplace({file.dev, file.inode});
    if (inserted) it->second = read_(path);
    return it->second;
  }

 private:
  Reader read_;
  std::mutex mu_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::optional<std::uint64_t>> cache_;
};

// The static-TLS offset of the object loaded at `base`, from the process's link_map chain.
std::optional<std::uint64_t> tls_offset_of(pid_t pid, std::uint64_t r_debug, std::uint64_t field,
                                           std::uint64_t base, std::string& tag) {
  std::uint64_t map = 0;
  if (!read_remote(pid, r_debug + 8, &map, sizeof map)) {  // r_debug.r_map
    tag = "process-vm-readv";
    return std::nullopt;
  }
  for (int n = 0; map != 0 && n < kMaxLinkMaps; ++n) {
    std::uint64_t link[4];  // l_addr, l_name, l_ld, l_next
    if (!read_remote(pid, map, link, sizeof link)) break;
    if (link[0] == base) {
      std::uint64_t offset = 0;
      if (!read_remote(pid, map + field, &offset, sizeof offset)) break;
      // 0 and -1 mean the block was never placed in static TLS (loaded later by dlopen).
      if (offset == 0 || offset == ~std::uint64_t{0}) {
        tag = "dynamic-tls";
        return std::nullopt;
      }
      return offset;
    }
    map = link[3];
  }
  tag = "link-map";
  return std::nullopt;
}

std::optional<ProcessProbe> attach(int proc, pid_t tgid, const std::string& proc_root,
                                   std::string& buf, std::string& tag) {
  const std::string maps_name = std::to_string(tgid) + "/maps";
  if (const int err = read_at(proc, maps_name.c_str(), buf); err != 0) {
    tag = err == ENOENT || err == ESRCH ? kGone : "maps-read-failure";
    return std::nullopt;
  }
  const auto files = parse_maps(buf);
  const auto jemalloc = find_mapped(files, {"libjemalloc"});
  if (!jemalloc) {
    tag = kNotJemalloc;
    return std::nullopt;
  }
  const auto libc = find_mapped(files, {"libc.so", "libc-"});
  const auto loader = find_mapped(files, {"ld-linux", "ld-"});
  if (!libc || !loader) {
    tag = "libc-not-glibc";
    return std::nullopt;
  }
  const std::string root = proc_root + "/" + std::to_string(tgid) + "/root";
  static FileFactCache libc_facts(libc_tls_offset_field), loader_facts(loader_r_debug);
  const auto field = libc_facts.get(*libc, root + libc->path);
  const auto r_debug = loader_facts.get(*loader, root + loader->path);
  if (!field || !r_debug) {
    tag = "libc-layout";
    return std::nullopt;
  }
  ProcessProbe probe;
  const auto offset = tls_offset_of(tgid, loader->base + *r_debug, *field, jemalloc->base, tag);
  if (!offset) return std::nullopt;
  probe.tls_offset = *offset;
  Fd library(open((root + jemalloc->path).c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!library.ok() || fstat(library.get(), &st) != 0 || st.st_dev != jemalloc->dev ||
      st.st_ino != jemalloc->inode) {
    tag = "library-replaced";  // the mapped file is no longer at its path
    return std::nullopt;
  }
  std::string error;
  const auto layout = jemalloc_layout(library.get(), error);
  if (!layout) {
    tag = "layout-helper";
    return std::nullopt;
  }
  probe.layout = *layout;
  return probe;
}

// Waits for the stop PTRACE_INTERRUPT asked for. Returns the signal to hand back on detach
// (a signal-delivery stop swallows its signal otherwise), or nullopt.
std::optional<int> wait_for_stop(pid_t tid, std::string& tag) {
  const auto deadline = std::chrono::steady_clock::now() + kStopWait;
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    int status = 0;
    const pid_t r = waitpid(tid, &status, __WALL | WNOHANG);
    if (r == tid && WIFSTOPPED(status)) return (status >> 16) == 0 ? WSTOPSIG(status) : 0;
    if (r == tid || (r < 0 && errno != EINTR)) {
      tag = kGone;
      return std::nullopt;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      tag = "waitpid";  // released when the probing thread ends
      return std::nullopt;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
}

std::optional<JemallocCounters> read_thread(pid_t tgid, pid_t tid, const ProcessProbe& probe,
                                            std::string& tag) {
  if (ptrace(PTRACE_SEIZE, tid, nullptr, nullptr) != 0) {
    tag = errno == ESRCH ? kGone : "ptrace-seize";
    return std::nullopt;
  }
  if (ptrace(PTRACE_INTERRUPT, tid, nullptr, nullptr) != 0) {
    tag = errno == ESRCH ? kGone : "ptrace-interrupt";
    return std::nullopt;
  }
  const auto resume_signal = wait_for_stop(tid, tag);
  if (!resume_signal) return std::nullopt;
  std::optional<JemallocCounters> counters;
  user_regs_struct regs{};
  iovec io{&regs, sizeof regs};
  if (ptrace(PTRACE_GETREGSET, tid, reinterpret_cast<void*>(NT_PRSTATUS), &io) != 0) {
    tag = "get-regset";
  } else if (regs.fs_base < probe.tls_offset) {
    tag = "tls-arithmetic";
  } else {
    const std::uint64_t block = regs.fs_base - probe.tls_offset;
    JemallocCounters c;
    iovec local[2] = {{&c.allocated, 8}, {&c.deallocated, 8}};
    iovec remote[2] = {{reinterpret_cast<void*>(block + probe.layout.allocated_offset), 8},
                       {reinterpret_cast<void*>(block + probe.layout.deallocated_offset), 8}};
    if (process_vm_readv(tgid, local, 2, remote, 2, 0) == 16)
      counters = c;
    else
      tag = "process-vm-readv";
  }
  ptrace(PTRACE_DETACH, tid, nullptr, reinterpret_cast<void*>(static_cast<long>(*resume_signal)));
  return counters;
}

void count_failure(JemallocTally& tally, const std::string& tag) {
  if (tag == kNotJemalloc || tag == kGone) return;
  ++tally.failed;
  ++tally.failures_by_tag[tag];
}

}  // namespace

std::unordered_map<std::int32_t, JemallocCounters> probe_jemalloc(
    const std::string& proc_root, const std::vector<ProbeTarget>& targets, JemallocTally& tally) {
  std::unordered_map<std::int32_t, JemallocCounters> out;
  // Everything ptrace touches happens on this thread; its end releases any tracee still held.
  std::thread prober([&] {
    Fd proc = open_dir(AT_FDCWD, proc_root.c_str(), true);
    if (!proc.ok()) return;
    std::string buf;
    const pid_t self = getpid();
    for (const auto& target : targets) {
      if (target.tgid == self) continue;
      ++tally.tgids_walked;
      std::string tag;
      const auto probe = attach(proc.get(), target.tgid, proc_root, buf, tag);
      if (!probe) {
        count_failure(tally, tag);
        continue;
      }
      ++tally.jemalloc_detected;
      for (std::int32_t tid : target.tids) {
        if (const auto c = read_thread(target.tgid, tid, *probe, tag)) {
          ++tally.probed_ok;
          out[tid] = *c;
        } else {
          count_failure(tally, tag);
        }
      }
    }
  });
  prober.join();
  return out;
}

}  // namespace dsched::ctprof
