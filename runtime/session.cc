#include "runtime/session.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <sched.h>
#include <sys/resource.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "abi/records.h"
#include "runtime/aggregation_store.h"
#include "runtime/loader.h"
#include "runtime/record_consumer.h"
#include "runtime/record_ring.h"
#include "runtime/support/loop_companion.h"
#include "runtime/support/ring_reader.h"
#include "runtime/support/target_process.h"
#include "runtime/symbols/process_images.h"

namespace dsched {
namespace {

std::atomic<int> interrupts{0};

void on_signal(int) { interrupts.fetch_add(1); }

// SIGINT and SIGTERM end the run as DTrace's Ctrl-C does (END, then the aggregations); so does
// SIGPIPE, the reader of the output having gone (| head), so that a -c command is still ended.
class SignalScope {
 public:
  SignalScope() {
    interrupts = 0;
    struct sigaction action {};
    action.sa_handler = on_signal;
    action.sa_flags = SA_RESTART;  // writes of output restart; the event loop's wait still returns
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
    sigaction(SIGPIPE, &action, &old_pipe_);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGPIPE, &old_pipe_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {}, old_pipe_ {};
};

// The ring buffer's callback: records go to the consumer (ERROR ran in the faulting program), a
// CPU at a time.
class RecordLoop {
 public:
  // `fill_bytes`: bufpolicy=fill's buffer size (0: switch), see on_record.
  RecordLoop(const abi::CompiledProgram& program, RecordConsumer& consumer, uint64_t fill_bytes)
      : consumer_(consumer), fill_bytes_(fill_bytes), continues_(program.records.size(), false) {
    // A clause's record may be followed in its firing by those of the probe's later clauses: one
    // pass from the last record back, remembering the probes seen.
    std::set<uint32_t> later_probes;
    for (size_t epid = program.records.size(); epid-- > 0;)
      continues_[epid] = !later_probes.insert(program.records[epid].probe_id).second;
  }

  // A non-zero return ends the read after this record: while probes are attached, records may come
  // faster than they are read, and exit() or a signal must still end the run (what is left is
  // read once they are detached). Once exit() has run the programs record nothing new but the
  // rest of its clause and ERROR's, and what was recorded before it still prints, as in DTrace.
  static int on_record(void* context, void* data, size_t size) {
    auto* loop = static_cast<RecordLoop*>(context);
    if (loop->accepting && loop->fits(size)) loop->hold({static_cast<const char*>(data), size});
    bool exiting = loop->consumer_.exit_requested() && !loop->consumer_.ending();
    bool full = loop->held_.size() >= kMostHeld;
    return loop->attached && (interrupts != 0 || !loop->accepting || exiting || full) ? kStopReading : 0;
  }

  // Hands what was read to the consumer one CPU after another, each CPU's records in the order
  // it traced them, as DTrace reads each CPU's buffer whole: the records of one firing (one per
  // clause) print together, not interleaved with another CPU's. A CPU's last records, when a
  // later clause of their probe may still add to their firing, wait for the next read, once (a
  // later clause may record nothing; `final`: no read follows). A read with speculative records keeps the order they were traced in: a
  // commit() must find what any CPU speculated before it. Call after every read.
  void deliver(bool final = false) {
    std::map<uint32_t, std::vector<std::string_view>> by_cpu;
    for (const auto& [cpu, records] : carried_)
      for (size_t at = 0; at < records.size();) at = next_record(records, at, by_cpu[cpu]);
    std::map<uint32_t, size_t> carried_count;
    for (const auto& [cpu, records] : by_cpu) carried_count[cpu] = records.size();
    std::vector<std::string_view> in_order;
    for (size_t at = 0; at < held_.size();) at = next_record(held_, at, in_order);
    for (const auto& [cpu, indices] : held_by_cpu_)
      for (size_t i : indices) by_cpu[cpu].push_back(in_order[i]);
    std::map<uint32_t, std::string> carry;
    if (speculating_) {
      for (const auto& [cpu, count] : carried_count)
        for (size_t i = 0; i < count; ++i) consumer_.consume(by_cpu[cpu][i]);
      for (std::string_view record : in_order) consumer_.consume(record);
    } else {
      for (const auto& [cpu, records] : by_cpu) {
        size_t keep = final ? records.size() : std::max(unfinished_firing(records), carried_count[cpu]);
        for (size_t i = 0; i < keep; ++i) consumer_.consume(records[i]);
        for (size_t i = keep; i < records.size(); ++i) append(carry[cpu], records[i]);
      }
    }
    carried_ = std::move(carry);
    held_.clear();
    held_count_ = 0;
    held_by_cpu_.clear();
    speculating_ = false;
  }

