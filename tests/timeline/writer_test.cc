// The trace writer: records of every kind written as Perfetto reads them (checked by decoding
// the file with protoc against dsched's .proto), loss statistics, descriptors, and the API that
// adds instant events and counter tracks.
#include <doctest/doctest.h>

#include <cstring>
#include <pthread.h>
#include <thread>
#include <unistd.h>

#include "recording_support.h"
#include "runtime/timeline/process_tree.h"
#include "runtime/timeline/sched_bundles.h"
#include "runtime/timeline/timeline_trace.h"
#include "runtime/timeline/track_events.h"

using namespace dsched::test;
using namespace dsched::timeline;

namespace {

void set_comm(char* to, const char* from) {
  std::memset(to, 0, DSTL_COMM_LEN);
  std::strncpy(to, from, DSTL_COMM_LEN - 1);
}

dstl_switch make_switch(uint32_t cpu, uint64_t ts, int32_t prev, uint32_t prev_state, int32_t next, const char* comm,
                        int32_t prio = 120) {
  dstl_switch record{};
  record.header = {ts, DSTL_SWITCH, cpu};
  record.prev_pid = prev;
  record.prev_state = prev_state;
  record.next_pid = next;
  record.next_prio = prio;
  set_comm(record.next_comm, comm);
  return record;
}

dstl_wakeup make_wakeup(uint32_t kind, uint32_t cpu, uint64_t ts, int32_t waker, int32_t pid, const char* comm,
                        int32_t target_cpu) {
  dstl_wakeup record{};
  record.header = {ts, kind, cpu};
  record.waker_pid = waker;
  record.pid = pid;
  record.prio = 120;
  record.target_cpu = target_cpu;
  set_comm(record.comm, comm);
  return record;
}

std::vector<const Field*> bundles(const Field& trace) {
  std::vector<const Field*> found;
  for (const Field* packet : trace.all("packet"))
    if (const Field* bundle = packet->first("ftrace_events")) found.push_back(bundle);
  return found;
}

std::vector<std::string> values(const Field& message, const std::string& name) {
  std::vector<std::string> found;
  for (const Field* field : message.all(name)) found.push_back(field->value);
  return found;
}

const Field* packet_with(const Field& trace, const std::string& name) {
  for (const Field* packet : trace.all("packet"))
    if (packet->has(name)) return packet;
  return nullptr;
}

template <typename Record>
bool add(SchedBundles& bundles, const Record& record) {
  return bundles.add(&record, sizeof record);
}

}  // namespace

TEST_CASE("switches are compact: time order, deltas, one interned name each, idle named swapper/N") {
  TracePath out;
  {
    TraceFile file(out.path());
    SchedBundles sched(file);
    CHECK(add(sched, make_switch(1, 1000, 10, 1, 20, "alpha")));
    CHECK(add(sched, make_switch(1, 900, 0, 0, 10, "beta", 100)));  // read after a later one
    CHECK(add(sched, make_switch(1, 1500, 20, 0x100, 0, "")));
    CHECK(add(sched, make_switch(1, 1600, 0, 0, 10, "beta", 100)));
    sched.flush();
    REQUIRE(file.close());
  }
  Field trace = decoded_fields(out.path());
  auto written = bundles(trace);
  REQUIRE(written.size() == 1);
  CHECK(written[0]->number("cpu") == 1);
  const Field& compact = *written[0]->first("compact_sched");
  CHECK(values(compact, "switch_timestamp") == std::vector<std::string>{"900", "100", "500", "100"});
  CHECK(values(compact, "switch_next_pid") == std::vector<std::string>{"10", "20", "0", "10"});
  CHECK(values(compact, "switch_prev_state") == std::vector<std::string>{"0", "1", "256", "0"});
  CHECK(values(compact, "switch_next_prio") == std::vector<std::string>{"100", "120", "120", "100"});
  CHECK(values(compact, "intern_table") == std::vector<std::string>{"beta", "alpha", "swapper/1"});
  CHECK(values(compact, "switch_next_comm_index") == std::vector<std::string>{"0", "1", "2", "0"});
  CHECK(written[0]->all("event").empty());

  SchedTrace sched = read_sched(trace);
  REQUIRE(sched.switches.size() == 4);
  CHECK(sched.timestamps_ordered);
  CHECK(sched.switches[1].prev_pid == 10);
  CHECK(sched.switches[2].prev_pid == 20);
  CHECK(sched.switches[2].next_comm == "swapper/1");
}

