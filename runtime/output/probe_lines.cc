#include "probe_lines.h"

#include <algorithm>
#include <stdexcept>

#include "addresses.h"
#include "abi/hex_dump.h"
#include "cformat.h"

namespace dsched::output {

namespace {

constexpr const char* kTool = "dsched: ";

std::string counted(uint64_t count, std::string_view noun) {
  return cformat("%s%llu %.*s%s", kTool, (unsigned long long)count, int(noun.size()), noun.data(),
                 count > 1 ? "s" : "");
}

std::string on_cpu(std::optional<unsigned> cpu) { return cpu ? cformat(" on CPU %u", *cpu) : std::string(); }

}  // namespace

std::string render_trace(const Value& v, bool quiet, const RenderContext& context) {
  switch (v.kind) {
    case Value::Kind::String:
      // rawbytes: the recorded bytes, NUL padding included, as a hex dump.
      if (context.rawbytes) return abi::hex_dump(v.text + std::string(std::max<size_t>(v.size, v.text.size()) - v.text.size(), '\0'));
      return quiet ? v.text : cformat("  %-33s", v.text.c_str());
    case Value::Kind::Integer:
      if (quiet)
        return v.is_signed ? cformat("%lld", (long long)v.as_signed()) : cformat("%llu", (unsigned long long)v.as_unsigned());
      if (v.is_signed) {
        switch (v.size) {
          case 1: return cformat(" %3hhd", (signed char)v.as_signed());
          case 2: return cformat(" %5hd", (short)v.as_signed());
          case 4: return cformat(" %10d", int(v.as_signed()));
          default: return cformat(" %19lld", (long long)v.as_signed());
        }
      }
      switch (v.size) {
        case 1: return cformat(" %3hhu", (unsigned char)v.as_unsigned());
        case 2: return cformat(" %5hu", (unsigned short)v.as_unsigned());
        case 4: return cformat(" %10u", unsigned(v.as_unsigned()));
        default: return cformat(" %20llu", (unsigned long long)v.as_unsigned());
      }
    case Value::Kind::Bytes:
      return context.rawbytes ? abi::hex_dump(v.text) : abi::traced_bytes(v.text, quiet);
    case Value::Kind::Stack:
      return stack_text(context.symbols, v, context.stack_indent);
    case Value::Kind::Symbol:
      return cformat("  %-50s", address_text(context.symbols, v).c_str());
    default:
      throw std::invalid_argument("trace( ) takes an integer or a string");
  }
}

std::string heading() { return cformat("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME"); }

std::string probe_prefix(unsigned cpu, unsigned probe_id, std::string_view function, std::string_view name) {
  const std::string fn = std::string(function) + ":" + std::string(name);
  return cformat("%3u %6u %32s ", cpu, probe_id, fn.c_str());
}

std::string flow_heading() { return cformat("%3s %-41s\n", "CPU", "FUNCTION"); }

// As DTrace: a probe named `kind`, or whose name ends in "-kind" (method-entry), enters or
// returns; "carpentry" does neither.
static bool flow_kind(std::string_view name, std::string_view kind) {
  return name == kind || (name.size() > kind.size() && name.ends_with(kind) && name[name.size() - kind.size() - 1] == '-');
}

std::string flow_prefix(unsigned cpu, std::string_view provider, std::string_view function, std::string_view name,
                        unsigned& depth) {
  bool syscall = provider == "syscall";
  std::string marked;
  if (flow_kind(name, "entry")) {
    marked = std::string(depth, ' ') + (syscall ? " => " : " -> ") + std::string(function);
    depth += 2;
  } else if (flow_kind(name, "return")) {
    depth = depth >= 2 ? depth - 2 : 0;
    marked = std::string(depth, ' ') + (syscall ? " <= " : " <- ") + std::string(function);
  } else {
    marked = std::string(depth, ' ') + "| " + std::string(function) + ":" + std::string(name);
  }
  return cformat("%3u %-41s ", cpu, marked.c_str());
}

std::string matched_probes(bool is_script, std::string_view name, uint64_t count) {
  return cformat("%s%s '%.*s' matched %llu probe%s\n", kTool, is_script ? "script" : "description", int(name.size()),
                 name.data(), (unsigned long long)count, count == 1 ? "" : "s");
}

std::string drop_report(abi::DropKind kind, uint64_t count, std::optional<unsigned> cpu) {
  switch (kind) {
    case abi::DropKind::Output: return counted(count, "drop") + on_cpu(cpu.value_or(0)) + "\n";
    case abi::DropKind::Aggregation: return counted(count, "aggregation drop") + on_cpu(cpu.value_or(0)) + "\n";
    case abi::DropKind::DynamicVariable: return counted(count, "dynamic variable drop") + on_cpu(cpu) + "\n";
    case abi::DropKind::Speculative: return counted(count, "speculative drop") + on_cpu(cpu) + "\n";
    case abi::DropKind::SpeculationUnavailable:
      return counted(count, "failed speculation") + " (no speculative buffer available)\n";
    case abi::DropKind::KernelSkipped:
      return counted(count, "probe firing") + " skipped by the kernel (another BPF program was running on the CPU)\n";
    case abi::DropKind::ErrorInErrorProbe: return counted(count, "error") + " in ERROR probe enabling\n";
    case abi::DropKind::ThreadLocalRefused:
      return counted(count, "thread-local variable store") +
             " refused by the kernel (the thread's storage was in use on its CPU, or the thread was exiting)\n";
  }
  return {};
}

std::string probe_error(unsigned enabled_id, unsigned probe_id, std::string_view probe_description,
                        std::string_view fault, unsigned action, unsigned pc) {
  // Action 0 is the predicate, as DTrace says.
  const std::string where = action == 0 ? "predicate" : cformat("action #%u", action);
  return cformat("%serror on enabled probe ID %u (ID %u: %.*s): %.*s in %s at BPF pc %u\n", kTool, enabled_id, probe_id,
                 int(probe_description.size()), probe_description.data(), int(fault.size()), fault.data(),
                 where.c_str(), pc);
}

}  // namespace dsched::output
