// Turns ring-buffer records into output events, in the order they were produced: the per-fire
// line and each action's handler, with speculative records buffered until commit() or discard()
// (under bufpolicy=ring, records are kept in a RecordRing and print when the run ends).
// It is the RunContext the actions' handlers act through.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "abi/action.h"
#include "abi/compiled_program.h"
#include "abi/symbols.h"
#include "runtime/aggregation_store.h"
#include "runtime/record_ring.h"

namespace dsched {

class RecordConsumer : public abi::RunContext {
 public:
  // `options` are the run's options; setopt() changes them.
  // `symbols` (may be null) keeps the mappings of the processes that ProcessRecords announce.
  RecordConsumer(const abi::CompiledProgram& program, AggregationStore& aggregations, abi::Output& output,
                 abi::Options& options, abi::Symbolizer* symbols = nullptr);

  // Handles one record (a fault record reports the fault).
  void consume(std::string_view record);
  // bufpolicy=ring: from now on records are kept in `ring` instead of printed; only what DTrace
  // does where the probe fires (exit(), commit(), discard()) happens as they arrive.
  void keep_in(RecordRing& ring) { ring_ = &ring; }
  // Prints what the ring kept, in its order, and prints records as they come from then on.
  void print_kept();
  // END runs from here on: as in DTrace, the first exit() before END decides the status, and
  // each exit() in END sets it anew.
  void begin_end() { ending_ = true; }
  bool ending() const { return ending_; }

  bool exit_requested() const { return exit_status_.has_value(); }
  int exit_status() const { return exit_status_.value_or(0); }
  uint64_t speculative_drops() const { return speculative_drops_; }
  uint64_t errors_in_error_probe() const { return errors_in_error_probe_; }

  // abi::RunContext
  abi::Output& output() override { return output_; }
  abi::Aggregation& aggregation(uint32_t id) override { return aggregations_.get(id); }
  abi::Aggregation& read_aggregation(uint32_t id) override;
  void clear(uint32_t id) override { aggregations_.clear(id); }
  void trunc(uint32_t id, int64_t keep) override { aggregations_.trunc(id, keep); }
  void exit(int status) override;
  void commit(uint32_t speculation) override;
  void discard(uint32_t speculation) override;
  void run_command(const printf_spec::Format& format, std::span<const abi::Value> args) override;
  void reopen_output(const printf_spec::Format& format, std::span<const abi::Value> args) override;
  void set_option(std::string_view name, const std::optional<std::string>& value) override;

 private:
  // Which of a record's actions run: all, those DTrace carries out where the probe fires (when a
  // kept record arrives), or the rest (when it prints).
  enum class Actions { All, WhenTraced, Consumer };
  // Prints a record that is not speculative, or keeps it in the ring. `pending` is All, or Consumer
  // when the actions DTrace carries out where the probe fires have already run.
  void deliver(std::string_view record, const abi::RecordLayout& layout, Actions pending);
  void print(std::string_view record, const abi::RecordLayout& layout, Actions actions = Actions::All);
  void run_actions(std::string_view record, const abi::RecordLayout& layout, Actions actions);
  // A kept record as it prints: a fault, or a clause's record.
  void print_kept_record(std::string_view record);
  void report_fault(const abi::FaultRecord& fault);

  const abi::CompiledProgram& program_;
  AggregationStore& aggregations_;
  // The aggregations read since the record being printed began: its printa() actions all print
  // one snapshot of each, so that @total and @total normalized agree.
  std::vector<bool> read_in_record_;
  abi::Output& output_;
  abi::Options& options_;
  abi::Symbolizer* symbols_;
  std::optional<int> exit_status_;
  bool ending_ = false;
  RecordRing* ring_ = nullptr;
  std::map<uint32_t, std::vector<std::string>> speculations_;
  std::map<uint32_t, uint64_t> speculation_bytes_;
  uint64_t speculative_drops_ = 0;
  uint64_t errors_in_error_probe_ = 0;
};

}  // namespace dsched