TEST_CASE("a waking is compact when the waker runs on its CPU in the trace, explicit otherwise") {
  TracePath out;
  {
    TraceFile file(out.path());
    SchedBundles sched(file);
    add(sched, make_wakeup(DSTL_WAKING, 0, 50, 7, 30, "early", 1));  // before the CPU's first switch
    add(sched, make_switch(0, 100, 0, 0, 7, "waker"));
    add(sched, make_wakeup(DSTL_WAKING, 0, 150, 7, 31, "woken", 1));
    add(sched, make_wakeup(DSTL_WAKING, 0, 160, 9, 32, "other", 0));  // not the thread shown running
    sched.flush();
    REQUIRE(file.close());
  }
  Field trace = decoded_fields(out.path());
  auto written = bundles(trace);
  REQUIRE(written.size() == 1);
  const Field& compact = *written[0]->first("compact_sched");
  CHECK(values(compact, "waking_timestamp") == std::vector<std::string>{"150"});
  CHECK(values(compact, "waking_pid") == std::vector<std::string>{"31"});
  CHECK(values(compact, "waking_target_cpu") == std::vector<std::string>{"1"});
  CHECK(values(compact, "waking_prio") == std::vector<std::string>{"120"});

  SchedTrace sched = read_sched(trace);
  REQUIRE(sched.wakings.size() == 3);
  std::map<int32_t, WakingEvent> by_pid;
  for (const WakingEvent& waking : sched.wakings) by_pid.emplace(waking.pid, waking);
  CHECK_FALSE(by_pid.at(30).compact);
  CHECK(by_pid.at(30).waker == 7);
  CHECK(by_pid.at(30).comm == "early");
  CHECK(by_pid.at(31).compact);
  CHECK(by_pid.at(31).waker == 7);
  CHECK(by_pid.at(31).comm == "woken");
  CHECK_FALSE(by_pid.at(32).compact);
  CHECK(by_pid.at(32).waker == 9);
  CHECK(by_pid.at(32).target_cpu == 0);
}

