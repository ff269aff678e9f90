// The bytes BPF programs write and user space reads: the header of every ring-buffer record, the
// fault record, the per-CPU drop counters, and how a value sits inside a record.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "abi/value.h"

namespace dsched::abi {

// Every ring-buffer record starts with this header.
struct RecordHeader {
  uint32_t epid;         // index into CompiledProgram::records, or kFaultEpid
  uint32_t cpu;
  uint32_t spec;         // speculation id, when speculative
  uint32_t speculative;  // nonzero after speculate(): the record goes to buffer `spec` (none if 0)
};
static_assert(sizeof(RecordHeader) == 16);

// In a program compiled with stamped records (CompiledProgram::stamped_records, asked for by
// `dsched timeline -s`), every record but a fault record carries this right after its header:
// when and in which thread its clause fired. Other programs do not pay for it.
struct RecordStamp {
  uint64_t boot_ns;  // bpf_ktime_get_boot_ns(): CLOCK_BOOTTIME, the timeline's clock
  uint32_t tid;      // the clause's context thread (on-cpu: the incoming one)
  uint32_t tgid;
};
static_assert(sizeof(RecordStamp) == 16);

// Programs run on demand (BEGIN, END, ERROR) receive this many 64-bit arguments (arg0..arg5).
constexpr int kOnDemandArgs = 6;

// A run-time fault: the clause stops and this record (epid = kFaultEpid) reports it.
constexpr uint32_t kFaultEpid = 0xffffffff;
// DTrace's DTRACEFLT_* values: ERROR's arg4.
// DTRACEFLT_* values; the address word of a BadIndex fault is the index.
enum class FaultKind : uint32_t { InvalidAddress = 1, IllegalOperation = 3, DivideByZero = 4, NoScratch = 5, BadIndex = 11 };
struct FaultRecord {
  RecordHeader header;   // epid = kFaultEpid
  uint32_t clause_epid;  // the enabled probe (clause for probe) that faulted
  uint32_t kind;         // FaultKind
  uint32_t action;       // 1-based statement of the clause
  uint32_t site;         // which fault check of the program (its position in the program)
  uint64_t address;      // the faulting address (invalid address)
};
static_assert(sizeof(FaultRecord) == 40);

// A process whose user-space addresses a program recorded for the first time, or for the first
// time since it exec'd (epid = kProcessEpid): user space reads its mappings at once, so that the addresses still have names
// when they print after the process has exited (aggregation keys print at the end).
constexpr uint32_t kProcessEpid = 0xfffffffe;
struct ProcessRecord {
  RecordHeader header;  // epid = kProcessEpid
  uint64_t pid;
};
static_assert(sizeof(ProcessRecord) == 24);

// Slots of the per-CPU drop counter array the programs increment.
enum class DropCounter : uint32_t {
  RingBufferFull = 0,          // a record could not be reserved
  DynamicVariable = 1,         // an associative-array or thread-local update failed
  Aggregation = 2,             // an aggregation update failed (map full)
  SpeculationUnavailable = 3,  // speculation() found every buffer in use
  ThreadLocalRefused = 4,      // the kernel refused to create a thread's storage (see DropKind)
  Count = 5,
};

// One value inside a record.
struct RecordField {
  enum class Kind { Integer, String, Stack, Symbol, Bytes };
  Kind kind = Kind::Integer;
  uint32_t offset = 0;  // from the start of the record, header included
  uint32_t size = 8;    // D size of an integer (storage is always 8 bytes) or the string capacity
  bool is_signed = true;
  AddressLayout addresses;  // stacks and symbols
};

// A record as user space received it.
class RecordView {
 public:
  explicit RecordView(std::string_view bytes) : bytes_(bytes) {}
  std::string_view bytes() const { return bytes_; }
  Value field(const RecordField& field) const;
  std::vector<Value> fields(const std::vector<RecordField>& fields) const;

 private:
  std::string_view bytes_;
};

}  // namespace dsched::abi
