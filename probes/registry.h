// The providers and probes dsched offers, with the types of their arguments. One small table per
// provider file (sched.cc, profile.cc, dtrace.cc, proc.cc); this registry numbers and matches them.
#pragma once
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace dsched::probes {

// Which native value an argument is: the code generator produces it per probe.
enum class ArgSource {
  NextTask,         // sched_switch: the task switched to
  WokenTask,        // sched_waking: the task being woken
  QueuedTask,       // enqueue/dequeue: the task entering or leaving a run queue
  QueueCpu,         // enqueue/dequeue: the CPU whose run queue
  QueueAtFront,     // enqueue: nonzero when queued at the front (Linux: always 0, the back)
  InterruptedTask,  // tick: the task running when the tick fired
  PriorityTask,     // change-pri: the task whose priority changes
  NewPriority,      // change-pri: the new priority
  ChildTask,        // proc create / lwp-create: the new task
  ExitReason,       // proc exit: CLD_EXITED, CLD_KILLED or CLD_DUMPED
  SignalTarget,     // proc signal-send: the task receiving the signal
  SignalNumber,     // proc signal-send: the signal
};
const char* arg_source_name(ArgSource source);

struct ArgSpec {
  const char* native_type;      // C type of the native value: "struct task_struct *", "int"
  const char* translated_type;  // D type of args[N] ("lwpsinfo_t *"), or null: same as native
  ArgSource source;
};

struct ProbeEntry {
  const char* name;
  std::vector<ArgSpec> args;
  const char* unsupported = nullptr;  // why this kernel cannot offer the probe, if it cannot
};

struct ProviderTable {
  const char* provider;
  const char* module;
  std::vector<ProbeEntry> probes;
};

const ProviderTable& dtrace_provider();
const ProviderTable& sched_provider();
const ProviderTable& proc_provider();
const ProviderTable& profile_provider();  // the commonly listed rates; any rate matches

struct Probe {
  uint32_t id = 0;  // 1-based, stable: table order, then rate probes in order of first use
  std::string provider, module, function, name;
  std::vector<ArgSpec> args;
  const char* unsupported = nullptr;
  uint64_t period_ns = 0;  // profile-N / tick-N
  bool every_cpu = false;  // profile-N fires on every CPU, tick-N on one

  std::string full_name() const;  // "sched:vmlinux::on-cpu"
};

class Registry {
 public:
  static Registry& instance();

  // Probes matching a description ("sched:::on-cpu", "BEGIN", "profile-997hz", "sched:::*"),
  // in id order. A concrete profile-N/tick-N name creates that probe on first use.
  std::vector<const Probe*> match(const std::string& description);
  // Every probe of a provider (dsched -l -P name).
  std::vector<const Probe*> provider(const std::string& name);
  std::vector<const Probe*> all();

 private:
  Registry();
  const Probe* rate_probe(const std::string& name);

  std::mutex mutex_;
  std::deque<Probe> probes_;  // deque: pointers stay valid as rate probes are added
};

// Parses a profile provider rate ("997", "997hz", "10sec", "1ms") into nanoseconds; 0 if invalid.
uint64_t parse_probe_rate(const std::string& text);

}  // namespace dsched::probes
