// `dsched timeline -s/-n`: a D script runs while the timeline records, prints as usual, and adds
// to the trace: each printf() firing an instant event on the firing thread's track, each printa()
// a sample of every printed aggregation's counter track. The workload is tl_workload's ping-pong
// and hog/sleeper; the trace is decoded with protoc.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <optional>
#include <regex>
#include <sstream>

#include <unistd.h>

#include "interrupted_run.h"
#include "recording_support.h"
#include "support.h"

using namespace dsched::test;

namespace {

constexpr long kRounds = 3000;
// How far an instant may lie outside its thread's slice (see docs/timeline.md): the script's
// program and the recorder's run one after the other on the same tracepoint, each reading the
// clock itself.
constexpr uint64_t kToleranceNs = 20000;

const char* kScript =
    "sched:::on-cpu /pid == $target/ { printf(\"on %d\\n\", cpu); @n = count(); }\n"
    "tick-100ms { printa(@n); }\n";

std::string workload(const std::string& args) { return std::string(TL_WORKLOAD) + " " + args; }

// The workload's "role tid" lines among the script's output.
std::map<std::string, int32_t> roles(const std::string& out) {
  std::map<std::string, int32_t> found;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string role, rest;
    int32_t id;
    if (words >> role >> id && !(words >> rest) && role != "on") found[role] = id;
  }
  return found;
}

// The value of the last printa(@n): the last line that is a number alone.
std::optional<int64_t> last_printed_count(const std::string& out) {
  static const std::regex number_line(R"(^\s*(\d+)\s*$)");
  std::optional<int64_t> last;
  std::istringstream lines(out);
  std::smatch match;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, match, number_line)) last = std::stoll(match[1]);
  return last;
}

// The recording's first and last timestamps: its start and end-of-trace statistics.
std::pair<uint64_t, uint64_t> recording_span(const Field& trace) {
  uint64_t first = UINT64_MAX, last = 0;
  for (const Field* packet : trace.all("packet"))
    if (packet->has("ftrace_stats")) {
      first = std::min<uint64_t>(first, packet->number("timestamp"));
      last = std::max<uint64_t>(last, packet->number("timestamp"));
    }
  return {first, last};
}

// How the instants of `tid` lie against its slices (from a switch into it to the next switch out
// of it, on any CPU), allowing kToleranceNs on either side.
struct Placement {
  long outside = 0;          // in no slice
  uint64_t most_before = 0;  // the furthest an instant lies before the switch-in of its slice
  std::vector<uint64_t> after;  // how far each lies after the switch-in of its slice, ascending
};
Placement place_instants(const SchedTrace& sched, const std::vector<InstantEvent>& instants, int32_t tid) {
  std::vector<std::pair<uint64_t, uint64_t>> slices;
  std::map<uint32_t, uint64_t> running_since;  // per CPU, while `tid` runs there
  for (const SwitchEvent& sw : sched.switches) {
    if (sw.prev_pid == tid && running_since.count(sw.cpu)) {
      slices.emplace_back(running_since[sw.cpu], sw.ts);
      running_since.erase(sw.cpu);
    }
    if (sw.next_pid == tid) running_since[sw.cpu] = sw.ts;
  }
  for (auto [cpu, since] : running_since) slices.emplace_back(since, UINT64_MAX);
  Placement placement;
  for (const InstantEvent& instant : instants) {
    if (instant.tid != tid) continue;
    auto slice = std::find_if(slices.begin(), slices.end(), [&](auto slice) {
      return instant.ts + kToleranceNs >= slice.first && instant.ts <= slice.second + kToleranceNs;
    });
    if (slice == slices.end()) {
      ++placement.outside;
    } else if (instant.ts < slice->first) {
      placement.most_before = std::max(placement.most_before, slice->first - instant.ts);
    } else {
      placement.after.push_back(instant.ts - slice->first);
    }
  }
  std::sort(placement.after.begin(), placement.after.end());
  return placement;
}

}  // namespace

