// dsched's snapshot format: writer (current version) and reader (versions 1 and 2).
#include <optional>
#include <vector>

#include "snapshot_formats.h"
#include "state_json.h"

namespace dsched::ctprof {
namespace {

using nlohmann::json;

ojson value_to_json(const Snapshot& snap, const ThreadRecord& t, std::size_t id) {
  if (!t.has.test(id)) return nullptr;
  const auto& def = metric(id);
  if (def.unit == Unit::Text) return snap.text(t.value[id]);
  if (def.is_signed) return static_cast<std::int64_t>(t.value[id]);
  return t.value[id];
}

ojson host_to_json(const HostInfo& h) {
  ojson out = {{"hostname", h.hostname}, {"kernel_release", h.kernel_release}};
  host_context_to_json(h, out);
  out["cpu_count"] = h.cpu_count;
  out["uptime_ns"] = h.uptime_ns;
  out["boot_time_unix_s"] = h.boot_time_unix_s;
  out["clock_ticks_per_s"] = h.clock_ticks_per_s;
  out["captured_at_unix_ns"] = h.captured_at_unix_ns;
  out["task_delayacct"] = h.task_delayacct ? ojson(*h.task_delayacct) : ojson(nullptr);
  return out;
}

ojson summaries_to_json(const ParseTally& p) {
  ojson by_file = ojson::object();
  for (std::size_t f = 0; f < kProcFileCount; ++f)
    by_file[std::string(kProcFileNames[f])] = p.failures_by_file[f];
  return {{"tids_walked", p.tids_walked},
          {"tids_exited", p.tids_exited},
          {"read_failures", p.read_failures()},
          {"read_failures_by_file", std::move(by_file)},
          {"dominant", p.dominant()}};
}

ojson probe_to_json(const std::optional<JemallocTally>& j) {
  if (!j) return nullptr;
  ojson tags = ojson::object();
  for (const auto& [tag, n] : j->failures_by_tag) tags[tag] = n;
  return {{"tgids_walked", j->tgids_walked},
          {"jemalloc_detected", j->jemalloc_detected},
          {"probed_ok", j->probed_ok},
          {"failed", j->failed},
          {"failures_by_tag", std::move(tags)},
          {"dominant_failure", j->dominant()},
          {"privilege_dominant", j->privilege_dominant()}};
}

class DschedReader final : public FormatReader {
 public:
  explicit DschedReader(std::string name) : name_(std::move(name)) {}

  void member(const std::string& key, json&& v) override {
    with_schema_errors(name_, "", [&] {
      if (key == "format") {
        if (!v.is_string() || v != kDschedFormat) fail("missing or wrong \"format\"");
      } else if (key == "version") {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 1 ||
            v.get<std::int64_t>() > kDschedVersion)
          throw SnapshotError(
              name_ + ": unsupported snapshot version " + v.dump() +
              " (this dsched reads versions 1 and 2); re-capture it or use a newer dsched");
        version_seen_ = true;
      } else if (key == "host") {
        read_host(v);
      } else if (key == "taskstats_summary") {
        snap_.taskstats = {
            v.at("ok_count").get<Counter>(), v.at("eperm_count").get<Counter>(),
            v.at("esrch_count").get<Counter>(), v.at("other_err_count").get<Counter>()};
      } else if (key == "parse_summary") {
        snap_.parse.tids_walked = v.at("tids_walked").get<Counter>();
        snap_.parse.tids_exited = v.value("tids_exited", std::uint64_t{0});
        const auto& by_file = v.at("read_failures_by_file");
        for (std::size_t f = 0; f < kProcFileCount; ++f)
          snap_.parse.failures_by_file[f] =
              by_file.value(std::string(kProcFileNames[f]), std::uint64_t{0});
      } else if (key == "source_summary") {
        snap_.sources.cgroups_read = v.at("cgroups_read").get<Counter>();
        for (const auto& [source, n] : v.at("read_failures").items())
          snap_.sources.failures[source] = n.get<Counter>();
      } else if (key == "probe_summary" && !v.is_null()) {
        JemallocTally& j = snap_.jemalloc.emplace();
        j.tgids_walked = v.at("tgids_walked").get<Counter>();
        j.jemalloc_detected = v.at("jemalloc_detected").get<Counter>();
        j.probed_ok = v.at("probed_ok").get<Counter>();
        j.failed = v.at("failed").get<Counter>();
        for (const auto& [tag, n] : v.at("failures_by_tag").items())
          j.failures_by_tag[tag] = n.get<Counter>();
      } else if (key == "psi") {
        snap_.host_psi = psi_from_json(v);
      } else if (key == "sched_ext") {
        snap_.sched_ext = sched_ext_from_json(v);
      } else if (key == "metrics") {
        // Column i of every thread's values is the metric named metrics[i]; names from a newer
        // writer are skipped.
        columns_.emplace();
        for (const auto& m : v) columns_->push_back(find_metric(m.get<std::string>()));
      }
    });
  }

