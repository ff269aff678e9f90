// JSON form of the per-cgroup and host-wide state (pressure, cgroup files, sched_ext). The
// shapes follow ktstr's snapshot schema, so one reader serves dsched's and ktstr's files.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "cgroup_stats.h"
#include "snapshot.h"

namespace dsched::ctprof {

using ojson = nlohmann::ordered_json;

// A count read from a snapshot: `v.get<Counter>()` refuses a negative or fractional number (the
// JSON library would wrap or cut it silently) as a schema error, which names the file.
struct Counter {
  std::uint64_t value = 0;
  operator std::uint64_t() const { return value; }
};
inline void from_json(const nlohmann::json& j, Counter& c) {
  if (j.is_number() && !j.is_number_unsigned())
    throw nlohmann::json::type_error::create(302, "a count must be a non-negative integer, not " + j.dump(), &j);
  c.value = j.get<std::uint64_t>();
}

// How a reader treats the differences between the two writers.
enum class Dialect {
  Dsched,  // null = not read; "max" = unlimited; a pressure resource not read is null
  Ktstr,   // null limit = unlimited; every pressure resource present (zeros when not read)
};

ojson psi_to_json(const Psi& psi);
Psi psi_from_json(const nlohmann::json& j);

ojson cgroup_to_json(const CgroupStats& s);
CgroupStats cgroup_from_json(const nlohmann::json& j, Dialect dialect);

ojson sched_ext_to_json(const std::optional<SchedExtState>& s);

// The host context fields both formats name alike (ktstr's HostContext): kernel_name, arch,
// cpu_model, cpu_vendor, kernel_cmdline, total_memory_kb, sched_tunables.
void host_context_to_json(const HostInfo& host, ojson& out);
void host_context_from_json(const nlohmann::json& j, HostInfo& host);

// A member that may be missing or null.
std::optional<std::string> optional_text(const nlohmann::json& j, const char* key);
std::optional<SchedExtState> sched_ext_from_json(const nlohmann::json& j);

}  // namespace dsched::ctprof