TEST_CASE("a script's printf() marks its thread's track and printa() samples counter tracks") {
  TracePath trace;
  TempScript script(kScript);
  RunResult run = run_dsched({"timeline", "-o", trace.path(), "-q", "-s", script.path(), "-c",
                              workload(std::to_string(kRounds))},
                             std::chrono::seconds(60));
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.err.find("dsched timeline: no events lost") != std::string::npos);
  CHECK(run.err.find("drop") == std::string::npos);
  std::map<std::string, int32_t> tids = roles(run.out);
  REQUIRE(tids.count("pid"));
  REQUIRE(tids.count("ping"));
  int32_t pid = tids["pid"], ping = tids["ping"];

  Field fields = decoded_fields(trace.path());
  SchedTrace sched = read_sched(fields);
  TrackTrace tracks = read_tracks(fields);
  auto [started, ended] = recording_span(fields);
  REQUIRE(started < ended);

  // Every on-cpu of a workload thread printed a line and left an instant named by it on that
  // thread's track, inside the recording.
  long printed = 0;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) printed += line.rfind("on ", 0) == 0;
  long ping_on_cpu0 = 0;
  for (InstantEvent& instant : tracks.instants) {
    CHECK(instant.tgid == pid);
    CHECK(instant.name.rfind("on ", 0) == 0);
    CHECK(instant.annotations["probe"] == ":on-cpu");
    CHECK(instant.ts >= started);
    CHECK(instant.ts <= ended);
    ping_on_cpu0 += instant.tid == ping && instant.name == "on 0";
  }
  CHECK(static_cast<long>(tracks.instants.size()) == printed);
  CHECK(ping_on_cpu0 >= kRounds / 2);  // tl-ping pins itself to CPU 0, then runs once a round

  // Each of them at its thread's switch-in: within the slice it began.
  Placement placement = place_instants(sched, tracks.instants, ping);
  CHECK(placement.outside == 0);
  REQUIRE_FALSE(placement.after.empty());
  const std::vector<uint64_t>& after = placement.after;
  MESSAGE("instants of tl-ping: " << ping_on_cpu0 << "; at most " << placement.most_before
                                  << " ns before their switch-in; after it by " << after[after.size() / 2]
                                  << " ns (median), " << after[after.size() * 99 / 100] << " ns (99th percentile), "
                                  << after.back() << " ns (most)");

  // @n's counter: sampled at each printa, never decreasing, ending at the value printed last.
  REQUIRE(tracks.counters.count("@n"));
  const std::vector<CounterSample>& samples = tracks.counters["@n"];
  REQUIRE(samples.size() >= 2);
  for (size_t i = 1; i < samples.size(); ++i) {
    CHECK(samples[i].value >= samples[i - 1].value);
    CHECK(samples[i].ts > samples[i - 1].ts);
  }
  CHECK(samples.front().ts >= started);
  CHECK(samples.back().ts <= ended);
  std::optional<int64_t> last = last_printed_count(run.out);
  REQUIRE(last);
  CHECK(samples.back().value == *last);
  CHECK(timeline_programs().empty());
  CHECK(leftover_programs().empty());
}

TEST_CASE("a script that does not compile says where, and no trace file is written") {
  TracePath trace;
  RunResult run = run_dsched({"timeline", "-o", trace.path(), "-n", "BEGIN { x = ; }", "-d", "1s"});
  CHECK(run.status == 1);
  CHECK(run.err.find("BEGIN { x = ; }") != std::string::npos);
  CHECK(run.err.find("syntax error") != std::string::npos);
  CHECK(access(trace.path().c_str(), F_OK) != 0);
  CHECK(timeline_programs().empty());
}

TEST_CASE("SIGINT ends a recording with a script: END runs, and the trace holds both parts") {
  TracePath trace;
  RunResult run = interrupted_run({"timeline", "-o", trace.path(), "-q", "-n",
                                   "sched:::on-cpu /pid == $target/ { printf(\"on %d\\n\", cpu); @n = count(); }",
                                   "-n", "tick-50ms { printa(@n); }", "-n", "END { printf(\"the end\\n\"); }", "-c",
                                   workload("--forever")});
  INFO(run.err);
  CHECK(run.out.find("the end\n") != std::string::npos);
  Field fields = decoded_fields(trace.path());
  SchedTrace sched = read_sched(fields);
  TrackTrace tracks = read_tracks(fields);
  CHECK(sched.read.size() >= 2);  // the end-of-trace statistics are there
  CHECK(switches_into(sched, "tl-ping") > 10);
  long ends = std::count_if(tracks.instants.begin(), tracks.instants.end(),
                            [](const InstantEvent& instant) { return instant.name == "the end"; });
  CHECK(ends == 1);
  CHECK(tracks.instants.size() > 10);
  CHECK(tracks.counters["@n"].size() >= 2);
  CHECK(timeline_programs().empty());
  CHECK(leftover_programs().empty());
}
