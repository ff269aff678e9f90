// The JSON output (-x oformat=json): the events of a run as JSON, one object a line so that it
// streams, shaped as FreeBSD DTrace's structured output where it has a shape:
//   a firing    {"timestamp","cpu","id","provider","module","function","name","output":[...]}
//               output: {"value": v} per trace() (a stack: an array of its frames, leaf first), {"message": text} then {"value": arg} per
//               printf() argument, an aggregation object per printa(), {FUNCTION: text} per report
//   aggregation {"aggregation-name": name, "aggregation-data": [{"keys": [...], FUNC: v}
//               or {"keys": [...], "buckets": [{"value": v, "count": c}, ...]}]}
//               (printa() with a format adds "message": the formatted text)
//   on stderr   drops {"cpu","id":-1,"provider":"dtrace","module":"INTERNAL","function":"INTERNAL",
//               "name":"DROP","timestamp","count","kind","msg"}, faults likewise with "name":"ERROR",
//               {"matched": n, "script"|"description": text}, {"error": text}, {"warning": text}
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "abi/aggregation_order.h"
#include "abi/options.h"
#include "abi/output.h"
#include "abi/symbols.h"
#include "batched_file.h"

namespace dsched::output {

class JsonOutput : public abi::Output {
 public:
  JsonOutput(FILE* out, std::string out_name, FILE* err, const abi::Options& options,
             abi::Symbolizer* symbols = nullptr);

  void matched(std::string_view what, bool is_script, uint64_t probes) override;
  void begin_firing(const abi::Firing& firing) override;
  void end_firing() override;
  void trace(const abi::Value& value) override;
  void printf(const printf_spec::Format& format, std::span<const abi::Value> args) override;
  void printa(const printf_spec::Format* format, std::span<abi::Aggregation* const> aggregations) override;
  void report(std::string_view function, std::string_view text) override;
  void interrupted() override {}  // the empty line is the text output's; a document has no lines
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
  void data(const nlohmann::ordered_json& object);     // a line of the output file
  void message(const nlohmann::ordered_json& object);  // a line of the error stream
  static std::string line(const nlohmann::ordered_json& object);

  BatchedFile data_;
  FILE* err_;
  const abi::Options& options_;
  abi::Symbolizer* symbols_;
  nlohmann::ordered_json firing_;  // the firing being printed; null between firings
};

// One aggregation as its JSON object ("aggregation-name", "aggregation-data").
nlohmann::ordered_json aggregation_json(const abi::Aggregation& aggregation, const abi::SortOptions& order,
                                        abi::Symbolizer* symbols = nullptr);

}  // namespace dsched::output
