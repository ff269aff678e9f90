// One recording into one trace file: the recorder's BPF programs and the trace they feed, from
// start() to finish(). Between the two, `dsched timeline` reads it in its own loop (poll()) and
// `dsched timeline -s` in the script's event loop (as that loop's companion).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/support/loop_companion.h"
#include "runtime/timeline/options.h"
#include "runtime/timeline/recorder.h"
#include "runtime/timeline/timeline_trace.h"

namespace dsched::timeline {

class Recording : public LoopCompanion {
 public:
  // Attaches the recorder, then creates the trace file and writes its first packets (the system
  // and the threads alive now). Null with `error` set when either fails; a refused start leaves
  // an existing file as it was.
  static std::unique_ptr<Recording> start(const TimelineOptions& options, std::string& error);

  TrackEvents& track_events() { return trace_->track_events(); }

  // Waits up to `timeout_ms` for records and reads them; false when reading failed.
  bool poll(int timeout_ms);
  // LoopCompanion: the recorder's ring buffer joins the script's; the run ends with -d's
  // duration or when the trace cannot be written.
  bool join(RingReader& ring, std::string& error) override;
  bool keep_running() override;

  bool joined() const { return joined_; }

  // Stops recording, completes the trace and reports what it holds (or why it failed) to `err`.
  // Returns the exit status: 0, or 1 when reading or writing failed.
  int finish(std::ostream& err);
  // Stops recording and removes the file: the script it was for never ran.
  void discard();

 private:
  explicit Recording(std::string path);
  void note_losses();

  std::string path_;
  uint64_t started_ = 0;
  uint64_t deadline_ = UINT64_MAX;  // -d
  std::unique_ptr<TimelineTrace> trace_;
  std::unique_ptr<Recorder> recorder_;
  std::vector<uint64_t> losses_seen_;
  uint64_t malformed_ = 0;
  bool read_ok_ = true;
  bool joined_ = false;
};

}  // namespace dsched::timeline
