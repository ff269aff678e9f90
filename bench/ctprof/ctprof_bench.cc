// ctprof capture and compare cost with ~1,000 extra threads alive. Prints medians; not a test.
//   ctprof_bench [threads] [rounds]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <sys/resource.h>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "capture.h"
#include "options.h"
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

}  // namespace

int main(int argc, char** argv) {
  const int extra = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  ParkedThreads parked(extra);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));

  std::ostringstream diag;
  CaptureOptions with_taskstats;
  CaptureOptions one_walker;
  one_walker.walkers = 1;
  CaptureOptions without_taskstats;
  without_taskstats.taskstats = CaptureOptions::Taskstats::Off;
  Snapshot snap;
  const Timing capture_t = measure(rounds, [&] { snap = capture(with_taskstats, diag); });
  const Timing serial_t = measure(rounds, [&] { capture(one_walker, diag); });
  const Timing proc_only_t = measure(rounds, [&] { capture(without_taskstats, diag); });
  const std::string a = "/tmp/ctprof-bench-a.ctprof.zst", b = "/tmp/ctprof-bench-b.ctprof.zst";
  const Timing write_t = measure(rounds, [&] { write_snapshot_file(snap, a); });
  write_snapshot_file(capture(with_taskstats, diag), b);
  const Timing read_t = measure(rounds, [&] { read_snapshot_file(a); });
  const Snapshot sa = read_snapshot_file(a), sb = read_snapshot_file(b);
  std::size_t table_bytes = 0;
  const Timing render_t =
      measure(rounds, [&] { table_bytes = render_compare(sa, sb, ReportOptions{}).size(); });
  const Timing compare_t = measure(rounds, [&] {
    render_compare(read_snapshot_file(a), read_snapshot_file(b), ReportOptions{});
  });
  std::remove(a.c_str());
  std::remove(b.c_str());

  std::printf("threads captured %zu (taskstats ok %llu), %u CPUs, median of %d\n",
              snap.threads.size(), static_cast<unsigned long long>(snap.taskstats.ok_count),
              std::thread::hardware_concurrency(), rounds);
  std::printf("%-34s %9s %9s\n", "", "wall ms", "cpu ms");
  auto row = [](const char* what, Timing t) {
    std::printf("%-34s %9.2f %9.2f\n", what, t.wall_ms, t.cpu_ms);
  };
  row("capture (proc + taskstats)", capture_t);
  row("capture, one /proc walker", serial_t);
  row("capture without taskstats", proc_only_t);
  row("write snapshot (JSON + zstd)", write_t);
  row("read one snapshot", read_t);
  row("render compare table", render_t);
  row("compare end to end (read 2+render)", compare_t);
  std::printf("compare table: %zu bytes; capture per thread: %.1f us wall, %.1f us cpu\n",
              table_bytes, capture_t.wall_ms * 1000 / snap.threads.size(),
              capture_t.cpu_ms * 1000 / snap.threads.size());
  return 0;
}