  bool accepting = true;  // false once a filled buffer was seen: later records are dropped
  bool attached = false;  // probes fire while the records are read
  bool filled = false;    // bufpolicy=fill: the buffer filled, tracing stops
  static constexpr int kStopReading = -EINTR;

 private:
  static abi::RecordHeader header_of(std::string_view record) {
    abi::RecordHeader header{};
    std::memcpy(&header, record.data(), std::min(record.size(), sizeof header));
    return header;
  }
  // Records are kept as their size, then their bytes.
  static void append(std::string& to, std::string_view record) {
    uint64_t size = record.size();
    to.append(reinterpret_cast<const char*>(&size), sizeof size);
    to.append(record);
  }
  static size_t next_record(const std::string& from, size_t at, std::vector<std::string_view>& out) {
    uint64_t size;
    std::memcpy(&size, from.data() + at, sizeof size);
    out.push_back(std::string_view(from).substr(at + sizeof size, size));
    return at + sizeof size + size;
  }

  // Keeps a record until deliver().
  void hold(std::string_view record) {
    if (record.size() < sizeof(abi::RecordHeader)) return;
    abi::RecordHeader header = header_of(record);
    speculating_ |= header.speculative != 0;
    held_by_cpu_[header.cpu].push_back(held_count_++);
    append(held_, record);
  }

  // Where the firing a CPU's records end with starts, when a later clause of its probe may still
  // add a record to it; records.size() otherwise. A firing's records are its probe's clauses' in
  // order: records of one probe with rising epids.
  size_t unfinished_firing(const std::vector<std::string_view>& records) const {
    auto epid = [&](size_t i) { return header_of(records[i]).epid; };
    size_t n = records.size();
    if (n == 0 || epid(n - 1) >= continues_.size() || !continues_[epid(n - 1)]) return n;
    size_t start = n - 1;
    while (start > 0 && epid(start - 1) < epid(start) && continues_[epid(start - 1)]) --start;
    return start;
  }

  // bufpolicy=fill, as DTrace: the buffer holds what was traced since the start; the first record
  // that no longer fits marks it filled, and it and every later record are not traced. END's
  // records always fit (DTrace reserves their space). A record takes its size rounded up to 8
  // and an 8-byte header (buffer_footprint).
  bool fits(size_t size) {
    if (!fill_bytes_ || consumer_.ending()) return true;
    traced_ += buffer_footprint(size);
    if (traced_ <= fill_bytes_) return true;
    filled = true;
    accepting = false;
    return false;
  }

  static constexpr uint64_t kMostHeld = 4 << 20;  // then reading pauses while they print

  RecordConsumer& consumer_;
  uint64_t fill_bytes_;
  uint64_t traced_ = 0;
  std::vector<bool> continues_;  // by epid: a later clause of the same probe records too
  std::string held_;             // the records read, in the order traced
  size_t held_count_ = 0;
  std::map<uint32_t, std::vector<size_t>> held_by_cpu_;  // each CPU's records, by their index in held_
  std::map<uint32_t, std::string> carried_;               // by CPU: a firing's records that wait for the rest
  bool speculating_ = false;                              // some record read is speculative
};

// Reports the growth of the per-CPU drop counters, and of the firings the kernel skipped, since
// the last report.
class DropReporter {
 public:
  // `ring` (may be null): bufpolicy=ring's buffers, whose records too large to keep are drops.
  DropReporter(const LoadedObject& object, int fd, abi::Output& output, RecordRing* ring)
      : object_(object), fd_(fd), output_(output), ring_(ring), cpus_(libbpf_num_possible_cpus()),
        seen_(static_cast<size_t>(abi::DropCounter::Count) * cpus_, 0) {}

