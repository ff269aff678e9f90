// ctprof capture and compare cost with ~1,000 extra threads alive, the cost of each capture
// source, and of jemalloc probing per thread. Prints medians; not a test.
//   ctprof_bench [threads] [rounds] [jemalloc_processes]
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "capture.h"
#include "cgroup_source.h"
#include "file_read.h"
#include "host_source.h"
#include "jemalloc_probe.h"
#include "jemalloc_worker_process.h"
#include "options.h"
#include "proc_parse.h"
#include "report.h"
#include "snapshot_io.h"

using namespace dsched::ctprof;
using Clock = std::chrono::steady_clock;

namespace {

double cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto ms = [](timeval t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

// Median wall time and median CPU time (all threads of this process) of `rounds` runs.
struct Timing {
  double wall_ms, cpu_ms;
};

Timing measure(int rounds, const std::function<void()>& body) {
  std::vector<double> wall, cpu;
  for (int i = 0; i < rounds; ++i) {
    const auto t0 = Clock::now();
    const double c0 = cpu_ms();
    body();
    cpu.push_back(cpu_ms() - c0);
    wall.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

// Threads that sleep on a condition variable until the bench ends.
class ParkedThreads {
 public:
  explicit ParkedThreads(int n) {
    for (int i = 0; i < n; ++i)
      threads_.emplace_back([this] {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return done_; });
      });
  }
  ~ParkedThreads() {
    {
      std::lock_guard lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::vector<std::thread> threads_;
};

// Threads of the jemalloc workers (three each), as probe targets.
std::vector<ProbeTarget> targets_of(
    const std::vector<std::unique_ptr<ctprof_test::JemallocWorker>>& workers) {
  std::vector<ProbeTarget> out;
  for (const auto& w : workers) {
    ProbeTarget t{w->pid(), {}};
    for (const auto& e :
         std::filesystem::directory_iterator("/proc/" + std::to_string(w->pid()) + "/task"))
      t.tids.push_back(std::stoi(e.path().filename()));
    out.push_back(std::move(t));
  }
  return out;
}

void row(const char* what, Timing t, double floor_cpu = 0) {
  std::printf("%-46s %9.2f %9.2f", what, t.wall_ms, t.cpu_ms);
  if (floor_cpu > 0) std::printf(" %8.1fx", t.cpu_ms / floor_cpu);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const int extra = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  const int jemalloc_processes = argc > 3 ? std::atoi(argv[3]) : 20;
  ParkedThreads parked(extra);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));

  std::ostringstream diag;
  CaptureOptions defaults, one_walker, no_taskstats, no_jemalloc;
  one_walker.walkers = 1;
  no_taskstats.taskstats = CaptureOptions::Taskstats::Off;
  no_jemalloc.jemalloc = false;

  Snapshot snap = capture(defaults, diag);
  // The floor: the cheapest walk there is, one file (stat) of every thread, one thread.
  const Timing floor_t = measure(rounds, [&] {
    Fd proc = open_dir(AT_FDCWD, "/proc");
    std::string buf;
    for (const auto& t : snap.threads) {
      const std::string name = std::to_string(t.tgid) + "/task/" + std::to_string(t.tid) + "/stat";
      read_at(proc.get(), name.c_str(), buf, true);
    }
  });
  const Timing capture_t = measure(rounds, [&] { snap = capture(defaults, diag); });
  const Timing serial_t = measure(rounds, [&] { capture(one_walker, diag); });
  const Timing no_taskstats_t = measure(rounds, [&] { capture(no_taskstats, diag); });
  const Timing no_jemalloc_t = measure(rounds, [&] { capture(no_jemalloc, diag); });

  // Each source on its own, over this host, as capture reads it.
  std::string buf;
  Fd proc = open_dir(AT_FDCWD, "/proc");
  const Timing smaps_t = measure(rounds, [&] {
    for (const auto& t : snap.threads) {
      if (t.tid != t.tgid || t.kernel_thread) continue;
      std::map<std::string, std::uint64_t> kib;
      const std::string name = std::to_string(t.tgid) + "/smaps_rollup";
      if (read_at(proc.get(), name.c_str(), buf) == 0) parse_smaps_rollup(buf, kib);
    }
  });
  std::vector<ProbeTarget> every_process;
  for (const auto& t : snap.threads)
    if (every_process.empty() || every_process.back().tgid != t.tgid)
      every_process.push_back({t.tgid, {t.tid}});
  const Timing detect_t = measure(rounds, [&] {
    JemallocTally tally;
    probe_jemalloc("/proc", every_process, tally);
  });
  std::set<std::string> cgroups;
  for (const auto& t : snap.threads) cgroups.insert(t.cgroup);
  const std::string cgroup_root = cgroup2_mount([&] {
    Fd self = open_dir(AT_FDCWD, "/proc/self");
    read_at(self.get(), "mountinfo", buf);
    return buf;
  }());
  Fd root = open_dir(AT_FDCWD, cgroup_root.empty() ? "/sys/fs/cgroup" : cgroup_root.c_str(), true);
  const Timing cgroup_t = measure(rounds, [&] {
    SourceTally tally;
    for (const auto& c : cgroups) read_cgroup(root.get(), c, tally, buf);
  });
  const Timing host_t = measure(rounds, [&] {
    SourceTally tally;
    read_host(proc.get(), tally, buf);
  });
  const Timing pressure_t = measure(rounds, [&] {
    SourceTally tally;
    read_pressure(proc.get(), false, "host", tally, buf);
  });
  const Timing sched_ext_t = measure(rounds, [&] {
    SourceTally tally;
    read_sched_ext("/sys", tally, buf);
  });

  // jemalloc probing: the first attach runs the layout helper; later ones hit its cache.
  std::vector<std::unique_ptr<ctprof_test::JemallocWorker>> workers;
  for (int i = 0; i < jemalloc_processes; ++i)
    workers.push_back(std::make_unique<ctprof_test::JemallocWorker>(CTPROF_JEMALLOC_WORKER));
  const auto targets = targets_of(workers);
  std::size_t worker_threads = 0;
  for (const auto& t : targets) worker_threads += t.tids.size();
  JemallocTally first;
  const Timing first_t = measure(1, [&] { probe_jemalloc("/proc", {targets.front()}, first); });
  JemallocTally tally;
  const Timing probe_t = measure(rounds, [&] {
    tally = {};
    probe_jemalloc("/proc", targets, tally);
  });
  // One thread of each: attach once per process plus one stop; the difference is per thread.
  std::vector<ProbeTarget> one_each = targets;
  for (auto& t : one_each) t.tids.resize(1);
  const Timing one_each_t = measure(rounds, [&] {
    JemallocTally t;
    probe_jemalloc("/proc", one_each, t);
  });
  const double extra_threads = static_cast<double>(worker_threads - targets.size());
  CaptureOptions with_workers;
  const Timing capture_jemalloc_t = measure(rounds, [&] { capture(with_workers, diag); });

  const std::string a = "/tmp/ctprof-bench-a.ctprof.zst", b = "/tmp/ctprof-bench-b.ctprof.zst";
  std::remove(a.c_str());
  std::remove(b.c_str());
  const Timing write_t = measure(rounds, [&] { write_snapshot_file(snap, a); });
  write_snapshot_file(capture(defaults, diag), b);
  const Timing read_t = measure(rounds, [&] { read_snapshot_file(a); });
  const Snapshot sa = read_snapshot_file(a), sb = read_snapshot_file(b);
  std::vector<std::string> positional;
  const ReportOptions compare_all =
      parse_report_flags({"--limit", "0"}, positional, ReportKind::Compare);
  const ReportOptions compare_pcomm =
      parse_report_flags({"--limit", "0", "--group-by", "pcomm"}, positional, ReportKind::Compare);
  std::size_t table_bytes = 0;
  const Timing render_t =
      measure(rounds, [&] { table_bytes = render_compare(sa, sb, compare_all).size(); });
  const Timing render_pcomm_t = measure(rounds, [&] { render_compare(sa, sb, compare_pcomm); });
  const Timing compare_t = measure(
      rounds, [&] { render_compare(read_snapshot_file(a), read_snapshot_file(b), compare_all); });
  std::remove(a.c_str());
  std::remove(b.c_str());

  std::printf(
      "threads captured %zu in %zu processes, %zu cgroups (taskstats ok %llu), %u CPUs, "
      "median of %d\n",
      snap.threads.size(), every_process.size(), cgroups.size(),
      static_cast<unsigned long long>(snap.taskstats.ok_count), std::thread::hardware_concurrency(),
      rounds);
  std::printf("%-46s %9s %9s %9s\n", "", "wall ms", "cpu ms", "vs floor");
  row("floor: stat of every thread, one reader", floor_t, floor_t.cpu_ms);
  row("capture (defaults, no jemalloc process)", capture_t, floor_t.cpu_ms);
  row("capture, one /proc walker", serial_t, floor_t.cpu_ms);
  row("capture --no-taskstats", no_taskstats_t, floor_t.cpu_ms);
  row("capture --no-jemalloc", no_jemalloc_t, floor_t.cpu_ms);
  std::printf("sources on their own:\n");
  row("  smaps_rollup of every process leader", smaps_t);
  row("  jemalloc detection (maps of every process)", detect_t);
  row("  cgroup files of every cgroup", cgroup_t);
  row("  host context", host_t);
  row("  host pressure", pressure_t);
  row("  sched_ext sysfs", sched_ext_t);
  std::printf("jemalloc probing of %zu processes, %zu threads (%llu read, %llu failed):\n",
              targets.size(), worker_threads, static_cast<unsigned long long>(tally.probed_ok),
              static_cast<unsigned long long>(tally.failed));
  row("  first process (runs the layout helper)", first_t);
  row("  all of them", probe_t);
  row("  one thread of each", one_each_t);
  std::printf("  per process (attach + one thread): %.1f us wall, %.1f us cpu\n",
              one_each_t.wall_ms * 1000 / targets.size(),
              one_each_t.cpu_ms * 1000 / targets.size());
  std::printf("  per further thread: %.1f us wall, %.1f us cpu\n",
              (probe_t.wall_ms - one_each_t.wall_ms) * 1000 / extra_threads,
              (probe_t.cpu_ms - one_each_t.cpu_ms) * 1000 / extra_threads);
  row("  capture with them alive", capture_jemalloc_t);
  row("write snapshot (JSON + zstd)", write_t);
  row("read one snapshot", read_t);
  row("render compare table (--group-by all)", render_t);
  row("render compare table (--group-by pcomm)", render_pcomm_t);
  row("compare end to end (read 2 + render, all)", compare_t);
  std::printf("compare table: %zu bytes; capture per thread: %.1f us wall, %.1f us cpu\n",
              table_bytes, capture_t.wall_ms * 1000 / snap.threads.size(),
              capture_t.cpu_ms * 1000 / snap.threads.size());
  return 0;
}
