#include "runtime/timeline/recording.h"

#include <cinttypes>
#include <cstdio>
#include <ctime>

#include <bpf/libbpf.h>
#include <unistd.h>

#include "runtime/timeline/process_tree.h"

namespace dsched::timeline {
namespace {

uint64_t boot_ns() {
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

void report(std::ostream& err, const TimelineTrace& trace, const std::string& path, double seconds,
            const std::vector<uint64_t>& lost) {
  static const char* names[] = {nullptr, "sched_switch", "sched_waking", "sched_wakeup_new", "sched_migrate_task",
                                "task_newtask", "task_rename", "sched_process_exec", "sched_process_free"};
  const RecordCounts& counts = trace.counts();
  uint64_t events = counts.total();
  char line[256];
  std::snprintf(line, sizeof line, "dsched timeline: %" PRIu64 " events in %.2f s written to %s (%" PRIu64 " bytes",
                events, seconds, path.c_str(), trace.bytes_written());
  err << line;
  if (events) {
    std::snprintf(line, sizeof line, ", %.1f bytes per event", static_cast<double>(trace.bytes_written()) / events);
    err << line;
  }
  err << ")\n ";
  for (int kind = DSTL_SWITCH; kind <= DSTL_FREE; ++kind) err << " " << names[kind] << " " << counts.by_kind[kind];
  err << "\n";
  std::string losses;
  for (size_t cpu = 0; cpu < lost.size(); ++cpu)
    if (lost[cpu]) losses += (losses.empty() ? "" : ", ") + ("cpu " + std::to_string(cpu)) + ": " + std::to_string(lost[cpu]);
  if (losses.empty())
    err << "dsched timeline: no events lost\n";
  else
    err << "dsched timeline: events lost (ring buffer full): " << losses
        << "; a larger --buffer-size keeps more of them\n";
}

}  // namespace

Recording::Recording(std::string path) : path_(std::move(path)) {}

std::unique_ptr<Recording> Recording::start(const TimelineOptions& options, std::string& error) {
  std::unique_ptr<Recording> recording(new Recording(options.output));
  Recording* self = recording.get();
  // Records are handed over only by poll() or the joined loop, once the trace has begun.
  self->recorder_ = Recorder::start(
      options.recorder, [self](const void* data, size_t size) { self->malformed_ += !self->trace_->add_record(data, size); },
      error);
  if (!self->recorder_) return nullptr;
  // Created only now, so a refused start leaves an existing file as it was.
  self->trace_ = std::make_unique<TimelineTrace>(options.output);
  if (!self->trace_->ok()) {
    error = self->trace_->error();
    return nullptr;
  }
  self->started_ = boot_ns();
  if (options.duration) self->deadline_ = self->started_ + static_cast<uint64_t>(options.duration->count());
  // Threads alive now; those created from here on arrive as task_newtask records.
  self->trace_->begin(self->started_, describe_this_system(), scan_processes());
  return recording;
}

void Recording::note_losses() {
  // Tells the trace which CPUs lost events since the last look, so their next bundles say so.
  std::vector<uint64_t> lost = recorder_->lost_per_cpu();
  losses_seen_.resize(lost.size(), 0);
  for (size_t cpu = 0; cpu < lost.size(); ++cpu) {
    if (lost[cpu] > losses_seen_[cpu]) trace_->note_loss(static_cast<uint32_t>(cpu));
    losses_seen_[cpu] = lost[cpu];
  }
}

bool Recording::poll(int timeout_ms) {
  read_ok_ = recorder_->poll(timeout_ms) && read_ok_;
  return read_ok_;
}

bool Recording::join(RingReader& ring, std::string& error) {
  if (!recorder_->join(ring, error)) return false;
  joined_ = true;
  return true;
}

bool Recording::keep_running() {
  note_losses();
  return read_ok_ && trace_->ok() && boot_ns() < deadline_;
}

int Recording::finish(std::ostream& err) {
  recorder_->stop();
  note_losses();
  std::vector<uint64_t> lost = losses_seen_;
  recorder_.reset();
  uint64_t ended = boot_ns();
  if (!trace_->end(ended, lost)) {
    err << "dsched timeline: " << trace_->error() << "\n";
    return 1;
  }
  if (!read_ok_) {
    err << "dsched timeline: reading the ring buffer failed; the trace ends early\n";
    return 1;
  }
  if (malformed_) err << "dsched timeline: " << malformed_ << " malformed records skipped\n";
  report(err, *trace_, path_, static_cast<double>(ended - started_) / 1e9, lost);
  return 0;
}

void Recording::discard() {
  recorder_.reset();
  trace_.reset();
  unlink(path_.c_str());
}

}  // namespace dsched::timeline
