// The text output: DTrace's bytes. Data (per-fire lines, trace, printf, printa, aggregations) goes
// to the output file in batches; messages (matched probes, drops, faults, errors) go to the error
// stream right away, after the data before them.
#pragma once

#include <cstdio>
#include <string>

#include "abi/options.h"
#include "abi/output.h"
#include "batched_file.h"
#include "printf_render.h"

namespace dsched::output {

class TextOutput : public abi::Output {
 public:
  // `options` are read at each event: setopt() may change quiet and the sort options.
  // `symbols` (may be null: addresses print as hex) names the addresses of stacks and symbols.
  TextOutput(FILE* out, std::string out_name, FILE* err, const abi::Options& options,
             abi::Symbolizer* symbols = nullptr);

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
  void truncate() override;
  void reopen(const std::string& path) override;
  void flush() override;
  bool failed() const override { return data_.failed(); }

 private:
  void message(const std::string& line);
  RenderContext context() const;

  BatchedFile data_;
  FILE* err_;
  const abi::Options& options_;
  abi::Symbolizer* symbols_;
  bool heading_printed_ = false;
  unsigned flow_depth_ = 0;  // flowindent: how deep the entries printed so far are
  bool quiet_firing_ = false;  // quiet as the current firing began: setopt() applies from the next
};

}  // namespace dsched::output
