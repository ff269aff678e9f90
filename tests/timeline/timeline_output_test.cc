// The output of a script run by `dsched timeline -s`: the text is what the text output alone
// prints, and the trace gets an instant event per firing that printed and a counter sample per
// printed aggregation entry (the trace decoded with protoc).
#include <doctest/doctest.h>

#include <cstdio>

#include "aggregation_support.h"
#include "recording_support.h"
#include "runtime/output/text_output.h"
#include "runtime/timeline/timeline_output.h"

using namespace dsched;
using namespace dsched::test;
using dsched::timeline::TimelineOutput;

namespace {

// A TimelineOutput over a text output into memory and a trace file.
class Fixture {
 public:
  Fixture() : memory_(open_memstream(&text_, &size_)), text_output_(memory_, "memory", stderr, options_) {
    options_.set("quiet", abi::OptionValue{abi::OptionKind::Flag, 1, ""});
  }
  ~Fixture() {
    std::fclose(memory_);
    std::free(text_);
  }
  abi::Options& options() { return options_; }
  TimelineOutput& output() { return output_; }

  // What the text output printed, and the trace (closed first).
  std::string text() {
    output_.flush();
    return std::string(text_, size_);
  }
  TrackTrace tracks() {
    REQUIRE(file_.close());
    return read_tracks(decoded_fields(path_.path()));
  }

 private:
  TracePath path_;
  abi::Options options_;
  char* text_ = nullptr;
  size_t size_ = 0;
  FILE* memory_;
  output::TextOutput text_output_;
  timeline::TraceFile file_{path_.path()};
  timeline::TrackEvents events_{file_};
  TimelineOutput output_{text_output_, events_, options_};
};

abi::Firing firing_at(uint64_t ts, uint32_t tgid, uint32_t tid) {
  return {1, 42, "sched", "vmlinux", "", "on-cpu", abi::RecordStamp{ts, tid, tgid}};
}

void add(abi::Aggregation& a, const abi::KeyBuilder& key, std::vector<uint64_t> words) { a.merge(key.span(), words); }

}  // namespace

TEST_CASE("a firing that printed is an instant on its thread's track, named by the text without its newline") {
  Fixture f;
  printf_spec::Format format = printf_spec::parse_format("qlen %d on cpu %d\n").format;
  abi::Value args[] = {abi::Value::integer(4), abi::Value::integer(1)};
  f.output().begin_firing(firing_at(1000, 40, 42));
  f.output().printf(format, args);
  f.output().end_firing();
  f.output().begin_firing(firing_at(2000, 40, 43));
  f.output().trace(abi::Value::string("marked"));
  f.output().trace(abi::Value::integer(7));
  f.output().end_firing();
  f.output().begin_firing(firing_at(3000, 40, 42));  // printed nothing: no instant
  f.output().end_firing();
  f.output().begin_firing({1, 42, "sched", "vmlinux", "", "on-cpu", std::nullopt});  // not stamped: text only
  f.output().printf(format, args);
  f.output().end_firing();

  CHECK(f.text() == "qlen 4 on cpu 1\nmarked7qlen 4 on cpu 1\n");
  TrackTrace tracks = f.tracks();
  REQUIRE(tracks.instants.size() == 2);
  CHECK(tracks.instants[0].ts == 1000);
  CHECK(tracks.instants[0].tgid == 40);
  CHECK(tracks.instants[0].tid == 42);
  CHECK(tracks.instants[0].name == "qlen 4 on cpu 1");
  CHECK(tracks.instants[0].annotations["probe"] == ":on-cpu");
  CHECK(tracks.instants[1].tid == 43);
  CHECK(tracks.instants[1].name == "marked7");
}

TEST_CASE("without -q, an instant holds what the actions printed, not the CPU and probe columns") {
  Fixture f;
  f.options().set("quiet", abi::OptionValue{abi::OptionKind::Flag, 0, ""});
  f.output().begin_firing(firing_at(1000, 40, 42));
  f.output().trace(abi::Value::string("marked"));
  f.output().end_firing();
  CHECK(f.text().find("marked") != std::string::npos);
  TrackTrace tracks = f.tracks();
  REQUIRE(tracks.instants.size() == 1);
  CHECK(tracks.instants[0].name == "marked");
}

TEST_CASE("printa() samples each printed entry into its own counter track, at the firing's time") {
  Fixture f;
  abi::Aggregation qlen(spec_of("count", {}, {abi::KeyComponent::integer(4, true)}, 1));
  add(qlen, abi::KeyBuilder().integer(0), {5});
  add(qlen, abi::KeyBuilder().integer(1), {9});
  abi::AggregationSpec waits_spec = spec_of("quantize", {}, {abi::KeyComponent::string(16)}, 2);
  std::vector<uint64_t> words(waits_spec.value_words(), 0);
  words[bucket(waits_spec, 5)] = 3;
  words[bucket(waits_spec, 100)] = 2;
  abi::Aggregation waits(waits_spec);
  add(waits, abi::KeyBuilder().string("bash", 16), words);
  abi::Aggregation* qlen_only[] = {&qlen};
  abi::Aggregation* waits_only[] = {&waits};

  f.output().begin_firing(firing_at(5000, 1, 1));
  f.output().printa(nullptr, qlen_only);
  f.output().printa(nullptr, waits_only);
  f.output().end_firing();
  add(qlen, abi::KeyBuilder().integer(1), {2});
  f.output().begin_firing(firing_at(6000, 1, 1));
  f.output().printa(nullptr, qlen_only);
  f.output().end_firing();

  CHECK(f.text().find("bash") != std::string::npos);  // the text output printed them
  TrackTrace tracks = f.tracks();
  CHECK(tracks.instants.empty());
  using Samples = std::vector<std::pair<uint64_t, int64_t>>;
  auto samples = [&](const std::string& name) {
    Samples found;
    for (const CounterSample& s : tracks.counters[name]) found.emplace_back(s.ts, s.value);
    return found;
  };
  CHECK(samples("@a1[0]") == Samples{{5000, 5}, {6000, 5}});
  CHECK(samples("@a1[1]") == Samples{{5000, 9}, {6000, 11}});
  CHECK(samples("@a2[bash]") == Samples{{5000, 5}});  // a histogram counts its values
  CHECK(tracks.counters.size() == 3);
}

TEST_CASE("counter tracks are named by the aggregation and its key") {
  abi::Aggregation keyless(spec_of("sum", {}, {}, 3));
  add(keyless, abi::KeyBuilder(), {1});
  CHECK(timeline::counter_name(keyless, keyless.entries()[0]) == "@a3");
  abi::Aggregation anonymous(
      spec_of("count", {}, {abi::KeyComponent::string(16), abi::KeyComponent::integer(8, false)}));
  add(anonymous, abi::KeyBuilder().string("sshd", 16).integer(-1), {1});
  CHECK(timeline::counter_name(anonymous, anonymous.entries()[0]) == "@[sshd, 18446744073709551615]");
  abi::Aggregation negative(spec_of("min", {}, {abi::KeyComponent::integer(4, true)}, 4));
  add(negative, abi::KeyBuilder().integer(-3), {static_cast<uint64_t>(-8), 1});
  CHECK(timeline::counter_name(negative, negative.entries()[0]) == "@a4[-3]");
  CHECK(timeline::counter_value(negative, negative.entries()[0]) == -8);
}