TEST_CASE("the rarer events are full ftrace events with the tracepoints' fields") {
  TracePath out;
  {
    TraceFile file(out.path());
    SchedBundles sched(file);
    add(sched, make_wakeup(DSTL_WAKEUP_NEW, 0, 10, 5, 6, "child", 1));
    dstl_migrate migrate{{20, DSTL_MIGRATE, 0}, 3, 6, 110, 1, 0, {}};
    set_comm(migrate.comm, "child");
    add(sched, migrate);
    dstl_newtask newtask{{30, DSTL_NEWTASK, 0}, 5, 1, 6, 5, 0x10000, {}};
    set_comm(newtask.comm, "parent");
    add(sched, newtask);
    dstl_rename rename{{40, DSTL_RENAME, 0}, 6, 5, {}, {}};
    set_comm(rename.oldcomm, "parent");
    set_comm(rename.newcomm, "worker");
    add(sched, rename);
    dstl_exec exec{{50, DSTL_EXEC, 0}, 5, 6, {}};
    std::strcpy(exec.filename, "/usr/bin/true");
    add(sched, exec);
    dstl_free freed{{60, DSTL_FREE, 0}, 0, 6, 120, {}};
    set_comm(freed.comm, "worker");
    add(sched, freed);
    sched.flush();
    CHECK(sched.counts().total() == 6);
    CHECK(sched.counts().by_kind[DSTL_RENAME] == 1);
    REQUIRE(file.close());
  }
  Field trace = decoded_fields(out.path());
  auto written = bundles(trace);
  REQUIRE(written.size() == 1);
  CHECK_FALSE(written[0]->has("compact_sched"));
  auto events = written[0]->all("event");
  REQUIRE(events.size() == 6);
  const Field& wakeup = *events[0];
  CHECK(wakeup.number("timestamp") == 10);
  CHECK(wakeup.number("pid") == 5);  // the waker
  CHECK(wakeup.first("sched_wakeup_new")->number("pid") == 6);
  CHECK(wakeup.first("sched_wakeup_new")->text("comm") == "child");
  CHECK(wakeup.first("sched_wakeup_new")->number("target_cpu") == 1);
  CHECK(events[1]->number("pid") == 3);  // the task running where it happened
  const Field& migrated = *events[1]->first("sched_migrate_task");
  CHECK(migrated.number("pid") == 6);
  CHECK(migrated.number("prio") == 110);
  CHECK(migrated.number("orig_cpu") == 1);
  CHECK(migrated.number("dest_cpu") == 0);
  CHECK(events[2]->number("pid") == 5);  // the creating thread
  CHECK(events[2]->first("task_newtask")->number("pid") == 6);
  CHECK(events[2]->first("task_newtask")->number("clone_flags") == 0x10000);
  CHECK(events[2]->first("task_newtask")->text("comm") == "parent");
  CHECK(events[3]->first("task_rename")->text("oldcomm") == "parent");
  CHECK(events[3]->first("task_rename")->text("newcomm") == "worker");
  CHECK(events[4]->first("sched_process_exec")->text("filename") == "/usr/bin/true");
  CHECK(events[4]->first("sched_process_exec")->number("old_pid") == 6);
  CHECK(events[5]->first("sched_process_free")->number("pid") == 6);
  CHECK(events[5]->first("sched_process_free")->text("comm") == "worker");
}

TEST_CASE("a CPU's bundle is written once full; the running thread carries over to the next bundle") {
  TracePath out;
  {
    TraceFile file(out.path());
    SchedBundles sched(file, 2);
    for (uint64_t ts = 100; ts <= 500; ts += 100) add(sched, make_switch(0, ts, 0, 0, static_cast<int32_t>(ts), "t"));
    add(sched, make_switch(1, 150, 0, 0, 77, "u"));
    add(sched, make_wakeup(DSTL_WAKING, 0, 550, 500, 77, "u", 1));
    CHECK(file.bytes_written() > 0);  // two bundles of CPU 0 already
    sched.flush();
    CHECK(sched.events_per_cpu() == std::vector<uint64_t>{6, 1});
    REQUIRE(file.close());
  }
  Field trace = decoded_fields(out.path());
  auto written = bundles(trace);
  REQUIRE(written.size() == 4);
  SchedTrace sched = read_sched(trace);
  CHECK(sched.switches.size() == 6);
  CHECK(sched.timestamps_ordered);
  REQUIRE(sched.wakings.size() == 1);
  CHECK(sched.wakings[0].compact);
  CHECK(sched.wakings[0].waker == 500);
}

TEST_CASE("malformed records are refused and not counted") {
  TracePath out;
  TraceFile file(out.path());
  SchedBundles sched(file);
  dstl_switch record = make_switch(0, 1, 0, 0, 1, "x");
  CHECK_FALSE(sched.add(&record, sizeof record - 1));
  CHECK_FALSE(sched.add(&record, 4));
  record.header.kind = 99;
  CHECK_FALSE(add(sched, record));
  record.header.kind = DSTL_SWITCH;
  record.header.cpu = DSTL_MAX_CPUS;
  CHECK_FALSE(add(sched, record));
  CHECK(sched.counts().total() == 0);
}

