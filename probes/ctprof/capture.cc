#include "capture.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <set>
#include <thread>
#include <unordered_map>

#include "capture_hints.h"
#include "cgroup_source.h"
#include "file_read.h"
#include "host_source.h"
#include "jemalloc_probe.h"
#include "proc_parse.h"

namespace dsched::ctprof {
namespace {

bool parse_number(std::string_view s, std::int32_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out > 0;
}

// Numeric entries of an open directory.
std::vector<std::int32_t> numeric_entries(int dirfd) {
  std::vector<std::int32_t> ids;
  const int dup_fd = dup(dirfd);
  if (dup_fd < 0) return ids;
  DIR* d = fdopendir(dup_fd);
  if (!d) {
    close(dup_fd);
    return ids;
  }
  while (dirent* e = readdir(d)) {
    std::int32_t id;
    if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && parse_number(e->d_name, id))
      ids.push_back(id);
  }
  closedir(d);
  return ids;
}

void store_delays(const DelayRecord& d, ThreadRecord& rec) {
  for (std::size_t b = 0; b < 8; ++b)
    for (std::size_t f = 0; f < 4; ++f) rec.set(delay_metric(b, DelayField(f)), d.bucket[b][f]);
  rec.set(kHiwaterRssBytes, d.hiwater_rss_bytes);
  rec.set(kHiwaterVmBytes, d.hiwater_vm_bytes);
  // The schedstat counters, from the same query; a kernel without delay accounting answers zeros.
  if (d.bucket[0][kDelayCount] != 0 || d.run_virtual_total_ns != 0) {
    rec.set(kRunTimeNs, d.run_virtual_total_ns);
    rec.set(kWaitTimeNs, d.bucket[0][kDelayTotal]);
    rec.set(kTimeslices, d.bucket[0][kDelayCount]);
  }
}

void tally(TaskstatsTally& t, TaskstatsStatus s) {
  switch (s) {
    case TaskstatsStatus::Ok: ++t.ok_count; break;
    case TaskstatsStatus::Eperm: ++t.eperm_count; break;
    case TaskstatsStatus::Esrch: ++t.esrch_count; break;
    case TaskstatsStatus::OtherError: ++t.other_err_count; break;
  }
}

// Reads the files of one thread in its task directory.
class ThreadReader {
 public:
  ThreadReader(int task_dir, std::string& buf, Snapshot& snap, ThreadRecord& rec)
      : dir_(task_dir), buf_(buf), snap_(snap), rec_(rec) {}

  // False when the thread exited during the walk.
  bool read_all() {
    // stat first: a thread whose stat is gone has exited.
    if (read_at(dir_, "stat", buf_, true) != 0) return false;
    if (!parse_stat(buf_, rec_.tid == rec_.tgid, snap_, rec_)) ++failures()[kStatFile];
    attempt(kIoFile, [&](std::string_view t) { return parse_io(t, rec_); });
    // sched carries the context switches too; status is read only when sched cannot be.
    if (!attempt(kSchedFile, [&](std::string_view t) { return parse_sched(t, snap_, rec_); }))
      attempt(kStatusFile, [&](std::string_view t) { return parse_status(t, rec_); });
    attempt(kCgroupFile, [&](std::string_view t) { return parse_cgroup(t, rec_.cgroup); });
    // smaps_rollup describes the whole process: read once, for the leader.
    if (rec_.tid == rec_.tgid && !rec_.kernel_thread)
      attempt(kSmapsFile,
              [&](std::string_view t) { return parse_smaps_rollup(t, rec_.smaps_kib); });
    return !exited_;
  }

  // Reads and parses one file; counts a failure unless the thread has since exited.
  template <typename Parse>
  bool attempt(ProcFile f, Parse&& parse) {
    if (exited_) return false;
    // sched can outgrow a page (schedstats, NUMA lines); the others are far below one.
    if (read_at(dir_, kProcFileNames[f].data(), buf_, f != kSchedFile) != 0) {
      exited_ = faccessat(dir_, "stat", F_OK, 0) != 0;
      if (!exited_) ++failures()[f];
      return false;
    }
    if (parse(std::string_view(buf_))) return true;
    ++failures()[f];
    return false;
  }

