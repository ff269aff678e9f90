#include "decoded_trace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <tuple>

#include <sys/wait.h>
#include <unistd.h>

namespace dsched::test {
namespace {

std::string trim(const std::string& text) {
  size_t begin = text.find_first_not_of(' ');
  size_t end = text.find_last_not_of(' ');
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

// A text-format string literal's contents, escapes resolved.
std::string unquote(const std::string& literal) {
  if (literal.size() < 2 || literal.front() != '"') return literal;
  std::string out;
  for (size_t i = 1; i + 1 < literal.size(); ++i) {
    char c = literal[i];
    if (c != '\\' || i + 2 >= literal.size()) {
      out += c;
      continue;
    }
    char next = literal[++i];
    if (next >= '0' && next <= '7') {
      int value = 0;
      for (int digits = 0; digits < 3 && i < literal.size() - 1 && literal[i] >= '0' && literal[i] <= '7'; ++digits)
        value = value * 8 + (literal[i++] - '0');
      --i;
      out += static_cast<char>(value);
    } else {
      out += next == 'n' ? '\n' : next == 't' ? '\t' : next == 'r' ? '\r' : next;
    }
  }
  return out;
}

bool parse_text(std::istream& in, Field& root, std::string& error) {
  std::vector<Field*> open{&root};
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    line = trim(line);
    if (line.empty()) continue;
    if (line == "}") {
      if (open.size() == 1) {
        error = "unbalanced } on line " + std::to_string(line_number);
        return false;
      }
      open.pop_back();
    } else if (line.size() > 2 && line.compare(line.size() - 2, 2, " {") == 0) {
      open.back()->children.push_back({line.substr(0, line.size() - 2), "", {}});
      open.push_back(&open.back()->children.back());
    } else if (size_t colon = line.find(": "); colon != std::string::npos) {
      open.back()->children.push_back({line.substr(0, colon), unquote(line.substr(colon + 2)), {}});
    } else {
      error = "unexpected line " + std::to_string(line_number) + ": " + line;
      return false;
    }
  }
  if (open.size() != 1) error = "unclosed message at the end";
  return open.size() == 1;
}

std::string read_all(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

std::vector<const Field*> Field::all(const std::string& child) const {
  std::vector<const Field*> found;
  for (const Field& field : children)
    if (field.name == child) found.push_back(&field);
  return found;
}

const Field* Field::first(const std::string& child) const {
  for (const Field& field : children)
    if (field.name == child) return &field;
  return nullptr;
}

std::string Field::text(const std::string& child) const {
  const Field* field = first(child);
  return field ? field->value : "";
}

int64_t Field::number(const std::string& child) const {
  const Field* field = first(child);
  return field ? std::strtoll(field->value.c_str(), nullptr, 10) : 0;
}

bool decode_trace(const std::string& path, Field& trace, std::string& error) {
  char out_path[] = "/tmp/dsched-timeline-decoded-XXXXXX";
  char err_path[] = "/tmp/dsched-timeline-protoc-XXXXXX";
  int out_fd = mkstemp(out_path);
  int err_fd = mkstemp(err_path);
  close(out_fd);
  close(err_fd);
  std::string command = std::string(PROTOC) + " --decode=perfetto.protos.Trace -I" + PERFETTO_PROTO_DIR +
                        " perfetto_trace.proto < '" + path + "' > " + out_path + " 2> " + err_path;
  int status = std::system(command.c_str());
  std::string protoc_error = read_all(err_path);
  std::ifstream decoded(out_path);
  bool parsed = false;
  if (status != 0 || !protoc_error.empty())
    error = "protoc --decode failed (status " + std::to_string(status) + "): " + protoc_error;
  else
    parsed = parse_text(decoded, trace, error);
  unlink(out_path);
  unlink(err_path);
  return parsed;
}

SchedTrace read_sched(const Field& trace) {
  SchedTrace sched;
  std::map<uint32_t, uint64_t> last_ts;  // per CPU, across bundles
  for (const Field* packet : trace.all("packet")) {
    if (const Field* tree = packet->first("process_tree")) {
      for (const Field* thread : tree->all("threads"))
        sched.threads[static_cast<int32_t>(thread->number("tid"))] = {static_cast<int32_t>(thread->number("tgid")),
                                                                      thread->text("name")};
      for (const Field* process : tree->all("processes"))
        sched.parents[static_cast<int32_t>(process->number("pid"))] = static_cast<int32_t>(process->number("ppid"));
    }
    if (const Field* stats = packet->first("ftrace_stats"); stats && stats->text("phase") == "END_OF_TRACE") {
      for (const Field* cpu : stats->all("cpu_stats")) {
        sched.dropped[static_cast<uint32_t>(cpu->number("cpu"))] = static_cast<uint64_t>(cpu->number("dropped_events"));
        sched.read[static_cast<uint32_t>(cpu->number("cpu"))] = static_cast<uint64_t>(cpu->number("read_events"));
      }
    }
    const Field* bundle = packet->first("ftrace_events");
    if (!bundle) continue;
    uint32_t cpu = static_cast<uint32_t>(bundle->number("cpu"));
    sched.lost_bundle |= bundle->text("lost_events") == "true";
    for (const Field* event : bundle->all("event")) {
      sched.events.push_back(*event);
      if (const Field* waking = event->first("sched_waking"))
        sched.wakings.push_back({static_cast<uint64_t>(event->number("timestamp")), cpu,
                                 static_cast<int32_t>(event->number("pid")), static_cast<int32_t>(waking->number("pid")),
                                 static_cast<int32_t>(waking->number("target_cpu")), waking->text("comm"), false});
    }
    const Field* compact = bundle->first("compact_sched");
    if (!compact) continue;
    std::vector<std::string> interned;
    for (const Field* text : compact->all("intern_table")) interned.push_back(text->value);
    auto column = [&](const char* name) { return compact->all(name); };
    auto comm = [&](const Field* index) {
      size_t i = std::strtoull(index->value.c_str(), nullptr, 10);
      return i < interned.size() ? interned[i] : "<bad index>";
    };
    auto times = column("switch_timestamp"), states = column("switch_prev_state"), pids = column("switch_next_pid"),
         prios = column("switch_next_prio"), comms = column("switch_next_comm_index");
    uint64_t ts = 0;
    for (size_t i = 0; i < times.size() && i < states.size() && i < pids.size() && i < prios.size() && i < comms.size();
         ++i) {
      uint64_t delta = std::strtoull(times[i]->value.c_str(), nullptr, 10);
      sched.timestamps_ordered &= delta < (1ull << 62);
      ts += delta;
      sched.timestamps_ordered &= ts >= last_ts[cpu];
      last_ts[cpu] = ts;
      sched.switches.push_back({ts, cpu, -1, std::strtoll(states[i]->value.c_str(), nullptr, 10),
                                static_cast<int32_t>(std::strtol(pids[i]->value.c_str(), nullptr, 10)),
                                static_cast<int32_t>(std::strtol(prios[i]->value.c_str(), nullptr, 10)), comm(comms[i])});
    }
    auto wake_times = column("waking_timestamp"), wake_pids = column("waking_pid"),
         wake_cpus = column("waking_target_cpu"), wake_comms = column("waking_comm_index");
    ts = 0;
    for (size_t i = 0; i < wake_times.size() && i < wake_pids.size() && i < wake_cpus.size() && i < wake_comms.size();
         ++i) {
      ts += std::strtoull(wake_times[i]->value.c_str(), nullptr, 10);
      sched.wakings.push_back({ts, cpu, -1, static_cast<int32_t>(std::strtol(wake_pids[i]->value.c_str(), nullptr, 10)),
                               static_cast<int32_t>(std::strtol(wake_cpus[i]->value.c_str(), nullptr, 10)),
                               comm(wake_comms[i]), true});
    }
  }
  std::stable_sort(sched.switches.begin(), sched.switches.end(),
                   [](const SwitchEvent& a, const SwitchEvent& b) { return std::tie(a.cpu, a.ts) < std::tie(b.cpu, b.ts); });
  for (size_t i = 1; i < sched.switches.size(); ++i)
    if (sched.switches[i].cpu == sched.switches[i - 1].cpu) sched.switches[i].prev_pid = sched.switches[i - 1].next_pid;
  // A compact waking's waker: the next thread of the last switch on its CPU at or before it.
  for (WakingEvent& waking : sched.wakings) {
    if (!waking.compact) continue;
    auto after = std::upper_bound(sched.switches.begin(), sched.switches.end(), std::tie(waking.cpu, waking.ts),
                                  [](const auto& key, const SwitchEvent& sw) { return key < std::tie(sw.cpu, sw.ts); });
    if (after != sched.switches.begin() && std::prev(after)->cpu == waking.cpu) waking.waker = std::prev(after)->next_pid;
  }
  return sched;
}

TrackTrace read_tracks(const Field& trace) {
  struct Track {
    int32_t tgid = 0, tid = 0;
    std::string counter;  // a counter track's name; empty for a thread track
  };
  std::map<int64_t, Track> tracks;  // by uuid; a descriptor comes before the events on its track
  TrackTrace found;
  for (const Field* packet : trace.all("packet")) {
    if (const Field* descriptor = packet->first("track_descriptor")) {
      Track& track = tracks[descriptor->number("uuid")];
      if (const Field* thread = descriptor->first("thread"))
        track.tgid = static_cast<int32_t>(thread->number("pid")), track.tid = static_cast<int32_t>(thread->number("tid"));
      if (descriptor->has("counter")) track.counter = descriptor->text("name");
    }
    const Field* event = packet->first("track_event");
    if (!event) continue;
    auto track = tracks.find(event->number("track_uuid"));
    if (track == tracks.end()) continue;
    uint64_t ts = static_cast<uint64_t>(packet->number("timestamp"));
    if (event->text("type") == "TYPE_COUNTER") {
      found.counters[track->second.counter].push_back({ts, event->number("counter_value")});
    } else if (event->text("type") == "TYPE_INSTANT") {
      InstantEvent instant{ts, track->second.tgid, track->second.tid, event->text("name"), {}};
      for (const Field* annotation : event->all("debug_annotations"))
        instant.annotations[annotation->text("name")] = annotation->text("string_value");
      found.instants.push_back(std::move(instant));
    }
  }
  return found;
}

}  // namespace dsched::test
