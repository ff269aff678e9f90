#include "runtime/loader.h"

#include "runtime/privileges.h"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <map>
#include <string_view>
#include <thread>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/support/libbpf_log.h"

namespace dsched {
namespace {

// The verifier log is long; its last lines say why it refused.
std::string tail_lines(const std::string& text, int count) {
  size_t pos = text.size();
  while (pos > 0 && count >= 0) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
    --count;
  }
  return text.substr(pos + 1);
}

std::string errno_text(int err) { return std::strerror(err < 0 ? -err : err); }

constexpr int kNotSupported = 524;  // the kernel's ENOTSUPP

// BPF_LINK_CREATE for uprobe_multi links (Linux 6.6), which this libbpf does not know yet.
constexpr uint32_t kUprobeMultiAttach = 48;  // BPF_TRACE_UPROBE_MULTI
constexpr uint32_t kUprobeMultiReturn = 1;   // BPF_F_UPROBE_MULTI_RETURN
struct UprobeMultiAttr {
  uint32_t prog_fd, target_fd, attach_type, link_flags;
  uint64_t path, offsets, ref_ctr_offsets, cookies;
  uint32_t cnt, flags, pid;
};
constexpr size_t kDetachThreads = 64;
constexpr size_t kLinksPerDetachThread = 4;

bool is_btf_tracepoint(const bpf_program* program) {
  return std::string_view(bpf_program__section_name(program)).starts_with(abi::kBtfTracepointSection);
}

// tp_btf programs load with the tracepoint's BTF id that the compiler found. libbpf would read and
// index the kernel's whole BTF again to find it (5-30 ms and several MB of memory), as it does for
// any object with a BPF_PROG_TYPE_TRACING program in it. So while dsched opens and loads its
// object, the tp_btf section is handled here: its programs open as raw tracepoints, which need no
// kernel BTF, and become tracing programs with their id just before the kernel sees them. The
// handler is gone once the object is loaded, so LoadedObject::attach() attaches them itself.
class TracepointIds {
 public:
  explicit TracepointIds(const std::vector<abi::AttachPoint>& points) {
    for (const abi::AttachPoint& point : points)
      if (point.btf_id) ids_[point.program] = point.btf_id;
    LIBBPF_OPTS(libbpf_prog_handler_opts, options, .prog_prepare_load_fn = prepare);
    current_ = this;
    handler_ = libbpf_register_prog_handler("tp_btf+", BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_TRACE_RAW_TP, &options);
  }
  ~TracepointIds() {
    if (handler_ > 0) libbpf_unregister_prog_handler(handler_);
    current_ = nullptr;
    btf__free(kernel_btf_);
  }
  TracepointIds(const TracepointIds&) = delete;
  TracepointIds& operator=(const TracepointIds&) = delete;

 private:
  static int prepare(bpf_program* program, bpf_prog_load_opts* options, long) {
    uint32_t id = current_->id_of(program);
    if (id == 0) return -ESRCH;
    bpf_program__set_type(program, BPF_PROG_TYPE_TRACING);
    bpf_program__set_expected_attach_type(program, BPF_TRACE_RAW_TP);
    options->expected_attach_type = BPF_TRACE_RAW_TP;
    options->attach_btf_id = id;
    return 0;
  }

  // The compiler's id, or (a program it did not give one) the kernel's BTF read here after all.
  uint32_t id_of(const bpf_program* program) {
    auto known = ids_.find(bpf_program__name(program));
    if (known != ids_.end()) return known->second;
    if (!kernel_btf_) kernel_btf_ = btf__load_vmlinux_btf();
    if (libbpf_get_error(kernel_btf_)) return 0;
    const char* tracepoint = bpf_program__section_name(program) + abi::kBtfTracepointSection.size();
    std::string type = "btf_trace_" + std::string(tracepoint);
    int id = btf__find_by_name_kind(kernel_btf_, type.c_str(), BTF_KIND_TYPEDEF);
    return id > 0 ? uint32_t(id) : 0;
  }

  static TracepointIds* current_;
  std::map<std::string, uint32_t> ids_;
  btf* kernel_btf_ = nullptr;
  int handler_ = 0;
};
TracepointIds* TracepointIds::current_ = nullptr;

}  // namespace

LoadedObject::LoadedObject(bpf_object* object, std::vector<abi::AttachPoint> points)
    : object_(object), points_(std::move(points)) {}