 private:
  std::array<std::uint64_t, kProcFileCount>& failures() { return snap_.parse.failures_by_file; }
  int dir_;
  std::string& buf_;
  Snapshot& snap_;
  ThreadRecord& rec_;
  bool exited_ = false;
};

struct TaskId {
  std::int32_t tgid, tid;
};

// Every /proc/<tgid>/task/<tid> at this moment. Listing first lets the reading be shared out.
std::vector<TaskId> list_tasks(int proc_fd) {
  std::vector<TaskId> tasks;
  char path[32];
  for (std::int32_t tgid : numeric_entries(proc_fd)) {
    std::snprintf(path, sizeof path, "%d/task", tgid);
    Fd dir = open_dir(proc_fd, path);
    if (!dir.ok()) continue;  // the process exited before we listed its threads
    for (std::int32_t tid : numeric_entries(dir.get())) tasks.push_back({tgid, tid});
  }
  return tasks;
}

Fd open_task_dir(int proc_fd, const TaskId& t) {
  char path[48];
  std::snprintf(path, sizeof path, "%d/task/%d", t.tgid, t.tid);
  return open_dir(proc_fd, path, /*path_only=*/true);
}

using AffinityFn = std::function<std::optional<std::string>(int)>;

// One walker: reads the threads whose indices `next` hands out into its own partial snapshot.
void walk(int proc_fd, const std::vector<TaskId>& tasks, std::atomic<std::size_t>& next,
          const AffinityFn& affinity, Snapshot& part) {
  std::string buf;
  buf.reserve(16384);
  for (std::size_t i = next++; i < tasks.size(); i = next++) {
    Fd task_dir = open_task_dir(proc_fd, tasks[i]);
    ThreadRecord rec;
    rec.tgid = tasks[i].tgid;
    rec.tid = tasks[i].tid;
    if (!task_dir.ok() || !ThreadReader(task_dir.get(), buf, part, rec).read_all()) {
      ++part.parse.tids_exited;
      continue;
    }
    if (auto cpus = affinity(rec.tid)) rec.set(kCpuAffinity, part.intern(*cpus));
    part.threads.push_back(std::move(rec));
  }
}

// Moves the walkers' threads (in tgid, tid order) and tallies into `snap`, re-interning their
// text values.
void merge(std::vector<Snapshot>& parts, Snapshot& snap) {
  static const std::vector<std::size_t> text_metrics = [] {
    std::vector<std::size_t> ids;
    for (std::size_t id = 0; id < kStoredMetricCount; ++id)
      if (metric(id).unit == Unit::Text) ids.push_back(id);
    return ids;
  }();
  struct Slot {
    std::int32_t tgid, tid;
    Snapshot* part;
    ThreadRecord* record;
  };
  std::vector<Slot> order;
  for (auto& part : parts) {
    snap.parse.tids_exited += part.parse.tids_exited;
    for (std::size_t f = 0; f < kProcFileCount; ++f)
      snap.parse.failures_by_file[f] += part.parse.failures_by_file[f];
    for (auto& t : part.threads) order.push_back({t.tgid, t.tid, &part, &t});
  }
  // Sorting slots, not records: a record is most of a kilobyte.
  std::sort(order.begin(), order.end(), [](const Slot& a, const Slot& b) {
    return a.tgid != b.tgid ? a.tgid < b.tgid : a.tid < b.tid;
  });
  for (const Slot& s : order) {
    for (std::size_t id : text_metrics)
      if (s.record->has.test(id))
        s.record->value[id] = snap.intern(s.part->text(s.record->value[id]));
    snap.threads.push_back(std::move(*s.record));
  }
}

// Reading /proc costs microseconds of kernel time per file, so large trees are read by several
// walkers; small ones are not worth a thread.
unsigned walker_count(std::size_t tasks) {
  constexpr std::size_t kTasksPerWalker = 128;
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(
      std::clamp<std::size_t>(tasks / kTasksPerWalker, 1, std::min(cpus, 4u)));
}

// pcomm: the leader's comm. A leader always lists itself in task/ while its process lives.
void fill_pcomm(Snapshot& snap) {
  std::unordered_map<std::int32_t, const std::string*> leader_comm;
  for (const auto& t : snap.threads)
    if (t.tid == t.tgid) leader_comm.emplace(t.tgid, &t.comm);
  for (auto& t : snap.threads) {
    auto it = leader_comm.find(t.tgid);
    t.pcomm = it != leader_comm.end() ? *it->second : t.comm;
  }
}

// schedstat of the threads taskstats did not give the scheduler counters for.
void read_missing_schedstat(int proc_fd, Snapshot& snap) {
  std::string buf;
  for (auto& t : snap.threads) {
    if (t.has.test(kRunTimeNs)) continue;
    Fd dir = open_task_dir(proc_fd, {t.tgid, t.tid});
    if (!dir.ok()) continue;  // exited since the walk: keeps what was read
    ThreadReader(dir.get(), buf, snap, t).attempt(kSchedstatFile, [&](std::string_view text) {
      return parse_schedstat(text, t);
    });
  }
}

std::vector<ProbeTarget> probe_targets(const std::vector<TaskId>& tasks,
                                       const std::vector<int>& only) {
  std::vector<ProbeTarget> targets;
  for (const auto& t : tasks) {
    if (!only.empty() && std::find(only.begin(), only.end(), t.tgid) == only.end()) continue;
    if (targets.empty() || targets.back().tgid != t.tgid) targets.push_back({t.tgid, {}});
    targets.back().tids.push_back(t.tid);
  }
  return targets;
}

void read_cgroups(const std::string& root, Snapshot& snap) {
  std::set<std::string> paths;
  for (const auto& t : snap.threads)
    if (!t.cgroup.empty()) paths.insert(t.cgroup);
  if (paths.empty()) return;
  Fd root_dir(open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_dir.ok()) {
    snap.sources.failures["cgroup root " + root] += paths.size();
    return;
  }
  std::string buf;
  for (const auto& p : paths)
    snap.cgroup_stats[p] = read_cgroup(root_dir.get(), p, snap.sources, buf);
}

std::string default_cgroup_root() {
  std::string buf;
  Fd self = open_dir(AT_FDCWD, "/proc/self");
  const std::string mount =
      self.ok() && read_at(self.get(), "mountinfo", buf) == 0 ? cgroup2_mount(buf) : std::string();
  return mount.empty() ? "/sys/fs/cgroup" : mount;
}

}  // namespace