  void report() {
    if (ring_)
      for (auto [cpu, count] : ring_->take_drops()) output_.drops(abi::DropKind::Output, count, cpu);
    uint64_t skipped = object_.skipped_firings();
    if (skipped > skipped_seen_) output_.drops(abi::DropKind::KernelSkipped, skipped - skipped_seen_, std::nullopt);
    skipped_seen_ = skipped;
    std::vector<uint64_t> values(cpus_);
    for (uint32_t counter = 0; counter < static_cast<uint32_t>(abi::DropCounter::Count); ++counter) {
      if (bpf_map_lookup_elem(fd_, &counter, values.data()) != 0) continue;
      auto kind = static_cast<abi::DropCounter>(counter);
      uint64_t total = 0;
      for (int cpu = 0; cpu < cpus_; ++cpu) {
        uint64_t& seen = seen_[counter * cpus_ + cpu];
        uint64_t delta = values[cpu] - seen;
        seen = values[cpu];
        if (!delta) continue;
        total += delta;
        if (kind == abi::DropCounter::RingBufferFull) output_.drops(abi::DropKind::Output, delta, unsigned(cpu));
        if (kind == abi::DropCounter::Aggregation) output_.drops(abi::DropKind::Aggregation, delta, unsigned(cpu));
      }
      if (!total) continue;
      if (kind == abi::DropCounter::DynamicVariable) output_.drops(abi::DropKind::DynamicVariable, total, std::nullopt);
      if (kind == abi::DropCounter::ThreadLocalRefused)
        output_.drops(abi::DropKind::ThreadLocalRefused, total, std::nullopt);
      if (kind == abi::DropCounter::SpeculationUnavailable)
        output_.drops(abi::DropKind::SpeculationUnavailable, total, std::nullopt);
    }
  }

