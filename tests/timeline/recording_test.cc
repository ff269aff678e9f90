// `dsched timeline` against workloads it runs itself (tl_workload): ping-pong threads on two CPUs,
// then a hog preempted by a sleeper on one CPU. The trace is decoded with protoc and read the way
// Perfetto reads it. Also: the ends of a recording (-d, -p, SIGINT), --filter, --cpus, and errors.
#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupted_run.h"
#include "recording_support.h"
#include "support.h"

using namespace dsched::test;

namespace {

constexpr long kRounds = 2000;
constexpr int64_t kRunnable = 0, kPreempted = 0x100, kSleeping = 1;
constexpr uint64_t kCloneThread = 0x10000;

std::string workload(const std::string& args) { return std::string(TL_WORKLOAD) + " " + args; }

// "role tid" lines the workload prints.
std::map<std::string, int32_t> roles(const std::string& out) {
  std::map<std::string, int32_t> found;
  std::istringstream lines(out);
  std::string role;
  for (int32_t id; lines >> role >> id;) found[role] = id;
  return found;
}

// A recording of `tl_workload rounds` with `options`, and the workload's "role tid" lines.
struct WorkloadRecording {
  RunResult run;
  pid_t dsched_pid = -1;
  std::map<std::string, int32_t> tids;
  SchedTrace sched;
};

WorkloadRecording record_workload(long rounds, const std::vector<std::string>& options = {}) {
  TracePath trace;
  std::vector<std::string> args{"timeline", "-o", trace.path()};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {"-c", workload(std::to_string(rounds))});
  RunningDsched dsched(args);
  WorkloadRecording recording;
  recording.dsched_pid = dsched.pid();
  recording.run = dsched.wait(std::chrono::seconds(60));
  INFO(recording.run.err);
  REQUIRE(recording.run.status == 0);
  recording.tids = roles(recording.run.out);
  recording.sched = decoded(trace.path());
  return recording;
}

bool runnable(int64_t state) { return state == kRunnable || state == kPreempted; }

// The FtraceEvents holding a `kind` message.
std::vector<const Field*> events_of(const SchedTrace& sched, const std::string& kind) {
  std::vector<const Field*> found;
  for (const Field& event : sched.events)
    if (event.has(kind)) found.push_back(&event);
  return found;
}

void check_no_losses(const SchedTrace& sched) {
  CHECK_FALSE(sched.lost_bundle);
  REQUIRE(sched.dropped.size() >= 2);
  for (auto [cpu, dropped] : sched.dropped) CHECK(dropped == 0);
}

// Once a thread ran on `cpu`, every later switch into it is on `cpu` (it pins itself first).
void check_stays_on(const SchedTrace& sched, int32_t tid, uint32_t cpu) {
  uint64_t pinned_since = UINT64_MAX;
  for (const SwitchEvent& sw : sched.switches)
    if (sw.next_pid == tid && sw.cpu == cpu) pinned_since = std::min(pinned_since, sw.ts);
  REQUIRE(pinned_since != UINT64_MAX);
  for (const SwitchEvent& sw : sched.switches)
    if (sw.next_pid == tid && sw.ts > pinned_since) CHECK(sw.cpu == cpu);
}