Snapshot capture(const CaptureOptions& options, std::ostream& diagnostics) {
  Snapshot snap;
  std::string buf;
  Fd proc = open_dir(AT_FDCWD, options.proc_root.c_str());
  if (!proc.ok()) {
    diagnostics << "ctprof: cannot open " << options.proc_root << ": " << std::strerror(errno)
                << "\n";
    return snap;
  }
  snap.host = read_host(proc.get(), snap.sources, buf);
  const std::vector<TaskId> tasks = list_tasks(proc.get());
  snap.parse.tids_walked = tasks.size();

  // Taskstats and the jemalloc probe run on their own threads while the walkers read /proc.
  CaptureNotes notes;
  std::unique_ptr<NetlinkTaskstats> kernel_source;
  TaskstatsSource* source = nullptr;
  if (options.taskstats == CaptureOptions::Taskstats::Kernel) {
    kernel_source = NetlinkTaskstats::open(notes.taskstats.reason);
    source = kernel_source.get();
    if (!source) notes.taskstats.state = TaskstatsOutcome::Unavailable;
  } else if (options.taskstats == CaptureOptions::Taskstats::Injected) {
    source = options.injected;
  } else {
    notes.taskstats.state = TaskstatsOutcome::Disabled;
  }
  std::vector<TaskstatsResult> taskstats;
  std::thread taskstats_thread;
  if (source) {
    std::vector<std::uint32_t> tids;
    tids.reserve(tasks.size());
    for (const auto& t : tasks) tids.push_back(static_cast<std::uint32_t>(t.tid));
    taskstats_thread =
        std::thread([&, tids = std::move(tids)] { taskstats = source->query(tids); });
  }
  std::unordered_map<std::int32_t, JemallocCounters> jemalloc;
  std::thread jemalloc_thread;
  if (options.jemalloc && options.proc_root != "/proc") {
    notes.jemalloc_skipped = "--proc-root is not /proc";
  } else if (options.jemalloc) {
    snap.jemalloc.emplace();
    jemalloc_thread = std::thread([&] {
      jemalloc = probe_jemalloc(options.proc_root, probe_targets(tasks, options.jemalloc_tgids),
                                *snap.jemalloc);
    });
  }

  const AffinityFn affinity = options.affinity ? options.affinity : kernel_affinity;
  std::vector<Snapshot> parts(options.walkers ? options.walkers : walker_count(tasks.size()));
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> walkers;
  for (std::size_t w = 1; w < parts.size(); ++w)
    walkers.emplace_back([&, w] { walk(proc.get(), tasks, next, affinity, parts[w]); });
  walk(proc.get(), tasks, next, affinity, parts[0]);
  for (auto& w : walkers) w.join();
  merge(parts, snap);
  fill_pcomm(snap);

  if (taskstats_thread.joinable()) {
    taskstats_thread.join();
    std::unordered_map<std::int32_t, std::size_t> index_of_tid;
    for (std::size_t i = 0; i < tasks.size() && i < taskstats.size(); ++i)
      index_of_tid.emplace(tasks[i].tid, i);
    // Tallied for captured threads only: a tid gone before its /proc read is already counted.
    for (auto& t : snap.threads) {
      auto it = index_of_tid.find(t.tid);
      if (it == index_of_tid.end()) continue;
      const TaskstatsResult& r = taskstats[it->second];
      tally(snap.taskstats, r.status);
      if (r.status == TaskstatsStatus::Ok) store_delays(r.delays, t);
    }
  }
  read_missing_schedstat(proc.get(), snap);
  if (jemalloc_thread.joinable()) {
    jemalloc_thread.join();
    for (auto& t : snap.threads)
      if (auto it = jemalloc.find(t.tid); it != jemalloc.end()) {
        t.set(kAllocatedBytes, it->second.allocated);
        t.set(kDeallocatedBytes, it->second.deallocated);
      }
  }
  read_cgroups(options.cgroup_root.empty() ? default_cgroup_root() : options.cgroup_root, snap);
  snap.host_psi = read_pressure(proc.get(), false, "host", snap.sources, buf);
  snap.sched_ext = read_sched_ext(options.sys_root, snap.sources, buf);
  for (const auto& line : capture_hints(snap, notes)) diagnostics << line << "\n";
  return snap;
}

