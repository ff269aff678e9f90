// Turns ring-buffer records into output, in the order they were produced: per-fire lines,
// printf/trace/printa, aggregation actions, exit, and speculative buffers (commit/discard).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lang/codegen/compiled_program.h"
#include "lang/printf_spec.h"
#include "runtime/aggregation_store.h"
#include "runtime/output/agg_order.h"

namespace dsched {

struct ConsumerOptions {
  bool quiet = false;
  uint64_t specsize = 0;  // bytes one speculation may buffer
  output::SortOptions sort;
  bool destructive = false;
};

class RecordConsumer {
 public:
  RecordConsumer(const CompiledProgram& program, AggregationStore& aggregations, ConsumerOptions options);

  // Handles one record; output accumulates until take_output().
  void consume(std::string_view record);
  std::string take_output();

  bool exit_requested() const { return exit_status_.has_value(); }
  int exit_status() const { return exit_status_.value_or(0); }
  uint64_t speculative_drops() const { return speculative_drops_; }
  // Flushes pending output to the stream before an action that writes elsewhere (system()).
  void set_flush(std::function<void(const std::string&)> flush) { flush_ = std::move(flush); }
  // Called for each run-time fault after its message is printed (the session runs ERROR).
  void set_on_fault(std::function<void(const FaultRecord&)> on_fault) { on_fault_ = std::move(on_fault); }

 private:
  void print(std::string_view record, const RecordLayout& layout);
  void run_action(std::string_view record, const RecordedAction& action);

  const CompiledProgram& program_;
  AggregationStore& aggregations_;
  ConsumerOptions options_;
  std::string out_;
  bool heading_printed_ = false;
  std::optional<int> exit_status_;
  std::map<uint32_t, std::vector<std::string>> speculations_;
  std::map<uint32_t, uint64_t> speculation_bytes_;
  uint64_t speculative_drops_ = 0;
  std::function<void(const std::string&)> flush_;
  std::function<void(const FaultRecord&)> on_fault_;
  void report_fault(std::string_view record);
  // Each action's format, parsed on first use (records repeat; their formats do not change).
  const printf_spec::Format& format_of(const RecordedAction& action);
  std::unordered_map<const RecordedAction*, printf_spec::Format> formats_;
};

}  // namespace dsched