// Wakings of `wakee` between its first and last waking by `waker` all come from `waker`; returns
// how many there are.
long check_woken_only_by(const SchedTrace& sched, int32_t wakee, int32_t waker) {
  uint64_t first = UINT64_MAX, last = 0;
  for (const WakingEvent& w : sched.wakings)
    if (w.pid == wakee && w.waker == waker) first = std::min(first, w.ts), last = std::max(last, w.ts);
  long count = 0;
  for (const WakingEvent& w : sched.wakings) {
    if (w.pid != wakee || w.ts < first || w.ts > last) continue;
    CHECK(w.waker == waker);
    ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("ping-pong on two CPUs and a hog preempted by a sleeper, as Perfetto reads them") {
  WorkloadRecording recording = record_workload(kRounds);
  CHECK(recording.run.err.find("dsched timeline: no events lost") != std::string::npos);
  auto& tids = recording.tids;
  REQUIRE(tids.size() == 5);
  int32_t pid = tids["pid"], ping = tids["ping"], pong = tids["pong"], hog = tids["hog"], sleeper = tids["sleeper"];
  const SchedTrace& sched = recording.sched;

  check_no_losses(sched);
  CHECK(sched.timestamps_ordered);
  // Each thread on the CPU it pinned itself to, once it got there.
  check_stays_on(sched, ping, 0);
  check_stays_on(sched, pong, 1);
  check_stays_on(sched, hog, 1);
  check_stays_on(sched, sleeper, 1);

  // Only the other side of the pipe wakes a ping-pong thread, about once a round.
  CHECK(check_woken_only_by(sched, pong, ping) >= kRounds / 2);
  CHECK(check_woken_only_by(sched, ping, pong) >= kRounds / 2);

  // The sleeper leaves the CPU asleep (S) at each of its 1 ms sleeps; the hog only ever leaves it
  // runnable (R or R+) while it spins, often for the sleeper it was preempted by (on a shared
  // machine, other threads on that CPU take some of those turns).
  long sleeper_sleeps = 0, hog_runnable = 0, hog_other = 0, hog_to_sleeper = 0, sleeper_in = 0;
  for (const SwitchEvent& sw : sched.switches) {
    if (sw.prev_pid == sleeper && sw.prev_state == kSleeping) ++sleeper_sleeps;
    if (sw.next_pid == sleeper) ++sleeper_in;
    if (sw.prev_pid != hog) continue;
    runnable(sw.prev_state) ? ++hog_runnable : ++hog_other;
    if (runnable(sw.prev_state) && sw.next_pid == sleeper) ++hog_to_sleeper;
  }
  INFO("sleeper S " << sleeper_sleeps << ", hog R " << hog_runnable << ", hog other " << hog_other
                    << ", hog -> sleeper " << hog_to_sleeper << " of " << sleeper_in);
  // Each 1 ms sleep is one switch out as S, but for the rare switch BPF never sees (see the
  // --filter test below): allow 1 in 100.
  CHECK(sleeper_sleeps * 100 >= kRounds / 10 * 99);
  CHECK(hog_runnable >= 1);
  CHECK(hog_other <= 3);  // moving to its CPU (D), waiting for phase two (S), exiting (X)
  CHECK(hog_to_sleeper * 10 >= sleeper_in);

  // Names and the pid/tgid tree: the process from /proc at the start (dsched's held child), its
  // threads from task_newtask, named by task_rename, and the names on the switches.
  REQUIRE(sched.threads.count(pid));
  CHECK(sched.threads.at(pid).tgid == pid);
  CHECK(sched.parents.at(pid) == recording.dsched_pid);
  for (auto [name, tid] : std::map<std::string, int32_t>{
           {"tl-ping", ping}, {"tl-pong", pong}, {"tl-hog", hog}, {"tl-sleeper", sleeper}}) {
    INFO(name);
    REQUIRE(sched.threads.count(tid));
    CHECK(sched.threads.at(tid).tgid == pid);
    std::string last_name;
    for (const Field* event : events_of(sched, "task_rename"))
      if (event->first("task_rename")->number("pid") == tid) last_name = event->first("task_rename")->text("newcomm");
    CHECK(last_name == name);
    bool created = false, woken_new = false;
    for (const Field* event : events_of(sched, "task_newtask"))
      created |= event->first("task_newtask")->number("pid") == tid && event->number("pid") == pid &&
                 (event->first("task_newtask")->number("clone_flags") & kCloneThread);
    for (const Field* event : events_of(sched, "sched_wakeup_new"))
      woken_new |= event->first("sched_wakeup_new")->number("pid") == tid && event->number("pid") == pid;
    CHECK(created);
    CHECK(woken_new);
    long named_switches = 0;
    for (const SwitchEvent& sw : sched.switches)
      if (sw.next_pid == tid && sw.next_comm == name) ++named_switches;
    CHECK(named_switches >= 2);
  }
  bool exec_seen = false;
  for (const Field* event : events_of(sched, "sched_process_exec")) {
    std::string file = event->first("sched_process_exec")->text("filename");
    exec_seen |= event->number("pid") == pid && file.size() >= 11 && file.substr(file.size() - 11) == "tl_workload";
  }
  CHECK(exec_seen);
  CHECK(timeline_programs().empty());
}

TEST_CASE("SIGINT ends a recording with a complete trace, and the command it ran") {
  TracePath trace;
  RunResult run = interrupted_run({"timeline", "-o", trace.path(), "-c", workload("--forever")});
  INFO(run.err);
  CHECK(run.err.find("events in") != std::string::npos);
  SchedTrace sched = decoded(trace.path());
  CHECK(sched.read.size() >= 2);  // the end-of-trace statistics are there
  CHECK(switches_into(sched, "tl-ping") > 10);
  CHECK(timeline_programs().empty());
}

TEST_CASE("events lost to a full buffer are counted per CPU, reported and kept in the trace") {
  TracePath trace;
  RunningDsched dsched({"timeline", "-o", trace.path(), "--buffer-size", "4K", "-c", workload("--forever")});
  REQUIRE(dsched.wait_for_output("started"));
  // While dsched cannot read, a few hundred ping-pong rounds overflow the 4 KiB buffer.
  dsched.signal(SIGSTOP);
  usleep(300000);
  dsched.signal(SIGCONT);
  usleep(100000);
  dsched.signal(SIGINT);
  RunResult run = dsched.wait(std::chrono::seconds(20));
  INFO(run.err);
  REQUIRE(run.status == 0);
  SchedTrace sched = decoded(trace.path());
  CHECK(sched.lost_bundle);
  std::string reported;
  uint64_t total = 0;
  for (auto [cpu, dropped] : sched.dropped) {
    total += dropped;
    if (dropped) reported += (reported.empty() ? "" : ", ") + ("cpu " + std::to_string(cpu)) + ": " + std::to_string(dropped);
  }
  CHECK(total > 0);
  CHECK(run.err.find("dsched timeline: events lost (ring buffer full): " + reported +
                     "; a larger --buffer-size keeps more of them\n") != std::string::npos);
  CHECK(timeline_programs().empty());
}

TEST_CASE("a killed recording leaves nothing in the kernel") {
  TracePath trace;
  RunningDsched dsched({"timeline", "-o", trace.path(), "-c", workload("--forever")});
  REQUIRE(dsched.wait_for_output("started"));
  dsched.signal(SIGKILL);
  dsched.wait(std::chrono::seconds(20));
  CHECK(timeline_programs().empty());
}

TEST_CASE("-p ends the recording when that process exits; -d after the duration") {
  pid_t target = fork();
  REQUIRE(target >= 0);
  if (target == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    execl(TL_WORKLOAD, TL_WORKLOAD, "--forever", nullptr);
    _exit(127);
  }
  TracePath trace;
  RunningDsched dsched({"timeline", "-o", trace.path(), "-p", std::to_string(target)});
  // The trace's first packets are written once recording runs.
  struct stat file {};
  for (int i = 0; i < 400 && (stat(trace.path().c_str(), &file) != 0 || file.st_size == 0); ++i) usleep(50000);
  REQUIRE(file.st_size > 0);
  usleep(200000);
  kill(target, SIGKILL);
  waitpid(target, nullptr, 0);
  RunResult run = dsched.wait(std::chrono::seconds(20));
  INFO(run.err);
  CHECK_FALSE(run.timed_out);
  CHECK(run.status == 0);
  SchedTrace sched = decoded(trace.path());
  long workload_switches = 0;
  for (const SwitchEvent& sw : sched.switches)
    workload_switches += sched.threads.count(sw.next_pid) && sched.threads.at(sw.next_pid).tgid == target;
  CHECK(workload_switches > 10);

  TracePath timed;
  RunResult bounded = run_dsched({"timeline", "-o", timed.path(), "-d", "300ms"}, std::chrono::seconds(20));
  CHECK_FALSE(bounded.timed_out);
  CHECK(bounded.status == 0);
  CHECK(decoded(timed.path()).read.size() >= 2);
  CHECK(timeline_programs().empty());
}

TEST_CASE("--filter comm=NAME keeps that thread's switches and wakings, and idles the others") {
  WorkloadRecording recording = record_workload(1000, {"--filter", "comm=tl-pong"});
  int32_t pong = recording.tids["pong"];
  const SchedTrace& sched = recording.sched;
  check_no_losses(sched);
  // Each switch is to or from the thread, or ends another thread's slice by idling the CPU.
  // Allowance: on a busy machine the kernel now and then runs a context switch that BPF programs
  // on sched_switch never see (a minimal program counting them sees about 1 in 1,000 here, all
  // around one other process's threads); the switch after such a gap looks out of place.
  long into_pong = 0, out_of_place = 0;
  for (const SwitchEvent& sw : sched.switches) {
    bool fits = sw.next_pid == pong || sw.prev_pid == pong || sw.next_pid == 0 || sw.prev_pid == -1;
    if (!fits) MESSAGE("out of place: cpu " << sw.cpu << " ts " << sw.ts << ": " << sw.prev_pid << " -> " << sw.next_pid);
    out_of_place += !fits;
    into_pong += sw.next_pid == pong;
  }
  CHECK(out_of_place * 200 <= static_cast<long>(sched.switches.size()));
  CHECK(into_pong >= 1000 / 2);
  for (const WakingEvent& w : sched.wakings) CHECK((w.pid == pong || w.waker == pong));
  CHECK(timeline_programs().empty());
}

TEST_CASE("--cpus keeps the switches of those CPUs and the wakings towards them, with their wakers") {
  WorkloadRecording recording = record_workload(1000, {"--cpus", "1"});
  auto& tids = recording.tids;
  const SchedTrace& sched = recording.sched;
  REQUIRE_FALSE(sched.switches.empty());
  for (const SwitchEvent& sw : sched.switches) CHECK(sw.cpu == 1);
  long pong_woken_by_ping = 0;
  for (const WakingEvent& w : sched.wakings) {
    CHECK((w.cpu == 1 || w.target_cpu == 1));
    if (w.cpu != 1) CHECK_FALSE(w.compact);  // no switches of that CPU to name the waker
    pong_woken_by_ping += w.pid == tids["pong"] && w.waker == tids["ping"];
  }
  CHECK(pong_woken_by_ping >= 1000 / 2);
  CHECK(timeline_programs().empty());
}

TEST_CASE("a recording that cannot start says why and leaves an existing file alone") {
  TracePath trace;
  { std::ofstream(trace.path()) << "keep me"; }
  RunResult no_process = run_dsched({"timeline", "-o", trace.path(), "-p", "4000000"});
  CHECK(no_process.status == 1);
  CHECK(no_process.err == "dsched timeline: failed to grab pid 4000000: No such process\n");
  std::string kept;
  std::getline(std::ifstream(trace.path()), kept);
  CHECK(kept == "keep me");

  RunResult no_command = run_dsched({"timeline", "-o", trace.path(), "-c", "/nonexistent/command"});
  CHECK(no_command.status == 1);
  CHECK(no_command.err == "dsched timeline: failed to execute /nonexistent/command: No such file or directory\n");

  RunResult no_dir = run_dsched({"timeline", "-o", "/nonexistent-dir/t.pftrace", "-d", "1s"});
  CHECK(no_dir.status == 1);
  CHECK(no_dir.err == "dsched timeline: cannot create /nonexistent-dir/t.pftrace: No such file or directory\n");

  RunResult usage = run_dsched({"timeline", "-o", trace.path(), "--cpus", "99"});
  CHECK(usage.status == 2);
  CHECK(usage.err.rfind("dsched timeline: invalid CPU list '99': this machine has CPUs 0-", 0) == 0);
  CHECK(usage.err.find("Usage: dsched timeline -o FILE") != std::string::npos);
  CHECK(timeline_programs().empty());
}