LoadedObject::~LoadedObject() {
  detach();
  bpf_object__close(object_);
}

std::unique_ptr<LoadedObject> LoadedObject::load(const std::vector<char>& elf,
                                                 const std::vector<abi::AttachPoint>& points, bool verbose,
                                                 BufferResizer& resizer, std::string& error, EarlyMaps* early) {
  LibbpfLogCapture log;
  LIBBPF_OPTS(bpf_object_open_opts, options, .object_name = "dsched");
  bpf_object* object = nullptr;
  int err = 0;
  std::string verifier;  // libbpf's messages of the last try
  // A failed load cannot be retried on the same object: each try opens the object anew, with the
  // buffers halved so far.
  do {
    if (object) bpf_object__close(object);
    TracepointIds tracepoint_ids(points);
    object = bpf_object__open_mem(elf.data(), elf.size(), &options);
    if (!object) {
      error = "cannot open the compiled program: " + errno_text(errno);
      return nullptr;
    }
    resizer.apply(object);
    if (early) early->hand_over(object);
    for (const abi::AttachPoint& point : points) {
      if (bpf_program* program = bpf_object__find_program_by_name(object, point.program.c_str())) {
        bpf_program__set_autoattach(program, false);
        if (point.kind == abi::AttachPoint::Kind::Uprobe)
          bpf_program__set_expected_attach_type(program, static_cast<bpf_attach_type>(kUprobeMultiAttach));
      }
    }
    err = bpf_object__load(object);
    verifier = log.take();
  } while (err && resizer.halve_failed(err, verifier, object));
  if (err) {
    std::string clause = "the program";
    for (const abi::AttachPoint& point : points) {
      // libbpf names the program whose load failed: "prog '<name>': failed to load"
      if (verifier.find("prog '" + point.program + "': failed to load") != std::string::npos) {
        clause = "clause for " + point.clause;
        break;
      }
    }
    std::optional<std::string> missing = missing_kernel_object(verifier);
    if (!missing) missing = forbidden_helper(verifier);
    if (missing) {
      error = "failed to enable " + clause + ": " + *missing;
      if (verbose) error += "\nlibbpf:\n" + verifier;
      bpf_object__close(object);
      return nullptr;
    }
    if (err == -EMFILE || err == -ENFILE) {
      // Not the verifier's doing: every map and program is a file descriptor.
      rlimit files{};
      getrlimit(RLIMIT_NOFILE, &files);
      error = "failed to enable " + clause + ": " + errno_text(err) + " (dsched may open " +
              std::to_string(files.rlim_cur) + "; raise the limit with ulimit -n)";
      bpf_object__close(object);
      return nullptr;
    }
    error = "failed to enable " + clause + ": the kernel refused it (" + errno_text(err) + ")";
    if (!verifier.empty())
      error += verbose ? "\nverifier log:\n" + verifier : "\nverifier log (last lines; -v shows all):\n" + tail_lines(verifier, 8);
    bpf_object__close(object);
    return nullptr;
  }
  return std::unique_ptr<LoadedObject>(new LoadedObject(object, points));
}

bool LoadedObject::attach(std::string& error) {
  for (const abi::AttachPoint& point : points_) {
    if (point.kind == abi::AttachPoint::Kind::OnDemand) continue;
    if (point.kind == abi::AttachPoint::Kind::PerfTimer) {
      if (!attach_perf_timer(point, error)) {
        detach();
        return false;
      }
      continue;
    }
    bpf_program* program = bpf_object__find_program_by_name(object_, point.program.c_str());
    if (program && point.kind == abi::AttachPoint::Kind::Uprobe) {
      int fd = attach_uprobe(program, point);
      if (fd >= 0) {
        uprobe_links_.push_back(fd);
        continue;
      }
      if (errno == kNotSupported) {
        // The kernel cannot single-step every instruction (a pattern over a library meets some).
        notes_.push_back("probe " + point.clause + " is not enabled: uprobes cannot instrument the instruction there");
        continue;
      }
    }
    bpf_link* link = !program || point.kind == abi::AttachPoint::Kind::Uprobe ? nullptr
                     : is_btf_tracepoint(program)                            ? bpf_program__attach_trace(program)
                                                                             : bpf_program__attach(program);
    if (!link) {
      error = "failed to enable probe " + point.clause + ": " + errno_text(errno);
      detach();
      return false;
    }
    links_.push_back(link);
  }
  return true;
}