TEST_CASE("a trace begins with the system and threads, and ends with losses per CPU") {
  TracePath out;
  SystemDescription system{"Linux", "6.18.0-test", "#1 SMP", "x86_64", 2};
  perfetto::protos::ProcessTree threads;
  auto& thread = *threads.add_threads();
  thread.set_tid(42);
  thread.set_tgid(40);
  thread.set_name("worker");
  {
    TimelineTrace timeline(out.path());
    REQUIRE(timeline.ok());
    timeline.begin(1000, system, threads);
    auto first = make_switch(0, 1100, 0, 0, 42, "worker");
    auto second = make_switch(1, 1200, 0, 0, 43, "other");
    CHECK(timeline.add_record(&first, sizeof first));
    timeline.note_loss(1);
    CHECK(timeline.add_record(&second, sizeof second));
    dstl_newtask newtask{{1300, DSTL_NEWTASK, 1}, 42, 1, 44, 44, 0, {}};
    set_comm(newtask.comm, "forked");
    CHECK(timeline.add_record(&newtask, sizeof newtask));
    REQUIRE(timeline.end(2000, {0, 5}));
    CHECK(timeline.counts().total() == 3);
  }
  Field trace = decoded_fields(out.path());
  const Field* info = packet_with(trace, "system_info");
  REQUIRE(info);
  CHECK(info->first("system_info")->first("utsname")->text("release") == "6.18.0-test");
  CHECK(info->first("system_info")->number("num_cpus") == 2);
  CHECK(info->number("timestamp") == 1000);
  std::vector<std::string> phases;
  for (const Field* packet : trace.all("packet"))
    if (const Field* stats = packet->first("ftrace_stats")) phases.push_back(stats->text("phase"));
  CHECK(phases == std::vector<std::string>{"START_OF_TRACE", "END_OF_TRACE"});

  SchedTrace sched = read_sched(trace);
  CHECK(sched.dropped == std::map<uint32_t, uint64_t>{{0, 0}, {1, 5}});
  CHECK(sched.read == std::map<uint32_t, uint64_t>{{0, 1}, {1, 2}});
  CHECK(sched.lost_bundle);
  for (const Field* bundle : bundles(trace))
    CHECK((bundle->text("lost_events") == "true") == (bundle->number("cpu") == 1));
  // The threads from the start, and a descriptor for the one created while recording.
  CHECK(sched.threads.at(42).tgid == 40);
  CHECK(sched.threads.at(42).name == "worker");
  CHECK(sched.threads.at(44).tgid == 44);
  CHECK(sched.threads.at(44).name == "forked");
  CHECK(sched.parents.at(44) == 1);
}

TEST_CASE("a trace file that cannot be created says which and why") {
  TraceFile file("/nonexistent-dir/trace.pftrace");
  CHECK_FALSE(file.ok());
  CHECK(file.error() == "cannot create /nonexistent-dir/trace.pftrace: No such file or directory");
}

TEST_CASE("instant events go on the firing thread's track, with their annotations") {
  TracePath out;
  {
    TraceFile file(out.path());
    TrackEvents tracks(file, 7);
    tracks.instant(5000, 40, 42, "qlen > 3", {{"qlen", int64_t{4}}, {"ratio", 0.5}, {"cpu name", std::string("cpu1")}});
    tracks.instant(6000, 40, 42, "again");
    tracks.instant(6500, 50, 51, "elsewhere");
    REQUIRE(file.close());
  }
  Field trace = decoded_fields(out.path());
  auto packets = trace.all("packet");
  REQUIRE(packets.size() == 5);  // a descriptor per thread, an event per instant
  for (const Field* packet : packets) CHECK(packet->number("trusted_packet_sequence_id") == 7);
  CHECK(packets[0]->number("sequence_flags") == 1);
  CHECK_FALSE(packets[1]->has("sequence_flags"));
  const Field& track = *packets[0]->first("track_descriptor");
  CHECK(track.first("thread")->number("pid") == 40);
  CHECK(track.first("thread")->number("tid") == 42);
  const Field& instant = *packets[1]->first("track_event");
  CHECK(packets[1]->number("timestamp") == 5000);
  CHECK(instant.text("type") == "TYPE_INSTANT");
  CHECK(instant.number("track_uuid") == track.number("uuid"));
  CHECK(instant.text("name") == "qlen > 3");
  auto annotations = instant.all("debug_annotations");
  REQUIRE(annotations.size() == 3);
  CHECK(annotations[0]->text("name") == "qlen");
  CHECK(annotations[0]->number("int_value") == 4);
  CHECK(annotations[1]->text("double_value") == "0.5");
  CHECK(annotations[2]->text("string_value") == "cpu1");
  // The same thread keeps its track; another thread gets its own.
  CHECK(packets[2]->first("track_event")->number("track_uuid") == track.number("uuid"));
  const Field& other = *packets[3]->first("track_descriptor");
  CHECK(other.first("thread")->number("tid") == 51);
  CHECK(other.number("uuid") != track.number("uuid"));
  CHECK(packets[4]->first("track_event")->number("track_uuid") == other.number("uuid"));
}

