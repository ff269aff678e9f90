#include "workloads.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <dirent.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace dsched::test {

// Lives in a shared anonymous mapping, so both the test and the child see it.
struct WorkloadControl {
  static constexpr int kMaxThreads = 8;
  std::atomic<uint32_t> gate{1};  // futex word: 1 open, 0 paused
  std::atomic<uint32_t> parked{0};
  std::atomic<uint32_t> stopping{0};
  std::atomic<uint32_t> started{0};
  std::atomic<uint64_t> rounds{0};
  std::array<std::atomic<pid_t>, kMaxThreads> tids{};
  uint32_t thread_count = 0;
};

namespace {

using Clock = std::chrono::steady_clock;

pid_t current_tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

void pin(pid_t tid, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(tid, sizeof set, &set);
}

void futex_wait(std::atomic<uint32_t>& word, uint32_t value) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT, value, nullptr, nullptr, 0);
}

void futex_wake_all(std::atomic<uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

void sleep_us(int us) {
  timespec ts{us / 1000000, (us % 1000000) * 1000L};
  nanosleep(&ts, nullptr);
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The state letter of /proc/<pid>/task/<tid>/stat ('R', 'S', ...), or 0 when it is gone.
char thread_state(pid_t pid, pid_t tid) {
  std::string stat = read_text("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat");
  size_t paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() ? 0 : stat[paren + 2];
}

std::vector<pid_t> threads_of(pid_t pid) {
  std::vector<pid_t> tids;
  DIR* dir = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
  if (!dir) return tids;
  while (dirent* entry = readdir(dir))
    if (entry->d_name[0] != '.') tids.push_back(std::stoi(entry->d_name));
  closedir(dir);
  return tids;
}

uint64_t status_field(const std::string& status, const std::string& name) {
  size_t at = status.find("\n" + name + ":");
  return at == std::string::npos ? 0 : std::stoull(status.substr(at + name.size() + 2));
}

// Waits (bounded) until `done`; throws naming `what` when it does not happen.
template <typename Done>
void wait_until(Done done, const char* what) {
  auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (Clock::now() > deadline) throw std::runtime_error(std::string("workload: timed out waiting until ") + what);
    sleep_us(200);
  }
}

}  // namespace

pid_t run_named_child(const char* name, const std::function<void()>& body) {
  pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    prctl(PR_SET_NAME, name);
    body();
    _exit(0);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(std::string("the child ") + name + " failed");
  return child;
}

void child_must(bool ok) {
  if (!ok) _exit(1);
}

ThreadCounters ThreadCounters::operator-(const ThreadCounters& earlier) const {
  return {cpu_ns - earlier.cpu_ns, wait_ns - earlier.wait_ns, timeslices - earlier.timeslices,
          voluntary - earlier.voluntary, involuntary - earlier.involuntary};
}

ThreadCounters& ThreadCounters::operator+=(const ThreadCounters& other) {
  cpu_ns += other.cpu_ns;
  wait_ns += other.wait_ns;
  timeslices += other.timeslices;
  voluntary += other.voluntary;
  involuntary += other.involuntary;
  return *this;
}

ThreadCounters total_counters(const std::vector<pid_t>& tids) {
  ThreadCounters total;
  for (pid_t tid : tids) total += thread_counters(tid);
  return total;
}

ThreadCounters thread_counters(pid_t tid) {
  std::string dir = "/proc/" + std::to_string(tid) + "/task/" + std::to_string(tid) + "/";
  ThreadCounters counters;
  std::istringstream(read_text(dir + "schedstat")) >> counters.cpu_ns >> counters.wait_ns >> counters.timeslices;
  std::string status = "\n" + read_text(dir + "status");
  counters.voluntary = status_field(status, "voluntary_ctxt_switches");
  counters.involuntary = status_field(status, "nonvoluntary_ctxt_switches");
  return counters;
}

uint64_t machine_context_switches() {
  std::string stat = "\n" + read_text("/proc/stat");
  size_t at = stat.find("\nctxt ");
  return at == std::string::npos ? 0 : std::stoull(stat.substr(at + 6));
}

int cpu_count() { return static_cast<int>(sysconf(_SC_NPROCESSORS_CONF)); }

int kernel_hz() {
  static const int hz = [] {
    auto jiffies = [] {
      std::string list = read_text("/proc/timer_list");
      size_t at = list.find("\njiffies: ");
      return at == std::string::npos ? 0ull : std::stoull(list.substr(at + 10));
    };
    auto t0 = Clock::now();
    uint64_t j0 = jiffies();
    sleep_us(300000);
    uint64_t j1 = jiffies();
    double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    double rate = static_cast<double>(j1 - j0) / seconds;
    int nearest = 100;
    for (int candidate : {100, 250, 300, 1000})
      if (std::abs(rate - candidate) < std::abs(rate - nearest)) nearest = candidate;
    return nearest;
  }();
  return hz;
}

