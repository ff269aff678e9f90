// A synthetic /proc tree (and cgroup and sysfs trees) in a temporary directory, with known
// values, for capture tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "taskstats.h"

namespace ctprof_test {

namespace fs = std::filesystem;

struct FakeThread {
  int tgid = 0, tid = 0;
  std::string comm = "worker";
  char state = 'S';
  std::uint64_t minflt = 7, majflt = 1, utime = 22, stime = 5, start_time = 1000;
  int priority = 20, nice = 0, processor = 1, rt_priority = 0, policy = 0, num_threads = 1;
  std::uint64_t run_ns = 1'000'000, wait_ns = 2'000, timeslices = 3;
  std::uint64_t vcsw = 10, nvcsw = 4;
  std::uint64_t rchar = 4096, wchar = 100, syscr = 9, syscw = 2, read_bytes = 512, write_bytes = 0,
                cancelled = 0;
  std::uint64_t nr_migrations = 6;
  bool schedstats = false;  // print the CONFIG_SCHEDSTATS fields in sched
  bool kernel_thread = false;
  std::string smaps_rollup =
      "00400000-7fff0000 ---p 00000000 00:00 0    [rollup]\nRss:   1712 kB\n"
      "Pss:    280 kB\nSwap:     0 kB\n";
  std::string cgroup_text = "0::/system.slice/app.service\n";
};

class FakeProc {
 public:
  FakeProc() {
    char tmpl[] = "/tmp/ctprof-fake-proc-XXXXXX";
    root_ = mkdtemp(tmpl);
    write("uptime", "1000.50 1900.00\n");
    write("stat", "cpu  1 2 3 4\nbtime 1700000000\nprocesses 5\n");
    write("sys/kernel/task_delayacct", "1\n");
    write("sys/kernel/sched_autogroup_enabled", "1\n");
    write("cpuinfo", "processor\t: 0\nvendor_id\t: GenuineTest\nmodel name\t: Test CPU @ 1GHz\n");
    write("meminfo", "MemTotal:       16384 kB\nMemFree:  1 kB\n");
    write("cmdline", "BOOT_IMAGE=/vmlinuz quiet\n");
    for (const char* r : {"cpu", "memory", "io", "irq"})
      write(std::string("pressure/") + r, kPressure);
  }

  static constexpr const char* kPressure =
      "some avg10=1.50 avg60=0.25 avg300=0.00 total=12345\nfull avg10=0.00 avg60=0.00 avg300=0.00 "
      "total=0\n";

  // Paths of the cgroup and sysfs trees next to this /proc.
  std::string cgroup_root() const { return root_ + "/cgroupfs"; }
  std::string sys_root() const { return root_ + "/sysfs"; }
  // A cgroup directory with the files of a cgroup whose cpu, memory and pids controllers are on.
  void add_cgroup(const std::string& path, std::uint64_t usage_usec) {
    const std::string d = "cgroupfs" + path + "/";
    write(d + "cpu.stat", "usage_usec " + std::to_string(usage_usec) +
                              "\nuser_usec 1\nsystem_usec 2\nnr_periods 5\nnr_throttled 3\n"
                              "throttled_usec 700\n");
    const std::pair<const char*, const char*> files[] = {
        {"cpu.max", "50000 100000\n"},
        {"cpu.weight", "200\n"},
        {"cpu.weight.nice", "-3\n"},
        {"memory.current", "1048576\n"},
        {"memory.max", "max\n"},
        {"memory.high", "2097152\n"},
        {"memory.low", "0\n"},
        {"memory.min", "max\n"},
        {"memory.stat", "anon 4096\nfile 8192\npgfault 77\n"},
        {"memory.events", "low 0\nhigh 2\nmax 0\noom 0\noom_kill 0\n"},
        {"pids.current", "4\n"},
        {"pids.max", "max\n"},
        {"cpu.pressure", kPressure},
        {"memory.pressure", kPressure},
        {"io.pressure", kPressure},
        {"irq.pressure", kPressure}};
    for (const auto& [name, text] : files) write(d + name, text);
  }
  ~FakeProc() { fs::remove_all(root_); }
  FakeProc(const FakeProc&) = delete;
  FakeProc& operator=(const FakeProc&) = delete;

  const std::string& root() const { return root_; }