  void thread(json&& jt) override {
    if (!columns_) fail("\"threads\" come before \"metrics\"");
    const std::string what = "thread " + jt.value("tid", json()).dump();
    with_schema_errors(name_, what, [&] {
      ThreadRecord t;
      t.tid = jt.at("tid").get<std::int32_t>();
      t.tgid = jt.at("tgid").get<std::int32_t>();
      t.comm = jt.at("comm").get<std::string>();
      t.pcomm = jt.at("pcomm").get<std::string>();
      t.cgroup = jt.at("cgroup").get<std::string>();
      const auto& values = jt.at("values");
      if (!values.is_array() || values.size() != columns_->size())
        fail("thread " + std::to_string(t.tid) + " has " + std::to_string(values.size()) +
             " values for " + std::to_string(columns_->size()) + " metrics");
      for (std::size_t i = 0; i < columns_->size(); ++i) {
        const auto& v = values[i];
        const auto id = (*columns_)[i];
        if (!id || v.is_null() || *id >= kStoredMetricCount) continue;
        const auto& def = metric(*id);
        if (def.unit == Unit::Text)
          t.set(*id, snap_.intern(v.get<std::string>()));
        else if (def.is_signed)
          t.set_signed(*id, v.get<std::int64_t>());
        else
          t.set(*id, v.get<Counter>());
      }
      if (const auto it = jt.find("smaps_rollup_kib"); it != jt.end())
        for (const auto& [k, v] : it->items()) t.smaps_kib[k] = v.get<Counter>();
      snap_.threads.push_back(std::move(t));
      count(snap_.threads.back());
    });
  }

  void cgroup(const std::string& path, json&& stats) override {
    with_schema_errors(name_, "cgroup " + path, [&] {
      snap_.cgroup_stats[path] = cgroup_from_json(stats, Dialect::Dsched);
      count(path, snap_.cgroup_stats[path]);
    });
  }

  Snapshot finish() override {
    if (!version_seen_) fail("missing \"version\"");
    if (!host_seen_) fail("missing \"host\"");
    return std::move(snap_);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw SnapshotError(name_ + ": not a ctprof snapshot: " + why);
  }

  void read_host(const json& h) {
    HostInfo& host = snap_.host;
    host.hostname = h.at("hostname").get<std::string>();
    host.kernel_release = h.at("kernel_release").get<std::string>();
    host.cpu_count = h.at("cpu_count").get<std::uint32_t>();
    host.uptime_ns = h.at("uptime_ns").get<Counter>();
    host.boot_time_unix_s = h.at("boot_time_unix_s").get<Counter>();
    host.clock_ticks_per_s = h.at("clock_ticks_per_s").get<std::uint32_t>();
    host.captured_at_unix_ns = h.at("captured_at_unix_ns").get<Counter>();
    if (h.contains("task_delayacct") && !h["task_delayacct"].is_null())
      host.task_delayacct = h["task_delayacct"].get<int>();
    host_context_from_json(h, host);
    if (host.clock_ticks_per_s == 0) fail("host.clock_ticks_per_s is 0");
    host_seen_ = true;
  }

  std::string name_;
  Snapshot snap_;
  std::optional<std::vector<std::optional<std::size_t>>> columns_;
  bool version_seen_ = false, host_seen_ = false;
};

}  // namespace

std::unique_ptr<FormatReader> dsched_reader(const std::string& name) {
  return std::make_unique<DschedReader>(name);
}

// Ordered so "format" and "version" come first and "metrics" precedes "threads": a streaming
// reader needs the columns before the rows.
std::string to_json(const Snapshot& snap) {
  ojson metrics = ojson::array();
  for (std::size_t id = 0; id < kStoredMetricCount; ++id) metrics.push_back(metric(id).name);
  ojson cgroups = ojson::object();
  for (const auto& [path, stats] : snap.cgroup_stats) cgroups[path] = cgroup_to_json(stats);
  ojson threads = ojson::array();
  for (const auto& t : snap.threads) {
    ojson values = ojson::array();
    for (std::size_t id = 0; id < kStoredMetricCount; ++id)
      values.push_back(value_to_json(snap, t, id));
    ojson record = {{"tid", t.tid},     {"tgid", t.tgid},     {"comm", t.comm},
                    {"pcomm", t.pcomm}, {"cgroup", t.cgroup}, {"values", std::move(values)}};
    if (!t.smaps_kib.empty()) {
      ojson smaps = ojson::object();
      for (const auto& [k, v] : t.smaps_kib) smaps[k] = v;
      record["smaps_rollup_kib"] = std::move(smaps);
    }
    threads.push_back(std::move(record));
  }
  ojson sources_failures = ojson::object();
  for (const auto& [source, n] : snap.sources.failures) sources_failures[source] = n;
  const auto& ts = snap.taskstats;
  ojson doc = {{"format", kDschedFormat},
               {"version", kDschedVersion},
               {"host", host_to_json(snap.host)},
               {"taskstats_summary",
                {{"ok_count", ts.ok_count},
                 {"eperm_count", ts.eperm_count},
                 {"esrch_count", ts.esrch_count},
                 {"other_err_count", ts.other_err_count}}},
               {"parse_summary", summaries_to_json(snap.parse)},
               {"source_summary",
                {{"cgroups_read", snap.sources.cgroups_read},
                 {"read_failures", std::move(sources_failures)}}},
               {"probe_summary", probe_to_json(snap.jemalloc)},
               {"psi", psi_to_json(snap.host_psi)},
               {"sched_ext", sched_ext_to_json(snap.sched_ext)},
               {"metrics", std::move(metrics)},
               {"cgroup_stats", std::move(cgroups)},
               {"threads", std::move(threads)}};
  // Replace invalid UTF-8 in thread names instead of failing the capture.
  return doc.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

}  // namespace dsched::ctprof
