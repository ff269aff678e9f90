// Workloads kernel tests start and stop themselves, each in a child process with named threads:
// CPU hogs pinned to a CPU, ping-pong pairs, a sleeper woken by a named waker, a sleeper that wakes
// on another CPU. Every workload can be paused: pause() returns once all its threads are blocked in
// the kernel, so the kernel's counters for them (thread_counters) stand still until resume(). A test
// that pauses before and after its measuring window knows exactly what the workload did inside it.
// The child is killed and reaped when the object goes (and dies with the test if that crashes).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace dsched::test {

// What the kernel counts for one thread: /proc/<tid>/schedstat and /proc/<tid>/status.
struct ThreadCounters {
  uint64_t cpu_ns = 0;       // time spent on a CPU
  uint64_t wait_ns = 0;      // time spent runnable, waiting for a CPU
  uint64_t timeslices = 0;   // times it was switched in
  uint64_t voluntary = 0;    // switches out to sleep
  uint64_t involuntary = 0;  // switches out while still runnable (preempted)
  ThreadCounters operator-(const ThreadCounters& earlier) const;
  ThreadCounters& operator+=(const ThreadCounters& other);
};
ThreadCounters thread_counters(pid_t tid);
// The sum over `tids`.
ThreadCounters total_counters(const std::vector<pid_t>& tids);

// Context switches of the whole machine so far (/proc/stat "ctxt").
uint64_t machine_context_switches();
// CPUs configured (valid CPU ids are 0 .. cpu_count() - 1).
int cpu_count();
// The kernel's tick rate, measured from how fast jiffies advance (/proc/timer_list).
int kernel_hz();

// Forks a process named `name` that runs `body` and exits 0; returns its pid once it has ended
// (the test fails if it exited otherwise).
pid_t run_named_child(const char* name, const std::function<void()>& body);
// In such a child: ends it with status 1 unless `ok`.
void child_must(bool ok);

// Shared between the test and a workload's child process; see Workload.
struct WorkloadControl;

// Base of every workload: one child process named `name` running `threads` threads.
class Workload {
 public:
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;
  virtual ~Workload();

  pid_t pid() const { return pid_; }
  // Its threads' ids, in the order the workload documents.
  std::vector<pid_t> tids() const;
  // Blocks every thread (those that drive the work park on a gate; the others wait for them)
  // and returns once all are asleep. resume() lets them go on.
  void pause();
  void resume();
  // Units of work done so far (round trips, wakeups sent; see each workload).
  uint64_t rounds() const;
  // Asks the workload to end normally; returns its exit status.
  int finish();

 protected:
  // A thread of the child: `name` is its comm; `gated` threads drive the work and park on the
  // gate when paused; `body` loops while keep_going() is true.
  struct Thread {
    std::string name;
    bool gated;
    std::function<void()> body;
  };
  explicit Workload(const std::string& name);
  // Forks the child and waits until its threads run. Call once, from the derived constructor.
  void start(std::vector<Thread> threads);

  // For bodies, in the child: waits while paused; false once the workload should end.
  bool keep_going();
  void count_round();

 private:
  std::string name_;
  WorkloadControl* control_ = nullptr;
  pid_t pid_ = -1;
  int gated_threads_ = 0;
};

// `count` threads spinning on `cpu`, each named `name`.
class PinnedHogs : public Workload {
 public:
  PinnedHogs(int count, int cpu, const std::string& name = "dsched-hog");
};

// Two threads named `name`, both pinned to `cpu`, passing a byte back and forth over pipes; each
// round trip puts each of them to sleep once. rounds() counts round trips.
class PingPong : public Workload {
 public:
  PingPong(const std::string& name, int cpu);

 private:
  int there_[2] = {-1, -1};
  int back_[2] = {-1, -1};
};

// A thread named `sleeper_name` blocked reading a pipe, and a thread named `waker_name` writing a
// byte to it about every `period_us`, so that nearly every write wakes the sleeper. Both pinned to
// `cpu`, or the waker to `waker_cpu` when that is given; a `realtime` sleeper runs SCHED_FIFO, so
// its wakeups preempt whatever runs on its CPU. tids() = {sleeper, waker}; rounds() counts writes.
class WakerSleeper : public Workload {
 public:
  WakerSleeper(const std::string& waker_name, const std::string& sleeper_name, int cpu, int period_us = 1000,
               int waker_cpu = -1, bool realtime = false);

 private:
  int pipe_[2] = {-1, -1};
};

// A sleeper named `name` woken over a pipe by a controller thread (named `name` too), which
// alternates, one wakeup each: wake it on the CPU it slept on, or move it (while it sleeps) to the
// other of CPUs 0 and 1 and wake it there. Needs two CPUs. tids() = {sleeper, controller};
// rounds() counts wakeups sent.
class MigratingSleeper : public Workload {
 public:
  explicit MigratingSleeper(const std::string& name);

 private:
  int pipe_[2] = {-1, -1};
};

}  // namespace dsched::test
