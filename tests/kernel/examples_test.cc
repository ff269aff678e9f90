// The seed examples (examples/*.d, unchanged unless said) against workloads whose traces they must
// show, checked against what the kernel itself counted for those workloads.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "aggregation_text.h"
#include "traced_window.h"

using namespace dsched::test;

namespace {

std::string file_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Histograms keyed by CPU must name CPUs that exist.
void check_cpu_keys(const std::vector<Histogram>& histograms) {
  for (const Histogram& histogram : histograms) {
    INFO("key: '" << histogram.key << "'");
    REQUIRE(histogram.key.find_first_not_of("0123456789") == std::string::npos);
    CHECK(std::stoi(histogram.key) < cpu_count());
  }
}

// Ticks the kernel's tick rate predicts for `cpu_ns` of running.
double expected_ticks(uint64_t cpu_ns) { return static_cast<double>(cpu_ns) * kernel_hz() / 1e9; }

}  // namespace

TEST_CASE("qlen.d: three hogs pinned to CPU 0 queue at least two threads there") {
  PinnedHogs hogs(3, 0);
  WindowResult w = run_window({"-s", example_script("qlen.d")}, {&hogs});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto histograms = parse_histograms(w.run.out);
  check_cpu_keys(histograms);
  const Histogram* cpu0 = find_histogram(histograms, "0");
  REQUIRE(cpu0);
  INFO(w.run.out);
  // While one hog runs the other two wait: a preempted hog joins a queue of two.
  CHECK(cpu0->highest_nonempty() >= 2);
  // Every preemption of a hog enqueues it on CPU 0.
  CHECK(cpu0->total() >= w.total(hogs.tids()).involuntary);
  CHECK(leftover_programs().empty());
}

TEST_CASE("qtime.d: three hogs pinned to CPU 0 wait milliseconds for it") {
  PinnedHogs hogs(3, 0);
  WindowResult w = run_window({"-s", example_script("qtime.d")}, {&hogs});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  ThreadCounters kernel = w.total(hogs.tids());
  REQUIRE(kernel.timeslices > 0);
  INFO("kernel: " << kernel.timeslices << " timeslices, mean wait " << kernel.wait_ns / kernel.timeslices << " ns");
  // The workload's premise, in the kernel's own account: a hog waits out the other two's slices.
  REQUIRE(kernel.wait_ns / kernel.timeslices >= 1000000);
  auto histograms = parse_histograms(w.run.out);
  check_cpu_keys(histograms);
  const Histogram* cpu0 = find_histogram(histograms, "0");
  REQUIRE(cpu0);
  INFO(w.run.out);
  // Each timeslice of a hog began with a dequeue after an enqueue inside the window.
  CHECK(cpu0->total() >= kernel.timeslices);
  // Most of those waits are milliseconds long (2^20 ns and up).
  CHECK(cpu0->count_at_least(1 << 20) >= kernel.timeslices / 2);
  CHECK(leftover_programs().empty());
}

TEST_CASE("where.d: a ping-pong pair pinned to CPU 1 runs there, twice per round trip") {
  PingPong pair("dsched-pingpong", 1);
  WindowResult w = run_window({"-s", example_script("where.d")}, {&pair});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  uint64_t round_trips = w.rounds[0];
  REQUIRE(round_trips > 0);
  auto histograms = parse_histograms(w.run.out);
  check_cpu_keys(histograms);
  const Histogram* cpu1 = find_histogram(histograms, "1");
  REQUIRE(cpu1);
  INFO(round_trips << " round trips, " << w.machine_switches << " context switches\n" << w.run.out);
  // The CPU passes from one thread to the other and back on every round trip.
  CHECK(cpu1->total() >= 2 * round_trips);
  // No CPU ran more stretches than the machine switched.
  uint64_t stretches = 0;
  for (const Histogram& histogram : histograms) stretches += histogram.total();
  CHECK(stretches <= w.machine_switches);
  CHECK(leftover_programs().empty());
}

TEST_CASE("gterm.d keyed on a sleeper: its wakeups come from the named waker") {
  WakerSleeper pair("dsched-waker", "dsched-sleeper", 1);
  std::string seed = file_text(example_script("gterm.d"));
  std::string text = seed;
  const std::string seed_name = "\"gnome-terminal\"";
  REQUIRE(text.find(seed_name) != std::string::npos);
  text.replace(text.find(seed_name), seed_name.size(), "\"dsched-sleeper\"");
  TempScript script(text);
  WindowResult w = run_window({"-s", script.path()}, {&pair});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto histograms = parse_histograms(w.run.out);
  INFO(w.run.out);
  REQUIRE(histograms.size() == 1);
  CHECK(histograms[0].key == "dsched-waker");
  uint64_t wakeups = histograms[0].total();
  uint64_t sleeps = w.threads.at(pair.tids()[0]).voluntary;
  INFO(sleeps << " sleeps, " << w.rounds[0] << " writes");
  // Each sleep in the window ended in a wakeup by the waker; each wakeup needed a write.
  CHECK(wakeups + 1 >= sleeps);
  CHECK(wakeups <= w.rounds[0]);
  // Whole seconds since BEGIN: none beyond the run's length.
  CHECK(histograms[0].count_at_least(static_cast<int64_t>(std::ceil(w.seconds)) + 1) == 0);
  CHECK(leftover_programs().empty());
}

