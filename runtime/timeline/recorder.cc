#include "runtime/timeline/recorder.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runtime/support/libbpf_log.h"
#include "runtime/timeline/timeline.skel.h"

namespace dsched::timeline {
namespace {

int deliver(void* context, void* data, size_t size) {
  (*static_cast<Recorder::RecordHandler*>(context))(data, size);
  return 0;
}

std::string errno_text(int err) { return std::strerror(err < 0 ? -err : err); }

// ": <the last non-empty line of text>", or nothing.
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\n");
  if (end == std::string::npos) return "";
  size_t newline = text.rfind('\n', end);
  size_t begin = newline == std::string::npos ? 0 : newline + 1;
  return ": " + text.substr(begin, end + 1 - begin);
}

void configure(timeline_bpf* skeleton, const RecorderConfig& config) {
  auto* rodata = skeleton->rodata;
  rodata->filter_kind = config.filter;
  rodata->filter_tgid = config.filter_tgid;
  std::memset(rodata->filter_comm, 0, sizeof rodata->filter_comm);
  std::memcpy(rodata->filter_comm, config.filter_comm.data(),
              std::min(config.filter_comm.size(), sizeof rodata->filter_comm - 1));
  rodata->all_cpus = config.cpus.empty();
  for (int cpu : config.cpus) rodata->cpu_mask[cpu / 64] |= 1ull << (cpu % 64);
  // Wake the reader at a quarter full: early enough that a burst does not overrun the rest.
  rodata->wakeup_bytes = config.buffer_bytes / 4;
  bpf_map__set_max_entries(skeleton->maps.events, static_cast<uint32_t>(config.buffer_bytes));
}

}  // namespace

Recorder::Recorder(timeline_bpf* skeleton, RecordHandler handler) : skeleton_(skeleton), handler_(std::move(handler)) {}

std::unique_ptr<Recorder> Recorder::start(const RecorderConfig& config, RecordHandler handler, std::string& error) {
  LibbpfLogCapture log;
  timeline_bpf* skeleton = timeline_bpf::open();
  if (!skeleton) {
    error = "cannot open the timeline's BPF programs: " + errno_text(errno);
    return nullptr;
  }
  std::unique_ptr<Recorder> recorder(new Recorder(skeleton, std::move(handler)));
  configure(skeleton, config);
  if (int err = timeline_bpf::load(skeleton)) {
    error = "the kernel refused the timeline's BPF programs (" + errno_text(err) + ")" + last_line(log.take());
    return nullptr;
  }
  if (int err = timeline_bpf::attach(skeleton)) {
    error = "cannot attach to the scheduler tracepoints: " + errno_text(err);
    return nullptr;
  }
  if (int err = recorder->buffer_.add(bpf_map__fd(skeleton->maps.events), deliver, &recorder->handler_)) {
    error = "cannot read the timeline's ring buffer: " + errno_text(err);
    return nullptr;
  }
  return recorder;
}

Recorder::~Recorder() {
  timeline_bpf::destroy(skeleton_);
}

bool Recorder::poll(int timeout_ms) {
  int polled = buffer_.poll(timeout_ms);
  if (polled < 0 && polled != -EINTR) return false;
  // Records below the wake-up mark do not wake the reader: take them now.
  int consumed = buffer_.consume();
  return consumed >= 0 || consumed == -EINTR;
}

bool Recorder::join(RingReader& ring, std::string& error) {
  if (int err = ring.add(bpf_map__fd(skeleton_->maps.events), deliver, &handler_)) {
    error = "cannot read the timeline's ring buffer: " + errno_text(err);
    return false;
  }
  return true;
}

void Recorder::stop() {
  timeline_bpf::detach(skeleton_);
  buffer_.consume();
}

std::vector<uint64_t> Recorder::lost_per_cpu() const {
  int cpus = libbpf_num_possible_cpus();
  std::vector<uint64_t> lost(cpus > 0 ? static_cast<size_t>(cpus) : 0, 0);
  uint32_t key = 0;
  if (!lost.empty()) bpf_map_lookup_elem(bpf_map__fd(skeleton_->maps.lost_events), &key, lost.data());
  return lost;
}

}  // namespace dsched::timeline