Workload::Workload(const std::string& name) : name_(name) {
  void* shared = mmap(nullptr, sizeof(WorkloadControl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("workload: mmap");
  control_ = new (shared) WorkloadControl;
}

Workload::~Workload() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  control_->~WorkloadControl();
  munmap(control_, sizeof(WorkloadControl));
}

void Workload::start(std::vector<Thread> threads) {
  if (threads.size() > WorkloadControl::kMaxThreads) throw std::runtime_error("workload: too many threads");
  control_->thread_count = static_cast<uint32_t>(threads.size());
  for (const Thread& thread : threads) gated_threads_ += thread.gated;
  pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("workload: fork");
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    prctl(PR_SET_NAME, name_.c_str());
    std::vector<std::thread> running;
    for (size_t i = 0; i < threads.size(); ++i) {
      running.emplace_back([this, i, &threads] {
        prctl(PR_SET_NAME, threads[i].name.c_str());
        control_->tids[i] = current_tid();
        control_->started++;
        threads[i].body();
      });
    }
    for (auto& thread : running) thread.join();
    _exit(0);
  }
  wait_until([&] { return control_->started.load() == threads.size(); }, "its threads started");
}

std::vector<pid_t> Workload::tids() const {
  std::vector<pid_t> tids;
  for (uint32_t i = 0; i < control_->thread_count; ++i) tids.push_back(control_->tids[i].load());
  return tids;
}

void Workload::pause() {
  control_->gate = 0;
  wait_until([&] { return control_->parked.load() == static_cast<uint32_t>(gated_threads_); }, "threads parked");
  wait_until(
      [&] {
        for (pid_t tid : threads_of(pid_))
          if (thread_state(pid_, tid) != 'S') return false;
        return true;
      },
      "every thread sleeps");
}

void Workload::resume() {
  control_->gate = 1;
  futex_wake_all(control_->gate);
}

uint64_t Workload::rounds() const { return control_->rounds.load(); }

int Workload::finish() {
  control_->stopping = 1;
  resume();
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool Workload::keep_going() {
  if (control_->gate.load(std::memory_order_relaxed) == 0) {
    control_->parked++;
    while (control_->gate.load() == 0) futex_wait(control_->gate, 0);
    control_->parked--;
  }
  return control_->stopping.load(std::memory_order_relaxed) == 0;
}

void Workload::count_round() { control_->rounds.fetch_add(1, std::memory_order_relaxed); }

PinnedHogs::PinnedHogs(int count, int cpu, const std::string& name) : Workload(name) {
  std::vector<Thread> threads;
  for (int i = 0; i < count; ++i) {
    threads.push_back({name, true, [this, cpu] {
                         pin(0, cpu);
                         volatile uint64_t spins = 0;
                         while (keep_going())
                           for (int i = 0; i < 10000; ++i) spins = spins + 1;
                       }});
  }
  start(std::move(threads));
}

PingPong::PingPong(const std::string& name, int cpu) : Workload(name) {
  if (pipe(there_) != 0 || pipe(back_) != 0) throw std::runtime_error("ping-pong: pipe");
  start({{name, true,
          [this, cpu] {
            pin(0, cpu);
            char token = 1;
            while (keep_going()) {
              (void)!write(there_[1], &token, 1);
              (void)!read(back_[0], &token, 1);
              count_round();
            }
            token = 0;
            (void)!write(there_[1], &token, 1);
          }},
         {name, false, [this, cpu] {
            pin(0, cpu);
            char token;
            while (read(there_[0], &token, 1) == 1 && token) (void)!write(back_[1], &token, 1);
          }}});
  for (int fd : {there_[0], there_[1], back_[0], back_[1]}) close(fd);
}

WakerSleeper::WakerSleeper(const std::string& waker_name, const std::string& sleeper_name, int cpu, int period_us,
                           int waker_cpu, bool realtime)
    : Workload(sleeper_name) {
  if (pipe(pipe_) != 0) throw std::runtime_error("waker-sleeper: pipe");
  if (waker_cpu < 0) waker_cpu = cpu;
  start({{sleeper_name, false,
          [this, cpu, realtime] {
            pin(0, cpu);
            sched_param param{10};
            if (realtime && sched_setscheduler(0, SCHED_FIFO, &param) != 0) throw std::runtime_error("SCHED_FIFO");
            char token;
            while (read(pipe_[0], &token, 1) == 1 && token) {
            }
          }},
         {waker_name, true, [this, waker_cpu, period_us] {
            pin(0, waker_cpu);
            char token = 1;
            while (keep_going()) {
              (void)!write(pipe_[1], &token, 1);
              count_round();
              sleep_us(period_us);
            }
            token = 0;
            (void)!write(pipe_[1], &token, 1);
          }}});
  for (int fd : pipe_) close(fd);
}

MigratingSleeper::MigratingSleeper(const std::string& name) : Workload(name) {
  if (cpu_count() < 2) throw std::runtime_error("migrating sleeper: needs two CPUs");
  if (pipe(pipe_) != 0) throw std::runtime_error("migrating sleeper: pipe");
  start({{name, false,
          [this] {
            pin(0, 0);
            char token;
            while (read(pipe_[0], &token, 1) == 1 && token) {
            }
          }},
         {name, true, [this] {
            pid_t self = getpid();
            pid_t sleeper;
            while ((sleeper = tids()[0]) == 0) sleep_us(50);
            int cpu = 0;
            char token = 1;
            for (uint64_t round = 0; keep_going(); ++round) {
              // Only a sleeping thread is moved by its next wakeup rather than by a migration now.
              while (thread_state(self, sleeper) != 'S') sleep_us(50);
              if (round % 2 == 1) {
                cpu = 1 - cpu;
                pin(sleeper, cpu);
              }
              (void)!write(pipe_[1], &token, 1);
              count_round();
              sleep_us(1000);
            }
            token = 0;
            (void)!write(pipe_[1], &token, 1);
          }}});
  for (int fd : pipe_) close(fd);
}

}  // namespace dsched::test