std::optional<std::string> kernel_affinity(int tid) {
  // The mask buffer and the last mask seen are kept per thread: most threads share one
  // affinity, whose CPU list is then not rebuilt.
  static const std::size_t kBytes = [] {
    const long configured = sysconf(_SC_NPROCESSORS_CONF);
    return CPU_ALLOC_SIZE(static_cast<int>(configured > 0 ? configured : 1) + 64);
  }();
  thread_local std::vector<unsigned char> mask(kBytes), last_mask;
  thread_local std::string last_list;
  auto* set = reinterpret_cast<cpu_set_t*>(mask.data());
  if (sched_getaffinity(tid, kBytes, set) != 0) return std::nullopt;
  if (mask != last_mask) {
    std::vector<unsigned> cpus;
    for (std::size_t c = 0; c < kBytes * 8; ++c)
      if (CPU_ISSET_S(c, kBytes, set)) cpus.push_back(static_cast<unsigned>(c));
    last_list = cpu_list(cpus);
    last_mask = mask;
  }
  return last_list;
}

std::string cgroup2_mount(std::string_view mountinfo) {
  // "id parent major:minor root mount-point options [optional...] - fstype source super"
  while (!mountinfo.empty()) {
    const auto nl = mountinfo.find('\n');
    const std::string_view line = mountinfo.substr(0, nl);
    mountinfo = nl == std::string_view::npos ? std::string_view() : mountinfo.substr(nl + 1);
    const auto sep = line.find(" - ");
    if (sep == std::string_view::npos || !line.substr(sep + 3).starts_with("cgroup2 ")) continue;
    std::size_t field = 0, pos = 0;
    while (field < 4 && pos != std::string_view::npos) {
      pos = line.find(' ', pos);
      if (pos != std::string_view::npos) ++pos;
      ++field;
    }
    if (pos == std::string_view::npos) continue;
    return std::string(line.substr(pos, line.find(' ', pos) - pos));
  }
  return {};
}

}  // namespace dsched::ctprof
