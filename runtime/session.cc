#include "runtime/session.h"

#include <atomic>
#include <csignal>
#include <iostream>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/loader.h"
#include "runtime/output/agg_print.h"
#include "runtime/output/probe_lines.h"
#include "runtime/target_process.h"

namespace dsched {
namespace {

std::atomic<int> interrupts{0};

void on_signal(int) { interrupts.fetch_add(1); }

// SIGINT and SIGTERM end the run as DTrace's Ctrl-C does (END, then the aggregations).
class SignalScope {
 public:
  SignalScope() {
    interrupts = 0;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~SignalScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

struct LoopState {
  RecordConsumer* consumer;
  bool accepting = true;  // false once exit() was seen: later records of other probes are dropped
};

int on_record(void* context, void* data, size_t size) {
  auto* state = static_cast<LoopState*>(context);
  if (!state->accepting) return 0;
  state->consumer->consume({static_cast<const char*>(data), size});
  if (state->consumer->exit_requested()) state->accepting = false;
  return 0;
}

// Reports the growth of the per-CPU drop counters since the last report.
class DropReporter {
 public:
  DropReporter(int fd) : fd_(fd), cpus_(libbpf_num_possible_cpus()),
                         seen_(static_cast<size_t>(DropCounter::Count) * cpus_, 0) {}
  void report() {
    std::vector<uint64_t> values(cpus_);
    for (uint32_t counter = 0; counter < static_cast<uint32_t>(DropCounter::Count); ++counter) {
      if (bpf_map_lookup_elem(fd_, &counter, values.data()) != 0) continue;
      uint64_t total = 0;
      for (int cpu = 0; cpu < cpus_; ++cpu) {
        uint64_t& seen = seen_[counter * cpus_ + cpu];
        uint64_t delta = values[cpu] - seen;
        seen = values[cpu];
        if (!delta) continue;
        total += delta;
        auto kind = static_cast<DropCounter>(counter);
        if (kind == DropCounter::RingBufferFull) std::cerr << output::output_drops(delta, cpu);
        if (kind == DropCounter::Aggregation) std::cerr << output::aggregation_drops(delta, cpu);
      }
      if (!total) continue;
      switch (static_cast<DropCounter>(counter)) {
        case DropCounter::DynamicVariable: std::cerr << output::dynamic_variable_drops(total); break;
        case DropCounter::SpeculationUnavailable: std::cerr << output::failed_speculations_unavailable(total); break;
        default: break;
      }
    }
  }

 private:
  int fd_;
  int cpus_;
  std::vector<uint64_t> seen_;
};

}  // namespace

int run_session(const CompiledProgram& program, const SessionConfig& config) {
  std::string error;
  auto object = LoadedObject::load(program.object, program.attach_points, config.verbose, error);
  if (!object) {
    std::cerr << "dsched: " << error << "\n";
    return 1;
  }
  AggregationStore aggregations(program.aggregations, *object);
  RecordConsumer consumer(program, aggregations, config.consumer);
  auto write = [&](const std::string& text) {
    if (text.empty()) return;
    fwrite(text.data(), 1, text.size(), config.out);
    fflush(config.out);
  };
  consumer.set_flush(write);
  consumer.set_on_fault([&](const FaultRecord& fault) {
    std::array<uint64_t, kOnDemandArgs> args = {0, fault.clause_epid + 1u, fault.action, fault.site, fault.kind,
                                                 fault.address};
    std::string failure;
    for (const std::string& program_name : program.error_programs)
      if (!object->run(program_name, failure, args)) std::cerr << "dsched: " << failure << "\n";
  });
  LoopState state{&consumer};
  ring_buffer* ring = ring_buffer__new(object->map_fd(program.ring_buffer_map), on_record, &state, nullptr);
  if (!ring) {
    std::cerr << "dsched: cannot open the output buffer\n";
    return 1;
  }
  DropReporter drops(object->map_fd(program.drops_map));
  SignalScope signals;

  if (!config.consumer.quiet) std::cerr << config.matched;
  for (const std::string& begin : program.begin_programs) {
    if (!object->run(begin, error)) std::cerr << "dsched: " << error << "\n";
  }
  ring_buffer__consume(ring);
  write(consumer.take_output());

  int status = 0;
  if (!consumer.exit_requested()) {
    if (!object->attach(error)) {
      std::cerr << "dsched: " << error << "\n";
      ring_buffer__free(ring);
      return 1;
    }
    if (config.target) {
      std::string failure = config.target->release();
      if (!failure.empty()) {
        std::cerr << "dsched: " << failure << "\n";
        status = 1;
      }
    }
    while (status == 0 && !consumer.exit_requested() && interrupts == 0 &&
           !(config.target && config.target->exited())) {
      ring_buffer__poll(ring, 100);
      write(consumer.take_output());
      drops.report();
    }
  }
  object->detach();
  ring_buffer__consume(ring);
  state.accepting = true;  // END's records are printed even after exit()
  bool exited = consumer.exit_requested();
  int exit_status = consumer.exit_status();
  for (const std::string& end : program.end_programs) {
    if (!object->run(end, error)) std::cerr << "dsched: " << error << "\n";
  }
  ring_buffer__consume(ring);
  write(consumer.take_output());
  write(output::print_end_of_run(aggregations.refresh_all(), config.consumer.sort));
  drops.report();
  if (consumer.speculative_drops()) std::cerr << output::speculative_drops(consumer.speculative_drops());
  ring_buffer__free(ring);
  if (status != 0) return status;
  return exited ? exit_status : 0;
}

}  // namespace dsched
