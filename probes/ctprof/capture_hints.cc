#include "capture_hints.h"

namespace dsched::ctprof {
namespace {

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string parse_line(const Snapshot& snap) {
  const auto& p = snap.parse;
  const std::uint64_t failures = p.read_failures();
  std::string line = "ctprof parse: " + std::to_string(p.tids_walked) + " tids walked, " +
                     std::to_string(failures) + " read failures";
  if (failures > 0) line += " (dominant: " + p.dominant() + ")";
  if (p.tids_exited > 0) line += ", " + std::to_string(p.tids_exited) + " exited mid-walk";
  // A file class failing for every captured thread is a kernel configuration, not a race.
  struct Gate {
    ProcFile file;
    const char* kconfig;
  };
  static constexpr Gate gates[] = {{kSchedstatFile, "CONFIG_SCHED_INFO"},
                                   {kIoFile, "CONFIG_TASK_IO_ACCOUNTING"},
                                   {kSchedFile, "CONFIG_SCHED_DEBUG"},
                                   {kCgroupFile, "CONFIG_CGROUPS"}};
  std::vector<std::string> files, kconfigs;
  if (!snap.threads.empty())
    for (const auto& g : gates)
      if (p.failures_by_file[g.file] >= snap.threads.size()) {
        files.emplace_back(kProcFileNames[g.file]);
        kconfigs.emplace_back(g.kconfig);
      }
  if (!files.empty())
    line += "; hint: " + join(files, " / ") +
            " read failures dominate — kernel may be built without " + join(kconfigs, " and/or ");
  return line;
}

std::vector<std::string> taskstats_lines(const Snapshot& snap, const TaskstatsOutcome& outcome) {
  std::vector<std::string> out;
  const auto& t = snap.taskstats;
  if (outcome.state == TaskstatsOutcome::Disabled) return out;
  if (outcome.state == TaskstatsOutcome::Unavailable) {
    out.push_back("ctprof taskstats: unavailable (" + outcome.reason +
                  "); delay metrics will read '-'");
    return out;
  }
  if (t.eperm_count > 0)
    out.push_back("ctprof taskstats: " + std::to_string(t.eperm_count) +
                  " queries refused (EPERM) — the capturing process lacks CAP_NET_ADMIN; run as "
                  "root or grant cap_net_admin+eip");
  const std::uint64_t queried = t.ok_count + t.eperm_count + t.esrch_count + t.other_err_count;
  if (queried > 0 && t.esrch_count * 2 > queried)
    out.push_back("ctprof taskstats: " + std::to_string(t.esrch_count) + " of " +
                  std::to_string(queried) +
                  " threads exited before their query (ESRCH); lengthen the workload's steady "
                  "state and re-capture");
  if (t.ok_count > 0) {
    bool any_delay = false;
    for (const auto& th : snap.threads)
      for (std::size_t b = 0; b < 8 && !any_delay; ++b)
        any_delay = th.value[delay_metric(b, kDelayCount)] != 0 ||
                    th.value[delay_metric(b, kDelayTotal)] != 0;
    if (!any_delay)
      out.push_back("ctprof taskstats: every delay reads zero although " +
                    std::to_string(t.ok_count) +
                    " queries succeeded — kernel.task_delayacct is off; enable it with "
                    "`sysctl -w kernel.task_delayacct=1` (or boot with delayacct) and re-capture");
  }
  return out;
}

// Per-cgroup files missing in every cgroup read point at a controller or a kernel option.
std::string sources_line(const Snapshot& snap) {
  const auto& s = snap.sources;
  if (s.total() == 0) return {};
  std::string dominant;
  std::uint64_t most = 0;
  for (const auto& [source, n] : s.failures)
    if (n > most) {
      most = n;
      dominant = source;
    }
  std::string line = "ctprof sources: " + std::to_string(s.cgroups_read) + " cgroups read, " +
                     std::to_string(s.total()) + " read failures (dominant: " + dominant + ")";
  auto everywhere = [&](const std::string& prefix) {
    if (s.cgroups_read == 0) return false;
    for (const auto& [source, n] : s.failures)
      if (source.starts_with(prefix) && n >= s.cgroups_read) return true;
    return false;
  };
  std::vector<std::string> hints;
  if (everywhere("cgroup directory"))
    hints.push_back(
        "thread cgroup paths are not below the cgroup v2 mount (cgroup v1 paths on a "
        "hybrid host?); cgroup tables need cgroup v2");
  for (const char* controller : {"cpu.max", "memory.", "pids."})
    if (everywhere(std::string("cgroup ") + controller))
      hints.push_back(std::string(controller) +
                      "* files missing in every cgroup — controller not enabled in "
                      "cgroup.subtree_control");
  bool host_psi_missing = false;
  for (const auto& [source, n] : s.failures) host_psi_missing |= source == "host pressure/cpu";
  if (host_psi_missing)
    hints.push_back("no /proc/pressure — kernel built without CONFIG_PSI or booted with psi=0");
  if (!hints.empty()) line += "; hint: " + join(hints, "; ");
  return line;
}

std::string jemalloc_line(const Snapshot& snap, const std::string& skipped) {
  if (!skipped.empty()) return "ctprof probe: jemalloc probing skipped (" + skipped + ")";
  if (!snap.jemalloc) return {};
  const auto& j = *snap.jemalloc;
  std::string line = "ctprof probe: " + std::to_string(j.tgids_walked) + " tgids walked, " +
                     std::to_string(j.jemalloc_detected) + " jemalloc detected, " +
                     std::to_string(j.probed_ok) + " probed OK, " + std::to_string(j.failed) +
                     " failed";
  if (j.failed == 0) return line;
  line += " (dominant: " + j.dominant();
  if (j.privilege_dominant())
    line +=
        "; hint: re-run as root, or grant cap_sys_ptrace+eip to dsched, or set "
        "kernel.yama.ptrace_scope=0";
  return line + ")";
}

}  // namespace

std::vector<std::string> capture_hints(const Snapshot& snap, const CaptureNotes& notes) {
  std::vector<std::string> out{parse_line(snap)};
  for (auto& line : taskstats_lines(snap, notes.taskstats)) out.push_back(std::move(line));
  for (auto line : {sources_line(snap), jemalloc_line(snap, notes.jemalloc_skipped)})
    if (!line.empty()) out.push_back(std::move(line));
  return out;
}

}  // namespace dsched::ctprof
