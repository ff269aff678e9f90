#include "runtime/timeline/track_events.h"

namespace dsched::timeline {
namespace {

constexpr uint32_t kSequenceIncrementalStateCleared = 1;

void set_annotation(perfetto::protos::DebugAnnotation& out, const Annotation& in) {
  out.set_name(in.name);
  if (auto* number = std::get_if<int64_t>(&in.value))
    out.set_int_value(*number);
  else if (auto* real = std::get_if<double>(&in.value))
    out.set_double_value(*real);
  else
    out.set_string_value(std::get<std::string>(in.value));
}

}  // namespace

TrackEvents::TrackEvents(TraceFile& file, uint32_t sequence_id) : file_(file), sequence_id_(sequence_id) {}

perfetto::protos::TracePacket TrackEvents::packet() {
  perfetto::protos::TracePacket packet;
  packet.set_trusted_packet_sequence_id(sequence_id_);
  if (!sequence_started_) {
    packet.set_sequence_flags(kSequenceIncrementalStateCleared);
    sequence_started_ = true;
  }
  return packet;
}

uint64_t TrackEvents::thread_track(int32_t tgid, int32_t tid) {
  auto [it, inserted] = thread_tracks_.emplace(tid, next_uuid_);
  if (!inserted) return it->second;
  ++next_uuid_;
  perfetto::protos::TracePacket descriptor = packet();
  auto& track = *descriptor.mutable_track_descriptor();
  track.set_uuid(it->second);
  track.mutable_thread()->set_pid(tgid);
  track.mutable_thread()->set_tid(tid);
  file_.write(descriptor);
  return it->second;
}

void TrackEvents::instant(uint64_t ts, int32_t tgid, int32_t tid, const std::string& name,
                          const std::vector<Annotation>& annotations) {
  uint64_t track = thread_track(tgid, tid);
  perfetto::protos::TracePacket event = packet();
  event.set_timestamp(ts);
  auto& instant = *event.mutable_track_event();
  instant.set_type(perfetto::protos::TrackEvent::TYPE_INSTANT);
  instant.set_track_uuid(track);
  instant.set_name(name);
  for (const Annotation& annotation : annotations) set_annotation(*instant.add_debug_annotations(), annotation);
  file_.write(event);
}

TrackEvents::CounterTrack TrackEvents::counter(const std::string& name) {
  auto [it, inserted] = counter_tracks_.emplace(name, next_uuid_);
  if (!inserted) return it->second;
  ++next_uuid_;
  perfetto::protos::TracePacket descriptor = packet();
  auto& track = *descriptor.mutable_track_descriptor();
  track.set_uuid(it->second);
  track.set_name(name);
  track.mutable_counter();  // present, even empty: marks the track as a counter
  file_.write(descriptor);
  return it->second;
}

void TrackEvents::sample(CounterTrack track, uint64_t ts, int64_t value) { write_sample(track, ts, value); }

void TrackEvents::sample(CounterTrack track, uint64_t ts, double value) { write_sample(track, ts, value); }

void TrackEvents::write_sample(CounterTrack track, uint64_t ts, const std::variant<int64_t, double>& value) {
  perfetto::protos::TracePacket event = packet();
  event.set_timestamp(ts);
  auto& counter = *event.mutable_track_event();
  counter.set_type(perfetto::protos::TrackEvent::TYPE_COUNTER);
  counter.set_track_uuid(track);
  if (auto* number = std::get_if<int64_t>(&value))
    counter.set_counter_value(*number);
  else
    counter.set_double_counter_value(std::get<double>(value));
  file_.write(event);
}

}  // namespace dsched::timeline
