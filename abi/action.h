// Actions carried out in user space: a clause's record holds each action's values, and the
// action's handler (its built-in's descriptor) runs when the record is read, in order with the
// rest of the output. The runtime gives handlers a RunContext; the compiler provides handlers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "abi/aggregation.h"
#include "abi/output.h"
#include "abi/printf_spec.h"
#include "abi/records.h"

namespace dsched::abi {

// What handlers may do while a run goes on.
class RunContext {
 public:
  virtual ~RunContext() = default;
  virtual Output& output() = 0;
  // Aggregation `id` as last read, and freshly read from its map.
  virtual Aggregation& aggregation(uint32_t id) = 0;
  virtual Aggregation& read_aggregation(uint32_t id) = 0;
  virtual void clear(uint32_t id) = 0;                // zero every value in the map too
  virtual void trunc(uint32_t id, int64_t keep) = 0;  // and delete the removed keys
  virtual void exit(int status) = 0;
  virtual void commit(uint32_t speculation) = 0;
  virtual void discard(uint32_t speculation) = 0;
  // Runs a shell command (system()) once the output so far is out.
  virtual void run_command(const printf_spec::Format& format, std::span<const Value> args) = 0;
  // freopen(): what follows goes to the file the rendered format names, appended to ("": back to
  // the run's first output).
  virtual void reopen_output(const printf_spec::Format& format, std::span<const Value> args) = 0;
  // setopt(): changes a dynamic option, or warns that the option cannot change while tracing.
  virtual void set_option(std::string_view name, const std::optional<std::string>& value) = 0;
};

struct RecordedAction;

class ActionHandler {
 public:
  virtual ~ActionHandler() = default;
  virtual void run(const RecordedAction& action, const RecordView& record, RunContext& context) const = 0;
  // Whether DTrace carries the action out where the probe fires (exit(), commit(), discard()),
  // not in the consumer: under bufpolicy=ring it runs when the record arrives, the rest of the
  // record when the kept records print.
  virtual bool acts_when_traced() const { return false; }
};

// What a handler needs beyond its fields, worked out when the action is compiled (print()'s
// layout of its value's type); the handler that made it knows its concrete type.
struct ActionData {
  virtual ~ActionData() = default;
};

// One action of a clause, as its record lays it out.
struct RecordedAction {
  const ActionHandler* handler = nullptr;
  std::optional<printf_spec::Format> format;  // printf(), printa(), system(): parsed when compiled
  std::string name;                           // setopt(): the option
  std::vector<RecordField> fields;            // the values the action recorded
  std::vector<uint32_t> aggregations;         // printa(), clear()...: the aggregations named
  std::shared_ptr<const ActionData> data;     // print(): how to lay its value out
};

}  // namespace dsched::abi
