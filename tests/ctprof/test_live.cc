// Captures of this machine: values agree with /proc read independently, and CPU contention
// shows up as growing cpu delay between two captures.
#include <dirent.h>
#include <doctest/doctest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "capture.h"
#include "options.h"
#include "report.h"
#include "test_files_util.h"

using namespace dsched::ctprof;
using ctprof_test::slurp;

namespace {

// Field `n` (1-based, as in proc(5)) of a stat line; fields after comm are split on spaces.
std::string stat_field(const std::string& stat, int n) {
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= n; ++i) rest >> field;
  return field;
}

std::string status_field(const std::string& status, const std::string& key) {
  std::istringstream in(status);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + ":", 0) == 0) {
      auto v = line.substr(key.size() + 1);
      return v.substr(v.find_first_not_of(" \t"));
    }
  return {};
}

std::set<int> live_tids() {
  std::set<int> tids;
  DIR* proc = opendir("/proc");
  while (dirent* p = readdir(proc)) {
    if (p->d_name[0] < '0' || p->d_name[0] > '9') continue;
    DIR* task = opendir(("/proc/" + std::string(p->d_name) + "/task").c_str());
    if (!task) continue;
    while (dirent* t = readdir(task))
      if (t->d_name[0] >= '0' && t->d_name[0] <= '9') tids.insert(std::atoi(t->d_name));
    closedir(task);
  }
  closedir(proc);
  return tids;
}

const ThreadRecord* find_tid(const Snapshot& s, int tid) {
  for (const auto& t : s.threads)
    if (t.tid == tid) return &t;
  return nullptr;
}

// Threads the test owns; stopped and joined on scope exit even when an assertion fails.
class ThreadSet {
 public:
  ~ThreadSet() { stop(); }
  // Starts a named thread running body(*this); returns its tid once it runs.
  template <typename Body>
  int start(const std::string& name, Body body) {
    std::promise<int> tid;
    auto ready = tid.get_future();
    threads_.emplace_back([this, name, body, &tid] {
      pthread_setname_np(pthread_self(), name.c_str());
      tid.set_value(static_cast<int>(syscall(SYS_gettid)));
      body(*this);
    });
    return ready.get();
  }
  bool stopping() const { return stop_; }
  // Sleeps until stop(): the thread's counters hold still meanwhile.
  void park() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return stop_.load(); });
  }
  void stop() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::thread> threads_;
};

// Sets a sysctl for the scope, restoring the previous value afterwards (also on failure).
class SysctlGuard {
 public:
  SysctlGuard(std::string path, const std::string& value) : path_(std::move(path)) {
    previous_ = slurp(path_);
    std::ofstream(path_) << value;
  }
  ~SysctlGuard() {
    if (!previous_.empty()) std::ofstream(path_) << previous_;
  }

 private:
  std::string path_, previous_;
};

}  // namespace