  void write(const std::string& rel, const std::string& text) {
    const fs::path p = fs::path(root_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  void remove(const std::string& rel) { fs::remove_all(fs::path(root_) / rel); }

  std::string task_dir(const FakeThread& t) const {
    return std::to_string(t.tgid) + "/task/" + std::to_string(t.tid) + "/";
  }

  void add(const FakeThread& t) {
    const std::string d = task_dir(t);
    // Fields 1..52 of proc(5) stat.
    std::string stat = std::to_string(t.tid) + " (" + t.comm + ") " + t.state;
    for (int f = 4; f <= 52; ++f) {
      std::uint64_t v = 0;
      switch (f) {
        case 10: v = t.minflt; break;
        case 12: v = t.majflt; break;
        case 14: v = t.utime; break;
        case 15: v = t.stime; break;
        case 18: stat += " " + std::to_string(t.priority); continue;
        case 19: stat += " " + std::to_string(t.nice); continue;
        case 9: v = t.kernel_thread ? 0x00200000 : 0x00400000; break;
        case 20: v = t.num_threads; break;
        case 22: v = t.start_time; break;
        case 39: v = t.processor; break;
        case 40: v = t.rt_priority; break;
        case 41: v = t.policy; break;
      }
      stat += " " + std::to_string(v);
    }
    write(d + "stat", stat + "\n");
    write(d + "schedstat", std::to_string(t.run_ns) + " " + std::to_string(t.wait_ns) + " " +
                               std::to_string(t.timeslices) + "\n");
    write(d + "status", "Name:\t" + t.comm + "\nState:\t" + t.state + " (sleeping)\nTgid:\t" +
                            std::to_string(t.tgid) + "\nThreads:\t" +
                            std::to_string(t.num_threads) + "\nvoluntary_ctxt_switches:\t" +
                            std::to_string(t.vcsw) + "\nnonvoluntary_ctxt_switches:\t" +
                            std::to_string(t.nvcsw) + "\n");
    write(d + "io", "rchar: " + std::to_string(t.rchar) + "\nwchar: " + std::to_string(t.wchar) +
                        "\nsyscr: " + std::to_string(t.syscr) + "\nsyscw: " +
                        std::to_string(t.syscw) + "\nread_bytes: " + std::to_string(t.read_bytes) +
                        "\nwrite_bytes: " + std::to_string(t.write_bytes) +
                        "\ncancelled_write_bytes: " + std::to_string(t.cancelled) + "\n");
    std::string sched =
        t.comm + " (" + std::to_string(t.tid) + ", #threads: 1)\n" + std::string(67, '-') + "\n" +
        "se.exec_start                                :        375298.517087\n"
        "se.nr_migrations                             :" +
        pad(std::to_string(t.nr_migrations)) + "\n" +
        "nr_switches                                  :" + pad(std::to_string(t.vcsw + t.nvcsw)) +
        "\n" + "nr_voluntary_switches                        :" + pad(std::to_string(t.vcsw)) +
        "\nnr_involuntary_switches                      :" + pad(std::to_string(t.nvcsw)) + "\n";
    if (t.schedstats)
      sched +=
          "stats.sum_sleep_runtime                      :           500.000000\n"
          "stats.sum_block_runtime                      :           120.500000\n"
          "stats.wait_start                             :             0.000000\n"
          "stats.wait_max                               :             3.250000\n"
          "stats.wait_count                             :                   40\n"
          "stats.wait_sum                               :            10.000001\n"
          "stats.nr_wakeups                             :                   30\n"
          "stats.nr_wakeups_affine                      :                    3\n"
          "stats.nr_wakeups_affine_attempts             :                   12\n";
    sched +=
        "policy                                       :                    0\n"
        "se.slice                                     :              3000000\n";
    write(d + "sched", sched);
    write(d + "cgroup", t.cgroup_text);
    if (t.tid == t.tgid && !t.kernel_thread) write(d + "smaps_rollup", t.smaps_rollup);
  }

 private:
  static std::string pad(const std::string& v) { return std::string(21 - v.size(), ' ') + v; }
  std::string root_;
};

// Taskstats answers chosen by the test, per tid; unknown tids get ESRCH.
class FakeTaskstats : public dsched::ctprof::TaskstatsSource {
 public:
  std::map<std::uint32_t, dsched::ctprof::TaskstatsResult> answers;
  std::vector<dsched::ctprof::TaskstatsResult> query(
      const std::vector<std::uint32_t>& tids) override {
    std::vector<dsched::ctprof::TaskstatsResult> out;
    for (auto tid : tids) {
      auto it = answers.find(tid);
      out.push_back(it != answers.end() ? it->second
                                        : dsched::ctprof::TaskstatsResult{
                                              dsched::ctprof::TaskstatsStatus::Esrch, {}});
    }
    return out;
  }
};

}  // namespace ctprof_test