TEST_CASE("counter tracks: one per name, sampled with integer or real values") {
  TracePath out;
  {
    TraceFile file(out.path());
    TrackEvents tracks(file);
    TrackEvents::CounterTrack qlen = tracks.counter("@qlen");
    CHECK(tracks.counter("@qlen") == qlen);
    TrackEvents::CounterTrack avg = tracks.counter("@avg");
    CHECK(avg != qlen);
    tracks.sample(qlen, 100, int64_t{3});
    tracks.sample(qlen, 200, int64_t{-1});
    tracks.sample(avg, 200, 2.25);
    REQUIRE(file.close());
  }
  Field trace = decoded_fields(out.path());
  std::map<std::string, int64_t> uuids;
  std::vector<std::tuple<int64_t, int64_t, std::string>> samples;  // ts, track, value
  for (const Field* packet : trace.all("packet")) {
    if (const Field* track = packet->first("track_descriptor")) {
      CHECK(track->has("counter"));
      uuids[track->text("name")] = track->number("uuid");
    } else if (const Field* event = packet->first("track_event")) {
      CHECK(event->text("type") == "TYPE_COUNTER");
      std::string value = event->has("counter_value") ? event->text("counter_value") : event->text("double_counter_value");
      samples.emplace_back(packet->number("timestamp"), event->number("track_uuid"), value);
    }
  }
  REQUIRE(uuids.size() == 2);
  CHECK(samples == std::vector<std::tuple<int64_t, int64_t, std::string>>{
                       {100, uuids["@qlen"], "3"}, {200, uuids["@qlen"], "-1"}, {200, uuids["@avg"], "2.25"}});
}

TEST_CASE("/proc gives every process and thread, with names, parents and command lines") {
  std::thread named([] {
    pthread_setname_np(pthread_self(), "tl-scan-test");
    usleep(300000);
  });
  usleep(50000);
  perfetto::protos::ProcessTree tree = scan_processes();
  named.join();
  const auto* self = [&]() -> const perfetto::protos::ProcessTree::Process* {
    for (const auto& process : tree.processes())
      if (process.pid() == getpid()) return &process;
    return nullptr;
  }();
  REQUIRE(self);
  CHECK(self->ppid() == getppid());
  REQUIRE(self->cmdline_size() >= 1);
  CHECK(self->cmdline(0).find("timeline_writer_tests") != std::string::npos);
  CHECK_FALSE(self->cmdline_is_comm());
  int own_threads = 0;
  bool named_seen = false;
  for (const auto& thread : tree.threads()) {
    if (thread.tgid() != getpid()) continue;
    ++own_threads;
    named_seen |= thread.name() == "tl-scan-test";
  }
  CHECK(own_threads == 2);
  CHECK(named_seen);
  // Kernel threads have no command line: their name stands in.
  bool kernel_thread = false;
  for (const auto& process : tree.processes()) kernel_thread |= process.pid() == 2 && process.cmdline_is_comm();
  CHECK(kernel_thread);
}
