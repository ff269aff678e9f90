// The output of a script run by `dsched timeline -s/-n`: everything goes to the text output as
// usual, and the trace gets what the script marked. Each firing that printed (printf(), trace())
// becomes an instant event on its thread's track, named by the text it printed; each printa()
// samples the printed aggregations into counter tracks, one per aggregation and key. Needs a
// program that stamps its records (abi::Firing::stamp): that is when and where each firing was.
#pragma once

#include <optional>
#include <string>

#include "abi/options.h"
#include "abi/output.h"
#include "runtime/timeline/track_events.h"

namespace dsched::timeline {

// The counter track of one aggregation entry: "@n", "@qlen[1]", "@[bash, 3]".
std::string counter_name(const abi::Aggregation& aggregation, const abi::AggEntry& entry);
// The number a counter shows for an entry: its printed value; for a histogram, how many values
// it holds.
int64_t counter_value(const abi::Aggregation& aggregation, const abi::AggEntry& entry);

class TimelineOutput : public abi::Output {
 public:
  // `options` are the run's (setopt() may change quiet).
  TimelineOutput(abi::Output& text, TrackEvents& tracks, const abi::Options& options);

  void matched(std::string_view what, bool is_script, uint64_t probes) override;
  void begin_firing(const abi::Firing& firing) override;
  void end_firing() override;
  void trace(const abi::Value& value) override;
  void printf(const printf_spec::Format& format, std::span<const abi::Value> args) override;
  void printa(const printf_spec::Format* format, std::span<abi::Aggregation* const> aggregations) override;
  void report(std::string_view function, std::string_view text) override;
  void interrupted() override;
  void end_of_run(std::span<const abi::Aggregation* const> aggregations) override;
  void drops(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu) override;
  void fault(const abi::Fault& fault) override;
  void error(std::string_view message) override;
  void warning(std::string_view message) override;
  void truncate() override { text_.truncate(); }
  void reopen(const std::string& path) override { text_.reopen(path); }
  void flush() override;
  bool failed() const override;

 private:
  abi::Output& text_;
  TrackEvents& tracks_;
  const abi::Options& options_;
  // The current firing: where it was, what it fired on, and what it printed so far.
  std::optional<abi::RecordStamp> stamp_;
  std::string probe_;
  std::string printed_;
  bool quiet_ = false;
};

}  // namespace dsched::timeline
