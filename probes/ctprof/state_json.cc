#include "state_json.h"

namespace dsched::ctprof {
namespace {

using nlohmann::json;

ojson opt(const std::optional<std::uint64_t>& v) {
  if (!v) return nullptr;
  if (*v == kUnlimited) return "max";
  return *v;
}

// A member that may be missing, null, a number or "max".
std::optional<std::uint64_t> get_opt(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (it->is_string() && *it == "max") return kUnlimited;
  return it->get<Counter>();
}

// ktstr writes null for a limit of "max".
std::optional<std::uint64_t> get_limit(const json& j, const char* key, Dialect d) {
  const auto v = get_opt(j, key);
  return v || d == Dialect::Dsched ? v : std::optional<std::uint64_t>(kUnlimited);
}

ojson line_to_json(const PsiLine& l) {
  return {
      {"avg10", l.avg10}, {"avg60", l.avg60}, {"avg300", l.avg300}, {"total_usec", l.total_usec}};
}

PsiLine line_from_json(const json& j) {
  PsiLine l;
  l.avg10 = j.at("avg10").get<std::uint32_t>();
  l.avg60 = j.at("avg60").get<std::uint32_t>();
  l.avg300 = j.at("avg300").get<std::uint32_t>();
  l.total_usec = j.at("total_usec").get<Counter>();
  return l;
}

ojson kv_to_json(const std::map<std::string, std::uint64_t>& m) {
  ojson out = ojson::object();
  for (const auto& [k, v] : m) out[k] = v;
  return out;
}

std::map<std::string, std::uint64_t> kv_from_json(const json& j, const char* key) {
  std::map<std::string, std::uint64_t> out;
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return out;
  for (const auto& [k, v] : it->items()) out[k] = v.get<Counter>();
  return out;
}

const json& section(const json& j, const char* key) {
  static const json empty = json::object();
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? empty : *it;
}

}  // namespace

ojson psi_to_json(const Psi& psi) {
  ojson out = ojson::object();
  for (std::size_t r = 0; r < kPsiCount; ++r) {
    const auto& res = psi.resource[r];
    out[std::string(kPsiNames[r])] =
        res.present ? ojson{{"some", line_to_json(res.some)}, {"full", line_to_json(res.full)}}
                    : ojson(nullptr);
  }
  return out;
}

Psi psi_from_json(const json& j) {
  Psi psi;
  if (j.is_null()) return psi;
  for (std::size_t r = 0; r < kPsiCount; ++r) {
    const auto it = j.find(std::string(kPsiNames[r]));
    if (it == j.end() || it->is_null()) continue;
    auto& res = psi.resource[r];
    res.present = true;
    res.some = line_from_json(it->at("some"));
    res.full = line_from_json(it->at("full"));
  }
  return psi;
}

ojson cgroup_to_json(const CgroupStats& s) {
  ojson weight_nice = s.weight_nice ? ojson(*s.weight_nice) : ojson(nullptr);
  return {{"cpu",
           {{"usage_usec", opt(s.usage_usec)},
            {"nr_throttled", opt(s.nr_throttled)},
            {"throttled_usec", opt(s.throttled_usec)},
            {"max_quota_us", opt(s.max_quota_us)},
            {"max_period_us", opt(s.max_period_us)},
            {"weight", opt(s.weight)},
            {"weight_nice", weight_nice}}},
          {"memory",
           {{"current", opt(s.memory_current)},
            {"max", opt(s.memory_max)},
            {"high", opt(s.memory_high)},
            {"low", opt(s.memory_low)},
            {"min", opt(s.memory_min)},
            {"stat", kv_to_json(s.memory_stat)},
            {"events", kv_to_json(s.memory_events)}}},
          {"pids", {{"current", opt(s.pids_current)}, {"max", opt(s.pids_max)}}},
          {"psi", psi_to_json(s.psi)}};
}

CgroupStats cgroup_from_json(const json& j, Dialect d) {
  CgroupStats s;
  const json& cpu = section(j, "cpu");
  s.usage_usec = get_opt(cpu, "usage_usec");
  s.nr_throttled = get_opt(cpu, "nr_throttled");
  s.throttled_usec = get_opt(cpu, "throttled_usec");
  s.max_quota_us = get_limit(cpu, "max_quota_us", d);
  s.max_period_us = get_opt(cpu, "max_period_us");
  s.weight = get_opt(cpu, "weight");
  if (const auto it = cpu.find("weight_nice"); it != cpu.end() && !it->is_null())
    s.weight_nice = it->get<std::int64_t>();
  const json& mem = section(j, "memory");
  s.memory_current = get_opt(mem, "current");
  s.memory_max = get_limit(mem, "max", d);
  s.memory_high = get_limit(mem, "high", d);
  s.memory_low = get_opt(mem, "low");
  s.memory_min = get_opt(mem, "min");
  s.memory_stat = kv_from_json(mem, "stat");
  s.memory_events = kv_from_json(mem, "events");
  const json& pids = section(j, "pids");
  s.pids_current = get_opt(pids, "current");
  // ktstr has no pids.max either without the pids controller: unlimited only beside a count.
  s.pids_max = s.pids_current ? get_limit(pids, "max", d) : get_opt(pids, "max");
  s.psi = psi_from_json(section(j, "psi"));
  return s;
}

ojson sched_ext_to_json(const std::optional<SchedExtState>& s) {
  if (!s) return nullptr;
  return {{"state", s->state},
          {"switch_all", opt(s->switch_all)},
          {"nr_rejected", opt(s->nr_rejected)},
          {"hotplug_seq", opt(s->hotplug_seq)},
          {"enable_seq", opt(s->enable_seq)}};
}

std::optional<SchedExtState> sched_ext_from_json(const json& j) {
  if (j.is_null()) return std::nullopt;
  SchedExtState s;
  s.state = j.value("state", std::string());
  s.switch_all = get_opt(j, "switch_all");
  s.nr_rejected = get_opt(j, "nr_rejected");
  s.hotplug_seq = get_opt(j, "hotplug_seq");
  s.enable_seq = get_opt(j, "enable_seq");
  return s;
}

std::optional<std::string> optional_text(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<std::string>();
}

void host_context_to_json(const HostInfo& h, ojson& out) {
  auto text = [](const std::optional<std::string>& s) { return s ? ojson(*s) : ojson(nullptr); };
  ojson tunables = ojson::object();
  for (const auto& [k, v] : h.sched_tunables) tunables[k] = v;
  out["kernel_name"] = text(h.kernel_name);
  out["arch"] = text(h.arch);
  out["cpu_model"] = text(h.cpu_model);
  out["cpu_vendor"] = text(h.cpu_vendor);
  out["total_memory_kb"] = opt(h.total_memory_kb);
  out["kernel_cmdline"] = text(h.kernel_cmdline);
  out["sched_tunables"] = std::move(tunables);
}

void host_context_from_json(const json& j, HostInfo& host) {
  host.kernel_name = optional_text(j, "kernel_name");
  host.arch = optional_text(j, "arch");
  host.cpu_model = optional_text(j, "cpu_model");
  host.cpu_vendor = optional_text(j, "cpu_vendor");
  host.kernel_cmdline = optional_text(j, "kernel_cmdline");
  host.total_memory_kb = get_opt(j, "total_memory_kb");
  if (const auto it = j.find("sched_tunables"); it != j.end() && !it->is_null())
    for (const auto& [k, v] : it->items()) host.sched_tunables[k] = v.get<std::string>();
}

}  // namespace dsched::ctprof