TEST_CASE("ctprof live capture agrees with /proc for threads this test owns") {
  ThreadSet threads;
  std::vector<int> tids;
  for (int i = 0; i < 6; ++i)
    tids.push_back(
        threads.start("ctprof-park-" + std::to_string(i), [](ThreadSet& set) { set.park(); }));
  // Let every thread reach its wait.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));

  // Counters of the owned threads read independently before and after: the capture lies between.
  struct Reading {
    std::uint64_t run = 0, slices = 0, vcsw = 0, utime = 0, rchar = 0;
  };
  auto read_thread = [](int tid) {
    const std::string dir = "/proc/self/task/" + std::to_string(tid) + "/";
    Reading r;
    std::istringstream schedstat(slurp(dir + "schedstat"));
    std::uint64_t wait = 0;
    schedstat >> r.run >> wait >> r.slices;
    r.vcsw = std::stoull(status_field(slurp(dir + "status"), "voluntary_ctxt_switches"));
    r.utime = std::stoull(stat_field(slurp(dir + "stat"), 14));
    r.rchar = std::stoull(status_field(slurp(dir + "io"), "rchar"));
    return r;
  };
  std::vector<Reading> lower, upper;
  for (int tid : tids) lower.push_back(read_thread(tid));
  const auto before = live_tids();
  std::ostringstream diag;
  const Snapshot snap = capture(CaptureOptions{}, diag);
  const auto after = live_tids();
  for (int tid : tids) upper.push_back(read_thread(tid));

  // Every thread alive before and after the capture is in it.
  std::size_t missing = 0;
  for (int tid : before)
    if (after.count(tid) && !find_tid(snap, tid)) ++missing;
  CHECK(missing == 0);
  CHECK(snap.threads.size() + snap.parse.tids_exited == snap.parse.tids_walked);
  CHECK(snap.taskstats.ok_count > 0);
  CHECK(snap.host.uptime_ns > 0);
  CHECK(snap.host.clock_ticks_per_s == static_cast<std::uint32_t>(sysconf(_SC_CLK_TCK)));

  const int pid = getpid();
  std::size_t ours = 0;
  for (const auto& t : snap.threads) ours += t.tgid == pid;
  CHECK(ours == 1 + tids.size());  // the main thread and the parked ones

  std::string own_comm = slurp("/proc/self/comm");
  own_comm.pop_back();
  for (std::size_t i = 0; i < tids.size(); ++i) {
    const int tid = tids[i];
    CAPTURE(tid);
    const ThreadRecord* t = find_tid(snap, tid);
    REQUIRE(t);
    const std::string dir = "/proc/self/task/" + std::to_string(tid) + "/";
    const std::string stat = slurp(dir + "stat");
    CHECK(t->comm == "ctprof-park-" + std::to_string(i));
    CHECK(t->tgid == pid);
    CHECK(t->pcomm == own_comm);
    CHECK(t->value[kStartTimeTicks] == std::stoull(stat_field(stat, 22)));
    CHECK(static_cast<std::int64_t>(t->value[kNice]) == std::stoll(stat_field(stat, 19)));
    CHECK(static_cast<std::int64_t>(t->value[kPriority]) == std::stoll(stat_field(stat, 18)));
    CHECK(snap.text(t->value[kPolicy]) == "SCHED_OTHER");
    CHECK(snap.text(t->value[kState]) == "S");  // parked
    CHECK(status_field(slurp(dir + "status"), "State").substr(0, 1) == "S");
    CHECK(snap.text(t->value[kCpuAffinity]) ==
          status_field(slurp(dir + "status"), "Cpus_allowed_list"));
    CHECK(t->value[kRunTimeNs] >= lower[i].run);
    CHECK(t->value[kRunTimeNs] <= upper[i].run);
    CHECK(t->value[kTimeslices] >= lower[i].slices);
    CHECK(t->value[kTimeslices] <= upper[i].slices);
    CHECK(t->value[kVoluntaryCsw] >= lower[i].vcsw);
    CHECK(t->value[kVoluntaryCsw] <= upper[i].vcsw);
    CHECK(t->value[kUtimeTicks] >= lower[i].utime);
    CHECK(t->value[kUtimeTicks] <= upper[i].utime);
    CHECK(t->value[kRchar] == lower[i].rchar);  // a sleeping thread reads nothing
    CHECK(t->has.test(kNrMigrations));
    CHECK_FALSE(t->has.test(kWaitSum));  // this kernel has no CONFIG_SCHEDSTATS
    CHECK(t->has.test(delay_metric(0, kDelayCount)));
    CHECK(t->value[kHiwaterRssBytes] > 0);
  }
  const ThreadRecord* leader = find_tid(snap, pid);
  REQUIRE(leader);
  // The leader's thread count was read while the capture's own threads ran (the taskstats and
  // jemalloc queries, the jemalloc prober, up to three more walkers): at most six more than now.
  const std::uint64_t threads_now = std::stoull(status_field(slurp("/proc/self/status"), "Threads"));
  CHECK(leader->value[kNrThreads] >= threads_now);
  CHECK(leader->value[kNrThreads] <= threads_now + 6);
  // The leader carries the process's smaps_rollup; its Rss is what the kernel says about it now
  // (within what this test allocates meanwhile).
  REQUIRE(leader->smaps_kib.count("Rss"));
  const std::uint64_t rss_now = std::stoull(status_field(slurp("/proc/self/smaps_rollup"), "Rss"));
  CHECK(leader->smaps_kib.at("Rss") > 0);
  CHECK(leader->smaps_kib.at("Rss") <= rss_now + 4096);

  // Host context and host pressure of this machine.
  std::string cmdline = slurp("/proc/cmdline");
  cmdline.pop_back();  // the newline
  CHECK(snap.host.kernel_cmdline == cmdline);
  CHECK(snap.host.total_memory_kb.value_or(0) > 0);
  CHECK(snap.host.cpu_model.has_value());
  CHECK(snap.host.sched_tunables.count("sched_rt_runtime_us") == 1);
  const bool psi = !slurp("/proc/pressure/cpu").empty();
  CHECK(snap.host_psi.resource[kPsiCpu].present == psi);
  // Every cgroup a thread is in was looked up (read, or counted as a failure).
  CHECK(snap.sources.cgroups_read == snap.cgroup_stats.size());
  CHECK(snap.cgroup_stats.count(leader->cgroup) == 1);
}