TEST_CASE("howlong.d: a sleeper woken on its own CPU and on another shows both rows") {
  if (cpu_count() < 2) {
    MESSAGE("skipped: needs two CPUs");
    return;
  }
  MigratingSleeper sleeper("dsched-migrator");
  WindowResult w = run_window({"-s", example_script("howlong.d")}, {&sleeper});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto histograms = parse_histograms(w.run.out);
  const Histogram* moved = find_histogram(histograms, "sleep time, CPU migration");
  const Histogram* stayed = find_histogram(histograms, "sleep time, no CPU migration");
  INFO(w.rounds[0] << " wakeups\n" << w.run.out);
  REQUIRE(moved);
  REQUIRE(stayed);
  // The sleeper alternates between the two kinds of wakeup; the rest of the machine adds more.
  // Less two: the first wakeup ends a sleep that began before the window, and the controller may
  // see the sleeper asleep a moment before it has left its CPU.
  CHECK(moved->total() + 2 >= w.rounds[0] / 2);
  CHECK(stayed->total() + 2 >= w.rounds[0] / 2);
  CHECK(leftover_programs().empty());
}

TEST_CASE("whererun.d NAME: the CPU and microseconds of a named process") {
  PingPong runner("dsched-runner", 1);
  WindowResult w = run_window({"-qs", example_script("whererun.d"), "dsched-runner"}, {&runner});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto rows = parse_rows(w.run.out);
  INFO(w.run.out);
  REQUIRE(rows.size() >= 3);
  CHECK(rows[0][0] == "CPU");
  CHECK(rows[1] == std::vector<std::string>{"CPU", "microseconds"});
  CHECK(rows[2] == std::vector<std::string>{"---", "------------"});
  // Pinned to CPU 1, it ran there only, for the time the kernel charged to its threads.
  REQUIRE(rows.size() == 4);
  CHECK(rows[3][0] == "1");
  double microseconds = std::stod(rows[3][1]);
  double kernel_microseconds = w.total(runner.tids()).cpu_ns / 1000.0;
  INFO("kernel: " << kernel_microseconds << " us");
  CHECK(microseconds >= 0.9 * kernel_microseconds);
  CHECK(microseconds <= 1.1 * kernel_microseconds);
  CHECK(leftover_programs().empty());
}

TEST_CASE("tick.d: ticks and enqueues of two hogs sharing CPU 1") {
  PinnedHogs hogs(2, 1, "dsched-tickhog");
  WindowResult w = run_window({"-s", example_script("tick.d")}, {&hogs});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto histograms = parse_histograms(w.run.out);
  const Histogram* ticks = find_histogram(histograms, "tick");
  const Histogram* enqueues = find_histogram(histograms, "enqueue");
  INFO(w.run.out);
  REQUIRE(ticks);
  REQUIRE(enqueues);
  ThreadCounters kernel = w.total(hogs.tids());
  // CPU 1 ticks all the while the hogs run on it; no CPU ticks faster than the kernel's rate.
  CHECK(ticks->total() >= 0.8 * expected_ticks(kernel.cpu_ns) - 2);
  CHECK(ticks->total() <= 1.2 * cpu_count() * kernel_hz() * w.seconds + 2);
  // Every preemption of a hog enqueues it.
  CHECK(enqueues->total() >= kernel.involuntary);
  // Millisecond offsets within ten milliseconds.
  for (const Histogram* histogram : {ticks, enqueues}) {
    CHECK(histogram->count_at_least(0) == histogram->total());
    CHECK(histogram->count_at_least(10) == 0);
  }
  CHECK(leftover_programs().empty());
}

TEST_CASE("the sched:::tick one-liner attributes a hog's ticks to its name") {
  PinnedHogs hog(1, 1, "dsched-tickhog");
  WindowResult w = run_window({"-n", "sched:::tick { @[stringof(args[1]->pr_fname)] = count(); }"}, {&hog});
  REQUIRE(w.opened);
  REQUIRE(w.run.status == 0);
  auto rows = parse_rows(w.run.out);
  auto row = std::find_if(rows.begin(), rows.end(), [](const auto& fields) { return fields[0] == "dsched-tickhog"; });
  INFO(w.run.out);
  REQUIRE(row != rows.end());
  REQUIRE(row->size() == 2);
  double ticks = std::stod((*row)[1]);
  double expected = expected_ticks(w.total(hog.tids()).cpu_ns);
  INFO("expected about " << expected << " ticks at " << kernel_hz() << " Hz");
  CHECK(ticks >= 0.8 * expected - 2);
  CHECK(ticks <= 1.2 * expected + 2);
  CHECK(leftover_programs().empty());
}
