// Parsers for the per-thread /proc files. Each takes the file's text and fills a ThreadRecord;
// they return false when the text does not have the expected shape.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot.h"

namespace dsched::ctprof {

// /proc/<tgid>/task/<tid>/stat. Sets comm, the state, the stat metrics, kernel_thread, and
// nr_threads when is_leader.
bool parse_stat(std::string_view text, bool is_leader, Snapshot& snap, ThreadRecord& rec);
// status: the context-switch counters (read only when sched cannot be).
bool parse_status(std::string_view text, ThreadRecord& rec);
bool parse_schedstat(std::string_view text, ThreadRecord& rec);
bool parse_io(std::string_view text, ThreadRecord& rec);
// sched: nr_migrations and the context switches always, the schedstats fields, the fair slice
// and ext.enabled when the kernel prints them.
bool parse_sched(std::string_view text, Snapshot& snap, ThreadRecord& rec);
// smaps_rollup: "Key:  123 kB" lines into kB values.
bool parse_smaps_rollup(std::string_view text, std::map<std::string, std::uint64_t>& kib);
// cgroup: the unified (v2) path when it is not the root, else the v1 cpu controller's path,
// else the first non-root path, else "/".
bool parse_cgroup(std::string_view text, std::string& path);

std::string_view policy_name(unsigned policy);
// "0-3,6" from a CPU bitmap given as a list of set CPU numbers (ascending).
std::string cpu_list(const std::vector<unsigned>& cpus);

}  // namespace dsched::ctprof
