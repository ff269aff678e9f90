// Reader of snapshots written by ktstr's `ctprof capture`: a serde JSON object whose threads are
// objects named field by field (the field names are ctprof's metric names), plus cgroup_stats,
// psi, sched_ext, host context and the capture summaries.
#include <algorithm>
#include <optional>

#include "proc_parse.h"
#include "snapshot_formats.h"
#include "state_json.h"

namespace dsched::ctprof {
namespace {

using nlohmann::json;

// ktstr stores start times in USER_HZ ticks, 100 per second on the architectures it targets.
constexpr std::uint32_t kUserHz = 100;

// Capture flags of newer ktstr versions: a family whose flag is false was not measured, so its
// zero fields mean "no value" rather than 0.
struct MeasuredFlags {
  bool taskstats = true, cpu_delay = true, delay_block = true, xacct = true, jemalloc = true;

  bool measured(std::size_t id) const {
    if (id == kAllocatedBytes || id == kDeallocatedBytes) return jemalloc;
    if (id == kHiwaterRssBytes || id == kHiwaterVmBytes) return taskstats && xacct;
    if (id >= kFirstDelayMetric && id < kHiwaterRssBytes)
      return taskstats && (id < delay_metric(1, kDelayCount) ? cpu_delay : delay_block);
    return true;
  }
};

class KtstrReader final : public FormatReader {
 public:
  explicit KtstrReader(std::string name) : name_(std::move(name)) {}

  void member(const std::string& key, json&& v) override {
    with_schema_errors(name_, key, [&] {
      if (key == "captured_at_unix_ns")
        snap_.host.captured_at_unix_ns = v.get<Counter>();
      else if (key == "host")
        read_host(v);
      else if (key == "psi")
        snap_.host_psi = psi_from_json(v);
      else if (key == "sched_ext")
        snap_.sched_ext = sched_ext_from_json(v);
      else if (key == "taskstats_summary" && !v.is_null())
        snap_.taskstats = {
            v.value("ok_count", std::uint64_t{0}), v.value("eperm_count", std::uint64_t{0}),
            v.value("esrch_count", std::uint64_t{0}), v.value("other_err_count", std::uint64_t{0})};
      else if (key == "parse_summary" && !v.is_null())
        read_parse_summary(v);
      else if (key == "probe_summary" && !v.is_null())
        read_probe_summary(v);
    });
  }

  void thread(json&& jt) override {
    const std::string what = "thread " + jt.value("tid", json()).dump();
    with_schema_errors(name_, what, [&] {
      if (!jt.is_object())
        throw SnapshotError(name_ + ": not a ctprof snapshot: " + what + " is not an object");
      ThreadRecord t;
      t.tid = jt.at("tid").get<std::int32_t>();
      t.tgid = jt.at("tgid").get<std::int32_t>();
      t.comm = jt.value("comm", std::string());
      t.pcomm = jt.value("pcomm", std::string());
      t.cgroup = jt.value("cgroup", std::string());
      MeasuredFlags flags;
      const std::pair<const char*, bool*> flag_fields[] = {
          {"taskstats_measured", &flags.taskstats},
          {"cpu_delay_active", &flags.cpu_delay},
          {"delay_block_active", &flags.delay_block},
          {"xacct_active", &flags.xacct},
          {"jemalloc_measured", &flags.jemalloc}};
      for (const auto& [field, out] : flag_fields)
        if (const auto it = jt.find(field); it != jt.end()) *out = it->get<bool>();
      for (const auto& [key, v] : jt.items()) read_field(key, v, flags, t);
      max_start_ticks_ = std::max(max_start_ticks_, t.value[kStartTimeTicks]);
      snap_.threads.push_back(std::move(t));
      count(snap_.threads.back());
    });
  }