 private:
  const LoadedObject& object_;
  int fd_;
  abi::Output& output_;
  RecordRing* ring_;
  int cpus_;
  std::vector<uint64_t> seen_;
  uint64_t skipped_seen_ = 0;
};

using Clock = std::chrono::steady_clock;

// The CPU that runs BEGIN or END next (they run on the calling thread's CPU).
uint32_t this_cpu() { return uint32_t(std::max(sched_getcpu(), 0)); }

// A rate option as a period: switchrate is how often the buffer is read, statusrate how often
// drops are reported.
Clock::duration period(const abi::Options& options, const char* name) {
  return std::chrono::nanoseconds(options.number(name));
}

}  // namespace

int run_session(const abi::CompiledProgram& program, abi::Output& output, abi::Options& options,
                const SessionConfig& config) {
  std::string error;
  if (options.is_set("lockmem")) {
    // As DTrace for Linux, a limit that cannot be set (raised without CAP_SYS_RESOURCE) does not
    // stop the run: only kernels that count BPF maps against it need it. It is reported.
    int64_t bytes = options.number("lockmem");
    rlimit limit{bytes < 0 ? RLIM_INFINITY : rlim_t(bytes), bytes < 0 ? RLIM_INFINITY : rlim_t(bytes)};
    if (setrlimit(RLIMIT_MEMLOCK, &limit) != 0)
      output.warning("cannot set the locked-memory limit to " + options.text("lockmem") + ": " + std::strerror(errno));
  }
  BufferResizer resizer(options.text("bufresize") != "manual", options.flag("quietresize"));
  auto object =
      LoadedObject::load(program.object, program.attach_points, config.verbose, resizer, error, config.early_maps);
  if (!object) {
    output.error(error);
    return 1;
  }
  for (const std::string& note : resizer.notes()) output.warning(note);
  AggregationStore aggregations(program.aggregations, *object, config.symbols, options.flag("aggpercpu"));
  RecordConsumer consumer(program, aggregations, output, options, config.symbols);
  const std::string policy = options.text("bufpolicy");
  RecordLoop loop(program, consumer, policy == "fill" ? uint64_t(options.number("bufsize")) : 0);
  std::optional<RecordRing> kept;
  if (policy == "ring") consumer.keep_in(kept.emplace(uint64_t(options.number("bufsize"))));
  RingReader ring;
  if (ring.add(object->map_fd(program.ring_buffer_map), RecordLoop::on_record, &loop) != 0) {
    output.error("cannot open the output buffer");
    return 1;
  }
  if (config.companion && !config.companion->join(ring, error)) {
    output.error(error);
    return 1;
  }
  DropReporter drops(*object, object->map_fd(program.drops_map), output, kept ? &*kept : nullptr);
  SignalScope signals;
  auto read = [&](bool final) {
    ring.consume();
    loop.deliver(final);
  };
  auto drain = [&] {  // BEGIN's records: nothing else runs yet
    read(true);
    output.flush();
  };

  // As dtrace(1) creates its -c process before it starts tracing, the command execs first: one
  // that cannot (a bad interpreter, a directory) fails before BEGIN runs.
  if (config.target)
    if (std::string failure = config.target->run_to(TargetProcess::StartPoint::Exec); !failure.empty()) {
      output.error(failure);
      return 1;
    }
  for (const Matched& m : config.matched) {
    output.matched(m.what, m.is_script, m.probes);
    if (!m.stability_report.empty()) output.report("stability", m.stability_report);
  }
  if (options.flag("destructive") && !options.quiet()) output.warning("allowing destructive actions");  // as dtrace(1)
  if (kept) kept->begin(this_cpu());
  for (const std::string& begin : program.programs_at(abi::AttachPoint::Phase::Begin))
    if (!object->run(begin, error)) output.error(error);
  drain();
  if (kept) kept->begin_done();

  int status = 0;
  // ^C or SIGTERM while a -c command runs to where it waits: nothing is enabled, END runs, and the
  // command ends with dsched.
  bool interrupted_early = false;
  if (!consumer.exit_requested() && !loop.filled && !output.failed() && config.target) {
    TargetProcess::StartPoint start = TargetProcess::start_point(options.text("evaltime"));
    std::string failure = config.target->run_to(
        start, [](pid_t pid, const std::string& name) { return symbols::function_address(pid, name); },
        [] { return interrupts != 0; });
    interrupted_early = interrupts != 0;
    if (!interrupted_early && !failure.empty()) {
      output.error(failure);
      return 1;
    }
  }
  if (!consumer.exit_requested() && !loop.filled && !output.failed() && !interrupted_early) {
    if (!object->attach(error)) {
      output.error(error);
      return 1;
    }
    for (const std::string& note : object->notes()) output.warning(note);
    if (config.target) {
      std::string failure = config.target->release();
      if (!failure.empty()) {
        output.error(failure);
        status = 1;
      }
    }
    loop.attached = true;
    Clock::time_point next_status = Clock::now();
    while (status == 0 && !consumer.exit_requested() && !loop.filled && interrupts == 0 && !output.failed() &&
           !(config.target && config.target->exited()) && (!config.companion || config.companion->keep_running())) {
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(period(options, "switchrate"));
      ring.poll(static_cast<int>(std::max<int64_t>(1, wait.count())));
      loop.deliver();
      output.flush();
      if (config.symbols && config.target) config.symbols->refresh_process(uint32_t(config.target->pid()));
      if (Clock::now() >= next_status) {
        drops.report();
        next_status = Clock::now() + period(options, "statusrate");
      }
    }
  }
  if (config.verbose && config.target && config.target->exited())
    output.warning(config.target->describe_exit());
  if (interrupts != 0) output.interrupted();
  object->detach();
  loop.attached = false;
  read(false);
  // END's clauses all print, even after exit(); an exit() in END sets the status anew.
  consumer.begin_end();
  loop.accepting = true;
  if (kept) kept->begin_end(this_cpu());
  for (const std::string& end : program.programs_at(abi::AttachPoint::Phase::End))
    if (!object->run(end, error)) output.error(error);
  read(true);
  consumer.print_kept();  // bufpolicy=ring: what the buffers kept, END's records last
  bool exited = consumer.exit_requested();
  int exit_status = consumer.exit_status();
  output.end_of_run(aggregations.refresh_all());
  output.flush();
  drops.report();
  if (consumer.speculative_drops()) output.drops(abi::DropKind::Speculative, consumer.speculative_drops(), std::nullopt);
  if (consumer.errors_in_error_probe())
    output.drops(abi::DropKind::ErrorInErrorProbe, consumer.errors_in_error_probe(), std::nullopt);
  if (output.failed()) return 1;
  if (status != 0) return status;
  return exited ? exit_status : 0;
}

}  // namespace dsched