TEST_CASE("ctprof live: two threads pinned to one CPU accumulate cpu delay between captures") {
  SysctlGuard delayacct("/proc/sys/kernel/task_delayacct", "1");
  CHECK(slurp("/proc/sys/kernel/task_delayacct") == "1\n");
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  int cpu = 0;
  while (!CPU_ISSET(cpu, &allowed)) ++cpu;

  ThreadSet threads;
  std::vector<int> tids;
  for (int i = 0; i < 2; ++i)
    tids.push_back(threads.start("ctprof-spin", [cpu](ThreadSet& set) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      pthread_setaffinity_np(pthread_self(), sizeof one, &one);
      while (!set.stopping()) {
      }
    }));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::ostringstream diag;
  const Snapshot a = capture(CaptureOptions{}, diag);
  const auto between_start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const Snapshot b = capture(CaptureOptions{}, diag);
  const auto between_ns =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - between_start)
                                     .count());
  threads.stop();

  auto delay_of = [](const Snapshot& s, const std::vector<int>& tids, DelayField f) {
    std::uint64_t sum = 0;
    for (int tid : tids) {
      const ThreadRecord* t = find_tid(s, tid);
      REQUIRE(t);
      REQUIRE(t->has.test(delay_metric(0, f)));
      sum += t->value[delay_metric(0, f)];
    }
    return sum;
  };
  const auto total_a = delay_of(a, tids, kDelayTotal), total_b = delay_of(b, tids, kDelayTotal);
  CHECK(total_b > total_a);
  // One CPU, two runnable threads: whenever one runs the other queues, so together they wait
  // for about the whole interval. A quarter leaves room for capture time and other load.
  CHECK(total_b - total_a > between_ns / 4);
  CHECK(delay_of(b, tids, kDelayCount) > delay_of(a, tids, kDelayCount));
  CHECK(diag.str().find("task_delayacct is off") == std::string::npos);

  // The compare table shows the growth for the spinners' group.
  std::vector<std::string> positional;
  const std::string table = render_compare(
      a, b,
      parse_report_flags({"--group-by", "comm-exact", "--metrics", "cpu_delay_total_ns"},
                         positional, ReportKind::Compare));
  const auto row = table.find("\nctprof-spin ");
  REQUIRE(row != std::string::npos);
  const std::string line = table.substr(row + 1, table.find('\n', row + 1) - row - 1);
  CHECK(line.find(" +") != std::string::npos);  // positive delta
}