  void cgroup(const std::string& path, json&& stats) override {
    with_schema_errors(name_, "cgroup " + path, [&] {
      snap_.cgroup_stats[path] = cgroup_from_json(stats, Dialect::Ktstr);
      count(path, snap_.cgroup_stats[path]);
    });
  }

  Snapshot finish() override {
    snap_.host.clock_ticks_per_s = kUserHz;
    // No uptime is recorded: the newest thread started about when the snapshot was taken.
    snap_.host.uptime_ns = max_start_ticks_ * (1'000'000'000ULL / kUserHz);
    return std::move(snap_);
  }

 private:
  void read_field(const std::string& key, const json& v, const MeasuredFlags& flags,
                  ThreadRecord& t) {
    if (key == "state") {
      const auto s = v.get<std::string>();
      if (!s.empty() && s != "~") t.set(kState, snap_.intern(s));  // '~' marks no reading
    } else if (key == "policy") {
      const auto s = v.get<std::string>();
      if (!s.empty()) t.set(kPolicy, snap_.intern(s));
    } else if (key == "ext_enabled") {
      t.set(kExtEnabled, snap_.intern(v.get<bool>() ? "true" : "false"));
    } else if (key == "cpu_affinity") {
      const auto cpus = v.get<std::vector<unsigned>>();
      if (!cpus.empty()) t.set(kCpuAffinity, snap_.intern(cpu_list(cpus)));
    } else if (key == "smaps_rollup_kib") {
      for (const auto& [k, kib] : v.items()) t.smaps_kib[k] = kib.get<Counter>();
    } else if (const auto id = find_metric(key);
               id && *id < kStoredMetricCount && flags.measured(*id)) {
      if (metric(*id).is_signed)
        t.set_signed(*id, v.get<std::int64_t>());
      else
        t.set(*id, v.get<Counter>());
    }
  }

  void read_host(const json& h) {
    if (h.is_null()) return;  // optional in ktstr's schema
    HostInfo& host = snap_.host;
    host.kernel_release = h.value("kernel_release", std::string());
    host_context_from_json(h, host);
    if (h.contains("online_cpus") && !h["online_cpus"].is_null())
      host.cpu_count = h["online_cpus"].get<std::uint32_t>();
  }

  void read_parse_summary(const json& v) {
    snap_.parse.tids_walked = v.value("tids_walked", std::uint64_t{0});
    if (const auto it = v.find("read_failures_by_file"); it != v.end())
      for (const auto& [file, n] : it->items())
        for (std::size_t f = 0; f < kProcFileCount; ++f)
          if (kProcFileNames[f] == file) snap_.parse.failures_by_file[f] = n.get<Counter>();
  }

  void read_probe_summary(const json& v) {
    JemallocTally& j = snap_.jemalloc.emplace();
    j.tgids_walked = v.value("tgids_walked", std::uint64_t{0});
    j.jemalloc_detected = v.value("jemalloc_detected", std::uint64_t{0});
    j.probed_ok = v.value("probed_ok", std::uint64_t{0});
    j.failed = v.value("failed", std::uint64_t{0});
    // Only the most frequent failure is recorded; it stands for all of them.
    if (const auto tag = optional_text(v, "dominant_failure")) j.failures_by_tag[*tag] = j.failed;
  }

  std::string name_;
  Snapshot snap_;
  std::uint64_t max_start_ticks_ = 0;
};

}  // namespace

std::unique_ptr<FormatReader> ktstr_reader(const std::string& name) {
  return std::make_unique<KtstrReader>(name);
}

std::unique_ptr<FormatReader> reader_for(const std::string& first_key, const std::string& name) {
  if (first_key == "format") return dsched_reader(name);
  if (first_key == "captured_at_unix_ns") return ktstr_reader(name);
  throw SnapshotError(name +
                      ": not a ctprof snapshot: it starts with neither \"format\" (dsched) "
                      "nor \"captured_at_unix_ns\" (ktstr)");
}

}  // namespace dsched::ctprof
