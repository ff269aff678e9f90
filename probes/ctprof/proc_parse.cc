#include "proc_parse.h"

#include "text_parse.h"

namespace dsched::ctprof {
namespace {

// sched prints times as milliseconds with six decimals ("12.345678"); return nanoseconds.
bool ms_to_ns(std::string_view s, std::uint64_t& ns) {
  s = trim(s);
  const auto dot = s.find('.');
  std::uint64_t whole = 0, frac = 0;
  if (dot == std::string_view::npos) {
    if (!to_int(s, whole)) return false;
    ns = whole * 1'000'000;
    return true;
  }
  auto frac_text = s.substr(dot + 1);
  if (!to_int(s.substr(0, dot), whole) || frac_text.size() > 6 || !to_int(frac_text, frac))
    return false;
  for (auto i = frac_text.size(); i < 6; ++i) frac *= 10;
  ns = whole * 1'000'000 + frac;
  return true;
}

struct KeyedMetric {
  std::string_view key;
  std::size_t id;
};

// "key: number" lines into the metrics `keys` name; every key must be there and parse.
template <std::size_t N>
bool parse_keyed_counters(std::string_view text, const KeyedMetric (&keys)[N], ThreadRecord& rec) {
  bool ok = true;
  std::size_t found = 0;
  for_each_line(text, ':', [&](std::string_view key, std::string_view value) {
    for (const auto& k : keys) {
      if (key != k.key) continue;
      std::uint64_t u = 0;
      if (to_int(value, u))
        rec.set(k.id, u);
      else
        ok = false;
      ++found;
    }
  });
  return ok && found == N;
}

}  // namespace

std::string_view policy_name(unsigned policy) {
  switch (policy) {
    case 0: return "SCHED_OTHER";
    case 1: return "SCHED_FIFO";
    case 2: return "SCHED_RR";
    case 3: return "SCHED_BATCH";
    case 5: return "SCHED_IDLE";
    case 6: return "SCHED_DEADLINE";
    case 7: return "SCHED_EXT";
  }
  return "SCHED_UNKNOWN";
}

std::string cpu_list(const std::vector<unsigned>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

bool parse_stat(std::string_view text, bool is_leader, Snapshot& snap, ThreadRecord& rec) {
  // comm may hold spaces and parentheses: it runs from the first '(' to the last ')'.
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    return false;
  rec.comm = std::string(text.substr(open + 1, close - open - 1));
  // Fields after comm, numbered as in proc(5): field 3 is the state.
  std::string_view rest = text.substr(close + 1);
  std::string_view fields[53];
  std::size_t n = 3;
  while (n < 53) {
    rest = trim(rest);
    if (rest.empty()) break;
    auto sp = rest.find(' ');
    fields[n++] = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
  }
  if (n <= 41 || fields[3].size() != 1) return false;
  std::uint64_t u = 0;
  std::int64_t i = 0;
  auto set_u = [&](std::size_t id, std::size_t field) {
    if (!to_int(fields[field], u)) return false;
    rec.set(id, u);
    return true;
  };
  auto set_i = [&](std::size_t id, std::size_t field) {
    if (!to_int(fields[field], i)) return false;
    rec.set_signed(id, i);
    return true;
  };
  if (!(set_u(kMinflt, 10) && set_u(kMajflt, 12) && set_u(kUtimeTicks, 14) &&
        set_u(kStimeTicks, 15) && set_i(kPriority, 18) && set_i(kNice, 19) &&
        set_u(kStartTimeTicks, 22) && set_u(kProcessor, 39) && set_u(kRtPriority, 40)))
    return false;
  if (is_leader && !set_u(kNrThreads, 20)) return false;
  constexpr std::uint64_t kPfKthread = 0x00200000;  // PF_KTHREAD in the flags field
  if (!to_int(fields[9], u)) return false;
  rec.kernel_thread = (u & kPfKthread) != 0;
  if (!to_int(fields[41], u)) return false;
  rec.set(kPolicy, snap.intern(policy_name(static_cast<unsigned>(u))));
  rec.set(kState, snap.intern(fields[3]));
  return true;
}

bool parse_status(std::string_view text, ThreadRecord& rec) {
  static constexpr KeyedMetric keys[] = {{"voluntary_ctxt_switches", kVoluntaryCsw},
                                         {"nonvoluntary_ctxt_switches", kNonvoluntaryCsw}};
  return parse_keyed_counters(text, keys, rec);
}

bool parse_schedstat(std::string_view text, ThreadRecord& rec) {
  std::uint64_t v[3];
  text = trim(text);
  for (int k = 0; k < 3; ++k) {
    auto sp = text.find(' ');
    if (!to_int(text.substr(0, sp), v[k])) return false;
    text = sp == std::string_view::npos ? std::string_view() : text.substr(sp + 1);
  }
  rec.set(kRunTimeNs, v[0]);
  rec.set(kWaitTimeNs, v[1]);
  rec.set(kTimeslices, v[2]);
  return true;
}

bool parse_io(std::string_view text, ThreadRecord& rec) {
  static constexpr KeyedMetric keys[] = {{"rchar", kRchar},
                                         {"wchar", kWchar},
                                         {"syscr", kSyscr},
                                         {"syscw", kSyscw},
                                         {"read_bytes", kReadBytes},
                                         {"write_bytes", kWriteBytes},
                                         {"cancelled_write_bytes", kCancelledWriteBytes}};
  return parse_keyed_counters(text, keys, rec);
}

bool parse_sched(std::string_view text, Snapshot& snap, ThreadRecord& rec) {
  struct Field {
    std::string_view key;
    std::size_t id;
    bool is_time;
  };
  // Keys after their "se.", "stats." or "se.statistics." prefix.
  static constexpr Field fields[] = {
      {"nr_migrations", kNrMigrations, false},
      {"nr_wakeups", kNrWakeups, false},
      {"nr_wakeups_local", kNrWakeupsLocal, false},
      {"nr_wakeups_remote", kNrWakeupsRemote, false},
      {"nr_wakeups_sync", kNrWakeupsSync, false},
      {"nr_wakeups_migrate", kNrWakeupsMigrate, false},
      {"nr_wakeups_affine", kNrWakeupsAffine, false},
      {"nr_wakeups_affine_attempts", kNrWakeupsAffineAttempts, false},
      {"nr_forced_migrations", kNrForcedMigrations, false},
      {"nr_failed_migrations_affine", kNrFailedMigrationsAffine, false},
      {"nr_failed_migrations_running", kNrFailedMigrationsRunning, false},
      {"nr_failed_migrations_hot", kNrFailedMigrationsHot, false},
      {"wait_sum", kWaitSum, true},
      {"wait_count", kWaitCount, false},
      {"wait_max", kWaitMax, true},
      {"sleep_max", kSleepMax, true},
      {"sum_block_runtime", kBlockSum, true},
      {"block_max", kBlockMax, true},
      {"iowait_sum", kIowaitSum, true},
      {"iowait_count", kIowaitCount, false},
      {"exec_max", kExecMax, true},
      {"slice_max", kSliceMax, true},
      {"core_forceidle_sum", kCoreForceidleSum, true},
      {"slice", kFairSliceNs, false},
      {"nr_voluntary_switches", kVoluntaryCsw, false},
      {"nr_involuntary_switches", kNonvoluntaryCsw, false},
  };
  bool ok = true;
  bool have_sleep = false;
  std::uint64_t sum_sleep = 0;
  for_each_line(text, ':', [&](std::string_view key, std::string_view value) {
    for (std::string_view prefix : {"se.statistics.", "stats.", "se."})
      if (key.starts_with(prefix)) {
        key.remove_prefix(prefix.size());
        break;
      }
    if (key == "sum_sleep_runtime") {
      have_sleep = ms_to_ns(value, sum_sleep);
      return;
    }
    if (key == "ext.enabled") {
      std::uint64_t on = 0;
      if (to_int(value, on) && on <= 1)
        rec.set(kExtEnabled, snap.intern(on ? "true" : "false"));
      else
        ok = false;
      return;
    }
    for (const auto& f : fields) {
      if (key != f.key) continue;
      std::uint64_t u = 0;
      const bool parsed = f.is_time ? ms_to_ns(value, u) : to_int(value, u);
      ok &= parsed;
      if (parsed) rec.set(f.id, u);
      return;
    }
  });
  if (have_sleep && rec.has.test(kBlockSum)) {
    const auto block = rec.value[kBlockSum];
    rec.set(kVoluntarySleepNs, sum_sleep > block ? sum_sleep - block : 0);
  }
  return ok && rec.has.test(kNrMigrations) && rec.has.test(kVoluntaryCsw) &&
         rec.has.test(kNonvoluntaryCsw);
}

bool parse_smaps_rollup(std::string_view text, std::map<std::string, std::uint64_t>& kib) {
  bool ok = true;
  for_each_line(text, ':', [&](std::string_view key, std::string_view value) {
    value = trim(value);
    if (!value.ends_with(" kB")) return;  // the "[rollup]" header line
    std::uint64_t v = 0;
    if (to_int(value.substr(0, value.size() - 3), v))
      kib[std::string(key)] = v;
    else
      ok = false;
  });
  return ok && !kib.empty();
}

bool parse_cgroup(std::string_view text, std::string& path) {
  std::string_view unified, cpu, first_nonroot;
  bool any = false;
  while (!text.empty()) {
    auto nl = text.find('\n');
    auto line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty()) continue;
    // hierarchy-id:controllers:path
    auto c1 = line.find(':');
    auto c2 = c1 == std::string_view::npos ? c1 : line.find(':', c1 + 1);
    if (c2 == std::string_view::npos) return false;
    any = true;
    auto controllers = line.substr(c1 + 1, c2 - c1 - 1);
    auto p = line.substr(c2 + 1);
    if (line.substr(0, c1) == "0" && controllers.empty())
      unified = p;
    else if (controllers == "cpu" || controllers.starts_with("cpu,"))
      cpu = p;
    if (first_nonroot.empty() && p != "/") first_nonroot = p;
  }
  if (!any) return false;
  if (!unified.empty() && unified != "/")
    path = unified;
  else if (!cpu.empty() && cpu != "/")
    path = cpu;
  else if (!first_nonroot.empty())
    path = first_nonroot;
  else
    path = "/";
  return true;
}

}  // namespace dsched::ctprof
