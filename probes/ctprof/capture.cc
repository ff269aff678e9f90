#include "capture.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>
#include <unordered_map>

#include "proc_parse.h"

namespace dsched::ctprof {
namespace {

// An owned file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

// Reads a whole /proc file relative to `dir` into `buf` (reused between calls, so no allocation
// in the steady state). Returns 0 or the errno of the failure.
int read_at(int dir, const char* name, std::string& buf) {
  Fd fd(openat(dir, name, O_RDONLY | O_CLOEXEC));
  if (!fd.ok()) return errno;
  if (buf.size() < 4096) buf.resize(4096);
  std::size_t used = 0;
  for (;;) {
    if (used == buf.size()) buf.resize(buf.size() * 2);
    const ssize_t n = read(fd.get(), buf.data() + used, buf.size() - used);
    if (n < 0) return errno;
    used += static_cast<std::size_t>(n);
    // seq_file fills the whole request unless it reached the end, so a short read is the end:
    // this saves the extra read() that would return 0.
    if (n == 0 || used < buf.size()) break;
  }
  buf.resize(used);
  return 0;
}

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

HostInfo read_host(int proc_fd, std::string& buf) {
  HostInfo h;
  utsname u{};
  if (uname(&u) == 0) {
    h.hostname = u.nodename;
    h.kernel_release = u.release;
  }
  h.cpu_count = static_cast<std::uint32_t>(sysconf(_SC_NPROCESSORS_ONLN));
  h.clock_ticks_per_s = static_cast<std::uint32_t>(sysconf(_SC_CLK_TCK));
  h.captured_at_unix_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
  if (read_at(proc_fd, "uptime", buf) == 0) {
    // "seconds.hundredths idle": keep nanoseconds without going through floating point.
    std::string_view up(buf);
    auto dot = up.find('.');
    std::uint64_t sec = 0, frac = 0;
    std::from_chars(up.data(), up.data() + (dot == std::string_view::npos ? up.size() : dot), sec);
    if (dot != std::string_view::npos) {
      auto f = up.substr(dot + 1, 2);
      std::from_chars(f.data(), f.data() + f.size(), frac);
      if (f.size() == 1) frac *= 10;
    }
    h.uptime_ns = sec * 1'000'000'000ULL + frac * 10'000'000ULL;
  }
  if (read_at(proc_fd, "stat", buf) == 0) {
    auto pos = buf.find("\nbtime ");
    if (pos != std::string::npos) {
      const char* p = buf.data() + pos + 7;
      std::from_chars(p, buf.data() + buf.size(), h.boot_time_unix_s);
    }
  }
  if (read_at(proc_fd, "sys/kernel/task_delayacct", buf) == 0) {
    int v = 0;
    if (std::from_chars(buf.data(), buf.data() + buf.size(), v).ec == std::errc())
      h.task_delayacct = v;
  }
  return h;
}

void store_delays(const DelayRecord& d, ThreadRecord& rec) {
  for (std::size_t b = 0; b < 8; ++b)
    for (std::size_t f = 0; f < 4; ++f) rec.set(delay_metric(b, DelayField(f)), d.bucket[b][f]);
  rec.set(kHiwaterRssBytes, d.hiwater_rss_bytes);
  rec.set(kHiwaterVmBytes, d.hiwater_vm_bytes);
}

void tally(TaskstatsTally& t, TaskstatsStatus s) {
  switch (s) {
    case TaskstatsStatus::Ok: ++t.ok_count; break;
    case TaskstatsStatus::Eperm: ++t.eperm_count; break;
    case TaskstatsStatus::Esrch: ++t.esrch_count; break;
    case TaskstatsStatus::OtherError: ++t.other_err_count; break;
  }
}

// Reads one thread's files; false when the thread exited during the walk.
bool read_thread(int task_dir, std::int32_t tgid, std::int32_t tid, std::string& buf,
                 Snapshot& snap, ThreadRecord& rec) {
  rec.tgid = tgid;
  rec.tid = tid;
  // stat first: a thread whose stat is gone has exited.
  if (read_at(task_dir, "stat", buf) != 0) return false;
  auto& failures = snap.parse.failures_by_file;
  if (!parse_stat(buf, snap, rec)) ++failures[kStatFile];
  bool exited = false;
  auto attempt = [&](ProcFile f, auto&& parse) {
    if (exited) return;
    if (read_at(task_dir, kProcFileNames[f].data(), buf) != 0) {
      // A file of a thread that has since exited is not a read failure.
      exited = faccessat(task_dir, "stat", F_OK, 0) != 0;
      if (!exited) ++failures[f];
    } else if (!parse(std::string_view(buf))) {
      ++failures[f];
    }
  };
  attempt(kSchedstatFile, [&](std::string_view t) { return parse_schedstat(t, rec); });
  attempt(kStatusFile, [&](std::string_view t) { return parse_status(t, tid == tgid, snap, rec); });
  attempt(kIoFile, [&](std::string_view t) { return parse_io(t, rec); });
  attempt(kSchedFile, [&](std::string_view t) { return parse_sched(t, rec); });
  attempt(kCgroupFile, [&](std::string_view t) { return parse_cgroup(t, rec.cgroup); });
  return !exited;
}

struct TaskId {
  std::int32_t tgid, tid;
};

// Every /proc/<tgid>/task/<tid> at this moment. Listing first lets the reading be shared out.
std::vector<TaskId> list_tasks(int proc_fd) {
  std::vector<TaskId> tasks;
  char path[32];
  for (std::int32_t tgid : numeric_entries(proc_fd)) {
    std::snprintf(path, sizeof path, "%d/task", tgid);
    Fd dir(openat(proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir.ok()) continue;  // the process exited before we listed its threads
    for (std::int32_t tid : numeric_entries(dir.get())) tasks.push_back({tgid, tid});
  }
  return tasks;
}

using AffinityFn = std::function<std::optional<std::string>(int)>;

// One walker: reads the threads whose indices `next` hands out into its own partial snapshot.
void walk(int proc_fd, const std::vector<TaskId>& tasks, std::atomic<std::size_t>& next,
          const AffinityFn& affinity, Snapshot& part) {
  std::string buf;
  buf.reserve(16384);
  char path[48];
  for (std::size_t i = next++; i < tasks.size(); i = next++) {
    const auto [tgid, tid] = tasks[i];
    std::snprintf(path, sizeof path, "%d/task/%d", tgid, tid);
    Fd task_dir(openat(proc_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC));
    ThreadRecord rec;
    if (!task_dir.ok() || !read_thread(task_dir.get(), tgid, tid, buf, part, rec)) {
      ++part.parse.tids_exited;
      continue;
    }
    if (auto cpus = affinity(tid)) rec.set(kCpuAffinity, part.intern(*cpus));
    part.threads.push_back(std::move(rec));
  }
}

// Moves the walkers' threads and tallies into `snap`, re-interning their text values.
void merge(std::vector<Snapshot>& parts, Snapshot& snap) {
  for (auto& part : parts) {
    snap.parse.tids_exited += part.parse.tids_exited;
    for (std::size_t f = 0; f < kProcFileCount; ++f)
      snap.parse.failures_by_file[f] += part.parse.failures_by_file[f];
    for (auto& t : part.threads) {
      for (std::size_t id = 0; id < kStoredMetricCount; ++id)
        if (metric(id).unit == Unit::Text && t.has.test(id))
          t.value[id] = snap.intern(part.text(t.value[id]));
      snap.threads.push_back(std::move(t));
    }
  }
  std::sort(snap.threads.begin(), snap.threads.end(), [](const auto& a, const auto& b) {
    return a.tgid != b.tgid ? a.tgid < b.tgid : a.tid < b.tid;
  });
}

// Reading /proc costs microseconds of kernel time per file, so large trees are read by several
// walkers; small ones are not worth a thread.
unsigned walker_count(std::size_t tasks) {
  constexpr std::size_t kTasksPerWalker = 128;
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(
      std::clamp<std::size_t>(tasks / kTasksPerWalker, 1, std::min(cpus, 4u)));
}

}  // namespace

Snapshot capture(const CaptureOptions& options, std::ostream& diagnostics) {
  Snapshot snap;
  std::string buf;
  Fd proc(open(options.proc_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!proc.ok()) {
    diagnostics << "ctprof: cannot open " << options.proc_root << ": " << std::strerror(errno)
                << "\n";
    return snap;
  }
  snap.host = read_host(proc.get(), buf);
  const std::vector<TaskId> tasks = list_tasks(proc.get());
  snap.parse.tids_walked = tasks.size();

  // Taskstats are queried for every listed tid while the walkers read /proc.
  TaskstatsOutcome outcome;
  std::unique_ptr<NetlinkTaskstats> kernel_source;
  TaskstatsSource* source = nullptr;
  if (options.taskstats == CaptureOptions::Taskstats::Kernel) {
    kernel_source = NetlinkTaskstats::open(outcome.reason);
    source = kernel_source.get();
    if (!source) outcome.state = TaskstatsOutcome::Unavailable;
  } else if (options.taskstats == CaptureOptions::Taskstats::Injected) {
    source = options.injected;
  } else {
    outcome.state = TaskstatsOutcome::Disabled;
  }
  std::vector<TaskstatsResult> taskstats;
  std::thread taskstats_thread;
  if (source) {
    std::vector<std::uint32_t> tids;
    tids.reserve(tasks.size());
    for (const auto& t : tasks) tids.push_back(static_cast<std::uint32_t>(t.tid));
    taskstats_thread = std::thread([&, tids = std::move(tids)] { taskstats = source->query(tids); });
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

  // pcomm: the leader's comm. A leader always lists itself in task/ while its process lives.
  std::unordered_map<std::int32_t, const std::string*> leader_comm;
  for (const auto& t : snap.threads)
    if (t.tid == t.tgid) leader_comm.emplace(t.tgid, &t.comm);
  for (auto& t : snap.threads) {
    auto it = leader_comm.find(t.tgid);
    t.pcomm = it != leader_comm.end() ? *it->second : t.comm;
  }

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
  for (const auto& line : capture_hints(snap, outcome)) diagnostics << line << "\n";
  return snap;
}

std::vector<std::string> capture_hints(const Snapshot& snap, const TaskstatsOutcome& taskstats) {
  std::vector<std::string> out;
  const auto& p = snap.parse;
  const std::uint64_t failures = p.read_failures();
  std::string summary = "ctprof parse: " + std::to_string(p.tids_walked) + " tids walked, " +
                        std::to_string(failures) + " read failures";
  if (failures > 0) summary += " (dominant: " + p.dominant() + ")";
  if (p.tids_exited > 0) summary += ", " + std::to_string(p.tids_exited) + " exited mid-walk";
  // A file class failing for every captured thread is a kernel configuration, not a race.
  struct Gate { ProcFile file; const char* kconfig; };
  static constexpr Gate gates[] = {{kSchedstatFile, "CONFIG_SCHED_INFO"},
                                   {kIoFile, "CONFIG_TASK_IO_ACCOUNTING"},
                                   {kSchedFile, "CONFIG_SCHED_DEBUG"},
                                   {kCgroupFile, "CONFIG_CGROUPS"}};
  std::string files, kconfigs;
  if (!snap.threads.empty()) {
    for (const auto& g : gates) {
      if (p.failures_by_file[g.file] < snap.threads.size()) continue;
      files += (files.empty() ? "" : " / ") + std::string(kProcFileNames[g.file]);
      kconfigs += (kconfigs.empty() ? "" : " and/or ") + std::string(g.kconfig);
    }
  }
  if (!files.empty())
    summary += "; hint: " + files + " read failures dominate — kernel may be built without " +
               kconfigs;
  out.push_back(summary);

  const auto& t = snap.taskstats;
  if (taskstats.state == TaskstatsOutcome::Disabled) return out;
  if (taskstats.state == TaskstatsOutcome::Unavailable) {
    out.push_back("ctprof taskstats: unavailable (" + taskstats.reason +
                  "); delay metrics will read '-'");
    return out;
  }
  if (t.eperm_count > 0)
    out.push_back("ctprof taskstats: " + std::to_string(t.eperm_count) +
                  " queries refused (EPERM) — the capturing process lacks CAP_NET_ADMIN; run as "
                  "root or grant cap_net_admin+eip");
  const std::uint64_t queried = t.ok_count + t.eperm_count + t.esrch_count + t.other_err_count;
  if (queried > 0 && t.esrch_count * 2 > queried)
    out.push_back("ctprof taskstats: " + std::to_string(t.esrch_count) + " of " +
                  std::to_string(queried) +
                  " threads exited before their query (ESRCH); lengthen the workload's steady "
                  "state and re-capture");
  if (t.ok_count > 0) {
    bool any_delay = false;
    for (const auto& th : snap.threads)
      for (std::size_t b = 0; b < 8 && !any_delay; ++b)
        any_delay = th.value[delay_metric(b, kDelayCount)] != 0 ||
                    th.value[delay_metric(b, kDelayTotal)] != 0;
    if (!any_delay)
      out.push_back("ctprof taskstats: every delay reads zero although " +
                    std::to_string(t.ok_count) +
                    " queries succeeded — kernel.task_delayacct is off; enable it with "
                    "`sysctl -w kernel.task_delayacct=1` (or boot with delayacct) and re-capture");
  }
  return out;
}

std::optional<std::string> kernel_affinity(int tid) {
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  const int ncpu = static_cast<int>(configured > 0 ? configured : 1) + 64;
  cpu_set_t* set = CPU_ALLOC(ncpu);
  const std::size_t size = CPU_ALLOC_SIZE(ncpu);
  std::optional<std::string> out;
  if (sched_getaffinity(tid, size, set) == 0) {
    std::vector<unsigned> cpus;
    for (int c = 0; c < ncpu; ++c)
      if (CPU_ISSET_S(c, size, set)) cpus.push_back(static_cast<unsigned>(c));
    out = cpu_list(cpus);
  }
  CPU_FREE(set);
  return out;
}

}  // namespace dsched::ctprof