// A uprobe_multi link of one site: unlike a perf-event uprobe, its removal does not hold the
// kernel's trace event lock, so many are taken out in parallel (detach()).
int LoadedObject::attach_uprobe(bpf_program* program, const abi::AttachPoint& point) {
  uint64_t offset = point.offset;
  uint64_t semaphore = point.semaphore_offset;
  UprobeMultiAttr attr{};
  attr.prog_fd = uint32_t(bpf_program__fd(program));
  attr.attach_type = kUprobeMultiAttach;
  attr.path = reinterpret_cast<uint64_t>(point.binary.c_str());
  attr.offsets = reinterpret_cast<uint64_t>(&offset);
  attr.ref_ctr_offsets = semaphore ? reinterpret_cast<uint64_t>(&semaphore) : 0;
  attr.cnt = 1;
  attr.flags = point.retprobe ? kUprobeMultiReturn : 0;
  attr.pid = point.pid > 0 ? uint32_t(point.pid) : 0;
  return static_cast<int>(syscall(SYS_bpf, BPF_LINK_CREATE, &attr, sizeof attr));
}

bool LoadedObject::attach_perf_timer(const abi::AttachPoint& point, std::string& error) {
  bpf_program* program = bpf_object__find_program_by_name(object_, point.program.c_str());
  int first = point.every_cpu ? 0 : point.cpu;
  int last = point.every_cpu ? libbpf_num_possible_cpus() - 1 : point.cpu;
  for (int cpu = first; cpu <= last; ++cpu) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = point.period_ns;
    int fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
      if (errno == ENODEV || errno == ENXIO) continue;  // a possible CPU that is not online
      error = "failed to enable probe " + point.clause + ": perf_event_open: " + errno_text(errno);
      return false;
    }
    perf_fds_.push_back(fd);
    bpf_link* link = bpf_program__attach_perf_event(program, fd);
    if (!link) {
      error = "failed to enable probe " + point.clause + ": " + errno_text(errno);
      return false;
    }
    links_.push_back(link);
  }
  return true;
}

void LoadedObject::detach() {
  // Taking a uprobe out waits for a kernel grace period (about 0.1 s); links taken out at once from
  // several threads share their grace periods, so a thousand uprobes detach in seconds, not minutes.
  const size_t threads = std::min<size_t>(kDetachThreads, uprobe_links_.size() / kLinksPerDetachThread);
  if (threads > 1) {
    std::vector<std::thread> workers;
    for (size_t t = 0; t < threads; ++t)
      workers.emplace_back([this, t, threads] {
        for (size_t i = t; i < uprobe_links_.size(); i += threads) close(uprobe_links_[i]);
      });
    for (std::thread& worker : workers) worker.join();
  } else {
    for (int fd : uprobe_links_) close(fd);
  }
  uprobe_links_.clear();
  for (bpf_link* link : links_) bpf_link__destroy(link);
  links_.clear();
  for (int fd : perf_fds_) close(fd);
  perf_fds_.clear();
}

bool LoadedObject::run(const std::string& name, std::string& error) {
  bpf_program* program = bpf_object__find_program_by_name(object_, name.c_str());
  if (!program) {
    error = "no program " + name;
    return false;
  }
  std::array<uint64_t, abi::kOnDemandArgs> args{};  // arg0..arg5 of BEGIN and END are 0
  LIBBPF_OPTS(bpf_test_run_opts, options, .ctx_in = args.data(), .ctx_size_in = sizeof args);
  if (int err = bpf_prog_test_run_opts(bpf_program__fd(program), &options)) {
    error = "cannot run " + name + ": " + errno_text(err);
    return false;
  }
  return true;
}

uint64_t LoadedObject::skipped_firings() const {
  uint64_t total = 0;
  bpf_program* program;
  bpf_object__for_each_program(program, object_) {
    bpf_prog_info info{};
    uint32_t size = sizeof info;
    if (bpf_obj_get_info_by_fd(bpf_program__fd(program), &info, &size) == 0) total += info.recursion_misses;
  }
  return total;
}

int LoadedObject::map_fd(const std::string& name) const {
  bpf_map* map = bpf_object__find_map_by_name(object_, name.c_str());
  return map ? bpf_map__fd(map) : -1;
}

}  // namespace dsched
